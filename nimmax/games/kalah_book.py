"""Kalah's endgame book: the value of every position with at most N seeds left in the pits,
computed once by nimmax itself and kept in the user's cache folder (`nimmax.cache`).

The future of a Kalah position depends on its pits alone: what the stores hold is banked. So
the mover's final margin is their store lead plus the value of the pits (the seeds the mover
banks from here on, less the opponent's), and a book of the pits serves every store lead. A
move that banks no seed keeps every seed in the mover's own row and moves it towards the
mover's store, so the positions with a given number of seeds form a DAG: the book is filled by
a memoized search over the pits, fewest seeds first, each child valued before its parent.

Beside the value the book keeps two distances, the plies to the end under the search's
tie-break (quickest win, slowest loss): one for a mover whose margin is positive (they hurry,
the opponent delays) and one for a mover whose margin is negative (they delay, the opponent
hurries); the store lead decides which applies. A draw's distance is no tie-break.

A position is seen by the mover: their pits from their left, then the opponent's from theirs,
`2m` numbers in all. It is found by its rank in the combinatorial number system (colex): with
prefix sums p_i of the pits, rank = sum of C(p_i + i, i + 1), a number below C(N + 2m, 2m)
for every position with at most N seeds. The book holds, per rank, the value (a signed byte;
-128 for a position that ends the game, which the book does not answer) and the two distances
(a byte each): three arrays of C(N + 2m, 2m) bytes.
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Callable, Sequence
from itertools import accumulate, combinations
from math import comb
from operator import getitem

from nimmax import cache
from nimmax.game import Known

FORMAT = 1
"""The version of the book's layout and rules: a cached book of another version is made again."""

SEEDS = {4: 14, 5: 11, 6: 11}
"""Seeds in the pits the book covers, by pits a side: each builds once, in a few seconds, inside
whatever search first reaches a covered position, a timed move included (`scripts/bench_kalah.py
--book` measures it); each seed more cuts some 30% of the nodes of a proof from the start. 6 pits
at 13 seeds would prove Kalah(6,3) in 50 s (4.9 M nodes, against 12.4 M and 155 s at 11), but its
first build takes 10 s, which a timed Kalah(6,4) move from the start pays; a board of fewer pits
is searched to the end at once without a book."""

UNKNOWN = -128
"""The value of a rank no position asks for: one whose pits leave a side without seeds (the end)."""

Row = tuple[int, ...]


def ranking(pits: int, seeds: int) -> list[list[int]]:
    """Per cell of the mover's view, the rank's term by the prefix sum there: C(p + i, i + 1)."""
    return [[comb(prefix + cell, cell + 1) for prefix in range(seeds + 1)] for cell in range(2 * pits)]


class Book:
    """The values and distances of every position of `pits` pits a side with at most `seeds`
    seeds in them, by rank (see the module docstring)."""

    def __init__(self, pits: int, seeds: int, values: array[int], wins: bytes, losses: bytes) -> None:
        self.pits, self.seeds = pits, seeds
        self.values, self.wins, self.losses = values, wins, losses
        self.terms = ranking(pits, seeds)

    def rank(self, view: Sequence[int]) -> int:
        """The rank of the mover's view (their pits, then the opponent's), at most `seeds` seeds."""
        return sum(map(getitem, self.terms, accumulate(view)))

    def probe(self, view: Sequence[int], lead: int) -> Known | None:
        """The mover's final margin with this view and store lead, and the plies to the end; None
        where the book is silent (more seeds than it covers, or a finished game)."""
        if sum(view) > self.seeds:
            return None
        rank = self.rank(view)
        value = self.values[rank]
        if value == UNKNOWN:
            return None
        payoff = lead + value
        return Known(float(payoff), self.losses[rank] if payoff < 0 else self.wins[rank], True)

    def encode(self) -> bytes:
        """The book as it is kept: its three arrays, one after the other."""
        return self.values.tobytes() + self.wins + self.losses

    @classmethod
    def decode(cls, pits: int, seeds: int, data: bytes) -> Book:
        """The book `encode` gave; ValueError if `data` is not the size of this book."""
        size = comb(seeds + 2 * pits, 2 * pits)
        if len(data) != 3 * size:
            raise ValueError(f"a Kalah book of {pits} pits and {seeds} seeds holds {3 * size} bytes, not {len(data)}")
        values = array("b")
        values.frombytes(data[:size])
        return cls(pits, seeds, values, data[size : 2 * size], data[2 * size :])


