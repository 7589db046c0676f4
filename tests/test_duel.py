"""`nimmax duel` and `nimmax tournament`: perfect players never lose what theory says they win,
seeds reproduce duels on any number of processes, the statistics match hand-computed values."""

from __future__ import annotations

import json
import math
import pickle
import re
import signal
import subprocess
import sys
from collections.abc import Sequence
from itertools import product
from typing import Any, NamedTuple

import pexpect
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nimmax import duel, games
from nimmax.duel import timeless
from nimmax.game import CHANCE, BadGameSpec, BadInput, Game, IllegalMove
from nimmax.match import plies
from nimmax.players import BadPlayerSpec, create, parse_spec

from .cli_helpers import ROOT, nimmax, read_specs
from .theory import nim_mover_wins


def duel_json(*args: str) -> dict[str, Any]:
    run = nimmax("duel", *args, "--json")
    assert run.returncode == 0, run.stderr
    record: dict[str, Any] = json.loads(run.stdout)
    return record


# --- statistics against hand-computed numbers -------------------------------------------


def test_wilson_matches_hand_computed_intervals() -> None:
    # By hand with z = 1.96: 0/10 -> upper z²/n / (1 + z²/n) = 0.38415 / 1.38415 = 0.27753; 5/10 ->
    # 0.5 ± 1.96·sqrt(0.025 + 0.0096040) / 1.38415 = 0.5 ± 0.26340; 8/10 -> (0.8 + 0.19208) /
    # 1.38415 ± 1.96·sqrt(0.016 + 0.0096040) / 1.38415 = 0.71674 ± 0.22657.
    assert duel.wilson(0, 10) == pytest.approx((0.0, 0.27753), abs=5e-5)
    assert duel.wilson(5, 10) == pytest.approx((0.23659, 0.76341), abs=5e-5)
    assert duel.wilson(8, 10) == pytest.approx((0.49016, 0.94331), abs=5e-5)
    assert duel.wilson(10, 10) == pytest.approx((0.72247, 1.0), abs=5e-5)
    assert duel.wilson(0, 0) == (0.0, 1.0)


@given(
    st.integers(1, 10_000).flatmap(
        lambda trials: st.tuples(st.integers(0, trials), st.just(trials))
    )
)
def test_wilson_interval_holds_the_observed_share(case: tuple[int, int]) -> None:
    successes, trials = case
    low, high = duel.wilson(successes, trials)
    assert 0 <= low <= successes / trials <= high <= 1
    assert duel.wilson(trials - successes, trials) == pytest.approx((1 - high, 1 - low))


def test_elo_of_two_players_is_the_logistic_difference() -> None:
    # Scoring 75% means an expected score 1 / (1 + 10^(-d/400)) = 3/4, so d = 400·log10(3) ≈ 190.85.
    strong, weak = duel.elo_ratings([[0, 30], [10, 0]], [[0, 40], [40, 0]], prior=0)
    assert strong - weak == pytest.approx(400 * math.log10(3))
    assert (strong + weak) / 2 == pytest.approx(1500)


def test_elo_is_the_maximum_likelihood_fit() -> None:
    # At the maximum of the likelihood each player's expected score equals the actual score.
    scores: list[list[float]] = [[0, 7, 9.5], [5, 0, 6], [2.5, 6, 0]]
    played: list[list[int]] = [[0, 12, 12], [12, 0, 12], [12, 12, 0]]
    ratings = duel.elo_ratings(scores, played, prior=0)
    for i in range(3):
        expected = sum(
            played[i][j] / (1 + 10 ** ((ratings[j] - ratings[i]) / 400)) for j in range(3) if j != i
        )
        assert expected == pytest.approx(sum(scores[i]), abs=1e-6)


def test_elo_stays_finite_for_a_perfect_score() -> None:
    top, bottom = duel.elo_ratings([[0, 10], [0, 0]], [[0, 10], [10, 0]])
    assert math.isfinite(top) and math.isfinite(bottom) and top > bottom


