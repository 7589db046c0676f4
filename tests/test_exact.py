"""The one exact solver (`nimmax.search.exact`) against independent truth: plain recursions of
`tests/theory.py` over Kalah (extra turns keep the mover) and Nim, every window it is asked in, and
its budget."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimmax import games
from nimmax.check.solver import States
from nimmax.search.exact import Exact, OutOfNodes
from nimmax.search.score import score_of

from .theory import kalah_solved_within, nim_end


def played(words: list[str], plies: int, seed: int) -> tuple[States, object]:
    """A game's states for the solver, and the position after `plies` random moves from the
    start."""
    game = games.create(words)
    state = game.initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(list(game.actions(state))))
    return States(game), state


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([(2, 2), (2, 3), (3, 1), (3, 2)]), st.integers(0, 6), st.integers(0, 10**6))
def test_kalah_scores_are_the_plain_recursions_margin_and_plies(
    board: tuple[int, int], plies: int, seed: int
) -> None:
    pits, seeds = board
    states, state = played(["kalah", "--pits", str(pits), "--seeds", str(seeds)], plies, seed)
    position = state.board, state.player  # type: ignore[attr-defined]
    margin, length = kalah_solved_within(*position)
    assert Exact(states).value(state) == score_of(margin, length)


@given(st.lists(st.integers(0, 3), min_size=1, max_size=3), st.booleans())
def test_nim_scores_are_the_plain_recursions(piles: list[int], normal: bool) -> None:
    states, state = played(["nim", *map(str, piles), *(["--normal"] if normal else [])], 0, 0)
    payoff, plies = nim_end(tuple(sorted(piles)), not normal)
    assert Exact(states).value(state) == score_of(payoff, plies)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 6),
    st.integers(0, 10**6),
    st.lists(st.tuples(st.integers(-3, 3), st.integers(1, 40)), max_size=6),
)
def test_every_window_gets_a_sound_fail_soft_answer_on_one_table(
    plies: int, seed: int, windows: list[tuple[int, int]]
) -> None:
    """Questions in narrow windows, one after another on one table (its bounds carried from each
    to the next), each answer true to the value a fresh solver finds: inside the window exact,
    outside a bound on the right side."""
    states, state = played(["kalah", "--pits", "3", "--seeds", "2"], plies, seed)
    truth = Exact(states).value(state)
    shared = Exact(states)
    scale = score_of(1, 0)
    for payoff, width in windows:
        alpha = payoff * scale - width
        beta = alpha + 2 * width
        found = shared.value(state, alpha, beta)
        if found <= alpha:
            assert truth <= found
        elif found >= beta:
            assert truth >= found
        else:
            assert found == truth
    assert shared.value(state) == truth


def test_a_question_past_its_budget_stops_and_keeps_what_it_proved() -> None:
    states, state = played(["tictactoe"], 0, 0)
    small = Exact(states, nodes=100)
    with pytest.raises(OutOfNodes):
        small.value(state)
    assert 0 < len(small.table) <= 101
    assert Exact(states).value(state) == 0.0  # tic-tac-toe is a draw
    deep = Exact(states, plies=3)
    with pytest.raises(OutOfNodes):
        deep.value(state)
