"""solve answers at the engine's speed: the value and best move of one alpha-beta search, the other
root moves with the fail-soft bounds that search proved (issue 32). Each bound is checked against
the move's exact value from plain minimax; `--all` gives every exact value, as valuing every move
in one search did; `--json` says which values are bounds; Ctrl-C while refining keeps the answer."""

from __future__ import annotations

import json
import re
import signal
from math import inf
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from nimmax import games
from nimmax.claim import Proofs
from nimmax.commands.analyze import judge, verdict
from nimmax.commands.solve import merged, refine, solve, solver
from nimmax.game import AnyGame
from nimmax.players import SearchPlayer, parse_spec
from nimmax.search import SearchResult, search

from .cli_helpers import nimmax_in_process, nimmax_started
from .test_engines import trees
from .theory import nim_mover_wins
from .toys import TreeGame

SMALL = [
    "tictactoe",
    "nim 1 2 3",
    "nim 2 2 3 --normal",
    "kalah --pits 3 --seeds 1",
    "connect4 --rows 3 --cols 4 --k 3",
]
"""Small boards of each kind: win/draw/loss on a board, Nim both ways, Kalah's seeds, gravity."""


def position(game: AnyGame, choices: list[int]) -> Any:
    """The position after the moves `choices` pick (each an index into the legal moves), short of
    the end."""
    state = game.initial_state()
    for choice in choices:
        moves = list(game.actions(state))
        after = game.result(state, moves[choice % len(moves)])
        if game.is_terminal(after):
            break
        state = after
    return state


def assert_bounds_true(game: AnyGame, state: Any, answer: SearchResult) -> None:
    """Each move's value in `answer` is its exact value (minimax), or an upper bound of it where
    marked."""
    oracle = search(game, state, "minimax", every_move=True, time=inf)
    exact = dict(oracle.moves)
    assert answer.value == oracle.value and exact[answer.move] == answer.value
    assert answer.move not in answer.upper_bounds and answer.moves_proven
    assert {move for move, _ in answer.moves} == set(exact)
    for move, value in answer.moves:
        if move in answer.upper_bounds:
            assert exact[move] <= value <= answer.value, (move, value, exact[move])
        else:
            assert exact[move] == value, (move, value, exact[move])


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SMALL), st.lists(st.integers(0, 50), max_size=6))
def test_the_bounds_of_the_other_moves_are_true_on_small_boards(
    words: str, choices: list[int]
) -> None:
    game = games.create(words.split())
    state = position(game, choices)
    assert_bounds_true(game, state, search(game, state, "alphabeta", time=inf))


@settings(max_examples=60, deadline=None)
@given(trees)
def test_the_bounds_are_true_on_trees_of_points_and_irregular_turns(tree: object) -> None:
    """Payoffs -3..3 and a side that may move twice: the bounds a point game shows (≤ +2)."""
    game = TreeGame(tree)
    assert_bounds_true(game, (), search(game, (), "alphabeta", time=inf))


def test_nim_bounds_agree_with_bouton() -> None:
    """Nim 2 3 5 (misère): 3:4 wins, and every other move is bounded by a loss, which Bouton
    confirms."""
    game = games.create(["nim", "2", "3", "5"])
    state = game.initial_state()
    answer = solve(game, state, others=False)
    assert answer.value == 1 and game.format_move(answer.move) == "3:4"
    for move, value in answer.moves:
        after = game.result(state, move)
        mover_wins_after = nim_mover_wins(after.piles, misere=True)
        if move in answer.upper_bounds:
            assert value >= (-1 if mover_wins_after else 1)
    # by default the other moves are valued exactly within what the proof took: each one Bouton's
    valued = solve(game, state)
    assert valued.value == 1 and not valued.upper_bounds and valued.moves_proven
    for move, value in valued.moves:
        after = game.result(state, move)
        assert value == (-1 if nim_mover_wins(after.piles, misere=True) else 1)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SMALL), st.lists(st.integers(0, 50), max_size=5))
def test_every_value_equals_valuing_every_move_in_one_search(
    words: str, choices: list[int]
) -> None:
    """`solve(every_move=True)` (--all) refines each bound on the answer's table: the values, the
    best move and the value are those of one search valuing every move (the old solve)."""
    game = games.create(words.split())
    state = position(game, choices)
    old = search(game, state, "alphabeta", every_move=True, time=inf)
    new = solve(game, state, every_move=True)
    assert new.every_value and not new.upper_bounds
    assert dict(new.moves) == dict(old.moves) and new.value == old.value
    assert new.moves[0].move == new.move and old.moves[0].value == new.moves[0].value


