"""m,n,k games: tic-tac-toe on any board (k in a row wins), and with gravity Connect Four.

`MNK` is built in layers, one module each: `rules` (bitboards, moves, results, keys),
`notation` (moves and positions as typed, the completed line, the game's words), `threats`
(threat shapes, victories by continuous fours, the moves a limited search tries on a big
board), `evaluation` (window scores, row parity, the estimate at a horizon), `fours` (four in a
row on Connect Four's bitboards) and `proof` (Connect Four's exact outcomes beyond the opening books).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from nimmax.game import Capability, Known
from nimmax.games import connect4_book
from nimmax.games.mnk.evaluation import Evaluation
from nimmax.games.mnk.notation import CONNECT4, TICTACTOE
from nimmax.games.mnk.proof import Proof
from nimmax.games.mnk.rules import (
    DRAWN,
    LETTERS,
    MAX_SIDE,
    O_WON,
    ONGOING,
    REMEMBERED_CELLS,
    X_WON,
    Board,
)
from nimmax.games.mnk.threat_proof import ThreatProof, known_of, proves
from nimmax.games.mnk.threats import BEAM, NARROWED_CELLS, VCF_FOURS

__all__ = [
    "BEAM",
    "CONNECT4",
    "DRAWN",
    "LETTERS",
    "MAX_SIDE",
    "MNK",
    "NARROWED_CELLS",
    "O_WON",
    "ONGOING",
    "REMEMBERED_CELLS",
    "TICTACTOE",
    "VCF_FOURS",
    "X_WON",
    "Board",
    "create_connect4",
    "create_tictactoe",
]


class MNK(Evaluation):
    """k in a row on a rows x cols board; with `gravity` stones drop to the lowest empty cell."""

    capabilities = frozenset({Capability.SEARCH_ORDER, Capability.NARROWING, Capability.EVALUATION, Capability.BOOK})
    """BOOK where the books cover the board and are installed: an instance without them narrows it."""

    def __init__(
        self,
        rows: int = 3,
        cols: int = 3,
        k: int | None = None,
        gravity: bool = False,
        position: str | None = None,
        name: str = "tictactoe",
    ) -> None:
        super().__init__(rows, cols, k, gravity, name)
        self.position = position
        self.start = self.read_position(position if position is not None else "/".join(["." * cols] * rows))
        self.booked = name == "connect4" and (rows, cols, self.k) == (6, 7, 4)
        self.books = self.booked and connect4_book.installed()
        # threat_proof's hook: BOOK is kept where a search's copy proves threats
        if not self.books and not proves(gravity, self.k, self.cells):
            self.capabilities = self.capabilities - {Capability.BOOK}

    def _memos(self, remember: bool) -> None:
        """The memos of `Rules`, and on the board the books cover a proof of its own (`book`) in a search's copy."""
        super()._memos(remember)
        self._proof = Proof(self.rows, self.cols) if remember and self.books else None
        # threat_proof's hook: a search's copy proves threats (`book`)
        proving = remember and proves(self.gravity, self.k, self.cells)
        self._threat_proof = (
            ThreatProof(self.k, self.board, self.lines, self.lines_through, self.cell_order) if proving else None
        )

    def for_search(self) -> Self:
        """`Rules.for_search`; a copy kept across searches tells its proof that a new one begins."""
        if self._proof is not None:
            self._proof.begin()
        searching = super().for_search()
        if searching._threat_proof is not None:  # threat_proof's hook: each search's root and allowance afresh
            searching._threat_proof.begin()
        return searching

    def heuristic_actions(self, state: Board) -> Sequence[int] | None:
        """`Threats.heuristic_actions`; past the 8-stone book, in a search's copy, the moves its proof
        says the position needs (`proof.Proof.best_moves`: a proven win or draw alone, else at the
        search's root the moves not proven short of the 12-stone book's payoff); None for every move."""
        taken = state.x | state.o
        if self._proof is None or state.outcome or taken.bit_count() < connect4_book.STONES[-1]:
            return super().heuristic_actions(state)
        if (state.x_threats | state.o_threats) & (taken + self.bottom):
            return None  # a four to make or to block: `search_actions` has the move
        cells = self._proof.best_moves(state.o if state.player else state.x, taken, lambda: self.least(state))
        return tuple(col for col in self.column_order if cells & self.column_masks[col]) or None

    def least(self, state: Board) -> int:
        """The least payoff the 12-stone book proves for the mover (-1 where it says nothing): its own
        at 12 stones; one stone later, the most of every position X may have moved from (each X stone
        on top of its column taken back), since each move of X from there leaves O at least its negation."""
        taken = state.x | state.o
        stones = taken.bit_count()
        if stones == connect4_book.STONES[-1]:
            known = super().book(state)
            return int(known.payoff) if known is not None else -1
        if stones != connect4_book.STONES[-1] + 1:
            return -1
        least, tops = -1, (taken + self.bottom) >> 1 & state.x  # each column's top stone, where it is X's
        while tops and least < 1:
            top = tops & -tops
            tops ^= top
            x = state.x ^ top
            known = connect4_book.probe(x, state.o, ((x | state.o) + self.bottom) & self.board, 0)
            if known is not None:
                least = max(least, -int(known.payoff))
        return least

    def book(self, state: Board) -> Known | None:
        """The opening books at the stone counts they cover (`Rules.book`); past them, in a search's copy
        (`for_search`), the outcome an exact search of its own proves (`proof.Proof`: the root's children
        within a budget of nodes that grows each time they are asked, all within a share of the calls
        here, deeper positions from its table), or None. First, in a search's copy of a board without
        gravity, a win or loss that threats prove (`threat_proof`)."""
        if self._threat_proof is not None and (proven := known_of(self._threat_proof, state)) is not None:
            return proven  # threat_proof's hook: a win (or loss) by threats, proven in a search's copy
        taken = state.x | state.o
        if self._proof is not None:
            self._proof.read, self._proof.calls = True, self._proof.calls + 1
        if self._proof is None or state.outcome or taken.bit_count() <= connect4_book.STONES[-1]:
            return super().book(state)
        mine, threats = (state.o, state.o_threats) if state.player else (state.x, state.x_threats)
        if threats & (taken + self.bottom):  # the mover completes four at once
            return Known(1.0, 1, True)
        return self._proof.outcome(mine, taken)