def test_repeated_specs_get_numbered_names() -> None:
    assert duel.labels(["alphabeta", "random", "alphabeta"]) == (
        "alphabeta#1",
        "random",
        "alphabeta#2",
    )
    record = duel_json(
        "alphabeta", "alphabeta", "--game", "simple-nim 13", "--games", "4", "--seed", "1"
    )
    assert record["players"] == ["alphabeta#1", "alphabeta#2"]
    assert set(record["per_player"]) == set(record["wins"]) == {"alphabeta#1", "alphabeta#2"}
    # 13 = 1 mod 4 is lost for the mover in misère take-1-to-3, so the second mover wins every game
    for side in record["per_player"].values():
        assert side["wins_second"] == side["games_second"] == 2 and side["wins_first"] == 0


# --- perfect play against theory --------------------------------------------------------


@given(st.lists(st.integers(1, 4), min_size=1, max_size=3))
def test_alphabeta_wins_every_nim_game_it_starts_from_a_winning_position(piles: list[int]) -> None:
    words = "nim " + " ".join(map(str, piles))
    event = duel.run(duel.plan(words, read_specs("alphabeta", "random"), 6, seed=sum(piles)))
    alphabeta = event.pairings[0].sides[0]
    if nim_mover_wins(piles, misere=True):
        assert alphabeta.wins_first == alphabeta.games_first == 3
    else:
        assert alphabeta.wins_second == 3  # ... and when the opponent starts from a lost one
    assert alphabeta.draws == 0


def test_minimax_never_loses_a_nim_game_it_starts_won_from_the_cli() -> None:
    for piles in (["2", "3", "5"], ["1", "1", "2"], ["3", "3", "1"]):
        record = duel_json(
            "minimax:cache=on",
            "random",
            "--game",
            "nim " + " ".join(piles),
            "--games",
            "20",
            "--seed",
            "5",
        )
        minimax = record["per_player"]["minimax:cache=on"]
        assert nim_mover_wins([int(pile) for pile in piles], misere=True)
        assert minimax["wins_first"] == minimax["games_first"] == 10
        assert record["wins"]["minimax:cache=on"] + record["wins"]["random"] == 20


def test_minimax_never_loses_to_random_on_3x3() -> None:
    event = duel.run(
        duel.plan(games.create("tictactoe"), read_specs("minimax:cache=on", "random"), 30, seed=11)
    )
    minimax = event.pairings[0].sides[0]
    assert minimax.losses == 0 and minimax.wins + minimax.draws == 30
    assert minimax.wins > 0  # random does blunder


def test_minimax_never_loses_to_random_on_the_registry_tictactoe() -> None:
    record = duel_json("minimax:cache=on", "random", "--games", "20", "--seed", "3")
    assert record["game"].startswith("tictactoe")
    assert record["per_player"]["minimax:cache=on"]["losses"] == 0
    assert record["per_player"]["random"]["wins"] == 0


# --- reproducibility ---------------------------------------------------------------------


def test_same_seed_same_duel_on_one_or_two_processes() -> None:
    args = ("alphabeta", "random", "--game", "nim 2 3 5", "--games", "45", "--seed", "17")
    alone, pooled = duel_json(*args, "--jobs", "1"), duel_json(*args, "--jobs", "2")
    assert timeless(alone) == timeless(pooled)
    assert alone["games"] == 45 and alone["seed"] == 17


def test_specs_reach_the_pool_as_values_and_two_processes_play_the_games_of_one() -> None:
    """A Spec (kind, Limits, Settings) goes to the pool's workers pickled as it is, never as words:
    each block holds the plan's own values, a block read back from its pickle holds equal ones, and
    two processes play the games one does (an MCTS seeded by the event, a tableless alpha-beta to a
    depth, a random player with a seed of its own)."""
    entrants = read_specs(
        "mcts:iterations=30,c=0.5", "alphabeta:depth=1,cache=off", "random:seed=4"
    )
    plan = duel.plan("nim 2 3 4", entrants, 2 * duel.MIN_BLOCK + 1, seed=3)
    for block in plan.blocks():
        assert all(any(spec is entrant for entrant in entrants) for spec in block.specs)
        assert pickle.loads(pickle.dumps(block)).specs == block.specs
    alone, pooled = duel.run(plan), duel.run(plan, jobs=2)
    record = duel.tournament_record(alone)
    assert timeless(record) == timeless(duel.tournament_record(pooled))
    assert record["games"] == 3 * plan.games and record["players"] == [
        str(spec) for spec in entrants
    ]