def test_a_refinement_stopped_early_keeps_the_answer_and_what_it_valued() -> None:
    """As Ctrl-C leaves it: the moves refined replace their bounds, the rest keep theirs."""
    game = games.create(["tictactoe"])
    state = game.initial_state()
    answer = solve(game, state, others=False)
    every = search(game, state, "alphabeta", every_move=True, time=inf)
    partial = SearchResult(0.0, every.moves[3].move, (), 5, 0, 0.0, False, every.moves[3:5], True)
    kept = merged(answer, partial)
    assert (kept.value, kept.move, kept.pv) == (answer.value, answer.move, answer.pv)
    assert kept.moves[0].move == answer.move and {move for move, _ in kept.moves} == {
        m for m, _ in answer.moves
    }
    assert kept.upper_bounds == answer.upper_bounds - {move for move, _ in every.moves[3:5]}
    assert kept.moves_proven and kept.nodes == answer.nodes + 5
    # before any move was valued
    stopped = merged(answer, SearchResult(0.0, None, (), 0, 0, 0.0, False))
    assert (
        stopped.moves == answer.moves
        and stopped.upper_bounds == answer.upper_bounds
        and stopped.moves_proven
    )


def test_refining_an_answer_without_bounds_searches_nothing() -> None:
    game = games.create(["nim", "1", "2"])
    player = solver(parse_spec("minimax"))  # values every move in its one search
    answer = solve(game, game.initial_state(), player=player)
    assert not answer.upper_bounds and refine(game, game.initial_state(), player, answer) is answer


def bounds_kept() -> Any:
    """A solve that leaves the other moves their bounds: no time to value them (`others_budget`)."""
    return mock.patch("nimmax.commands.solve.others_budget", lambda answer: 0.0)


def test_json_says_which_values_are_bounds() -> None:
    with bounds_kept():
        plain = json.loads(nimmax_in_process("solve", "tictactoe", "--json").stdout)
    first, *others = plain["moves"]
    assert first == {"move": plain["best_move"], "value": 0, "exact": True, "bound": None}
    assert others and all(
        move["bound"] == "upper" and not move["exact"] and move["value"] >= 0 for move in others
    )
    every = json.loads(nimmax_in_process("solve", "tictactoe", "--all", "--json").stdout)
    assert all(
        move["exact"] and move["bound"] is None and move["value"] == 0 for move in every["moves"]
    )
    assert every["best_move"] == plain["best_move"] and every["nodes"] > plain["nodes"]


def test_the_table_words_each_bound_in_the_games_terms() -> None:
    """Win/draw/loss games: "loss or draw" (≤ 0); a scoring game: "no better than win by 2 seeds" (≤
    +2)."""
    with bounds_kept():
        board = nimmax_in_process("solve", "tictactoe").stdout
        kalah = nimmax_in_process("solve", "kalah", "--pits", "3", "--seeds", "2").stdout
    assert (
        "≤ 0 │ loss or draw" in board
        and "≤: a bound proving the move no better than the best" in board
    )
    assert "≤ +2 │ no better than win by 2 seeds" in kalah
    every = nimmax_in_process("solve", "kalah", "--pits", "3", "--seeds", "2", "--all").stdout
    assert "≤" not in every and "every move valued exactly: 3 moves" in every
    # the answer comes first
    assert every.index("value +4 (win by 4 seeds, proven)") < every.index("┏")


def test_ctrl_c_while_valuing_every_move_keeps_the_answer() -> None:
    """Kalah(4,3): the answer takes a third of what valuing every move does; Ctrl-C once it is
    printed keeps it, with the moves valued so far and the others' bounds, exit 130."""
    process = nimmax_started("solve", "kalah", "--pits", "4", "--seeds", "3", "--all")
    assert process.stdout is not None
    lines = []
    # the answer's last line
    while not (line := process.stdout.readline()).startswith("alphabeta: "):
        assert line, "the answer was never printed"
        lines.append(line)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert re.fullmatch(
        r"nimmax: interrupted while valuing every move: the answer and [0-9]+ moves? valued exactly"
        r" are shown above, the others with their bounds\n",
        err,
    ), err
    assert "value +6 (win by 6 seeds, proven)" in "".join(lines)
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert "← best" in rows[0] and len(rows) == 4


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(SMALL), st.lists(st.integers(0, 50), max_size=6), st.integers(0, 50))
def test_an_exact_analysis_values_the_played_move_exactly(
    words: str, choices: list[int], pick: int
) -> None:
    """analyze searches as solve does; a move the answer only bounded is searched on its own, so
    "before" and "after" are the exact values minimax gives, and the verdict follows from them."""
    game = games.create(words.split())
    state = position(game, choices)
    moves = list(game.actions(state))
    move = moves[pick % len(moves)]
    oracle = search(game, state, "minimax", every_move=True, time=inf)
    judged = judge(game, SearchPlayer(parse_spec("alphabeta:time=inf")), Proofs(), 1, state, move)
    assert judged.exact and judged.value_before == judged.best_value == oracle.value
    assert judged.value_after == dict(oracle.moves)[move]
    assert judged.verdict == verdict(oracle.value, dict(oracle.moves)[move], True, game.players)


def test_explain_shows_every_exact_value_and_each_refutation() -> None:
    """--explain values every move before it draws the tree: no bound in its table or its tree."""
    run = nimmax_in_process(
        "solve", "nim", "1", "2", "3", "--normal", "--explain", "--algorithm", "alphabeta:book=off"
    )
    assert run.returncode == 0, run.stderr
    assert "≤" not in run.stdout and "every move valued exactly: 6 moves" in run.stdout
    branches = [line for line in run.stdout.splitlines() if line.startswith(("├── ", "└── "))]
    assert len(branches) == 6
