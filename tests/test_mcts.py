"""The `mcts` engine: tactics proven (wins and blocks in one), play against random and perfect
players, chance and extra turns, tree reuse, proofs checked against alpha-beta and Nim theory,
limits, and the CLI end to end."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from nimmax import games
from nimmax.claim import Proofs
from nimmax.game import CHANCE, AnyGame, Capability, outcomes, part, winner_of
from nimmax.match import plies
from nimmax.players import BadPlayerSpec, SearchPlayer, check_fit, create, parse_spec
from nimmax.search import ENGINES, CannotSearch, Limits, SearchResult, search
from nimmax.search.mcts import MonteCarlo, Tree
from nimmax.search.result import Progress
from nimmax.ui.live import LiveSearch

from .cli_helpers import nimmax
from .theory import nim_mover_wins
from .toys import TreeGame


class Plain:
    """A game whose `search_actions` are all its `actions`: the solver proves tactics on its own."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def for_search(self) -> Plain:
        return self  # a search uses this wrapper, not the game's own copy

    def search_actions(self, state: Any) -> Any:
        return self.game.actions(state)


def played(game: AnyGame, *moves: str) -> Any:
    """The position after `moves` (in the game's notation) from the start."""
    state = game.initial_state()
    for move in moves:
        state = game.result(state, game.parse_move(move, state))
    return state


def mcts(game: Any, state: Any, **options: Any) -> SearchResult:
    return search(game, state, "mcts", **options)


# Positions: the mover's winning moves, or the one move that stops the opponent's win in one.
TACTICS = [
    ("tictactoe", ("a1", "a2", "b1", "b2"), {"c1"}),  # X wins in one (and O threatens c2)
    ("tictactoe", ("a1", "a2", "a3", "b2"), {"c2"}),  # X must block c2
    ("connect4", ("a", "a", "b", "b", "c", "g"), {"d"}),  # X wins at d
    ("connect4", ("a", "c", "b", "c", "g", "c"), {"c"}),  # X must block column c
    ("tictactoe --size 15 --k 5", ("g8", "a1", "h8", "a3", "i8", "a5", "j8", "a7"), {"f8", "k8"}),
    # X must block k8
    ("tictactoe --size 15 --k 5", ("a1", "g8", "a3", "h8", "f8", "i8", "a5", "j8"), {"k8"}),
]


@pytest.mark.parametrize(("words", "moves", "answers"), TACTICS)
def test_it_wins_in_one_and_blocks_a_loss_in_one(
    words: str, moves: tuple[str, ...], answers: set[str]
) -> None:
    game = games.create(words)
    result = mcts(game, played(game, *moves), iterations=300, seed=1)
    assert game.format_move(result.move) in answers


@pytest.mark.parametrize(("words", "moves", "answers"), TACTICS[:4])
def test_the_solver_alone_finds_them_on_small_boards(
    words: str, moves: tuple[str, ...], answers: set[str]
) -> None:
    """Without the game's narrowing every reply is tried: the opponent's win in one below each
    other move is proven, so those moves are proven lost."""
    game = games.create(words)
    result = mcts(Plain(game), played(game, *moves), iterations=3000, seed=1)
    assert game.format_move(result.move) in answers


def test_a_win_in_one_is_proven_at_once() -> None:
    game = games.create("connect4")
    state = played(game, "a", "a", "b", "b", "c", "g")
    result = mcts(Plain(game), state, iterations=100_000, seed=3)
    assert game.format_move(result.move) == "d" and result.value == 1
    assert result.nodes < 100  # the root is settled once the win is tried: the search ends


def test_it_never_loses_to_random_on_3x3() -> None:
    game = games.create("tictactoe")
    for index in range(20):
        ours = create(parse_spec(f"mcts:iterations=1500,seed={index}"))
        other = create(parse_spec("random"), seed=index)
        seats = [ours, other] if index % 2 == 0 else [other, ours]
        state = game.initial_state()
        for ply in plies(game, seats, state, random.Random(index)):
            state = ply.after
        assert game.utility(state, index % 2) >= 0, f"game {index} lost"


def test_it_draws_against_perfect_play_on_3x3() -> None:
    game = games.create("tictactoe")
    draws = 0
    for index in range(10):
        ours = create(parse_spec(f"mcts:iterations=3000,seed={index}"))
        perfect = create(parse_spec("alphabeta:time=inf"))
        seats = [ours, perfect] if index % 2 == 0 else [perfect, ours]
        state = game.initial_state()
        for ply in plies(game, seats, state, random.Random(index)):
            state = ply.after
        draws += winner_of(game, state) is None
    assert draws >= 9