class Sowings:
    """What sowing each pit of each row does, for a row of the mover's seen alone: the rows (every
    way of putting at most `seeds` seeds in `pits` pits, by rank), and per row its moves."""

    def __init__(self, pits: int, seeds: int) -> None:
        self.pits, self.seeds = pits, seeds
        self.lap = 2 * pits + 1
        count = comb(seeds + pits, pits)
        rows: list[Row] = [()] * count
        for bars in combinations(range(seeds + pits), pits):
            row = (bars[0], *(bars[cell] - bars[cell - 1] - 1 for cell in range(1, pits)))
            rows[sum(comb(bar, cell + 1) for cell, bar in enumerate(bars))] = row
        self.rows = rows
        self.sums = [sum(row) for row in rows]
        self.index = {row: rank for rank, row in enumerate(rows)}
        """Rows by their rank: a small table (C(seeds + pits, pits) rows) used while building."""
        self.fills: dict[tuple[int, int], list[int]] = {}
        """Per (laps, rest): each row's rank after a seed more in every pit per lap and one more
        in its first `rest` pits; -1 past `seeds`. Made as the moves need them."""
        self.moves = [self._moves(row) for row in rows]
        self.emptied = [[self.index[(*row[:pit], 0, *row[pit + 1 :])] for pit in range(pits)] for row in rows]
        """Per row, its rank with each pit emptied (by a capture)."""
        self.offsets = self._offsets()
        """A view's rank less its first row's rank, by that row's seeds, then the second row's rank."""

    def _offsets(self) -> list[list[int]]:
        """A view's rank less its first row's rank, by that row's seeds, then the second row's rank."""
        terms = [[0] * (self.seeds + 1), *ranking(self.pits, self.seeds)[self.pits :]]  # a term for the first row
        counts = [comb(left + self.pits, self.pits) for left in range(self.seeds + 1)]  # rows of at most `left` seeds
        return [
            [
                sum(map(getitem, terms, accumulate(self.rows[second], initial=seeds)))
                for second in range(counts[-1 - seeds])
            ]
            for seeds in range(self.seeds + 1)
        ]

    def _moves(self, row: Row) -> list[tuple[int, int, int, list[int], int]]:
        """Each move of `row`: the row after it, its seeds, the seeds banked in the store, what the
        opponent's row becomes (`fills`), and where the last seed falls: a pit of the row where it
        may capture, -1 the store (another turn), -2 elsewhere."""
        pits, lap = self.pits, self.lap
        moves = []
        for pit, seeds in enumerate(row):
            if not seeds:
                continue
            laps, rest = divmod(seeds, lap)
            after = [count + laps for count in row]
            after[pit] = laps
            banked, theirs = laps, 0
            path = [*range(pit + 1, pits), -1, *([-2] * pits), *range(pit + 1)]
            for cell in path[:rest]:
                if cell >= 0:
                    after[cell] += 1
                elif cell == -1:
                    banked += 1
                else:
                    theirs += 1
            last = path[(seeds - 1) % lap]
            if last >= 0 and after[last] != 1:
                last = -2  # a pit that held seeds: no capture
            fill = (laps, theirs)
            if fill not in self.fills:
                self.fills[fill] = [self._filled(other, laps, theirs) for other in self.rows]
            moves.append((self.index[tuple(after)], sum(after), banked, self.fills[fill], last))
        return moves

    def _filled(self, row: Row, laps: int, rest: int) -> int:
        """The rank of `row` with `laps` more seeds in every pit and one more in its first `rest`; -1 past `seeds`."""
        if sum(row) + laps * self.pits + rest > self.seeds:
            return -1
        return self.index[tuple(count + laps + (cell < rest) for cell, count in enumerate(row))]


