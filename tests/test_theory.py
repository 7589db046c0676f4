"""The oracles in tests/theory.py against values worked out by hand, so no engine test rests on a
slip."""

from __future__ import annotations

from .theory import (
    mex,
    nim_mover_wins,
    nim_sum,
    simple_nim_mover_wins,
    simple_nim_tree_size,
    split_nim_mover_wins,
)


def test_nim_sum_and_mex() -> None:
    # 010 ^ 011 ^ 101 = 100
    assert nim_sum([2, 3, 5]) == 4 and nim_sum([1, 2, 3]) == 0 and nim_sum([]) == 0
    assert mex([]) == 0 and mex([1, 2]) == 0 and mex([0, 1, 3]) == 2 and mex([2, 0, 1, 1]) == 3


def test_bouton_on_hand_played_positions() -> None:
    assert nim_mover_wins([2, 3, 5], misere=True) and nim_mover_wins([2, 3, 5], misere=False)
    assert not nim_mover_wins([1, 2, 3], misere=True) and not nim_mover_wins(
        [1, 2, 3], misere=False
    )
    # Only ones: the misère mover wants an even number of them, the normal mover an odd number.
    assert nim_mover_wins([1, 1], misere=True) and not nim_mover_wins([1, 1], misere=False)
    assert not nim_mover_wins([1, 1, 1], misere=True) and nim_mover_wins([1, 1, 1], misere=False)
    # the last taker lost / won
    assert nim_mover_wins([], misere=True) and not nim_mover_wins([], misere=False)


def test_simple_nim_and_split_nim_on_small_cases() -> None:
    assert [n for n in range(10) if not simple_nim_mover_wins(n, 3, misere=True)] == [1, 5, 9]
    assert [n for n in range(10) if not simple_nim_mover_wins(n, 3, misere=False)] == [0, 4, 8]
    # A pile of 3 splits only into 2+1, after which no move is left: the mover wins; 4 -> 3+1 loses.
    assert (
        split_nim_mover_wins([3])
        and not split_nim_mover_wins([4])
        and not split_nim_mover_wins([3, 3])
    )


def test_simple_nim_tree_sizes() -> None:
    # t(0) = 1; t(1) = 1 + 1; t(2) = 1 + 2 + 1; t(3) = 1 + 4 + 2 + 1; t(4) = 1 + 8 + 4 + 2; ...
    assert [simple_nim_tree_size(n) for n in range(8)] == [1, 2, 4, 8, 15, 28, 52, 96]