def test_random_players_are_seeded_game_by_game() -> None:
    args = ("random", "random:seed=4", "--game", "nim 3 4 5", "--games", "40")
    first = duel_json(*args, "--seed", "1", "--jobs", "2")
    assert timeless(first) == timeless(duel_json(*args, "--seed", "1"))
    other = duel_json(*args, "--seed", "2")
    assert timeless(other)["per_player"] != timeless(first)["per_player"]  # the seed matters
    assert first["wins"]["random"] + first["wins"]["random:seed=4"] == 40


def test_search_tables_live_for_a_block_of_games_then_start_afresh() -> None:
    plan = duel.plan(
        "nim 3 4 5",
        read_specs("alphabeta:book=off", "alphabeta:book=off"),
        2 * duel.MIN_BLOCK + 1,
        seed=0,
    )
    assert plan.block_size == duel.MIN_BLOCK and plan.block_count == 3
    results = [result for block in plan.blocks() for result in duel.block_games(block)]

    def nodes(result: duel.GameResult) -> int:
        return sum(moves.nodes for moves in result.moves)

    assert [result.index for result in results] == list(range(2 * duel.MIN_BLOCK + 1))
    assert nodes(results[2]) < nodes(results[0])  # the block's tables remember game 0

    def played(result: duel.GameResult) -> tuple[Any, ...]:
        return (
            result.first,
            result.winner,
            result.scores,
            [(moves.count, moves.nodes) for moves in result.moves],
        )

    # fresh players, the same first mover
    assert played(results[duel.MIN_BLOCK]) == played(results[0])


def test_any_backend_plays_the_same_games() -> None:
    """The backend seam: a backend of its own (here the blocks in reverse order) plugs into `run`
    and, like the process pool, plays the very games of the serial backend."""
    plan = duel.plan(
        "nim 2 3 5",
        read_specs("alphabeta", "random", "random:seed=2"),
        2 * duel.MIN_BLOCK + 1,
        seed=6,
    )

    def backwards(blocks: Sequence[duel.Block], count: duel.Count) -> None:
        duel.serial(blocks[::-1], count)

    records = [
        timeless(duel.tournament_record(duel.run(plan, backend=backend)))
        for backend in (duel.serial, backwards, duel.ProcessPool(2))
    ]
    assert records[0]["games"] == 3 * (2 * duel.MIN_BLOCK + 1)
    assert records[0] == records[1] == records[2]
    with pytest.raises(BadInput, match="--jobs must be at least 1"):
        duel.ProcessPool(0)


def test_a_time_limited_player_keeps_within_its_budget() -> None:
    """Connect Four without its opening books, where no 0.2 s search proves its move: on a fast
    machine Nim 4 5 6 7 8 was proven before the deadline, and the worst move no longer showed the
    budget being used."""
    spec = "alphabeta:time=0.2,book=off"
    game = games.create("connect4")
    opening = next(plies(game, [create(parse_spec(spec))] * 2))
    # the search does run out of time
    assert opening.search is not None and not opening.search.exact
    record = duel_json(spec, "random", "--game", "connect4", "--games", "2", "--seed", "1")
    worst = record["per_player"][spec]["max_move_seconds"]
    assert 0.15 < worst <= 0.2 + 0.1  # the budget is used, and kept


# --- one-player games: both players meet the same deals -----------------------------------


class Draw(NamedTuple):
    """A test-local one-player chance game: three tiles are dealt; each is kept or swapped for a
    2."""

    round: int
    score: int
    best: int
    tile: int  # 0: a tile is about to be dealt (a chance node)


