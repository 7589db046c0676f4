"""Real-time play: every engine answers by its default limit on the biggest boards, a live
search stops at Ctrl-C with what it has, and the figures shown are those of the whole search."""

from __future__ import annotations

import json
import time
from math import inf
from typing import Any

import pytest

from nimmax import games
from nimmax.game import AnyGame, outcomes
from nimmax.player import decide
from nimmax.players import create, parse_spec
from nimmax.search import MOVE_SECONDS, Table, search

from .cli_helpers import nimmax
from .test_play_pty import finish, shown, spawn

SLACK = 3.0
"""Seconds a move may take beyond its budget on a loaded machine: the answer, the board, the
prompt."""

BIG = [
    "connect4",
    "tictactoe --size 15 --k 5",
    "tictactoe --size 26",
    "kalah --pits 6 --seeds 6",
    "kalah --pits 6 --seeds 4",
    "plates",
]


class Counting:
    """A game that counts the positions made by `result`: the nodes a search really reached."""

    def __init__(self, game: AnyGame) -> None:
        self.game, self.made = game, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def for_search(self) -> Counting:
        return self  # a search uses this wrapper, not the game's own copy

    def result(self, state: Any, move: Any) -> Any:
        self.made += 1
        return self.game.result(state, move)


@pytest.mark.parametrize("engine", ["alphabeta", "negamax", "minimax"])
def test_a_time_limited_search_reports_every_node_it_reached(engine: str) -> None:
    counting = Counting(games.create("tictactoe --size 4"))
    result = search(counting, counting.initial_state(), engine, time=0.3, table=Table(0))  # type: ignore[arg-type]
    assert not result.exact and result.depth >= 1
    # Every node but the roots is made by `result`; each completed depth also makes the first
    # position of its best line, and each depth begun (the one cut short too) counts its root.
    started = result.depth + 1
    assert result.nodes == counting.made - result.depth + started
    assert result.seconds >= 0.3


def test_the_figures_are_those_of_the_whole_search_not_its_last_depth() -> None:
    game = games.create("tictactoe --size 15 --k 5")
    start = time.perf_counter()
    result = search(game, game.initial_state(), "alphabeta", time=0.5)
    took = time.perf_counter() - start
    assert took - 0.1 <= result.seconds <= took and result.seconds >= 0.5


@pytest.mark.parametrize("words", BIG)
@pytest.mark.parametrize("engine", ["alphabeta", "negamax", "minimax"])
def test_every_engine_answers_by_default_on_the_biggest_boards(words: str, engine: str) -> None:
    game = games.create(words)
    state = game.initial_state()
    start = time.perf_counter()
    decision = decide(create(parse_spec(engine)), game, state)
    assert time.perf_counter() - start < MOVE_SECONDS + SLACK
    assert decision.move in list(game.actions(state)) and decision.search is not None


def test_expectimax_answers_by_default_on_2048() -> None:
    game = games.create("2048 --seed 1")
    state = game.initial_state()
    while game.to_move(state) < 0:
        state = game.result(state, outcomes(game, state)[0][1])
    start = time.perf_counter()
    decision = decide(create(parse_spec("expectimax")), game, state)
    assert time.perf_counter() - start < MOVE_SECONDS + SLACK and decision.move in game.actions(
        state
    )


@pytest.mark.parametrize(
    ("words", "truth", "engines"),
    [
        ("tictactoe", 0, ("alphabeta", "negamax", "minimax")),
        ("nim 2 3 5", 1, ("alphabeta", "negamax", "minimax")),
        # no pruning: too many positions for a second
        ("tictactoe --size 4 --k 3", 1, ("alphabeta",)),
    ],
)
def test_the_default_limit_still_plays_perfectly_where_it_proves(
    words: str, truth: int, engines: tuple[str]
) -> None:
    game = games.create(words)
    state = game.initial_state()
    for engine in engines:
        result = search(game, state, engine)
        exact = search(game, state, "alphabeta", time=inf, every_move=True)
        assert result.exact and result.value == truth
        assert dict(exact.moves)[result.move] == truth


