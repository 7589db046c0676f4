"""Kalah (Kalah(m, n): m pits a side, n seeds a pit), the mancala game whose turns do not alternate.

Standard rules, those of the published solutions (Irving, Donkers and Uiterwijk, "Solving
Kalah", 2000): the mover empties one of their non-empty pits and sows its seeds one by one
counter-clockwise, into their own pits and store and the opponent's pits, never the
opponent's store. A last seed in the mover's own store earns another move. A last seed in
an empty pit of the mover's, opposite a pit that holds seeds, captures: it and the
opposite seeds go to the mover's store (opposite an empty pit it stays where it fell).
When either side's pits are all empty, each side's remaining seeds go to its own store
and the game ends. The payoff is the store difference in seeds.

The board is one tuple in sowing order: South's pits 1..m (from South's left), South's
store, North's pits 1..m (from North's left), North's store. South moves first.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Sequence
from operator import add, itemgetter

from nimmax import cache
from nimmax.game import Account, Capability, Game, IllegalMove, Known, legal_text
from nimmax.games import kalah_book
from nimmax.games.kalah_position import (
    DEFAULT_PITS,
    DEFAULT_SEEDS,
    MAX_PITS,
    MAX_SEEDS,
    NORTH,
    SIDE_LETTERS,
    SOUTH,
    Position,
    _Again,
    _new,
    parse_position,
)
from nimmax.games.words import Option, Signature
from nimmax.numbers import parse_int

KALAH = Signature(
    "kalah",
    options=(
        Option("--pits", int, None, "N", 1, MAX_PITS),
        Option("--seeds", int, None, "S", 1, MAX_SEEDS),
        Option("--position", str, None, "P"),
    ),
)
"""Kalah's words; the spec always names the pits and seeds, as Kalah(m, n) is named."""

first, second = itemgetter(0), itemgetter(1)
"""The parts of a (weight, pit) pair: moves sort by their weight alone, keeping the order of
equals."""


