"""Threat-space proofs on m,n,k boards without gravity: wins by a line completed at once, by a
double threat, and by continuous fours, proven from the rules alone, so a search takes them as
a book (`Known`) and its value comes out proven.

A side's completion cells are the empty cells that finish one of its windows of k (a window of
k-1 of its stones and none of the other's); any window of k filled wins, so an overline wins
too, and a completion cell is exactly a cell whose stone ends the game. The proof rests on three
facts, each true whatever the defender plays:

- the mover with a completion cell wins in 1;
- a move leaving the mover two completion cells or more, and the defender none, wins in 3: one
  stone blocks one cell, and the defender cannot end the game first (nor fill the board, two
  cells being empty);
- a move leaving the mover one completion cell c, and the defender none, forces the defender
  to c: any other move loses at once. If that block fills the board the game is drawn (no
  proof); else the attacker, to move with no completion cell of its own and only the cells the
  block made for the defender, goes on the same way (if the defender has one completion cell it
  must be the attacker's next stone, two or more and the line fails).

Losses follow for the side to move: with no completion cell of its own against two of the
other's it loses in 2; against one, it must block there, and loses if the other then wins.
Distances are upper bounds (a shorter win may lie outside the fours), exact where no shorter
win can exist: a win in 1 or 3, and in 5 where no move makes a double threat at once.
"""

from __future__ import annotations

from nimmax.game import Known
from nimmax.games.mnk.board import Board, Geometry

PROOF_NODES = 300
"""Attacker positions one question may visit (each a scan of the board's windows); past them the
proof says nothing of the position."""
PROOF_FOURS = 10
"""Fours a victory by continuous fours may take at most before its double threat or five."""
SEARCH_ALLOWANCE, SEARCH_EVERY = 250, 16
"""The attacker positions a search's questions may visit in all (`begin` starts a search): this
many, and one more every this many calls into `known`, so a search's ordinary positions stay cheap
while its root, asked first, is always proven where it can be."""
REMEMBERED = 1 << 16
"""Positions whose answer the proof keeps at most (then it starts afresh)."""