def test_kalah_3_3_is_proven_within_the_default_limit() -> None:
    game = games.create("kalah --pits 3 --seeds 3")
    result = search(game, game.initial_state(), "alphabeta")
    assert result.exact and result.value == 2


def test_the_limits_read_from_the_options() -> None:
    assert parse_spec("alphabeta").limits.time == MOVE_SECONDS
    assert parse_spec("alphabeta:depth=4").limits.time is None  # a depth chosen: no default clock
    assert parse_spec("alphabeta:nodes=10").limits.time is None
    assert parse_spec("alphabeta:time=inf").limits.time is None
    assert parse_spec("alphabeta:depth=4,time=2").limits.time == 2.0


def test_plain_minimax_is_one_option_away() -> None:
    run = nimmax("solve", "tictactoe", "--algorithm", "minimax:cache=off", "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["nodes"] == 549_946


def test_duel_minimax_random_uses_the_memo() -> None:
    run = nimmax("duel", "minimax", "random", "--games", "20", "--seed", "1", "--json")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["wins"]["minimax"] + record["draws"] == 20


@pytest.mark.parametrize(
    ("words", "move", "answer"),
    [
        (("connect4",), "d", "(alphabeta) plays"),
        (("tictactoe", "--size", "15", "--k", "5"), "h8", "(alphabeta) plays"),
        (("kalah", "--pits", "6", "--seeds", "6"), "2", "(alphabeta) plays"),
    ],
)
def test_a_person_is_answered_on_a_big_board_within_the_budget(
    words: tuple[str, ...], move: str, answer: str
) -> None:
    child = spawn("play", *words)
    child.expect(shown("›"))
    start = time.perf_counter()
    child.send(move + "\r")
    child.expect(shown(answer))
    child.expect(shown("›"))
    assert time.perf_counter() - start < MOVE_SECONDS + SLACK
    child.sendeof()
    code, rest = finish(child)
    assert code == 0 and "Traceback" not in rest


def test_2048_the_engine_plays_within_the_budget() -> None:
    child = spawn("play", "2048", "--first", "expectimax", "--seed", "2")
    for _ in range(3):
        start = time.perf_counter()
        child.expect(shown("(expectimax) plays"))
        assert time.perf_counter() - start < MOVE_SECONDS + SLACK
    child.sendintr()
    time.sleep(0.3)
    child.sendintr()
    code, rest = finish(child)
    assert code == 130 and "Traceback" not in rest


def test_ctrl_c_during_a_live_solve_prints_the_deepest_answer_and_exits_130() -> None:
    # a search that runs on
    child = spawn("solve", "connect4", "--time", "60", "--algorithm", "alphabeta:book=off")
    child.expect(shown("depth "))
    time.sleep(1)
    child.sendintr()
    code, rest = finish(child)
    assert code == 130 and "Traceback" not in rest
    assert "deepest completed" in rest and "not proven" in rest and "← best" in rest


def test_ctrl_c_during_a_solve_to_the_end_keeps_the_moves_valued() -> None:
    child = spawn("solve", "tictactoe", "--size", "4", "--algorithm", "minimax:cache=off")
    child.expect(shown("nodes"))
    child.sendintr()
    code, rest = finish(child)
    assert code == 130 and "Traceback" not in rest and "nimmax: interrupted" in rest


def test_huge_piles_are_never_listed_by_players_or_the_prompt() -> None:
    game = games.create("nim 1000000000 1000000000")
    state = game.initial_state()
    start = time.perf_counter()
    move = create(parse_spec("random:seed=1")).choose(game, state)
    assert game.result(state, move) is not None and time.perf_counter() - start < 1
    run = nimmax(
        "play",
        "nim",
        "1000000000",
        "3",
        "--second",
        "human",
        "--first",
        "random",
        stdin="help\nquit\n",
    )
    assert run.returncode == 0 and "Moves look like" in run.stdout, run.stderr
