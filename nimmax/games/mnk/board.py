"""An m,n,k board: a position (`Board`) and the geometry every part of the game reads (`Geometry`).

A position is one integer bitboard per side. Bits are laid out column by column, bottom row
first, with one empty guard bit on top of each column (`stride = rows + 1`), so a shift by
1, stride, stride + 1 or stride - 1 steps along a column, a row or a diagonal without ever
wrapping onto the next line; under gravity, adding the bottom bit to a column's stones
lands on its first empty cell. Moves are ints: the bit of the cell played, or the column
under gravity.
"""

from __future__ import annotations

import functools
from operator import itemgetter
from typing import NamedTuple

from nimmax.game import BadGameSpec

ONGOING, X_WON, O_WON, DRAWN = 0, 1, 2, 3
"""Outcomes a position records; the search reads them instead of looking for lines."""

LETTERS = "abcdefghijklmnopqrstuvwxyz"
MAX_SIDE = 26
"""Columns are named by letters, so at most 26 of them (and rows to match)."""
FOLDED_CELLS = 64
"""Boards up to this many cells fold their symmetries into the table key."""


class Board(NamedTuple):
    """An m,n,k position: X's and O's stones as bitboards, the seat to move (0 = X), the
    outcome, and each side's threats: the empty cells that would complete its line.

    Threats and images follow from the stones (they are kept, not recomputed, since every
    node of a search asks for them), so two boards with the same stones are the same position.
    """

    x: int
    o: int
    player: int
    outcome: int
    x_threats: int
    o_threats: int
    images: int
    """Every symmetric image of both bitboards, packed side by side (`Geometry.stone_images`)."""


def bits_of(cells: int) -> list[int]:
    """The bits set in `cells`, lowest first."""
    found = []
    while cells:
        low = cells & -cells
        found.append(low.bit_length() - 1)
        cells ^= low
    return found


def payoff(outcome: int, player: int) -> float:
    """What an outcome pays `player` (0 = X): +1 for its line, -1 for the other's, else 0."""
    if outcome == X_WON:
        return 1.0 if player == 0 else -1.0
    if outcome == O_WON:
        return -1.0 if player == 0 else 1.0
    return 0.0