class ThreatProof:
    """Threat-space proofs for one board: its windows of k as bit masks (every one, and those
    through each cell's bit), its cells centre first."""

    def __init__(self, geometry: Geometry, fours: int = PROOF_FOURS) -> None:
        self.geometry, self.k, self.board = geometry, geometry.k, geometry.board
        self.most_fours, self.through, self.rank = fours, geometry.lines_through, geometry.rank
        self.memo: dict[tuple[int, int], tuple[int, int]] = {}
        self.nodes = 0
        """Attacker positions visited by every question so far."""
        self.calls = 0
        self.limit = 0
        self.rooted = False
        """Whether the next question is a search's root (`begin`)."""

    def known(self, mine: int, theirs: int, my_threats: int, their_threats: int) -> Known | None:
        """The proven payoff and distance for the side to move (`mine`, its completion cells
        `my_threats`; `theirs` and `their_threats` the other side's), or None where no threat line
        proves one within the budget. Stones and threats are bitboards; the game is not over."""
        if my_threats:
            return Known(1.0, 1, True)
        root, self.rooted = self.rooted, False
        if their_threats & (their_threats - 1):
            # At a search's root every move loses in 2: the search's own order (a block) is kept.
            return None if root else Known(-1.0, 2, True)
        self.calls += 1
        rationed = self.nodes > SEARCH_ALLOWANCE + self.calls // SEARCH_EVERY
        # rationed: what is remembered only
        self.limit = self.nodes if rationed else self.nodes + PROOF_NODES
        if their_threats:  # the one block, then the other side attacks
            block = their_threats
            mine |= block
            if (mine | theirs) == self.board:
                return None  # the block fills the board: a draw
            plies = self.shortest(theirs, mine, self.made(mine, theirs, block))
            return Known(-1.0, plies + 1, plies <= 5) if plies else None
        plies = self.shortest(mine, theirs, 0)
        return Known(1.0, plies, plies <= 5) if plies else None

    def shortest(self, mine: int, theirs: int, their_threats: int) -> int:
        """`wins` with one four more at a time, so the first win found is among the shortest by
        fours."""
        for fours in range(1, self.most_fours + 1):
            plies = self.wins(mine, theirs, their_threats, fours)
            if plies or self.nodes >= self.limit:
                return plies
        return 0

    def begin(self) -> None:
        """A new search begins, its root asked first: its questions get their allowance afresh (what
        is proven is kept)."""
        self.nodes = self.calls = 0
        self.rooted = True

    def wins(self, mine: int, theirs: int, their_threats: int, fours: int) -> int:
        """The plies within which `mine`, to move with no completion cell, wins by a double threat
        or by continuous fours ending in one (at most `fours` fours), or 0 where none is found.
        `their_threats` are the other side's completion cells."""
        key = (mine, theirs)
        seen = self.memo.get(key)
        if seen is not None and (seen[0] or seen[1] >= fours):
            return seen[0]
        if self.nodes >= self.limit:
            return 0
        self.nodes += 1
        if their_threats & (their_threats - 1):
            return 0  # two cells of theirs: one stone blocks one, they complete the other
        # With a cell of theirs to complete, the attacker's only move is to fill it.
        candidates = their_threats or self.fours(mine, theirs)
        singles: list[tuple[int, int]] = []
        for bit in self.ranked(candidates):
            made = self.made(mine | bit, theirs, bit)
            if made & (made - 1):
                return self.remember(key, 3, fours)
            if made:
                singles.append((bit, made))
        found = 0
        if fours > 1:
            for bit, block in singles:
                if self.nodes >= self.limit:
                    break
                attacker, defender = mine | bit, theirs | block
                if (attacker | defender) == self.board:
                    continue  # the forced block draws the game
                plies = self.wins(
                    attacker, defender, self.made(defender, attacker, block), fours - 1
                )
                if plies:
                    found = plies + 2
                    break
        if not found and self.nodes >= self.limit:
            return 0  # cut short by the budget: nothing learnt to keep
        return self.remember(key, found, fours)

    def remember(self, key: tuple[int, int], plies: int, fours: int) -> int:
        """`plies`, kept as the answer for `key` (a position) searched to `fours` fours (0: none
        found)."""
        if len(self.memo) >= REMEMBERED:
            self.memo.clear()
        self.memo[key] = (plies, fours)
        return plies

    def made(self, stones: int, blockers: int, stone: int) -> int:
        """The completion cells of `stones` on the windows through `stone` (one bit), those free of
        `blockers`."""
        near_full, found = self.k - 1, 0
        for line in self.through[stone.bit_length() - 1]:
            if not blockers & line:
                common = stones & line
                if common.bit_count() == near_full:
                    found |= line ^ common
        return found

    def fours(self, stones: int, blockers: int) -> int:
        """The empty cells where a stone of `stones` makes a completion cell: those of a window
        holding k-2 of `stones` and none of `blockers`."""
        k, empty, found = self.k, self.board & ~(stones | blockers), 0
        for shift in self.geometry.directions:
            starts, planes = self.geometry.counters(stones, blockers, shift)
            wanted = k - 2
            if wanted >> len(planes):
                continue
            for index, plane in enumerate(planes):
                starts &= plane if wanted >> index & 1 else ~plane
            for step in range(k):
                found |= starts << step * shift
        return found & empty

    def ranked(self, cells: int) -> list[int]:
        """The cells of `cells` (bits) as one-bit masks, centre first."""
        bits = []
        while cells:
            low = cells & -cells
            bits.append(low.bit_length() - 1)
            cells ^= low
        return [1 << bit for bit in sorted(bits, key=self.rank.__getitem__)]


SMALL_CELLS = 49
"""Boards of at most this many cells (7x7) are left to the search, which tries every move there and
values every move where asked (a book silent on some root moves would leave them out)."""


def proves(gravity: bool, k: int, cells: int) -> bool:
    """Whether a search's copy of a board proves threats: without gravity (a stone goes anywhere), k
    >= 4, above SMALL_CELLS cells."""
    return not gravity and k >= 4 and cells > SMALL_CELLS


def known_of(proof: ThreatProof, state: Board) -> Known | None:
    """`proof.known` for the side to move in `state`, or None where the game is over."""
    if state.outcome:
        return None
    if state.player:
        return proof.known(state.o, state.x, state.o_threats, state.x_threats)
    return proof.known(state.x, state.o, state.x_threats, state.o_threats)