def build(pits: int, seeds: int, advance: cache.Advance = cache.nothing) -> Book:
    """The book of `pits` pits a side and at most `seeds` seeds, valued by a memoized search over
    the pits; `advance` is told how many positions are done."""
    if seeds * (pits + 1) > 255:
        raise ValueError(f"a Kalah book of {pits} pits holds distances of a byte: {seeds} seeds is too many")
    sowings = Sowings(pits, seeds)
    size = comb(seeds + 2 * pits, 2 * pits)
    values = array("b", [UNKNOWN]) * size
    wins, losses = bytearray(size), bytearray(size)
    solve = _solver(sowings, values, wins, losses)
    offsets = sowings.offsets
    done = len(offsets[0])  # the views whose first row is empty: the game is over
    for mine in range(1, len(sowings.rows)):
        shift = offsets[sowings.sums[mine]]
        for theirs in range(1, len(shift)):
            rank = mine + shift[theirs]
            if values[rank] == UNKNOWN:
                solve(mine, theirs, rank)
        done += len(shift)
        advance(done)
    return Book(pits, seeds, values, bytes(wins), bytes(losses))


def _solver(
    sowings: Sowings, values: array[int], wins: bytearray, losses: bytearray
) -> Callable[[int, int, int], None]:
    """What values one position, given its rows' ranks and its own, once its children are valued
    (valuing those not yet valued first): its value and its two distances (see the module docstring)."""
    rows, sums, moves, emptied, offsets = sowings.rows, sowings.sums, sowings.moves, sowings.emptied, sowings.offsets
    facing = sowings.pits - 1  # the opponent's pit across from the mover's pit p is facing - p

    def solve(mine: int, theirs: int, rank: int) -> None:
        best, hurry, delay = -256, 255, 0
        for after, left, banked, fills, last in moves[mine]:
            filled = fills[theirs]
            other = sums[filled]
            if last >= 0 and (captured := rows[filled][facing - last]):
                banked += captured + 1
                after, left = emptied[after][last], left - 1
                filled, other = emptied[filled][facing - last], other - captured
            if not left or not other:  # the game ends: each side keeps the seeds on its row
                score, win, loss = banked + left - other, 0, 0
            elif last == -1:  # another turn: the view stays the mover's
                child = after + offsets[left][filled]
                if values[child] == UNKNOWN:
                    solve(after, filled, child)
                score = banked + values[child]
                if score < best:
                    continue
                win, loss = wins[child], losses[child]
            else:
                child = filled + offsets[other][after]
                if values[child] == UNKNOWN:
                    solve(filled, after, child)
                score = banked - values[child]
                if score < best:
                    continue
                win, loss = losses[child], wins[child]
            if score > best:
                best, hurry, delay = score, win, loss
            elif score == best:
                hurry, delay = min(hurry, win), max(delay, loss)
        values[rank], wins[rank], losses[rank] = best, hurry + 1, delay + 1

    return solve


@functools.cache
def shelved(pits: int, seeds: int) -> Book:
    """The book of `pits` pits and `seeds` seeds, read once per process from the user's cache, or
    built (and kept there) the first time it is needed."""
    name = f"kalah-{pits}-{seeds}.book"
    what = f"the Kalah endgame book ({pits} pits, {seeds} seeds)"
    steps = comb(seeds + 2 * pits, 2 * pits)
    data = cache.kept(name, FORMAT, what, lambda advance: build(pits, seeds, advance).encode(), steps)
    return Book.decode(pits, seeds, data)