class Geometry:
    """One board's shape, read by every part of the game and never changed once built: its
    masks, lines and windows of k, cells in search order, symmetric images, and the threats
    stones make on it."""

    def __init__(self, rows: int, cols: int, k: int | None, gravity: bool, name: str) -> None:
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise BadGameSpec(
                f"{name}: rows and columns must be 1 to {MAX_SIDE}, not {rows}x{cols}"
            )
        k = min(rows, cols, 5) if k is None else k
        if k < 1:
            raise BadGameSpec(f"{name}: --k must be at least 1")
        if k > rows and k > cols:
            raise BadGameSpec(f"{name}: k={k} does not fit on {rows} rows x {cols} columns")
        self.rows, self.cols, self.k, self.gravity = rows, cols, k, gravity
        self.stride = rows + 1
        self.cells = rows * cols
        self.span = cols * self.stride
        self._lay_out()
        self._order()
        self._fold()

    def _lay_out(self) -> None:
        """The board's masks, the directions a line of k fits along, and every window of k."""
        rows, cols, k, stride = self.rows, self.cols, self.k, self.stride
        self.board = sum(1 << self.bit(row, col) for row in range(rows) for col in range(cols))
        self.bottom = sum(1 << col * stride for col in range(cols))
        self.column_masks = [((1 << rows) - 1) << col * stride for col in range(cols)]
        self.directions = [shift for shift, fits in ((1, k <= rows), (stride, k <= cols)) if fits]
        if k <= rows and k <= cols:
            self.directions += [stride + 1, stride - 1]
        self.lines = self._lines()
        self.window_starts = {  # the cells a window of k along each direction may start from
            shift: functools.reduce(int.__and__, (self.board >> step * shift for step in range(k)))
            for shift in self.directions
        }
        self.lines_through: list[tuple[int, ...]] = [
            tuple(line for line in self.lines if line >> bit & 1) for bit in range(self.span)
        ]
        self.odd_rows = sum(
            1 << col * stride + height for col in range(cols) for height in range(0, rows, 2)
        )
        self.weights = [0.0] + [4.0 ** (count - 1) for count in range(1, k)] + [0.0]
        """A window's weight by its stones: a full window is a finished game, never scored."""

    def _order(self) -> None:
        """Cells and columns centre first: cells near the middle sit on the most lines."""
        rows, cols = self.rows, self.cols
        middle_row, middle_col = (rows - 1) / 2, (cols - 1) / 2
        by_centre = sorted(
            ((row, col) for row in range(rows) for col in range(cols)),
            key=lambda cell: (
                abs(cell[0] - middle_row) + abs(cell[1] - middle_col),
                cell[1],
                cell[0],
            ),
        )
        self.cell_order = [self.bit(row, col) for row, col in by_centre]
        self.column_order = sorted(range(cols), key=lambda col: (abs(col - middle_col), col))
        self.order_stones = [(bit, 1 << bit) for bit in self.cell_order]
        self.rank = {bit: index for index, bit in enumerate(self.cell_order)}

    def _fold(self) -> None:
        """Each cell's stone in every symmetric image, and how the key cuts the images apart."""
        self.image_bytes = (2 * self.span + 7) // 8
        self.x_images, self.o_images = self.stone_images()
        self.stones = {  # what a move needs of a cell, in one lookup
            bit: (1 << bit, self.x_images[bit], self.o_images[bit]) for bit in self.cell_order
        }
        folds = len(self.symmetries()) if self.cells <= FOLDED_CELLS else 0
        width = self.image_bytes
        self.images_size = folds * width
        # Two symmetries at least (identity, mirror), so the getter returns a tuple of images.
        cuts = [slice(index * width, (index + 1) * width) for index in range(folds)] or [
            slice(0)
        ] * 2
        self.images_apart = itemgetter(*cuts)
        """Cuts the bytes of the images apart in one call."""

    def bit(self, row: int, col: int) -> int:
        """The bit of the cell at `row` (from the top) and `col` (from the left)."""
        return col * self.stride + (self.rows - 1 - row)

    def cell(self, bit: int) -> tuple[int, int]:
        """(row from the top, column from the left) of a cell's bit."""
        col, height = divmod(bit, self.stride)
        return self.rows - 1 - height, col

    def _lines(self) -> list[int]:
        """Every k-cell window along a row, column or diagonal, as a bitmask."""
        lines = []
        for row in range(self.rows):
            for col in range(self.cols):
                for step_row, step_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_row, end_col = row + step_row * (self.k - 1), col + step_col * (self.k - 1)
                    if 0 <= end_row < self.rows and 0 <= end_col < self.cols:
                        cells = [(row + step_row * i, col + step_col * i) for i in range(self.k)]
                        lines.append(sum(1 << self.bit(r, c) for r, c in cells))
        return sorted(set(lines))

    def symmetries(self) -> list[dict[int, int]]:
        """The board's symmetries as bit permutations: 8 on a square, 4 on a rectangle,
        identity and mirror under gravity (a board may not be turned upside down)."""
        last_row, last_col = self.rows - 1, self.cols - 1
        images = [(0, 0, False), (0, 1, False)]  # (flip rows, flip columns, transpose)
        if not self.gravity:
            images += [(1, 0, False), (1, 1, False)]
            if self.rows == self.cols:
                images += [
                    (flip_rows, flip_cols, True) for flip_rows in (0, 1) for flip_cols in (0, 1)
                ]
        permutations = []
        for flip_rows, flip_cols, transpose in images:
            permutation = {}
            for row in range(self.rows):
                for col in range(self.cols):
                    image_row = last_row - row if flip_rows else row
                    image_col = last_col - col if flip_cols else col
                    if transpose:
                        image_row, image_col = image_col, image_row
                    permutation[self.bit(row, col)] = self.bit(image_row, image_col)
            permutations.append(permutation)
        return permutations

    def stone_images(self) -> tuple[list[int], list[int]]:
        """For each cell, one stone of X (then of O) in every symmetric image, packed.

        Image i of a position sits in field i (X's stones, then O's, in whole bytes), so a
        move updates all images with one OR and the key is the least field. Boards above
        FOLDED_CELLS keep no images: played under a depth or time limit, their symmetric
        positions hardly ever meet, and the plain stones make the key.
        """
        if self.cells > FOLDED_CELLS:
            return [0] * self.span, [0] * self.span
        permutations, width = self.symmetries(), 8 * self.image_bytes
        images: tuple[list[int], list[int]] = ([0] * self.span, [0] * self.span)
        for bit in permutations[0]:
            for index, permutation in enumerate(permutations):
                for side in (0, 1):
                    images[side][bit] |= 1 << (index * width + side * self.span + permutation[bit])
        return images

    def threats_of(self, stones: int, blockers: int) -> int:
        """The empty cells that would complete a line of `stones` (a line free of `blockers`)."""
        found = 0
        for line in self.lines:
            if not blockers & line:
                common = stones & line
                if common.bit_count() == self.k - 1:
                    found |= line ^ common
        return found

    def threats_through(self, stones: int, blockers: int, bit: int) -> int:
        """The empty cells completing a line of `stones` through `bit` (lines free of `blockers`):
        the threats a stone just played at `bit` made."""
        near_full, found = self.k - 1, 0
        for line in self.lines_through[bit]:
            if not blockers & line:
                common = stones & line
                if common.bit_count() == near_full:
                    found |= line ^ common
        return found

    def gain(self, bit: int, mine: int, theirs: int) -> float:
        """How much a stone at `bit` adds to its side's window score (its own windows grow,
        the opponent's through it are blocked)."""
        weights, gain = self.weights, 0.0
        for line in self.lines_through[bit]:
            if not theirs & line:
                count = (mine & line).bit_count()
                gain += weights[count + 1] - weights[count]
            elif not mine & line:
                gain += weights[(theirs & line).bit_count()]
        return gain

    def counters(self, stones: int, blockers: int, shift: int) -> tuple[int, list[int]]:
        """The starts of the windows along one direction free of `blockers`, and their counts
        of `stones` bit-sliced: planes[j] holds bit j of each window's count."""
        k = self.k
        spread = blockers  # every window start that has a blocker in its window
        for step in range(1, k):
            spread |= blockers >> step * shift
        starts = self.window_starts[shift] & ~spread
        planes: list[int] = []
        for step in range(k):
            carry = stones >> step * shift & starts
            for index, plane in enumerate(planes):
                planes[index], carry = plane ^ carry, plane & carry
                if not carry:
                    break
            if carry:
                planes.append(carry)
        return starts, planes