def whole_game(words: str, spec: str, seed: int) -> tuple[list[Any], Any]:
    """Every (seat, move) of one game with the player on every seat, and the last state."""
    game = games.create(words)
    player = create(parse_spec(spec))
    state, made = game.initial_state(), []
    for ply in plies(game, [player] * game.players, state, random.Random(seed)):
        before = ply.before
        if ply.seat == CHANCE:
            assert ply.move in [outcome for _, outcome in outcomes(game, before)]
        else:
            assert ply.seat == game.to_move(before) and ply.move in game.actions(before)
        made.append((ply.seat, ply.move))
        state = ply.after
    assert game.is_terminal(state)
    return made, state


@pytest.mark.parametrize(
    ("words", "spec"),
    [
        ("kalah --pits 4 --seeds 3", "mcts:iterations=200,seed=5"),
        ("kalah --pits 4 --seeds 3", "mcts:iterations=200,seed=5,rollout=heuristic"),
        ("2048 --size 3 --goal 64", "mcts:iterations=60,seed=5"),
        ("2048 --size 3 --goal 64", "mcts:iterations=60,seed=5,rollout=heuristic"),
    ],
)
def test_whole_games_with_extra_turns_and_chance_are_legal_and_reproducible(
    words: str, spec: str
) -> None:
    first, end = whole_game(words, spec, seed=11)
    again, _ = whole_game(words, spec, seed=11)
    assert first == again
    seats = [seat for seat, _ in first]
    if words.startswith("kalah"):  # an extra turn was taken: the engine read the mover each time
        assert any(a == b for a, b in zip(seats, seats[1:], strict=False))
    else:
        assert CHANCE in seats and games.create(words).utility(end, 0) > 0


class Narrowed(TreeGame):
    """A tree whose `heuristic_actions` leave out the last move of every node with three."""

    capabilities = TreeGame.capabilities | {Capability.NARROWING}

    def heuristic_actions(self, state: tuple[int, ...]) -> Sequence[int] | None:
        moves = self.actions(state)
        return moves[:2] if len(moves) == 3 else None


# The root's first two moves lose at once; the third, left out by narrowing, draws.
LEFT_OUT_DRAW = (0, [-1, -1, 0])


def test_a_narrowed_node_proves_no_loss_since_its_moves_left_out_are_untried() -> None:
    game = Narrowed(LEFT_OUT_DRAW)
    result = mcts(game, (), iterations=50, seed=1)
    # only the tried moves lose
    assert result.move in (0, 1) and result.value == -1 and not result.exact
    whole = mcts(TreeGame(LEFT_OUT_DRAW), (), iterations=50, seed=1)
    # without narrowing: the draw, proven
    assert whole.move == 2 and whole.value == 0 and whole.exact


def test_a_narrowed_node_still_proves_a_win() -> None:
    game = Narrowed((0, [-1, 1, 0]))
    result = mcts(game, (), iterations=50, seed=1)
    assert result.move == 1 and result.value == 1 and result.nodes < 50  # settled: the search ends


def test_on_a_big_board_the_tree_and_the_playouts_stay_near_the_stones() -> None:
    # a copy with memos, which the search keeps, so heuristic_actions below answers as it did in the
    # search
    game = games.create("tictactoe --size 15 --k 5").for_search()
    state = played(game, "h8", "h9")
    moves_made: list[tuple[Any, Any]] = []
    result_of = game.result

    def recording(state: Any, action: Any) -> Any:
        moves_made.append((state, action))
        return result_of(state, action)

    game.result = recording  # type: ignore[method-assign]
    result = mcts(game, state, iterations=300, seed=2)
    assert len(moves_made) > 300 * 5  # playouts of many plies were made
    narrowing = part(game, Capability.NARROWING)
    assert narrowing is not None
    for position, move in moves_made:
        near = narrowing.heuristic_actions(position)
        assert near is None or move in near, game.format_position(position)
    assert result.move in (narrowing.heuristic_actions(state) or ())


def test_a_seeded_search_with_an_iteration_limit_is_reproducible() -> None:
    game = games.create("connect4")
    state = played(game, "d", "c")
    one, two = (mcts(game, state, iterations=700, seed=9) for _ in range(2))
    assert replace(one, seconds=0) == replace(two, seconds=0)
    assert one.nodes == 700


def test_the_next_move_starts_from_the_subtree_it_reuses() -> None:
    game = games.create("connect4")
    player = SearchPlayer(parse_spec("mcts:iterations=2000,seed=1"))
    state = game.initial_state()
    first = player.search(game, state)
    tree = player.table_for(game)
    assert isinstance(tree, Tree) and tree.root is not None and tree.root.visits == 2000
    state = game.result(
        game.result(state, first.move), game.actions(game.result(state, first.move))[0]
    )
    kept = tree.find(state)
    assert kept is not None and kept.visits > 0
    reused = kept.visits
    second = player.search(game, state)
    assert tree.root is kept and kept.visits == reused + second.nodes
    assert second.nodes == 2000
    assert player.table_for(games.create("connect4 --cols 6")) is not tree  # a new game: a new tree


