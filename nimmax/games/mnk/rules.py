"""m,n,k rules: k in a row on a rows x cols board (with gravity, Connect Four) as bitboards.

A position is one integer bitboard per side. Bits are laid out column by column, bottom row
first, with one empty guard bit on top of each column (`stride = rows + 1`), so a shift by
1, stride, stride + 1 or stride - 1 steps along a column, a row or a diagonal without ever
wrapping onto the next line; under gravity, adding the bottom bit to a column's stones
lands on its first empty cell. Only the lines through the last move are tested for a win.
Moves are ints: the bit of the cell played, or the column under gravity.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Hashable, Sequence
from operator import itemgetter
from typing import NamedTuple, Self, TypeVar

from nimmax.game import BadGameSpec, Capability, Game, IllegalMove, Known, legal_text
from nimmax.games import connect4_book

ONGOING, X_WON, O_WON, DRAWN = 0, 1, 2, 3
"""Outcomes a position records; the search reads them instead of looking for lines."""

LETTERS = "abcdefghijklmnopqrstuvwxyz"
MAX_SIDE = 26
"""Columns are named by letters, so at most 26 of them (and rows to match)."""
FOLDED_CELLS = 64
"""Boards up to this many cells fold their symmetries into the table key."""
REMEMBERED_CELLS = 16
"""Boards up to this many cells remember the moves of each set of taken cells (2^16 sets at most)."""
REMEMBERED_CHILDREN = 1 << 16
"""Children a board of at most REMEMBERED_CELLS remembers (then it starts afresh): some 12 MB at worst."""
REMEMBERED_SCORES = 1 << 19
"""Window scores a search remembers at most (then it starts afresh): some 60 MB at worst."""
REMEMBERED_POSITIONS = 1 << 17
"""Move lists and threat shapes a search on a big board remembers at most, each (then it starts
afresh): some 40 MB apiece."""


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
    """Every symmetric image of both bitboards, packed side by side (see `Rules.key`)."""


_new = tuple.__new__
"""Builds a Board without the keyword handling of its constructor: `result` is the hot path."""


V = TypeVar("V")


class Forgets(dict[int, V]):
    """A memo that keeps nothing: the game's own, outside a search (`Rules.for_search`)."""

    def __setitem__(self, key: int, value: V) -> None:
        pass


def bits_of(cells: int) -> list[int]:
    """The bits set in `cells`, lowest first."""
    found = []
    while cells:
        low = cells & -cells
        found.append(low.bit_length() - 1)
        cells ^= low
    return found


def _memo(remember: bool) -> dict[int, V]:
    return {} if remember else Forgets()


