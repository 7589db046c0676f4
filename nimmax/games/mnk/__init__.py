"""m,n,k games: tic-tac-toe on any board (k in a row wins), and with gravity Connect Four.

`MNK` is built in layers, one module each: `rules` (bitboards, moves, results, keys),
`notation` (moves and positions as typed, the completed line, the game's words), `threats`
(threat shapes, victories by continuous fours, the moves a limited search tries on a big
board) and `evaluation` (window scores, row parity, the estimate at a horizon).
"""

from __future__ import annotations

from collections.abc import Sequence

from nimmax.game import Capability
from nimmax.games import connect4_book
from nimmax.games.mnk.evaluation import Evaluation
from nimmax.games.mnk.notation import CONNECT4, TICTACTOE
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
        if not self.books:
            self.capabilities = self.capabilities - {Capability.BOOK}


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