def _shape(
    position: str | None,
    size: int | None,
    rows: int | None,
    cols: int | None,
    default: tuple[int, int],
    square: bool,
) -> tuple[int, int]:
    """Rows and columns from --size, --rows/--cols, or the shape of --position; with `square`
    one side given makes a square board, else the other side keeps its default."""
    if size is not None:
        return size, size
    if position is not None and rows is None and cols is None:
        lines = position.strip().split("/")
        return len(lines), len(lines[0])
    if square:
        rows, cols = (rows if rows is not None else cols), (cols if cols is not None else rows)
    return (rows if rows is not None else default[0]), (cols if cols is not None else default[1])


def create_tictactoe(argv: Sequence[str]) -> MNK:
    """Tic-tac-toe (any m,n,k game) from its words (TICTACTOE)."""
    words = TICTACTOE.parse(argv)
    rows, cols = _shape(words["position"], words["size"], words["rows"], words["cols"], (3, 3), True)
    return MNK(rows, cols, words["k"], words["gravity"], words["position"])


def create_connect4(argv: Sequence[str]) -> MNK:
    """Connect Four from its words (CONNECT4): 6 rows x 7 columns, 4 in a row, gravity."""
    words = CONNECT4.parse(argv)
    rows, cols = _shape(words["position"], None, words["rows"], words["cols"], (6, 7), False)
    return MNK(rows, cols, words["k"], True, words["position"], name="connect4")
