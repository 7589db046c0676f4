"""m,n,k threats: the shapes a stone makes (a four, two at once), victories by continuous fours,
and the few moves a limited search tries on a big board (`Threats.narrowed`)."""

from __future__ import annotations

from collections.abc import Sequence

from nimmax.games.mnk.board import Board, Geometry, bits_of
from nimmax.games.mnk.rules import REMEMBERED_POSITIONS, memo

NARROWED_CELLS = 49
"""Boards above this many cells (larger than 7x7, no gravity) narrow a limited search to the cells
near the stones."""
BEAM = 12
"""Moves a limited search tries where nothing is forced: the near cells that add most to the
mover's windows and take most from the opponent's."""
VCF_FOURS = 6
"""Fours a victory by continuous fours (`Threats.vcf`) is looked for up to."""


class Threats:
    """Threat shapes and victories by continuous fours, which narrow a limited search on a big
    board; in a search's copy (`remember`) with memos of its own: the shapes, the victories and
    the moves tried of each position asked."""

    def __init__(self, geometry: Geometry, remember: bool) -> None:
        self.geometry = geometry
        self._shapes: dict[int, tuple[int, int]] = memo(remember)
        self._tried: dict[int, tuple[int, ...]] = memo(remember)
        self._vcfs: dict[int, int] = memo(remember)

    def narrowed(self, state: Board) -> Sequence[int] | None:
        """On a board above NARROWED_CELLS without gravity, the moves worth a limited search:
        the forced move where there is one; where the mover can make two threats at once,
        those moves; where the mover wins by continuous fours (`vcf`), its first four; where
        the opponent can make two threats at once, the mover's threats and the cells of the
        opponent's windows that would make them (the answers to an open three); else the empty
        cells within two steps (any direction) of a stone, those next to one first, each centre
        first, the centre alone on an empty board. None on smaller boards, and where no cell is
        left out (a forced move, or every empty cell worth trying), so a search there proves what
        it can."""
        geometry = self.geometry
        if geometry.gravity or geometry.cells <= NARROWED_CELLS or state.outcome:
            return None
        if state.x_threats or state.o_threats:  # a forced move: `search_actions` leaves nothing out
            return None
        taken = state.x | state.o
        if not taken:
            return (geometry.cell_order[0],)
        key = state.x | state.o << geometry.span
        tried = self._tried.get(key)
        if tried is None:
            if len(self._tried) >= REMEMBERED_POSITIONS:
                self._tried.clear()
            tried = (
                self._worth_trying(state.o, state.x)
                if state.player
                else self._worth_trying(state.x, state.o)
            )
            if len(tried) == geometry.cells - taken.bit_count():
                tried = ()  # every empty cell: none is left out, so the search may prove its value
            self._tried[key] = tried
        return tried or None

    def _worth_trying(self, mine: int, theirs: int) -> tuple[int, ...]:
        """`narrowed` where no threat is on the board, remembered for the positions asked
        (iterative deepening asks again at every depth)."""
        rank = self.geometry.rank.__getitem__
        _, doubles = self.shapes(mine, theirs)
        if doubles:
            return tuple(sorted(bits_of(doubles), key=rank))
        winning = self.vcf(mine, theirs)
        if winning:
            return (winning.bit_length() - 1,)
        _, their_doubles = self.shapes(theirs, mine)
        if their_doubles:
            fours, _ = self.shapes(mine, theirs)
            return tuple(
                sorted(bits_of(fours | self._answers(theirs, mine, their_doubles)), key=rank)
            )
        near = self._around(self._around(mine | theirs)) & ~(mine | theirs)
        gain = self.geometry.gain
        return tuple(
            sorted(bits_of(near), key=lambda bit: (-gain(bit, mine, theirs), rank(bit)))[:BEAM]
        )

    def shapes(self, stones: int, blockers: int) -> tuple[int, int]:
        """The empty cells where a stone of `stones` makes a threat (a four), and those where it
        makes two threats or more (an open or double four: it wins next move unless the
        opponent wins first). Remembered, in a search, for the positions asked, both sides apart."""
        geometry = self.geometry
        key = stones | blockers << geometry.span
        found = self._shapes.get(key)
        if found is not None:
            return found
        empty, k = geometry.board & ~(stones | blockers), geometry.k
        once = twice = 0
        if k >= 3:
            for shift in geometry.directions:
                starts = self._windows(stones, blockers, shift, k - 2)
                for step in range(k):
                    cells = starts << step * shift & empty
                    twice |= once & cells
                    once |= cells
        doubles = 0
        for bit in bits_of(twice):  # two windows may name the same threat: count the threats
            made = geometry.threats_through(stones | 1 << bit, blockers, bit)
            if made & (made - 1):
                doubles |= 1 << bit
        if len(self._shapes) >= REMEMBERED_POSITIONS:
            self._shapes.clear()
        self._shapes[key] = found = (once, doubles)
        return found

    def vcf(self, mine: int, theirs: int, fours: int = VCF_FOURS) -> int:
        """The first stone (a bit mask) of a victory by continuous fours for `mine`, to move on a
        board where neither side has a four, or 0: each four leaves the opponent one block,
        until a stone makes two fours at once. Only fours are tried, so the search stays
        narrow; beyond `fours` fours, or by open threes, a win may still be there unseen.
        Remembered, in a search, for the positions asked."""
        geometry = self.geometry
        if geometry.gravity or geometry.k < 3 or fours <= 0:
            return 0
        key = mine | theirs << geometry.span
        known = self._vcfs.get(key)
        if known is not None and (known > 0 or -known >= fours):
            return max(known, 0)
        found = 0
        once, _ = self.shapes(mine, theirs)
        for bit in sorted(bits_of(once), key=geometry.rank.__getitem__):
            if self._wins_with(mine, theirs, bit, fours):
                found = 1 << bit
                break
        if len(self._vcfs) >= REMEMBERED_POSITIONS:
            self._vcfs.clear()
        self._vcfs[key] = found or -fours
        return found

    def _wins_with(self, mine: int, theirs: int, bit: int, fours: int) -> bool:
        """Whether a stone at `bit` starts a victory by continuous fours for `mine` (no four on
        the board): it makes two fours, or one whose forced block leaves such a victory (when
        the block makes a four of the opponent's, the next stone must stop it and be a four)."""
        made_by = self.geometry.threats_through
        mine |= 1 << bit
        made = made_by(mine, theirs, bit)
        if not made:
            return False
        if made & (made - 1):
            return True
        theirs |= made
        answer = made_by(theirs, mine, made.bit_length() - 1)
        if answer:
            return (
                fours > 1
                and not answer & (answer - 1)
                and self._wins_with(mine, theirs, answer.bit_length() - 1, fours - 1)
            )
        return bool(self.vcf(mine, theirs, fours - 1))

    def doubles(self, stones: int, blockers: int) -> int:
        """`shapes(stones, blockers)[1]`, known to be none at once when it was none before the
        blockers' last stone (a blocker only spoils windows), as a search's parent node knows."""
        span, shapes = self.geometry.span, self._shapes
        for bit in bits_of(blockers):
            before = shapes.get(stones | (blockers ^ 1 << bit) << span)
            if before is not None:
                if not before[1]:
                    return 0
                break
        return self.shapes(stones, blockers)[1]

    def _answers(self, stones: int, blockers: int, doubles: int) -> int:
        """The empty cells of the windows of `stones` (k - 2 stones, free of `blockers`) that
        hold one of `doubles`: a stone on one of them spoils that double."""
        geometry = self.geometry
        empty, answers, k = geometry.board & ~(stones | blockers), 0, geometry.k
        for shift in geometry.directions:
            starts = self._windows(stones, blockers, shift, k - 2)
            hit = 0
            for step in range(k):
                hit |= doubles >> step * shift & starts
            for step in range(k):
                answers |= hit << step * shift & empty
        return answers

    def _around(self, cells: int) -> int:
        """`cells` and every cell one step from them (a king's move), on the board."""
        board, stride = self.geometry.board, self.geometry.stride
        column = (cells | cells << 1 | cells >> 1) & board  # the guard bits keep columns apart
        return (column | column << stride | column >> stride) & board

    def _windows(self, stones: int, blockers: int, shift: int, count: int) -> int:
        """The starts of the windows along one direction free of `blockers` holding exactly
        `count` of `stones`."""
        starts, planes = self.geometry.counters(stones, blockers, shift)
        if count >> len(planes):
            return 0
        for index, plane in enumerate(planes):
            starts &= plane if count >> index & 1 else ~plane
        return starts
