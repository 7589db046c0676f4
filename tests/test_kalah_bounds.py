"""Kalah's utility bounds and the null-window root: pruning by bounds never changes a value.

Truth comes from the independent solver of test_kalah.py (the rules read literally, plain
minimax on lists) and from alpha-beta on the same game with the bounds taken away.
"""

from __future__ import annotations

from math import inf

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimmax.game import Capability
from nimmax.games.kalah import Kalah, Position
from nimmax.search import ENGINES, SCALE, run, search
from nimmax.search.alphabeta import boundary, payoffs
from nimmax.search.score import HALF, score_range

from .test_kalah import SMALL, boards, kalah, positions
from .theory import kalah_solved as solved


class Unbounded(Kalah):
    """Kalah that declares no bounds, so alpha-beta searches it as before."""

    capabilities = Kalah.capabilities - {Capability.BOUNDS}


def scores(payoff: int) -> st.SearchStrategy[float]:
    """The scores a node still in play may have with this payoff: one unit less a ply to the end."""
    if payoff == 0:
        return st.just(0.0)
    distance = st.integers(1, HALF - 1)
    return distance.map(lambda plies: float(payoff * SCALE - plies if payoff > 0 else payoff * SCALE + plies))


@given(st.integers(-60, 60).flatmap(lambda payoff: st.tuples(st.just(payoff), scores(payoff))))
def test_every_score_lies_between_the_boundaries_of_its_payoff(pair: tuple[int, float]) -> None:
    payoff, score = pair
    assert payoffs(score, score) == (payoff, payoff)
    assert boundary(payoff - 1) < score < boundary(payoff)
    assert boundary(payoff - 1) + 1 < score  # a null window (b, b + 1) never holds a score


@given(st.integers(-60, 60), st.integers(0, 40), st.data())
def test_score_range_holds_every_score_of_payoffs_within_bounds(low: int, width: int, data: st.DataObject) -> None:
    high = low + width
    payoff = data.draw(st.integers(low, high))
    score = data.draw(scores(payoff))
    least, most = score_range(low, high)
    assert least <= score <= most


@settings(max_examples=60)
@given(positions)
def test_bounds_hold_the_perfect_play_margin_and_the_evaluation(position: tuple[list[int], int, int]) -> None:
    cells, player, pits = position
    game = Kalah(pits, 1)
    state = Position(tuple(cells), player)
    low, high = game.utility_bounds(state)
    assert low <= solved(state.board, player) <= high
    assert low <= game.evaluate(state, player) <= high


@settings(max_examples=60, deadline=None)
@given(boards(4, 3))
def test_alphabeta_with_bounds_equals_alphabeta_without_them(position: tuple[list[int], int, int]) -> None:
    """Every root move's value, and the best, straight to the end and to a depth limit alike."""
    cells, player, pits = position
    state = Position(tuple(cells), player)
    bounded, unbounded = Kalah(pits, 1), Unbounded(pits, 1)
    for options in ({"time": inf}, {"depth": 3}):
        with_bounds = search(bounded, state, "alphabeta", every_move=True, **options)
        without = search(unbounded, state, "alphabeta", every_move=True, **options)
        assert with_bounds.value == without.value
        assert with_bounds.moves == without.moves
        assert with_bounds.exact == without.exact
        straight = search(bounded, state, "alphabeta", **options)
        assert straight.value == without.value
        assert straight.move == without.move == with_bounds.move or straight.move in {
            move for move, value in without.moves if value == without.value
        }


@settings(max_examples=40, deadline=None)
@given(positions)
def test_alphabeta_with_bounds_equals_minimax(position: tuple[list[int], int, int]) -> None:
    cells, player, pits = position
    game = Kalah(pits, 1)
    state = Position(tuple(cells), player)
    assert search(game, state, "alphabeta", time=inf).value == search(game, state, "minimax", time=inf).value


@pytest.mark.parametrize(("pits", "seeds"), SMALL)
def test_a_straight_proof_with_bounds_finds_the_solvers_value(pits: int, seeds: int) -> None:
    """The search the benchmark runs: straight to the end, no deepening."""
    game = kalah(pits, seeds)
    state = game.initial_state()
    result = run(ENGINES["alphabeta"].searcher(game), state)
    assert result.exact and result.value == solved(state.board, 0)
    after = game.result(state, result.move)
    assert solved(after.board, after.player) * (1 if after.player == 0 else -1) == result.value