class Kalah(Game[Position, int]):
    """Kalah with `pits` pits a side and `seeds` seeds in each at the start; moves are pit
    numbers."""

    name = "kalah"
    player_names = ("South", "North")
    capabilities = frozenset(
        {
            Capability.SEARCH_ORDER,
            Capability.EVALUATION,
            Capability.BOUNDS,
            Capability.OFFSET_KEY,
            Capability.BOOK,
        }
    )
    """BOOK where the endgame book covers the board (`kalah_book.BASE`): an instance without one
    narrows it."""

    def __init__(
        self,
        pits: int = DEFAULT_PITS,
        seeds: int = DEFAULT_SEEDS,
        start: Position | None = None,
        endgame: int | None = None,
    ) -> None:
        self.pits, self.seeds, self.start = pits, seeds, start
        self.endgame = kalah_book.WIDE.get(pits, 0) if endgame is None else endgame
        """Seeds in the pits up to which the endgame book may answer (0: no book)."""
        self.reach = endgame
        """The seeds its book covers at the least; None: as far as the search may wait
        (`kalah_book.reach`)."""
        self.shelf = kalah_book.Shelf(pits)
        """Its book, read or built on first use; shared with its copies (`working`)."""
        self.work = cache.IDLE
        """How its book is made where a search needs a wider one: shown, waited for, stopped
        (`working`)."""
        self.width = kalah_book.reach(pits) if endgame is None else endgame
        """The seeds its book covers at the least: `reach`, else as far as its work may wait."""
        self._charged: tuple[Account, int] | None = None
        """The search charged with the books built while it runs, and the count of positions built
        when it began."""
        if not self.endgame:
            self.capabilities = self.capabilities - {Capability.BOOK}
        self.lap = 2 * pits + 1
        """Cells one sowing visits in a full lap: every pit and the mover's store."""
        self._rows = (slice(0, pits), slice(pits + 1, 2 * pits + 1))
        self._stores = (pits, 2 * pits + 1)
        self._sowing_pits = tuple(
            tuple((pit, seat * (pits + 1) + pit - 1, pits + 1 - pit) for pit in range(pits, 0, -1))
            for seat in (SOUTH, NORTH)
        )
        """Per seat, its pits from the store end: the pit number, its cell, the seeds that reach the
        store."""
        self._paths = [self._path(start) for start in range(2 * pits + 1) if start != pits]
        self._sowings = [
            [self._sowing(start, seeds) for seeds in range(self.lap)]
            for start in range(2 * pits + 2)
        ]
        """Per cell and per seeds short of a lap: what the sowing adds to each cell, and its last
        cell."""
        south, north = range(pits), range(pits + 1, 2 * pits + 1)
        self._views = (itemgetter(*south, *north), itemgetter(*north, *south))

    def _path(self, start: int) -> tuple[int, ...]:
        """The cells a sowing from the pit at `start` drops its seeds in, one lap in order:
        every pit and the mover's store, skipping the opponent's, ending at `start` itself."""
        size, skipped = 2 * self.pits + 2, self._stores[1] if start < self.pits else self._stores[0]
        cells = [(start + step) % size for step in range(1, size + 1)]
        return tuple(cell for cell in cells if cell != skipped)

    def _sowing(self, start: int, seeds: int) -> tuple[tuple[int, ...], int]:
        """Sowing `seeds` (fewer than a lap) from the pit at `start`: the seeds each cell gains
        (the pit itself loses them all) and the cell the last one falls in."""
        if start in self._stores or not seeds:
            return (), start
        path = self._paths[start - (start > self.pits)]
        gains = [0] * (2 * self.pits + 2)
        gains[start] = -seeds
        for cell in path[:seeds]:
            gains[cell] += 1
        return tuple(gains), path[seeds - 1]

    @property
    def spec(self) -> str:
        position = self.format_position(self.start) if self.start is not None else None
        return KALAH.spec(pits=self.pits, seeds=self.seeds, position=position)

    def initial_state(self) -> Position:
        if self.start is not None:
            return self.start
        row = (self.seeds,) * self.pits + (0,)
        return Position(row + row, SOUTH)

    def to_move(self, state: Position) -> int:
        return state.player

    def actions(self, state: Position) -> Sequence[int]:
        """Pits to sow: extra turns first (nearest the store first, so it spoils no other),
        then captures, largest first, then the rest, fullest first (from the store end among
        equals): a full pit sows far, and an emptied pit is a capture target the opponent
        must first reach."""
        board, player = state.board, state.player
        if state.over:
            return []
        lap, opposite = self.lap, 2 * self.pits
        again, captures, others = [], [], []
        for pit, start, to_store in self._sowing_pits[player]:
            seeds = board[start]
            if not seeds:
                continue
            if seeds < to_store:  # short of the store: captures when it ends in an empty pit
                landing = start + seeds
                if not board[landing] and board[opposite - landing]:
                    captures.append((board[opposite - landing], pit))
                    continue
            elif seeds % lap == to_store:
                again.append(pit)
                continue
            others.append((seeds, pit))
        if captures:
            again += map(second, sorted(captures, reverse=True))
        again += map(second, sorted(others, key=first, reverse=True))
        return again

    search_actions = actions
    """Every move: no Kalah move is forced (a plain alias saves a call at every node searched)."""

    def result(self, state: Position, action: int) -> Position:
        board, player = state.board, state.player
        pits = self.pits
        if not (isinstance(action, int) and 1 <= action <= pits):
            raise IllegalMove(f"cannot sow pit {action!r}; legal: {legal_text(self, state)}")
        store = self._stores[player]
        start = store - pits + action - 1
        seeds = board[start]
        if not seeds or state.over:  # an empty pit, or the game is over
            raise IllegalMove(f"cannot sow pit {action}; legal: {legal_text(self, state)}")
        if seeds < self.lap:
            gains, last = self._sowings[start][seeds]
            cells = list(map(add, board, gains))
        else:  # a seed in every cell of each whole lap, the emptied pit included
            cells = list(board)
            cells[start] = 0
            path = self._paths[start - player]
            laps, rest = divmod(seeds, self.lap)
            for index in path:
                cells[index] += laps
            for index in path[:rest]:
                cells[index] += 1
            last = path[rest - 1]  # path[-1] is the pit sown: where a whole number of laps ends
        mover, again = (player, True) if last == store else (1 - player, False)
        opposite = 2 * pits - last
        if store - pits <= last < store and cells[last] == 1 and cells[opposite]:
            cells[store] += cells[opposite] + 1
            cells[last] = cells[opposite] = 0
            if not any(cells[self._rows[1 - player]]):
                return self._swept(cells, mover)
        # The opponent's pits only gain seeds but by a capture: the mover's may have run dry.
        if any(cells[self._rows[player]]):  # both rows hold seeds: not over
            # the pits lost what the mover's store gained
            left = state.left - cells[store] + board[store]
            return _new(_Again if again else Position, (tuple(cells), mover, left, False))
        return self._swept(cells, mover)

    def _swept(self, cells: list[int], mover: int) -> Position:
        """The final position: each side's seeds left in its pits go to its own store."""
        pits = self.pits
        south, north = self._rows
        cells[pits] += sum(cells[south])
        cells[-1] += sum(cells[north])
        cells[south] = cells[north] = [0] * pits
        return _new(Position, (tuple(cells), mover, 0, True))

    def is_terminal(self, state: Position) -> bool:
        return state.over

    def utility(self, state: Position, player: int) -> float:
        """Store difference for `player`, counting seeds left in pits as swept to their side's
        store."""
        board = state.board
        margin = 2 * sum(board[: self.pits + 1]) - sum(board)  # South's seeds minus North's
        return float(margin if player == SOUTH else -margin)

    def evaluate(self, state: Position, player: int) -> float:
        """Store difference plus the seeds on each side: what each would sweep if the game ended
        now."""
        board = state.board
        margin = 2 * sum(board[: self.pits + 1]) - sum(board)
        return float(margin if player == SOUTH else -margin)

    def utility_bounds(self, state: Position) -> tuple[float, float]:
        """The mover's store lead, less or plus every seed still in the pits: each may yet end
        in either store (`evaluate`, which sweeps them, lies between too)."""
        board, left = state.board, state.left
        lead = board[-1] - board[self.pits] if state.player else board[self.pits] - board[-1]
        return lead - left, lead + left

    def charge(self, account: Account | None) -> None:
        """A book built while a search runs is its work (`Game.charge`): the positions valued are
        added to its nodes when it ends (the build itself stops where `cache.halting` asks)."""
        if self._charged is not None:
            self._charged[0].nodes += self.shelf.made - self._charged[1]
        self._charged = (account, self.shelf.made) if account is not None else None

    def book(self, state: Position) -> Known | None:
        """The endgame book's margin and plies to the end, for a position with at most `endgame`
        seeds in the pits that its book covers (read or built on first use, `kalah_book.Shelf`)."""
        left = state.left
        if left > self.endgame:
            return None
        shelf = self.shelf
        book = shelf.book
        if book is None or (book.seeds < self.width and not shelf.stopped):  # read or widened once
            book = shelf.shelved(self.width, self.work)
        if left > book.seeds:  # a timed search's book may be narrower than `endgame`
            return None
        board, player = state.board, state.player
        lead = board[-1] - board[self.pits] if player else board[self.pits] - board[-1]
        return book.probe(self._views[player](board), lead)

    def working(self, work: cache.Work) -> Kalah:
        """This game with its book's work made as `work` says (its width, display and stop): the
        book's width is part of the game a search is handed (`cache.at_work`)."""
        working = copy.copy(self)
        working.work = work
        if self.reach is None:
            working.width = kalah_book.reach(self.pits, work)
        return working

    def key(self, state: Position) -> Hashable:
        """The position seen by the mover: their pits, the opponent's pits, the store difference.

        The rules are the same for both seats and future play depends on the pits only, so
        mirrored positions, and positions whose stores differ by the same amount, share a
        value and a distance to the end.
        """
        board, player = state.board, state.player
        mine, theirs = self._stores[player], self._stores[1 - player]
        pits: tuple[int, ...] = self._views[player](board)
        return pits + (board[mine] - board[theirs],)

    def keyed(self, state: Position) -> tuple[Hashable, float]:
        """The pits seen by the mover, and the mover's store lead as the offset: the seeds banked
        take no part in future play, so positions whose pits agree share a table entry however
        their stores stand."""
        board, (south, north) = state.board, self._rows
        if state.player:  # two slices joined: quicker than one itemgetter of every pit
            return board[north] + board[south], board[-1] - board[self.pits]
        return board[south] + board[north], board[self.pits] - board[-1]

    def parse_move(self, text: str, state: Position) -> int:
        try:
            pit = parse_int(text, "pit", 1, self.pits, IllegalMove)
            if pit not in self.actions(state):
                raise IllegalMove(f"cannot sow pit {pit}")
        except IllegalMove as error:
            raise IllegalMove(f"{error}; legal: {legal_text(self, state)}") from None
        return pit

    def format_position(self, state: Position) -> str:
        """`SOUTH_PITS:STORE/NORTH_PITS:STORE/SIDE`, e.g. `4,4,4:0/4,4,4:0/s` (each row from its
        owner's left)."""
        rows = [
            ",".join(map(str, state.row(seat))) + f":{state.store(seat)}" for seat in (SOUTH, NORTH)
        ]
        return "/".join([*rows, SIDE_LETTERS[state.player]])


def create_kalah(argv: Sequence[str]) -> Kalah:
    """Kalah from its words (KALAH): Kalah(6, 4) unless given; a position sets the pits."""
    words = KALAH.parse(argv)
    pits, seeds = words["pits"], words["seeds"]
    start = parse_position(words["position"], pits) if words["position"] is not None else None
    return Kalah(
        start.pits if start is not None else pits if pits is not None else DEFAULT_PITS,
        seeds if seeds is not None else DEFAULT_SEEDS,
        start,
    )
