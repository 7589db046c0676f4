"""The Nim family's moves: takes and splits, made lazily as they are asked for (a pile may hold a
billion counters), with the winning take first where Bouton's theorem names one."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import reduce
from itertools import chain, repeat
from operator import xor
from typing import NamedTuple, TypeVar, cast, overload


class Take(NamedTuple):
    """Take `amount` counters from pile `pile` (0-based; shown 1-based)."""

    pile: int
    amount: int


class Split(NamedTuple):
    """Split pile `pile` (0-based) into two unequal piles, `larger` and `smaller`."""

    pile: int
    larger: int
    smaller: int


M = TypeVar("M")

_new = tuple.__new__
"""Builds a named tuple from a plain one with no Python-level constructor: the hot path."""


class LazyMoves(Sequence[M]):
    """A sequence of moves made as they are asked for: a subclass gives `__len__`, `__iter__`,
    `__contains__` (each O(1) or O(piles), never O(moves)) and `at(position)`."""

    __slots__ = ()

    def at(self, position: int) -> M:
        """The move at `position`, 0 <= position < len(self)."""
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> M: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[M]: ...

    def __getitem__(self, index: int | slice) -> M | Sequence[M]:
        size = len(self)
        if isinstance(index, slice):
            return [self.at(position) for position in range(*index.indices(size))]
        position = index + size if index < 0 else index
        if not 0 <= position < size:
            raise IndexError("move index out of range")
        return self.at(position)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {len(self)} moves>"


class Moves(LazyMoves[M]):
    """`first` (when not None), then the moves of `rest` but `first`: a lazy sequence with the
    best move in front, however many moves `rest` holds."""

    __slots__ = ("first", "rest")

    def __init__(self, first: M | None, rest: Sequence[M]) -> None:
        self.first, self.rest = first, rest

    def __len__(self) -> int:
        return len(self.rest)

    def __contains__(self, move: object) -> bool:
        return move in self.rest

    def __iter__(self) -> Iterator[M]:
        first = self.first
        if first is None:
            return iter(self.rest)
        return chain((first,), filter(first.__ne__, self.rest))

    def at(self, position: int) -> M:
        first = self.first
        if first is None:
            return self.rest[position]
        if position == 0:
            return first
        # The moves of `rest` before `first` shift one place on; those after it stay put.
        return (
            self.rest[position - 1]
            if position - 1 < self.rest.index(first)
            else self.rest[position]
        )


class Takes(LazyMoves["Take"]):
    """Every take from `piles`: the largest pile first, the most counters first (big moves first
    is a cheap order that finds refutations early)."""

    __slots__ = ("piles",)

    def __init__(self, piles: tuple[int, ...]) -> None:
        self.piles = piles

    def order(self) -> list[int]:
        """The pile indexes, largest pile first (ties in pile order)."""
        return sorted(range(len(self.piles)), key=self.piles.__getitem__, reverse=True)

    def __len__(self) -> int:
        return sum(self.piles)

    def __contains__(self, move: object) -> bool:
        return is_take(self.piles, move)

    def __iter__(self) -> Iterator[Take]:
        piles = self.piles
        # map(_new, ...) makes each Take in C: no Python frame per move.
        return chain.from_iterable(
            map(_new, repeat(Take), zip(repeat(pile), range(piles[pile], 0, -1)))
            for pile in self.order()
        )

    def at(self, position: int) -> Take:
        for pile in self.order():
            size = self.piles[pile]
            if position < size:
                return Take(pile, size - position)
            position -= size
        raise IndexError("move index out of range")

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        """The place of a take, in O(piles) rather than by a scan of the moves."""
        if value not in self or start or stop is not None:
            return super().index(value, start, *(() if stop is None else (stop,)))
        pile, amount = cast(Take, value)
        order = self.order()
        return (
            sum(self.piles[other] for other in order[: order.index(pile)])
            + self.piles[pile]
            - amount
        )


class Splits(LazyMoves["Split"]):
    """Every split of `piles`: pile by pile, the smaller part growing."""

    __slots__ = ("piles",)

    def __init__(self, piles: tuple[int, ...]) -> None:
        self.piles = piles

    def __len__(self) -> int:
        return sum((size - 1) // 2 for size in self.piles if size > 2)

    def __contains__(self, move: object) -> bool:
        return is_split(self.piles, move)

    def __iter__(self) -> Iterator[Split]:
        return (
            _new(Split, (pile, size - smaller, smaller))
            for pile, size in enumerate(self.piles)
            if size > 2
            for smaller in range(1, (size + 1) // 2)
        )

    def at(self, position: int) -> Split:
        for pile, size in enumerate(self.piles):
            splits = max(0, (size - 1) // 2)
            if position < splits:
                return Split(pile, size - position - 1, position + 1)
            position -= splits
        raise IndexError("move index out of range")


def is_take(piles: tuple[int, ...], move: object) -> bool:
    """True when `move` takes one or more counters from one of `piles`, no more than it holds."""
    if not (isinstance(move, tuple) and len(move) == 2):
        return False
    pile, amount = move
    return (
        isinstance(pile, int)
        and isinstance(amount, int)
        and 0 <= pile < len(piles)
        and 1 <= amount <= piles[pile]
    )


def is_split(piles: tuple[int, ...], move: object) -> bool:
    """True when `move` splits one of `piles` into two unequal non-empty piles."""
    if not (isinstance(move, tuple) and len(move) == 3):
        return False
    pile, larger, smaller = move
    return (
        isinstance(pile, int)
        and isinstance(larger, int)
        and isinstance(smaller, int)
        and 0 <= pile < len(piles)
        and larger > smaller >= 1
        and larger + smaller == piles[pile]
    )


def winning_take(piles: tuple[int, ...], misere: bool) -> Take | None:
    """A take that wins by Bouton's theorem, or None where every take loses (or all are alike).

    Normal play: leave a nim-sum of 0. Misère play: the same while two piles or more exceed
    one counter; with one such pile, leave an odd number of single counters.
    """
    if misere:
        ones = piles.count(1)
        big = len(piles) - piles.count(0) - ones  # piles of two counters or more
        if not big:
            return None
        if big == 1:
            pile = piles.index(max(piles))
            return Take(pile, piles[pile] - (0 if ones % 2 else 1))
    total = reduce(xor, piles, 0)
    if not total:
        return None
    for pile, size in enumerate(piles):
        if size ^ total < size:
            return Take(pile, size - (size ^ total))
    return None  # unreachable: the highest bit of a non-zero nim-sum is set in some pile


def nim_mover_wins(piles: tuple[int, ...], misere: bool) -> bool:
    """Bouton's theorem: the mover wins iff the nim-sum is not 0; in misère play with no pile
    above one counter, iff the piles left are even in number."""
    if misere and max(piles, default=0) <= 1:
        return not sum(piles) % 2
    return reduce(xor, piles, 0) != 0


def grundy(pile: int, values: list[int]) -> int:
    """Split-Nim's (Grundy's game's) value of one pile: the mex over its splits, every smaller
    pile's value worked out once (`values`, the caller's table of piles 0, 1, 2, ..., grown as
    larger piles are asked for)."""
    for size in range(len(values), pile + 1):
        seen = {values[size - smaller] ^ values[smaller] for smaller in range(1, (size + 1) // 2)}
        values.append(next(value for value in range(len(seen) + 1) if value not in seen))
    return values[pile]
