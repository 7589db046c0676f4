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
from nimmax.games.kalah import Kalah
from nimmax.games.kalah_position import Position
from nimmax.search import ENGINES, SCALE, run, search
from nimmax.search.alphabeta import AlphaBeta, boundary, payoffs
from nimmax.search.deepening import search_root
from nimmax.search.minimax import Minimax
from nimmax.search.score import FULL_DEPTH, HALF, score_range

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
    return distance.map(
        lambda plies: float(payoff * SCALE - plies if payoff > 0 else payoff * SCALE + plies)
    )


@given(st.integers(-60, 60).flatmap(lambda payoff: st.tuples(st.just(payoff), scores(payoff))))
def test_every_score_lies_between_the_boundaries_of_its_payoff(pair: tuple[int, float]) -> None:
    payoff, score = pair
    assert payoffs(score, score) == (payoff, payoff)
    assert boundary(payoff - 1) < score < boundary(payoff)
    assert boundary(payoff - 1) + 1 < score  # a null window (b, b + 1) never holds a score


@given(st.integers(-60, 60), st.integers(0, 40), st.data())
def test_score_range_holds_every_score_of_payoffs_within_bounds(
    low: int, width: int, data: st.DataObject
) -> None:
    high = low + width
    payoff = data.draw(st.integers(low, high))
    score = data.draw(scores(payoff))
    least, most = score_range(low, high)
    assert least <= score <= most


@settings(max_examples=60)
@given(positions)
def test_bounds_hold_the_perfect_play_margin_and_the_evaluation(
    position: tuple[list[int], int, int],
) -> None:
    cells, player, pits = position
    game = Kalah(pits, 1)
    state = Position(tuple(cells), player)
    low, high = game.utility_bounds(state)
    assert low <= solved(state.board, player) <= high
    assert low <= game.evaluate(state, player) <= high


@settings(max_examples=60, deadline=None)
@given(boards(4, 3))
def test_alphabeta_with_bounds_equals_alphabeta_without_them(
    position: tuple[list[int], int, int],
) -> None:
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
    assert (
        search(game, state, "alphabeta", time=inf).value
        == search(game, state, "minimax", time=inf).value
    )


@pytest.mark.parametrize(("pits", "seeds"), SMALL)
def test_a_straight_proof_with_bounds_finds_the_solvers_value(pits: int, seeds: int) -> None:
    """The search the benchmark runs: straight to the end, no deepening."""
    game = kalah(pits, seeds)
    state = game.initial_state()
    result = run(ENGINES["alphabeta"].searcher(game), state)
    assert result.exact and result.value == solved(state.board, 0)
    after = game.result(state, result.move)
    assert solved(after.board, after.player) * (1 if after.player == 0 else -1) == result.value


# -- keys on the pits alone, the store lead as the offset ------------------------------------


class Unkeyed(Kalah):
    """Kalah that keys its table on the whole position (pits and lead), as before offset keys."""

    capabilities = Kalah.capabilities - {Capability.OFFSET_KEY}


def restocked(state: Position, lead: int) -> Position:
    """The same pits and mover with the stores moved so that South leads by `lead` (as seeds
    allow)."""
    board, pits = list(state.board), state.pits
    total = board[pits] + board[-1]
    south = max(0, min(total, (total + lead) // 2))
    board[pits], board[-1] = south, total - south
    return Position(tuple(board), state.player)


@settings(max_examples=60, deadline=None)
@given(boards(3, 3), st.integers(-6, 6))
def test_offset_keys_equal_whole_keys_and_minimax_over_a_shared_table(
    position: tuple[list[int], int, int], lead: int
) -> None:
    """One table serves two positions of the same pits and different leads, so entries are read back
    at another offset (a payoff changing sign among them): every score, distance included, is the
    one a search keyed on the whole position finds, and minimax's."""
    cells, player, pits = position
    state = Position(tuple(cells), player)
    keyed, whole = Kalah(pits, 1), Unkeyed(pits, 1)
    other = restocked(state, lead)
    if keyed.is_terminal(state):
        return
    shared = AlphaBeta(keyed)
    for at in (state, other, state):
        best, _, scored = search_root(shared, at, FULL_DEPTH, every_move=True)
        plain, _, plain_scored = search_root(AlphaBeta(whole), at, FULL_DEPTH, every_move=True)
        oracle, _, _ = search_root(Minimax(whole, cache=True), at, FULL_DEPTH, every_move=False)
        assert best == plain == oracle
        assert sorted(scored) == sorted(plain_scored)
    for options in ({"time": inf}, {"depth": 3}):
        with_offsets = search(keyed, other, "alphabeta", every_move=True, **options)
        without = search(whole, other, "alphabeta", every_move=True, **options)
        assert (with_offsets.value, with_offsets.moves, with_offsets.exact) == (
            without.value,
            without.moves,
            without.exact,
        )
    cached = search(keyed, other, "minimax", cache=True, time=inf)
    assert cached.value == search(whole, other, "minimax", cache=True, time=inf).value


def test_kalah_keys_its_table_on_the_pits_with_the_movers_lead_as_offset() -> None:
    game = Kalah(3, 2)
    state = Position((2, 0, 1, 5, 1, 2, 0, 1), 0)
    other = Position((2, 0, 1, 1, 1, 2, 0, 5), 0)
    (key, offset), (other_key, other_offset) = game.keyed(state), game.keyed(other)
    assert key == other_key and (offset, other_offset) == (4, -4)
    # North to move with South's pits: the same view
    mirrored = Position((1, 2, 0, 1, 2, 0, 1, 5), 1)
    assert game.keyed(mirrored) == (key, 4)
