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

So the book of N seeds is the first ranks of every wider one: a book grows a layer (the positions
of exactly s seeds) at a time from a narrower one, and stopped between layers it is a whole book
of fewer seeds. The cache keeps one book per pits, the widest made: a timed search builds it small
(BASE) and reads whatever is wider, a solve to the end widens it (WIDE).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping, Sequence
from itertools import accumulate, combinations
from math import comb
from operator import getitem
from types import MappingProxyType

from nimmax import cache
from nimmax.game import Known

FORMAT = 1
"""The version of the book's layout and rules: a cached book of another version is made again."""

BASE: Mapping[int, int] = MappingProxyType({4: 14, 5: 11, 6: 8})
"""Seeds in the pits the book covers at the least, by pits a side: what a search that cannot wait
(a timed move) builds, in a fraction of a second, the first time it reaches a covered position on
a machine whose cache holds no book; a board of fewer pits is searched to the end at once without
one. A wider book in the cache serves every search."""

WIDE: Mapping[int, int] = MappingProxyType({4: 14, 5: 13, 6: 14})
"""Seeds the book covers where the search may wait (`cache.Work.patient`: an exact solve without a
clock): widened once, from the layers the cache holds, with a progress bar, and kept for every later
search, since each seed more cuts the nodes of a proof from the start (`scripts/bench_kalah.py
--book` measures it)."""

Halted = Callable[[], bool]
"""Asked between rows of the build: whether to stop now."""

UNKNOWN = -128
"""The value of a rank no position asks for: one whose pits leave a side without seeds (the end)."""

Row = tuple[int, ...]


def ranking(pits: int, seeds: int) -> list[list[int]]:
    """Per cell of the mover's view, the rank's term by the prefix sum there: C(p + i, i + 1)."""
    return [
        [comb(prefix + cell, cell + 1) for prefix in range(seeds + 1)] for cell in range(2 * pits)
    ]


class Book:
    """The values and distances of every position of `pits` pits a side with at most `seeds`
    seeds in them, by rank (see the module docstring)."""

    def __init__(
        self, pits: int, seeds: int, values: array[int], wins: bytes, losses: bytes
    ) -> None:
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
    def decode(cls, pits: int, data: bytes) -> Book:
        """The book `encode` gave, its seeds told by its size; ValueError if `data` is the size of
        no book of `pits` pits."""
        seeds, size = 0, 1
        while 3 * size < len(data):
            seeds += 1
            size = comb(seeds + 2 * pits, 2 * pits)
        if len(data) != 3 * size or seeds * (pits + 1) > 255:
            raise ValueError(f"{len(data):,} bytes are the size of no Kalah book of {pits} pits")
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
        self.emptied = [
            [self.index[(*row[:pit], 0, *row[pit + 1 :])] for pit in range(pits)] for row in rows
        ]
        """Per row, its rank with each pit emptied (by a capture)."""
        self.offsets = self._offsets()
        """A view's rank less its first row's rank, by that row's seeds, then the second row's
        rank."""

    def _offsets(self) -> list[list[int]]:
        """A view's rank less its first row's rank, by that row's seeds, then the second row's
        rank."""
        # a term for the first row
        terms = [[0] * (self.seeds + 1), *ranking(self.pits, self.seeds)[self.pits :]]
        # rows of at most `left` seeds
        counts = [comb(left + self.pits, self.pits) for left in range(self.seeds + 1)]
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
        """The rank of `row` with `laps` more seeds in every pit and one more in its first `rest`;
        -1 past `seeds`."""
        if sum(row) + laps * self.pits + rest > self.seeds:
            return -1
        return self.index[tuple(count + laps + (cell < rest) for cell, count in enumerate(row))]


def build(
    pits: int,
    seeds: int,
    advance: cache.Advance = cache.nothing,
    start: Book | None = None,
    halted: Halted = cache.never,
) -> Book:
    """The book of `pits` pits a side and at most `seeds` seeds, valued by a memoized search over
    the pits, layer by layer (the positions of s seeds need only those of at most s), from the
    layers of `start` (a narrower book) on; `advance` is told how many new positions are done.
    Asked to stop (`halted`, checked between rows), it gives the layers finished by then."""
    if seeds * (pits + 1) > 255:
        raise ValueError(
            f"a Kalah book of {pits} pits holds distances of a byte: {seeds} seeds is too many"
        )
    sowings = Sowings(pits, seeds)
    size, first = comb(seeds + 2 * pits, 2 * pits), start.seeds + 1 if start is not None else 1
    values = array("b", [UNKNOWN]) * size
    wins, losses = bytearray(size), bytearray(size)
    if start is not None:  # its ranks are this book's first ones
        known = len(start.values)
        values[:known], wins[:known], losses[:known] = start.values, start.wins, start.losses
    solve, offsets, sums = _solver(sowings, values, wins, losses), sowings.offsets, sowings.sums
    begun = len(start.values) if start is not None else 0  # the positions already valued
    for layer in range(first, seeds + 1):
        done = comb(layer - 1 + 2 * pits, 2 * pits) - begun
        for mine in range(1, comb(layer - 1 + pits, pits)):  # a first row of 1 to layer - 1 seeds
            if halted():
                return _cut(pits, layer - 1, values, wins, losses)
            shift = offsets[sums[mine]]
            rest = layer - sums[mine]
            # rows of `rest` seeds
            for theirs in range(comb(rest - 1 + pits, pits), comb(rest + pits, pits)):
                rank = mine + shift[theirs]
                if values[rank] == UNKNOWN:
                    solve(mine, theirs, rank)
            done += comb(rest + pits, pits) - comb(rest - 1 + pits, pits)
            advance(done)
        advance(comb(layer + 2 * pits, 2 * pits) - begun)  # with the ends: a side's row empty
    return Book(pits, seeds, values, bytes(wins), bytes(losses))