class Dealt(Game[Draw, int]):
    """Keeping a tile scores its value; keeping a 2048 reaches the goal."""

    name = "dealt"
    players = 1
    has_chance = True
    rounds = 3

    def initial_state(self) -> Draw:
        return Draw(0, 0, 0, 0)

    def to_move(self, state: Draw) -> int:
        return CHANCE if state.tile == 0 else 0

    def chance_outcomes(self, state: Draw) -> Sequence[tuple[float, int]]:
        return [(0.5, 512), (0.3, 1024), (0.2, 2048)]

    def actions(self, state: Draw) -> Sequence[int]:
        return [state.tile, 2]

    def result(self, state: Draw, action: int) -> Draw:
        if state.tile == 0:
            return state._replace(tile=action)
        if action not in self.actions(state):
            raise IllegalMove(f"no move {action}")
        return Draw(state.round + 1, state.score + action, max(state.best, action), 0)

    def is_terminal(self, state: Draw) -> bool:
        return state.round == self.rounds

    def utility(self, state: Draw, player: int) -> float:
        return float(state.score)

    def winner(self, state: Draw) -> int | None:
        return 0 if state.best >= 2048 else None  # the goal: a 2048 kept


def test_one_player_duel_deals_the_same_games_to_both_players() -> None:
    event = duel.run(duel.plan(Dealt(), read_specs("alphabeta", "expectimax"), 40, seed=9))
    record = duel.pairing_record(event, event.pairings[0])
    keeper, other = (timeless(record["per_player"][name]) for name in ("alphabeta", "expectimax"))
    # both always keep the dealt tile, so on the same deals they score the same, game for game
    assert record["draws"] == 40 and record["wins"] == {"alphabeta": 0, "expectimax": 0}
    assert (
        keeper["mean_score"] == other["mean_score"]
        and keeper["reached_goal"] == other["reached_goal"]
    )
    assert "max_tiles" not in keeper
    # three deals of at least 512 each; a 2048 among three deals has probability 1 - 0.8³ = 0.488
    assert 3 * 512 <= keeper["mean_score"] <= 3 * 2048 and 0.2 < keeper["reached_goal"] < 0.8


def test_one_player_duel_is_the_same_on_two_processes() -> None:
    plan = duel.plan(Dealt(), read_specs("random", "alphabeta"), 2 * duel.MIN_BLOCK + 3, seed=5)
    alone, pooled = duel.run(plan), duel.run(plan, jobs=2)
    assert timeless(duel.pairing_record(alone, alone.pairings[0])) == timeless(
        duel.pairing_record(pooled, pooled.pairings[0])
    )


def test_one_player_duel_ranks_the_keeper_above_random() -> None:
    event = duel.run(duel.plan(Dealt(), read_specs("alphabeta", "random"), 40, seed=9))
    record = duel.pairing_record(event, event.pairings[0])
    keeper, chancer = record["per_player"]["alphabeta"], record["per_player"]["random"]
    assert keeper["losses"] == 0 and keeper["wins"] + keeper["draws"] == 40
    assert keeper["mean_score"] > chancer["mean_score"]
    assert "wins_first" not in keeper  # no first mover in a one-player game


# --- tournament ----------------------------------------------------------------------------


def test_tournament_crosstable_and_ratings_agree_with_the_games() -> None:
    run = nimmax(
        "tournament",
        "alphabeta",
        "alphabeta:depth=1",
        "random",
        "--game",
        "nim 2 3 5",
        "--games",
        "12",
        "--seed",
        "2",
        "--json",
    )
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    names = record["players"]
    assert record["games"] == 3 * 12 and len(record["pairings"]) == 3
    table = record["crosstable"]
    for row, column in product(names, names):
        if row != column:
            mine, theirs = table[row][column], table[column][row]
            assert mine["wins"] == theirs["losses"] and mine["draws"] == theirs["draws"]
            assert mine["wins"] + mine["draws"] + mine["losses"] == 12
    for name in names:
        wins = sum(table[name][other]["wins"] for other in names if other != name)
        draws = sum(table[name][other]["draws"] for other in names if other != name)
        assert record["points"][name] == wins + draws / 2
    # with equal games for all, maximum-likelihood ratings rank the players as their points do
    by_points = sorted(names, key=lambda name: record["points"][name])
    by_rating = sorted(names, key=lambda name: record["ratings"][name])
    assert by_points == by_rating and by_rating[-1] == "alphabeta"
    # it never loses a game it starts
    assert record["crosstable"]["alphabeta"]["random"]["losses"] <= 6


