"""Engine contracts on hand-built trees: perspective, extra turns, amounts, chance, distance,
limits."""

from __future__ import annotations

import time
from math import inf
from typing import TypedDict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nimmax import games, players
from nimmax.player import decide
from nimmax.players import parse_spec
from nimmax.search import ENGINES as ENGINES_BY_NAME
from nimmax.search import CannotSearch, Table, iterate, search

from .theory import simple_nim_tree_size
from .toys import TreeGame

ENGINES = ["minimax", "negamax", "alphabeta"]


@pytest.mark.parametrize("engine", ENGINES)
def test_textbook_tree(engine: str) -> None:
    # AIMA's figure 5.2: Max picks the left branch, worth 3.
    tree = (0, [(1, [3, 12, 8]), (1, [2, 4, 6]), (1, [14, 5, 2])])
    game = TreeGame(tree)
    result = search(game, (), engine, every_move=True, time=inf)
    assert result.value == 3 and result.move == 0
    assert [value for _, value in result.moves] == [3, 2, 2]


@pytest.mark.parametrize("engine", ENGINES)
def test_extra_turn_keeps_the_sign(engine: str) -> None:
    # Seat 0 moves twice in a row on the left: it picks 5 then 9 (not the 1 a sign flip would pick).
    tree = (0, [(0, [(0, [1, 9]), (1, [4, 7])]), (1, [6, 8])])
    result = search(TreeGame(tree), (), engine, time=inf)
    assert result.value == 9 and result.move == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_second_seat_at_the_root_sees_its_own_value(engine: str) -> None:
    tree = (1, [(0, [5, -2]), (0, [-3, -4])])
    result = search(TreeGame(tree), (), engine, time=inf)
    # Seat 1 wants seat 0's payoff low: the right branch gives seat 0 at most -3, so +3 for seat 1.
    assert result.value == 3 and result.move == 1


@pytest.mark.parametrize("engine", ENGINES)
def test_quickest_win_and_slowest_loss(engine: str) -> None:
    slow_win = (1, [(0, [(1, [1])])])
    assert search(TreeGame((0, [slow_win, 1])), (), engine, time=inf).move == 1
    assert search(TreeGame((0, [1, slow_win])), (), engine, time=inf).move == 0
    slow_loss = (1, [(0, [(1, [-1])])])
    assert search(TreeGame((0, [-1, slow_loss])), (), engine, time=inf).move == 1


def test_chance_is_averaged_by_expectimax_and_adversarial_for_alphabeta() -> None:
    tree = (0, [("chance", [(0.5, 10), (0.5, 0)]), ("chance", [(0.9, 4), (0.1, 3)])])
    game = TreeGame(tree, players=1)
    assert search(game, (), "expectimax", time=inf).value == pytest.approx(5.0, abs=1e-4)
    assert search(game, (), "expectimax", time=inf).move == 0
    assert (
        search(game, (), "alphabeta", time=inf).value == 3
        and search(game, (), "alphabeta", time=inf).move == 1
    )


COIN_FLIP = (0, [("chance", [(0.75, 1), (0.25, -1)]), (1, [0, 1])])
"""A two-player game: seat 0 flips a coin (3 to 1 for a win) or lets seat 1 choose a draw or a
loss."""


@pytest.mark.parametrize("engine", ENGINES)
def test_engines_that_cannot_average_refuse_a_two_player_game_with_chance(engine: str) -> None:
    with pytest.raises(
        CannotSearch, match=f"{engine} cannot value the chance nodes of tree; use expectimax"
    ):
        search(TreeGame(COIN_FLIP), (), engine, time=inf)


def test_expectimax_values_a_two_player_coin_flip_by_its_probabilities() -> None:
    result = search(TreeGame(COIN_FLIP), (), "expectimax", every_move=True, time=inf)
    assert result.move == 0 and result.value == pytest.approx(0.5, abs=1e-4)
    assert [value for _, value in result.moves] == [pytest.approx(0.5, abs=1e-4), 0]
    # seat 1 to move: a win for seat 0 is its loss
    second = (1, [("chance", [(0.75, 1), (0.25, -1)]), (0, [0, -1])])
    assert search(TreeGame(second), (), "expectimax", time=inf).value == pytest.approx(
        0.0, abs=1e-4
    )


def random_tree(draw: st.DrawFn, depth: int) -> object:
    if depth == 0 or draw(st.booleans()) and depth < 3:
        return draw(st.integers(-3, 3))
    seat = draw(st.sampled_from([0, 1]))
    return (seat, [random_tree(draw, depth - 1) for _ in range(draw(st.integers(1, 3)))])


trees = st.composite(lambda draw: random_tree(draw, 4))()


@given(trees)
def test_engines_agree_on_random_trees_with_irregular_turns(tree: object) -> None:
    game = TreeGame(tree)
    oracle = search(game, (), "minimax", every_move=True, time=inf, cache=False)
    for engine in ("negamax", "alphabeta"):
        result = search(game, (), engine, every_move=True, time=inf)
        assert result.value == oracle.value
        assert dict(result.moves) == dict(oracle.moves)
    assert search(game, (), "alphabeta", time=inf).value == oracle.value


