"""An n-tuple network for 4x4 2048: tables of weights indexed by the exponents a few cells hold.

A tuple is a list of cells; its index on a board is the cells' 4-bit exponents read as one
number (the first cell in the lowest nibble), so a table has 16**len entries. The network's
value of a board is the sum, over the 8 symmetries of the square and over the tuples, of each
tuple's weight on the turned board: a board and its mirror images are valued alike. Play reads
it in pure Python with integer indexing; training (`nimmax.learn.train`) uses numpy.

The board is the integer of `nimmax.games.twenty48`: cell (row, column) in nibble 4 * row + column.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from nimmax.games.twenty48_rows import transpose4

SMALL = ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 4, 5), (1, 2, 5, 6), (5, 6, 9, 10))
"""The shipped network's tuples: the outer and an inner row, and three 2x2 squares (corner,
edge, centre); by symmetry they cover every row, column and square of the board."""

FIVES = ((0, 1, 2, 3, 4), (4, 5, 6, 7, 8), (0, 1, 2, 4, 5), (4, 5, 6, 8, 9))
"""Four 5-cell shapes: a row with the cell below its start, and a 3+2 block, at the edge and
inside."""

SHIPPED = FIVES
"""The tuples of the network nimmax ships (nimmax/games/ntuple/data/2048.ntuple)."""

LARGE = ((0, 1, 2, 3, 4, 5), (4, 5, 6, 7, 8, 9), (0, 1, 2, 4, 5, 6), (4, 5, 6, 8, 9, 10))
"""The tuples `nimmax train 2048` learns by default: four 6-cell shapes after Jaśkowski (2016)."""

CELLS = 16
NIBBLES = 0xF0F0F0F0F0F0F0F0
BYTES = 0xFF00FF00FF00FF00
LOW_WORDS = 0x0000FFFF0000FFFF
LOW_HALF = 0x00000000FFFFFFFF
Board = Callable[[int], int]


def mirror_columns(board: int) -> int:
    """The board read right to left: each row's nibbles reversed."""
    board = ((board & NIBBLES) >> 4) | ((board << 4) & NIBBLES)
    return ((board & BYTES) >> 8) | ((board << 8) & BYTES)


def mirror_rows(board: int) -> int:
    """The board read bottom to top: the four 16-bit rows reversed."""
    board = ((board >> 16) & LOW_WORDS) | ((board & LOW_WORDS) << 16)
    return ((board >> 32) & LOW_HALF) | ((board & LOW_HALF) << 32)


def symmetries(board: int) -> tuple[int, ...]:
    """The 8 images of a 4x4 board under the symmetries of the square (some equal when it is
    symmetric)."""
    turned = transpose4(board)
    images = []
    for base in (board, turned):
        flipped = mirror_rows(base)
        images += [base, mirror_columns(base), flipped, mirror_columns(flipped)]
    return tuple(images)


def runs(cells: Sequence[int]) -> tuple[tuple[int, int, int], ...]:
    """A tuple's index as (shift, mask, place) runs: `((board >> shift) & mask) << place` summed,
    one run per stretch of consecutive cells (a row tuple is one run)."""
    found: list[tuple[int, int, int]] = []
    start = 0
    for position in range(1, len(cells) + 1):
        if position == len(cells) or cells[position] != cells[position - 1] + 1:
            length = position - start
            found.append((4 * cells[start], (1 << (4 * length)) - 1, 4 * start))
            start = position
    return tuple(found)


def index(board: int, cells: Sequence[int]) -> int:
    """A tuple's index on a board, cell by cell: the slow reference `runs` is checked against."""
    return sum(((board >> (4 * cell)) & 15) << (4 * place) for place, cell in enumerate(cells))


@dataclass
class Network:
    """Tuples, one table of weights each (`array` of 'f', or of 'h' read times `scale`), and the
    games it was trained on."""

    tuples: tuple[tuple[int, ...], ...]
    tables: list[array]  # type: ignore[type-arg]
    scale: float = 1.0
    games: int = 0
    _runs: tuple[tuple[tuple[int, int, int], ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._runs = tuple(runs(cells) for cells in self.tuples)

    @classmethod
    def empty(cls, tuples: Sequence[Sequence[int]]) -> Network:
        """A network of zero weights (float tables) over `tuples`."""
        shaped = tuple(tuple(cells) for cells in tuples)
        return cls(shaped, [array("f", bytes(4 * 16 ** len(cells))) for cells in shaped])

    @property
    def weights(self) -> int:
        """How many weights the tables hold."""
        return sum(len(table) for table in self.tables)

    def value(self, board: int) -> float:
        """The network's value of a 4x4 board: the points it expects still to score."""
        return self._value(*symmetries(board))

    @property
    def _value(self) -> Callable[..., float]:
        """The sum over 8 images as one expression, compiled once (each tuple's runs of cells
        inlined as shifts and masks: a few dozen integer operations and table reads)."""
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            terms = []
            for number, parts in enumerate(self._runs):
                for image in range(8):
                    index = " | ".join(
                        f"((b{image} >> {shift}) & {mask:#x})" + (f" << {place}" if place else "")
                        for shift, mask, place in parts
                    )
                    terms.append(f"t{number}[{index}]")
            names = ", ".join(f"b{image}" for image in range(8))
            source = f"lambda {names}: ({' + '.join(terms)}) * scale"
            scope = {f"t{number}": table for number, table in enumerate(self.tables)} | {
                "scale": self.scale
            }
            compiled = self.__dict__["_compiled"] = eval(source, scope)  # noqa: S307 (built here from integers)
        return compiled  # type: ignore[no-any-return]