def test_standings_are_what_the_record_and_the_table_show() -> None:
    event = duel.run(
        duel.plan("nim 2 3 5", read_specs("random", "alphabeta", "alphabeta:depth=1"), 12, seed=2)
    )
    standings, record = duel.standings(event), duel.tournament_record(event)
    assert dict(zip(standings.names, standings.ratings, strict=True)) == record["ratings"]
    assert dict(zip(standings.names, standings.points, strict=True)) == record["points"]
    assert standings.names[standings.order[0]] == "alphabeta"
    assert standings.names[standings.order[-1]] == "random"
    for (entrant, opponent), side in standings.sides.items():
        mirror = standings.sides[opponent, entrant]
        assert (side.wins, side.draws, side.losses) == (mirror.losses, mirror.draws, mirror.wins)
        assert side.games == 12


def test_tournament_table_is_shown() -> None:
    run = nimmax(
        "tournament",
        "alphabeta",
        "random",
        "random:seed=3",
        "--game",
        "simple-nim 9",
        "--games",
        "4",
        "--seed",
        "1",
    )
    assert run.returncode == 0, run.stderr
    assert "round robin" in run.stdout and "Elo" in run.stdout and "random:seed=3" in run.stdout


def test_the_duel_core_imports_no_presentation_library() -> None:
    code = (
        "import sys, nimmax.duel; print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('typer', 'rich', "
        "'prompt_toolkit')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert loaded.stdout.strip() == "[]"


# --- the command line ---------------------------------------------------------------------


def test_duel_summary_table() -> None:
    run = nimmax(
        "duel", "alphabeta", "random", "--game", "nim 2 3 5", "--games", "30", "--seed", "4"
    )
    assert run.returncode == 0, run.stderr
    for text in (
        "played 30 of 30 games, seed 4",
        "wins as first",
        "15/15",
        "worst move",
        "nodes per move",
        "Wilson",
    ):
        assert text in run.stdout
    assert run.stderr == ""


def test_duel_json_has_the_documented_fields() -> None:
    record = duel_json(
        "alphabeta", "random", "--game", "split-nim 7", "--games", "10", "--seed", "8"
    )
    for key in ("game", "players", "games", "wins", "draws", "per_player", "seed"):
        assert key in record
    assert record["game"] == "split-nim 7" and record["players"] == ["alphabeta", "random"]
    for side in record["per_player"].values():
        for key in (
            "wins",
            "losses",
            "draws",
            "avg_move_seconds",
            "max_move_seconds",
            "nodes",
            "win_interval",
            "wins_first",
            "wins_second",
        ):
            assert key in side
    assert record["per_player"]["alphabeta"]["nodes"] > 0 == record["per_player"]["random"]["nodes"]


def test_default_game_is_tictactoe() -> None:
    assert duel.DEFAULT_GAME == "tictactoe"
    assert games.create(duel.DEFAULT_GAME).players == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["alphabeta", "random", "--games", "0"],
            "--games must be a whole number from 1 to 1000000, not '0'",
        ),
        (
            ["alphabeta", "random", "--games", "-4"],
            "--games must be a whole number from 1 to 1000000, not '-4'",
        ),
        (["alphabeta", "randum"], "unknown player 'randum'"),
        (["alphabeta:depth=x", "random"], "depth must be a whole number"),
        (["alphabeta", "human"], "human is not a duel player"),
        (["alphabeta", "random", "--game", "chess"], "unknown game 'chess'"),
        (["alphabeta", "random", "--game", "nim 2 x"], "nim"),
        (
            ["alphabeta", "random", "--jobs", "0"],
            "--jobs must be a whole number from 1 to 64, not '0'",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(args: list[str], message: str) -> None:
    run = (
        nimmax("duel", *args, "--game", "nim 2 3")
        if "--game" not in args
        else nimmax("duel", *args)
    )
    assert run.returncode == 2
    assert message in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_tournament_bad_input_exits_2() -> None:
    for args in (
        ["alphabeta"],
        ["alphabeta", "random", "--games", "0"],
        ["alphabeta", "nope", "random"],
    ):
        run = nimmax("tournament", *args, "--game", "nim 2 3")
        assert run.returncode == 2 and "Traceback" not in run.stderr, args


def test_plan_checks_its_input() -> None:
    with pytest.raises(BadGameSpec):
        duel.plan("no-such-game", read_specs("random", "random"), 1)
    with pytest.raises(BadPlayerSpec):
        duel.plan("nim 2", read_specs("random", "minimax:depth=0"), 1)
    with pytest.raises(BadInput):
        duel.plan("nim 2", read_specs("random"), 1)


@pytest.mark.parametrize(("jobs", "as_json"), [("1", False), ("2", True)])
def test_ctrl_c_prints_the_finished_games_and_exits_130(jobs: str, as_json: bool) -> None:
    child = pexpect.spawn(
        sys.executable,
        [
            "-m",
            "nimmax",
            "duel",
            "alphabeta",
            "random",
            "--game",
            "nim 2 3 5",
            "--games",
            "1000000",
            "--seed",
            "1",
            "--jobs",
            jobs,
            *(["--json"] if as_json else []),
        ],
        cwd=str(ROOT),
        env={"PYTHONPATH": str(ROOT), "NO_COLOR": "1", "TERM": "xterm", "PATH": "/usr/bin:/bin"},
        encoding="utf-8",
        codec_errors="replace",
        dimensions=(40, 120),
        timeout=30,
        # even where the runner ignores Ctrl-C
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    child.expect("games/s")  # the progress bar is up (on stderr) and games are being played
    child.expect(r"alphabeta [1-9]")
    child.sendintr()
    child.expect("nimmax: interrupted after ([0-9]+) games")
    finished = int(child.match.group(1))
    # plain text
    output = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before or "").replace("\r", "\n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and "Traceback" not in output
    if as_json:
        found = re.search(r"^\{$.*^\}$", output, re.MULTILINE | re.DOTALL)
        assert found is not None, output
        record = json.loads(found.group())
        assert record["interrupted"] is True and record["games"] == finished > 0
        assert sum(record["wins"].values()) + record["draws"] == finished < record["planned_games"]
    else:
        assert (
            f"interrupted after {finished} of 1000000 games" in output and "wins as first" in output
        )


def test_an_engine_that_cannot_value_chance_is_refused_before_a_duel_starts() -> None:
    from .toys import TreeGame

    coin_flip = TreeGame((0, [("chance", [(0.5, 1), (0.5, -1)]), (1, [0])]))
    with pytest.raises(
        BadInput, match="alphabeta cannot value the chance nodes of tree; use expectimax"
    ):
        duel.plan(coin_flip, read_specs("alphabeta", "random"), 10, seed=1)
    assert duel.plan(coin_flip, read_specs("expectimax", "random"), 10, seed=1).names == (
        "expectimax",
        "random",
    )


def test_a_pool_plays_every_block_when_blocks_finish_faster_than_it_looks() -> None:
    """Blocks of one-move games finish while the pool waits for results: it plays every block,
    never stopping because the blocks in flight happen to be done while others still wait."""
    plan = duel.plan(
        "simple-nim 1",
        read_specs("random", "random:seed=1", "random:seed=2", "random:seed=3"),
        20,
        seed=4,
    )
    assert plan.block_count > 4  # more blocks than the pool keeps in flight
    event = duel.run(plan, jobs=2)
    assert event.done == plan.total and not event.interrupted