def test_depth_limit_uses_the_heuristic_and_is_not_exact() -> None:
    game = games.create("nim 3 4 5")
    result = search(game, game.initial_state(), "alphabeta", depth=2, book=False)
    assert (
        not result.exact and result.depth == 2 and result.move in game.actions(game.initial_state())
    )


def test_node_counting_includes_root_and_table_answers() -> None:
    game = games.create("simple-nim 4")
    assert search(
        game, game.initial_state(), "minimax", time=inf, cache=False, book=False
    ).nodes == simple_nim_tree_size(4)


def test_time_limit_is_honoured() -> None:
    game = games.create("nim 6 7 8 9 10 11")
    started = time.perf_counter()
    result = search(game, game.initial_state(), "alphabeta", time=0.2)
    assert time.perf_counter() - started < 0.2 + 0.1
    assert result.move in game.actions(game.initial_state())


def test_node_limit_is_honoured() -> None:
    game = games.create("nim 6 7 8 9 10 11")
    result = search(game, game.initial_state(), "alphabeta", nodes=5000)
    assert result.nodes <= 5000 and result.move in game.actions(game.initial_state())


def test_iterative_deepening_yields_each_depth_then_the_proof() -> None:
    game = games.create("nim 2 3 5")
    results = list(iterate(ENGINES_BY_NAME["alphabeta"].searcher(game), game.initial_state()))
    assert [result.depth for result in results[:-1]] == list(range(1, len(results)))
    assert results[-1].exact and results[-1].value == 1
    assert all(not result.exact for result in results[:-1])


def test_table_capacity_is_respected() -> None:
    table = Table(capacity=100)
    game = games.create("nim 3 4 5 --normal")
    search(game, game.initial_state(), "alphabeta", table=table, time=inf)
    assert len(table) <= 100


BOARDS = ["kalah --pits 4 --seeds 3", "tictactoe --size 4 --k 3", "connect4 --rows 4 --cols 5"]


@pytest.mark.parametrize("engine", [*ENGINES, "expectimax"])
@pytest.mark.parametrize("words", BOARDS)
def test_table_entries_leave_the_garbage_collector_after_one_pass(engine: str, words: str) -> None:
    """A full table must cost the collections between moves nothing: an entry holding its
    state (a named tuple, tracked for good) made each full collection walk the whole table."""
    import gc

    table = Table()
    game = games.create(words)
    # a book hit fills no entry
    search(game, game.initial_state(), engine, table=table, depth=6, book=False)
    assert len(table) > 100
    gc.collect()
    assert not any(gc.is_tracked(entry) for entry in table.values())
    assert not any(gc.is_tracked(key) for key in table)


def test_player_specs() -> None:
    spec = players.parse_spec("alphabeta:depth=4,time=0.5,cache=off")
    assert spec.kind == "alphabeta" and spec.options == {"depth": 4, "time": 0.5, "cache": False}
    assert str(spec) == "alphabeta:depth=4,time=0.5,cache=off"
    for bad in (
        "chess",
        "alphabeta:depth=x",
        "alphabeta:depth=0",
        "random:depth=3",
        "minimax:cache=maybe",
        "alphabeta:depth",
    ):
        with pytest.raises(players.BadPlayerSpec):
            players.parse_spec(bad)


@given(
    st.lists(st.integers(0, 4), min_size=1, max_size=3),
    st.sampled_from(
        [
            "random:seed=1",
            "minimax",
            "negamax:cache=on",
            "alphabeta",
            "alphabeta:depth=2",
            "alphabeta:nodes=50",
        ]
    ),
)
def test_players_choose_legal_moves(piles: list[int], spec: str) -> None:
    game = games.create("nim " + " ".join(map(str, piles)))
    state = game.initial_state()
    if not game.is_terminal(state):
        assert decide(players.create(parse_spec(spec)), game, state).move in game.actions(state)


class Limited(TypedDict, total=False):
    """The limit options `search` takes by keyword."""

    time: float
    depth: int


@pytest.mark.parametrize("engine", ["minimax", "negamax", "alphabeta", "expectimax"])
@pytest.mark.parametrize("limits", [{}, {"time": 0.05}, {"depth": 3}])
def test_a_search_leaves_the_interpreter_as_it_found_it(engine: str, limits: Limited) -> None:
    """The collector's state, its freeze count and the recursion limit are put back after every
    search."""
    import gc
    import sys

    game = games.create("nim 2 3 4")
    for collecting in (True, False):
        (gc.enable if collecting else gc.disable)()
        before = (gc.isenabled(), gc.get_freeze_count(), sys.getrecursionlimit())
        search(game, game.initial_state(), engine, **limits)
        search(game, game.initial_state(), engine, every_move=True, **limits)
        assert (gc.isenabled(), gc.get_freeze_count(), sys.getrecursionlimit()) == before
    gc.enable()
