"""Game theory the tests check nimmax against, computed here without nimmax's engines or games.

Nim by Bouton's theorem, Split-Nim (Grundy's game) by Sprague-Grundy values found by mex,
Simple-Nim by its period, and the size of plain minimax's tree on Simple-Nim by its recurrence.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache


def nim_sum(piles: Iterable[int]) -> int:
    """The nim-sum: the pile sizes added in binary without carry (exclusive or); 0 for no piles."""
    total = 0
    for pile in piles:
        total ^= pile
    return total


def nim_mover_wins(piles: Iterable[int], *, misere: bool) -> bool:
    """Bouton's theorem: the mover wins iff the nim-sum is not 0, except in misère play with no
    pile above one, where the mover wins iff the number of ones is even."""
    piles = list(piles)
    if misere and all(pile <= 1 for pile in piles):
        return sum(piles) % 2 == 0
    return nim_sum(piles) != 0


def mex(values: Iterable[int]) -> int:
    """The minimum excludant: the least whole number not among `values`."""
    present = set(values)
    return next(value for value in range(len(present) + 1) if value not in present)


@cache
def grundy(pile: int) -> int:
    """Grundy value of one Split-Nim pile: the mex over every split into two unequal parts."""
    return mex(grundy(pile - smaller) ^ grundy(smaller) for smaller in range(1, (pile + 1) // 2))


def split_nim_mover_wins(piles: Iterable[int]) -> bool:
    """Sprague-Grundy: a sum of games is won by the mover iff the nim-sum of their values is not 0."""
    return nim_sum(grundy(pile) for pile in piles) != 0


def simple_nim_mover_wins(counters: int, max_take: int, *, misere: bool) -> bool:
    """Take 1..max_take: the mover loses exactly on 1 (misère) or 0 (normal) modulo max_take + 1."""
    return counters % (max_take + 1) != (1 if misere else 0)


def simple_nim_tree_size(counters: int) -> int:
    """Nodes plain minimax visits on Simple-Nim taking 1 to 3: t(n) = 1 + t(n-1) + t(n-2) + t(n-3),
    t(0) = 1 and t(negative) = 0 (the root plus the tree after each move)."""
    sizes = [1]
    for n in range(1, counters + 1):
        sizes.append(1 + sum(sizes[n - take] for take in (1, 2, 3) if take <= n))
    return sizes[counters]
