"""Scores keep a payoff and a distance apart: split takes them apart, and an entry stored less an
offset reads back true at any other offset (the distance only while the payoff keeps its sign)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from nimmax.search.score import (
    EXACT,
    HALF,
    LOWER,
    PAYOFF,
    SCALE,
    UPPER,
    payoff_range,
    rebase,
    score_of,
    split,
)

payoffs = st.integers(-40, 40)
distances = st.integers(1, HALF - 1)


@given(payoffs, distances)
def test_split_takes_a_score_apart(payoff: int, plies: int) -> None:
    assert split(score_of(payoff, plies)) == (payoff, plies if payoff else 0)


@given(payoffs, distances, st.integers(-40, 40), st.integers(-40, 40))
def test_an_exact_entry_keeps_its_distance_while_its_payoff_keeps_its_sign(
    relative: int, plies: int, stored_at: int, read_at: int
) -> None:
    stored = score_of(relative + stored_at, plies) - stored_at * SCALE
    bound, score = rebase(EXACT, stored, read_at * SCALE)
    then, now = relative + stored_at, relative + read_at
    if now == 0 or (then > 0) == (now > 0) and then != 0 and (then < 0) == (now < 0):
        assert (bound, score) == (EXACT, score_of(now, plies))
    else:  # a draw kept no distance, and a turned sign chose the distance by the other order
        assert (bound, split(score)[0]) == (PAYOFF, now)


def sign(payoff: int) -> int:
    return (payoff > 0) - (payoff < 0)


@given(
    payoffs,
    distances,
    st.integers(-40, 40),
    st.integers(-40, 40),
    st.booleans(),
    payoffs,
    distances,
)
def test_a_bound_read_at_another_offset_still_holds(
    relative: int,
    plies: int,
    stored_at: int,
    read_at: int,
    lower: bool,
    true_relative: int,
    true_plies: int,
) -> None:
    """Whatever true value the bound held for at the offset it was stored at, it holds for that
    value at the offset it is read at (whose distance is any where its payoff's sign turned)."""
    bound_score = score_of(relative + stored_at, plies)
    true_then, true_now = true_relative + stored_at, true_relative + read_at
    true_score = score_of(true_then, true_plies)
    if not (true_score >= bound_score if lower else true_score <= bound_score):
        return  # the bound does not hold for this value at the offset it was proven at
    if sign(true_then) == sign(true_now):
        least = most = score_of(true_now, true_plies)
    else:
        least, most = payoff_range(true_now)
    bound, score = rebase(
        LOWER if lower else UPPER, bound_score - stored_at * SCALE, read_at * SCALE
    )
    assert bound == (LOWER if lower else UPPER)
    assert least >= score if lower else most <= score
