"""The Nim family's theory as its book: Bouton's nim-sum, Simple-Nim's period and Split-Nim's
Grundy values answer exactly and at once, checked against tests/theory.py, not against nimmax."""

from __future__ import annotations

import json
import time
from functools import reduce
from operator import xor
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from nimmax import games
from nimmax.game import AnyGame, Booked, Capability, part
from nimmax.games.nim import MAX_PILE, Pile, Piles
from nimmax.search import search

from .cli_helpers import nimmax_in_process
from .theory import nim_end, nim_mover_wins, simple_nim_end, split_nim_mover_wins


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=1, max_size=4), st.booleans())
def test_nim_book_agrees_with_plain_recursion(piles: list[int], misere: bool) -> None:
    """Small piles: the payoff, and the plies exactly where the book says so (else a bound)."""
    game = games.create(["nim", *map(str, piles), *([] if misere else ["--normal"])])
    state = Piles(tuple(piles), 0)
    if game.is_terminal(state):
        return
    known = booked(game).book(state)
    assert known is not None
    payoff, plies = nim_end(tuple(sorted(piles)), misere)
    assert known.payoff == payoff
    assert known.plies == plies if known.exact else known.plies >= plies


@given(st.lists(st.integers(0, MAX_PILE), min_size=1, max_size=6), st.booleans())
def test_nim_book_follows_bouton_for_any_piles(piles: list[int], misere: bool) -> None:
    game = games.create(["nim", *map(str, piles), *([] if misere else ["--normal"])])
    state = Piles(tuple(piles), 0)
    if game.is_terminal(state):
        return
    known = booked(game).book(state)
    assert known is not None and known.payoff == (1 if nim_mover_wins(piles, misere=misere) else -1)
    assert known.plies >= 1 and (known.exact or known.plies == sum(piles))


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 60), st.integers(1, 7), st.booleans())
def test_simple_nim_book_is_exact(counters: int, max_take: int, misere: bool) -> None:
    game = games.create(
        [
            "simple-nim",
            str(counters),
            "--max-take",
            str(max_take),
            *([] if misere else ["--normal"]),
        ]
    )
    known = booked(game).book(Pile(counters, 0))
    assert known is not None and known.exact
    assert (known.payoff, known.plies) == simple_nim_end(counters, max_take, misere)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 60), min_size=1, max_size=4))
def test_split_nim_book_follows_sprague_grundy(piles: list[int]) -> None:
    game = games.create(["split-nim", *map(str, piles)])
    state = Piles(tuple(piles), 0)
    if game.is_terminal(state):
        return
    known = booked(game).book(state)
    assert known is not None and known.payoff == (1 if split_nim_mover_wins(piles) else -1)
    assert known.plies >= 1  # a split lowers the counters past two of some pile


def test_huge_nim_is_solved_at_once_with_a_winning_move() -> None:
    """Issue 40: this ran 15 minutes valuing root moves one by one; Bouton answers at once."""
    started = time.perf_counter()
    run = nimmax_in_process("solve", "nim", "1000000000", "999999999", "7", "--normal", "--json")
    assert run.returncode == 0, run.stderr
    assert time.perf_counter() - started < 5  # under a second alone; generous under a loaded CI
    record = json.loads(run.stdout)
    assert record["value"] == 1 and record["exact"] is True and record["nodes"] <= 2000
    pile, take = map(int, record["best_move"].split(":"))
    piles = [1_000_000_000, 999_999_999, 7]
    piles[pile - 1] -= take
    assert reduce(xor, piles) == 0  # Bouton: the winning move leaves a nim-sum of 0
    assert record["best_move"] == "1:8"
    assert all(move["value"] in (1, -1) for move in record["moves"])


def test_a_timed_solve_of_nim_proves_every_move_it_lists() -> None:
    """Issue 40: `solve nim 60 70 80 90` showed every move "0 · heuristic estimate" in a game
    without draws."""
    run = nimmax_in_process("solve", "nim", "60", "70", "80", "90", "--time", "1", "--json")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["exact"] is True and record["value"] == (
        1 if nim_mover_wins([60, 70, 80, 90], misere=True) else -1
    )
    assert all(move["value"] != 0 for move in record["moves"])


def test_the_book_answers_a_play_time_search_with_a_proof() -> None:
    game = games.create("nim 60 70 80 90 --normal")
    result = search(game, game.initial_state(), "alphabeta", time=0.5)
    assert result.exact and result.value == (
        1 if nim_mover_wins([60, 70, 80, 90], misere=False) else -1
    )


def booked(game: AnyGame) -> Booked[Any]:
    """The game's book, which every Nim declares."""
    own = part(game, Capability.BOOK)
    assert own is not None
    return own