def test_every_move_valued_starts_a_fresh_tree_over_every_move() -> None:
    game = games.create("tictactoe")
    state = played(game, "a1", "a2", "a3", "b2")
    result = mcts(game, state, time=inf_seconds(), every_move=True)
    assert {game.format_move(move) for move, _ in result.moves} == {
        game.format_move(m) for m in game.actions(state)
    }
    assert result.exact and result.moves_proven and result.value == 0
    values = {game.format_move(move): value for move, value in result.moves}
    assert values["c2"] == 0 and all(value == -1 for move, value in values.items() if move != "c2")


def inf_seconds() -> float:
    return float("inf")


def alphabeta_value(game: AnyGame, state: Any) -> float:
    return search(game, state, "alphabeta", time=inf_seconds()).value


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 7))
def test_proven_values_agree_with_alphabeta_on_tictactoe(seed: int, length: int) -> None:
    game = games.create("tictactoe")
    rng, state = random.Random(seed), game.initial_state()
    for _ in range(length):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(game.actions(state)))
    result = mcts(game, state, time=inf_seconds(), seed=seed)  # until the root is settled
    truth = alphabeta_value(game, state)
    assert result.value == truth  # settled: won (+1), lost (-1), or proven exactly
    if not game.is_terminal(state):
        after = game.result(state, result.move)
        assert (
            -alphabeta_value(game, after)
            * (1 if game.to_move(after) != game.to_move(state) else -1)
            == truth
        )


@pytest.mark.parametrize(("pits", "seeds"), [(2, 2), (3, 1), (3, 2)])
def test_proven_kalah_margins_agree_with_alphabeta(pits: int, seeds: int) -> None:
    game = games.create(f"kalah --pits {pits} --seeds {seeds}")
    state = game.initial_state()
    result = mcts(game, state, time=inf_seconds(), seed=1, every_move=True)
    truth = alphabeta_value(game, state)
    assert (result.value > 0) == (truth > 0) and (result.value < 0) == (truth < 0)
    if result.exact:
        assert result.value == truth
    exact = search(game, state, "alphabeta", time=inf_seconds(), every_move=True)
    proven = dict(exact.moves)
    for move, value in result.moves:
        if result.moves_proven:
            assert value == proven[move]


@pytest.mark.parametrize("piles", [(1, 2), (1, 2, 3), (2, 3, 5), (1, 1), (4,), (1, 3, 4)])
@pytest.mark.parametrize("misere", [True, False])
def test_proven_nim_outcomes_agree_with_bouton(piles: tuple[int, ...], misere: bool) -> None:
    game = games.create(" ".join(["nim", *map(str, piles), *([] if misere else ["--normal"])]))
    result = mcts(game, game.initial_state(), time=inf_seconds(), seed=2)
    assert (result.value > 0) == nim_mover_wins(piles, misere=misere)
    if result.value > 0:  # the move played keeps the win: the opponent is lost after it
        assert not nim_mover_wins(
            game.result(game.initial_state(), result.move).piles, misere=misere
        )


BIGGEST = [
    "connect4",
    "tictactoe --size 15 --k 5",
    "tictactoe --size 26",
    "kalah --pits 6 --seeds 6",
    "2048 --size 8",
    "nim 1000000000 999999999 123456789",
]


@pytest.mark.parametrize("words", BIGGEST)
@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_it_answers_within_its_time_on_the_biggest_boards(words: str, rollout: str) -> None:
    game = games.create(words)
    if rollout == "heuristic" and words.startswith("nim"):
        with pytest.raises(CannotSearch, match="has none; use rollout=random"):
            mcts(game, game.initial_state(), rollout=rollout)
        return
    state, rng = game.initial_state(), random.Random(0)
    while game.to_move(state) == CHANCE:
        state = game.result(state, rng.choice(outcomes(game, state))[1])
    start = time.perf_counter()
    result = mcts(game, state, time=0.3, rollout=rollout)
    took = time.perf_counter() - start
    assert result.move in game.actions(state) and not result.exact
    assert took < 0.3 + 1.0  # the contract is 0.1 s over; generous for a loaded machine


class Stopper:
    """A watcher that stops the search at its first look, as Ctrl-C does in a live display."""

    def __init__(self) -> None:
        self.ticks = 0

    def tick(self, searcher: Progress) -> None:
        self.ticks += 1
        assert isinstance(searcher, MonteCarlo)
        searcher.budget.stop()

    def reached(self, result: SearchResult) -> None:
        raise AssertionError("MCTS has no depths to report")