class Rules(Game[Board, int]):
    """The rules of an m,n,k game on bitboards: the board's geometry, moves, results, ends, keys."""

    player_names = ("X", "O")
    capabilities = frozenset({Capability.SEARCH_ORDER})
    start: Board
    """The position the game starts from."""
    booked: bool
    """Whether the opening books cover this board (Connect Four 7x6)."""
    books: bool
    """Whether the books cover this board and are installed: BOOK is declared."""

    def __init__(self, rows: int, cols: int, k: int | None, gravity: bool, name: str) -> None:
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise BadGameSpec(f"{name}: rows and columns must be 1 to {MAX_SIDE}, not {rows}x{cols}")
        k = min(rows, cols, 5) if k is None else k
        if k < 1:
            raise BadGameSpec(f"{name}: --k must be at least 1")
        if k > rows and k > cols:
            raise BadGameSpec(f"{name}: k={k} does not fit on {rows} rows x {cols} columns")
        self.name, self.rows, self.cols, self.k, self.gravity = name, rows, cols, k, gravity
        self.stride = rows + 1
        self.cells = rows * cols
        self.span = cols * self.stride
        self._lay_out()
        self._order()
        self._fold()
        self._memos(remember=False)

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
        self._window_starts = {  # the cells a window of k along each direction may start from
            shift: functools.reduce(int.__and__, (self.board >> step * shift for step in range(k)))
            for shift in self.directions
        }
        self.lines_through: list[tuple[int, ...]] = [
            tuple(line for line in self.lines if line >> bit & 1) for bit in range(self.span)
        ]
        self._odd_rows = sum(1 << col * stride + height for col in range(cols) for height in range(0, rows, 2))
        self._weights = [0.0] + [4.0 ** (count - 1) for count in range(1, k)] + [0.0]
        """A window's weight by its stones: a full window is a finished game, never scored."""

    def _order(self) -> None:
        """Cells and columns centre first: cells near the middle sit on the most lines."""
        rows, cols = self.rows, self.cols
        middle_row, middle_col = (rows - 1) / 2, (cols - 1) / 2
        by_centre = sorted(
            ((row, col) for row in range(rows) for col in range(cols)),
            key=lambda cell: (abs(cell[0] - middle_row) + abs(cell[1] - middle_col), cell[1], cell[0]),
        )
        self.cell_order = [self.bit(row, col) for row, col in by_centre]
        self.column_order = sorted(range(cols), key=lambda col: (abs(col - middle_col), col))
        self._order_stones = [(bit, 1 << bit) for bit in self.cell_order]
        self._rank = {bit: index for index, bit in enumerate(self.cell_order)}

    def _fold(self) -> None:
        """Each cell's stone in every symmetric image, and how the key cuts the images apart."""
        self._image_bytes = (2 * self.span + 7) // 8
        self.x_images, self.o_images = self._stone_images()
        self._cells = {  # what `result` needs of a cell, in one lookup
            bit: (1 << bit, self.x_images[bit], self.o_images[bit]) for bit in self.cell_order
        }
        folds = len(self.symmetries()) if self.cells <= FOLDED_CELLS else 0
        width = self._image_bytes
        self._images_size = folds * width
        # Two symmetries at least (identity, mirror), so the getter returns a tuple of images.
        cuts = [slice(index * width, (index + 1) * width) for index in range(folds)] or [slice(0)] * 2
        self._images_apart = itemgetter(*cuts)
        """Cuts the bytes of the images apart in one call."""

    def _memos(self, remember: bool) -> None:
        """Memos of the pure answers a search asks again and again: fresh ones, or ones keeping nothing."""
        self.remembers = remember
        self._moves: dict[int, tuple[int, ...]] = _memo(remember)
        self._children: dict[int, Board] | None = (
            _memo(remember) if remember and self.cells <= REMEMBERED_CELLS else None
        )
        self._scores: dict[int, float] = _memo(remember)
        self._shapes: dict[int, tuple[int, int]] = _memo(remember)
        self._tried: dict[int, tuple[int, ...]] = _memo(remember)
        self._vcfs: dict[int, int] = _memo(remember)

    def for_search(self) -> Self:
        """This game with memos of its own for one search (moves and children on a small board,
        window scores, threat shapes, moves tried, victories by fours), which owns them and drops
        them with it: the game itself keeps none, so it is shared and pickled bare. A copy that
        remembers is its own: a player keeping one across its moves, like its table, keeps them."""
        if self.remembers:
            return self
        searching = copy.copy(self)
        searching._memos(remember=True)
        return searching

    # -- geometry -------------------------------------------------------------------------

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
                images += [(flip_rows, flip_cols, True) for flip_rows in (0, 1) for flip_cols in (0, 1)]
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

    def _stone_images(self) -> tuple[list[int], list[int]]:
        """For each cell, one stone of X (then of O) in every symmetric image, packed.

        Image i of a position sits in field i (X's stones, then O's, in whole bytes), so a
        move updates all images with one OR and the key is the least field. Boards above
        FOLDED_CELLS keep no images: played under a depth or time limit, their symmetric
        positions hardly ever meet, and the plain stones make the key.
        """
        if self.cells > FOLDED_CELLS:
            return [0] * self.span, [0] * self.span
        permutations, width = self.symmetries(), 8 * self._image_bytes
        images: tuple[list[int], list[int]] = ([0] * self.span, [0] * self.span)
        for bit in permutations[0]:
            for index, permutation in enumerate(permutations):
                for side in (0, 1):
                    images[side][bit] |= 1 << (index * width + side * self.span + permutation[bit])
        return images

    # -- the Game protocol ----------------------------------------------------------------

    def initial_state(self) -> Board:
        return self.start

    def to_move(self, state: Board) -> int:
        return state.player

    def actions(self, state: Board) -> Sequence[int]:
        """The empty cells (under gravity the open columns), centre first, as a tuple; small
        boards remember them for each set of taken cells."""
        if state.outcome:
            return ()
        taken = state.x | state.o
        moves = self._moves.get(taken)
        if moves is None:
            if self.gravity:
                masks = self.column_masks
                moves = tuple(col for col in self.column_order if taken & masks[col] != masks[col])
            else:
                moves = tuple(bit for bit, stone in self._order_stones if not taken & stone)
            if self.cells <= REMEMBERED_CELLS:
                self._moves[taken] = moves
        return moves

    def result(self, state: Board, action: int) -> Board:
        children = self._children
        if children is None or type(action) is not int or not 0 <= action < 64:
            return self._result(state, action)
        # A small board's position is a function of its stones: each child is made once.
        key = (state[0] << self.span | state[1]) << 6 | action
        child = children.get(key)
        if child is None:
            child = self._result(state, action)
            if len(children) >= REMEMBERED_CHILDREN:
                children.clear()
            children[key] = child
        return child

    def _result(self, state: Board, action: int) -> Board:
        """The position after `action`, worked out from the stones and the threats."""
        x, o, player, outcome, x_threats, o_threats, images = state
        taken, bit = x | o, action
        if self.gravity:  # the move is a column: its lowest empty cell
            mask = self.column_masks[action] if 0 <= action < self.cols else 0
            bit = (((taken & mask) + (self.bottom & mask)) & mask).bit_length() - 1
        cell = self._cells.get(bit)
        if cell is None or outcome or taken & cell[0]:
            raise IllegalMove(self._illegal(state, action))
        stone, x_image, o_image = cell
        mine, theirs, threats = (o | stone, x, o_threats) if player else (x | stone, o, x_threats)
        if threats & stone:
            outcome = O_WON if player else X_WON
        else:
            # A new threat of the mover lies on a line through the stone; the opponent's threats
            # lose at most this cell, since a line of theirs through it is blocked, not made.
            threats |= self._made(mine, theirs, bit)
            if (taken | stone) == self.board:
                outcome = DRAWN
        if player:
            return _new(Board, (x, mine, 0, outcome, x_threats & ~stone, threats, images | o_image))
        return _new(Board, (mine, o, 1, outcome, threats, o_threats & ~stone, images | x_image))

    def _illegal(self, state: Board, action: int) -> str:
        """Why `action` cannot be played, and what can."""
        if state.outcome:
            return "the game is over"
        if not isinstance(action, int) or not 0 <= action < (self.cols if self.gravity else self.span):
            return f"no move {action!r} on this board; legal: {legal_text(self, state)}"
        if self.gravity:
            return f"column {LETTERS[action]} is full; legal: {legal_text(self, state)}"
        if action not in self._cells:
            return f"no move {action!r} on this board; legal: {legal_text(self, state)}"
        return f"{self.format_move(action)} is taken; legal: {legal_text(self, state)}"

    def is_terminal(self, state: Board) -> bool:
        return state.outcome != ONGOING

    def utility(self, state: Board, player: int) -> float:
        outcome = state.outcome
        if outcome == X_WON:
            return 1.0 if player == 0 else -1.0
        if outcome == O_WON:
            return -1.0 if player == 0 else 1.0
        return 0.0

    def key(self, state: Board) -> Hashable:
        """The least symmetric image, as bytes (the side to move follows from the stone counts)."""
        if not self._images_size:
            return state.x | state.o << self.span
        images: tuple[bytes, ...] = self._images_apart(state.images.to_bytes(self._images_size, "little"))
        return min(images)

    def search_actions(self, state: Board) -> Sequence[int]:
        """A move that wins at once, else the block of the opponent's immediate win, else
        every move centre first: the value (and its distance to the end) stays the same."""
        x, o, player, _, x_threats, o_threats, _ = state
        mine, theirs = (o_threats, x_threats) if player else (x_threats, o_threats)
        if self.gravity:
            playable = (x | o) + self.bottom
            mine, theirs = mine & playable, theirs & playable
        urgent = mine or theirs
        if not urgent:
            return self.actions(state)
        bit = (urgent & -urgent).bit_length() - 1
        return [bit // self.stride if self.gravity else bit]

    def threats(self, stones: int, blockers: int) -> int:
        """The empty cells that would complete a line of `stones` (a line free of `blockers`)."""
        found = 0
        for line in self.lines:
            if not blockers & line:
                common = stones & line
                if common.bit_count() == self.k - 1:
                    found |= line ^ common
        return found

    def _made(self, stones: int, blockers: int, bit: int) -> int:
        """The empty cells completing a line of `stones` through `bit` (lines free of `blockers`):
        the fours a stone just played at `bit` made."""
        near_full, found = self.k - 1, 0
        for line in self.lines_through[bit]:
            if not blockers & line:
                common = stones & line
                if common.bit_count() == near_full:
                    found |= line ^ common
        return found

    def missing_books(self) -> str | None:
        """How to get perfect play, on the board the opening books cover when they are not installed."""
        if self.booked and not connect4_book.installed():
            return connect4_book.ADVICE
        return None

    def book(self, state: Board) -> Known | None:
        """Connect Four 7x6's opening books (`connect4_book`) where they are installed (then BOOK is
        declared), asked only at the stone counts they cover; None on any other board."""
        taken = state.x | state.o
        if not self.books or taken.bit_count() not in connect4_book.STONES or state.outcome:
            return None
        return connect4_book.probe(state.x, state.o, taken + self.bottom, state.x_threats)