def _cut(pits: int, seeds: int, values: array[int], wins: bytearray, losses: bytearray) -> Book:
    """The book of the first layers, up to `seeds` seeds, of arrays built further."""
    size = comb(seeds + 2 * pits, 2 * pits)
    return Book(pits, seeds, values[:size], bytes(wins[:size]), bytes(losses[:size]))


def _solver(
    sowings: Sowings, values: array[int], wins: bytearray, losses: bytearray
) -> Callable[[int, int, int], None]:
    """What values one position, given its rows' ranks and its own, once its children are valued
    (valuing those not yet valued first): its value and its two distances (see the module
    docstring)."""
    rows, sums, moves, emptied, offsets = (
        sowings.rows,
        sowings.sums,
        sowings.moves,
        sowings.emptied,
        sowings.offsets,
    )
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
            # another turn: the view stays the mover's, a seed fewer (a layer below, valued)
            elif last == -1:
                child = after + offsets[left][filled]
                score = banked + values[child]
                if score < best:
                    continue
                win, loss = wins[child], losses[child]
            else:
                child = filled + offsets[other][after]
                value = values[child]
                if value == UNKNOWN:
                    solve(filled, after, child)
                    value = values[child]
                score = banked - value
                if score < best:
                    continue
                win, loss = losses[child], wins[child]
            if score > best:
                best, hurry, delay = score, win, loss
            elif score == best:
                if win < hurry:
                    hurry = win
                if loss > delay:
                    delay = loss
        values[rank], wins[rank], losses[rank] = best, hurry + 1, delay + 1

    return solve


def reach(pits: int, work: cache.Work = cache.IDLE) -> int:
    """The seeds a search's book covers at the least: WIDE where the search may wait
    (`work.patient`), else BASE."""
    return (WIDE if work.patient else BASE).get(pits, 0)


class Shelf:
    """The book of `pits` pits one game's searches read: the widest read or made so far, fetched
    from the cache on first use and widened there as a search needs; a copy of the game for its
    searches shares its shelf."""

    def __init__(self, pits: int) -> None:
        self.pits = pits
        self.book: Book | None = None
        self.made = 0
        """Positions its builds have valued: a search that built some counts them in its nodes."""
        self.stopped = False
        """Whether widening the book was stopped: then its searches read the layers it finished."""

    def __reduce__(self) -> tuple[type[Shelf], tuple[int]]:
        """Pickled empty: a process the game is sent to reads its own book."""
        return Shelf, (self.pits,)

    def shelved(self, seeds: int | None = None, work: cache.Work = cache.IDLE) -> Book:
        """A book covering at least `seeds` seeds (None: `reach`), or, when its making was stopped
        (`work.halted`), as far as it got: the shelf's own, else the widest the cache holds, widened
        to `seeds` (and kept) where it is narrower."""
        book = self.book
        wanted = reach(self.pits, work) if seeds is None else seeds
        if book is not None and (book.seeds >= wanted or self.stopped):
            return book
        self.book = self._fetch(wanted, book, work)
        return self.book

    def _fetch(self, seeds: int, book: Book | None, work: cache.Work) -> Book:
        """`shelved` past the shelf's own book: read from the cache, then widened where it is
        narrower."""
        pits = self.pits
        name, what = f"kalah-{pits}.book", f"the Kalah endgame book ({pits} pits, {seeds} seeds)"
        if book is None and (data := cache.read(name, FORMAT, what)) is not None:
            try:
                book = Book.decode(pits, data)
            except ValueError as error:
                cache.say(f"{what}: {error}: made again, not trusted")
        if book is not None and book.seeds >= seeds:
            return book
        known, valued = (book.seeds, len(book.values)) if book is not None else (0, 0)
        steps = comb(seeds + 2 * pits, 2 * pits) - valued
        try:
            with work.making(what, steps) as advance:
                wider = build(pits, seeds, advance, book, work.halted)
            self.made += len(wider.values) - valued
            if wider.seeds > known:
                cache.keep(name, FORMAT, what, wider.encode())
        except MemoryError:
            # the arrays made so far go with the frames: the search has its memory back
            self.stopped = True
            kept = f"the {known} seeds read from the cache" if book is not None else "none"
            cache.say(f"{what}: out of memory while making it; the search goes on with {kept}")
            wider = book if book is not None else empty(pits)
        if wider.seeds < seeds:
            # asked to answer now (or out of memory): this shelf widens it no more
            self.stopped = True
        return wider


def empty(pits: int) -> Book:
    """A book that knows no position: what the search reads where none could be made."""
    return Book(pits, 0, array("b", [UNKNOWN]), bytes(1), bytes(1))