def test_a_watcher_stops_it_and_it_answers_at_once() -> None:
    game = games.create("connect4")
    stopper = Stopper()
    start = time.perf_counter()
    result = ENGINES["mcts"].search(
        game, game.initial_state(), Limits(time=inf_seconds()), watcher=stopper
    )
    assert time.perf_counter() - start < 1.0 and stopper.ticks == 1
    assert result.move in game.actions(game.initial_state()) and result.nodes == 1


def test_the_live_line_reads_the_best_move_so_far() -> None:
    game = games.create("connect4")
    searcher = MonteCarlo(game, Tree(), Limits(nodes=500).budget(), seed=1)
    assert searcher.best_scored() is None
    result = searcher.run(game.initial_state())
    best = searcher.best_scored()
    assert best is not None and best[0] == result.move and best[2] == 7
    assert not searcher.unhorizoned()
    line = LiveSearch(game, Console(width=200)).line(searcher).plain
    assert f"best so far {game.format_move(result.move)}" in line and "500 simulations" in line


def test_specs_and_refusals() -> None:
    assert parse_spec("mcts:c=0.5,iterations=100,rollout=Heuristic,seed=3").options == {
        "c": 0.5,
        "iterations": 100,
        "rollout": "heuristic",
        "seed": 3,
    }
    for bad, words in [
        ("mcts:rollout=smart", "random or heuristic"),
        ("mcts:c=-1", "0 to 100"),
        ("mcts:iterations=0", "iterations"),
        ("mcts:depth=3", "no option 'depth'"),
    ]:
        with pytest.raises(BadPlayerSpec, match=words):
            parse_spec(bad)
    with pytest.raises(CannotSearch, match="nim has none"):
        check_fit(parse_spec("mcts:rollout=heuristic"), games.create("nim 3 4 5"))
    check_fit(parse_spec("mcts"), games.create("2048"))  # chance is sampled, not refused
    limits = parse_spec("mcts:iterations=50").limits
    assert limits.time is None and limits.nodes == 50  # iterations lift the default clock


def test_cli_duel_against_random() -> None:
    run = nimmax(
        "duel", "mcts:time=0.05", "random", "--game", "tictactoe", "--games", "4", "--json"
    )
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["per_player"]["mcts:time=0.05"]["losses"] == 0


def test_cli_solve_with_an_iteration_limit() -> None:
    run = nimmax("solve", "tictactoe", "--algorithm", "mcts:iterations=20000", "--json")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert (
        record["nodes"] == 20000 and len(record["moves"]) == 9 and record["best_move"] is not None
    )


def test_cli_solve_to_the_end_proves_the_draw() -> None:
    run = nimmax("solve", "tictactoe", "--algorithm", "mcts", "--json")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["value"] == 0 and record["exact"] and record["moves_proven"]


def test_cli_play_connect4_against_mcts() -> None:
    run = nimmax("play", "connect4", "--second", "mcts", stdin="d\nd\nd\nquit\n")
    assert run.returncode == 0, run.stderr
    assert "(mcts" in run.stdout and "Traceback" not in run.stderr


def test_cli_refusals_are_one_line() -> None:
    run = nimmax("solve", "nim", "3", "4", "--algorithm", "mcts:rollout=heuristic")
    assert (
        run.returncode == 2
        and run.stderr.strip().count("\n") == 0
        and "rollout=random" in run.stderr
    )
    run = nimmax("play", "connect4", "--second", "mcts:rollout=fast", stdin="quit\n")
    assert run.returncode == 2 and "random or heuristic" in run.stderr


def test_explain_follows_the_most_visited_line_below_each_move() -> None:
    from nimmax.commands.explain import lines

    game = games.create("connect4")
    player = SearchPlayer(parse_spec("mcts:iterations=3000,seed=4"))
    found = lines(game, game.initial_state(), player, Proofs())
    assert len(found) == 7 and max(len(item.line) for item in found) > 2
    for item in found:  # lines of legal moves, each root move first
        state = game.initial_state()
        for move in item.line:
            assert move in game.actions(state)
            state = game.result(state, move)


def test_a_duel_seeds_mcts_game_by_game_alike_on_any_jobs() -> None:
    """Unseeded mcts in a duel takes each game's seed from the event's, so one process or two
    play the same games."""
    runs = []
    for jobs in ("1", "2"):
        run = nimmax(
            "duel",
            "mcts:iterations=150",
            "random",
            "--games",
            "8",
            "--seed",
            "5",
            "--jobs",
            jobs,
            "--json",
        )
        assert run.returncode == 0, run.stderr
        record = json.loads(run.stdout)
        runs.append(
            (record["wins"], record["draws"], record["per_player"]["mcts:iterations=150"]["nodes"])
        )
    assert runs[0] == runs[1]
