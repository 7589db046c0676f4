"""m,n,k games: tic-tac-toe on any board (k in a row wins), and with gravity Connect Four.

A position is one integer bitboard per side. Bits are laid out column by column, bottom row
first, with one empty guard bit on top of each column (`stride = rows + 1`), so a shift by
1, stride, stride + 1 or stride - 1 steps along a column, a row or a diagonal without ever
wrapping onto the next line; under gravity, adding the bottom bit to a column's stones
lands on its first empty cell. Only the lines through the last move are tested for a win.

Moves are ints: the bit of the cell played, or the column under gravity. Notation: `b2` is
column b (from the left), row 2 (from the top); people may type `2,2` or `2 2` (row,
column) too; under gravity a move is its column, `c` or `3`.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Hashable, Sequence
from operator import itemgetter
from typing import Any, NamedTuple

from nimmax.game import BadGameSpec, Game, IllegalMove, Known
from nimmax.games import connect4_book
from nimmax.games.words import OneOf, Option, Signature
from nimmax.numbers import parse_int, quoted

ONGOING, X_WON, O_WON, DRAWN = 0, 1, 2, 3
"""Outcomes a position records; the search reads them instead of looking for lines."""

LETTERS = "abcdefghijklmnopqrstuvwxyz"
FOLDED_CELLS = 64
"""Boards up to this many cells fold their symmetries into the table key."""
REMEMBERED_CELLS = 16
"""Boards up to this many cells remember the moves of each set of taken cells (2^16 sets at most)."""
REMEMBERED_CHILDREN = 1 << 16
"""Children a board of at most REMEMBERED_CELLS remembers (then it starts afresh): some 12 MB at worst."""
NARROWED_CELLS = 49
"""Boards above this many cells (larger than 7x7, no gravity) narrow a limited search to the cells near the stones."""
REMEMBERED_SCORES = 1 << 19
"""Window scores a game remembers at most (then it starts afresh): some 60 MB at worst."""
REMEMBERED_POSITIONS = 1 << 17
"""Move lists and threat shapes a big board remembers at most, each (then it starts afresh): some 40 MB apiece."""
GOOD_THREAT, POOR_THREAT = 60.0, 10.0
"""What a threat under gravity adds to the estimate, on a row of the parity that favours its
owner and on the other (see `MNK.parity_score`); an open window of k - 1 stones weighs 4 ** (k - 2)."""
OPEN_FOUR = 600.0
"""What the estimate adds (no gravity, no threat on the board) when the mover can make two
threats with one stone: a win next move unless the opponent wins first."""
BEAM = 12
"""Moves a limited search tries where nothing is forced: the near cells that add most to the
mover's windows and take most from the opponent's."""
FORCED_PLIES = 12
"""Forced blocks `evaluate` plays out at most before it scores a position (a quiescence on fours)."""
VCF_FOURS = 6
"""Fours a victory by continuous fours (`MNK.vcf`) is looked for up to."""
VCF_WIN = 900.0
"""What the estimate adds when the mover wins by continuous fours: a win beyond the horizon."""
MAX_SIDE = 26
"""Columns are named by letters, so at most 26 of them (and rows to match)."""

_ROWS = Option("--rows", int, None, "R", 1, MAX_SIDE)
_COLS = Option("--cols", int, None, "C", 1, MAX_SIDE)
_POSITION = Option("--position", str, None, "P")
TICTACTOE = Signature(
    "tictactoe",
    options=(
        OneOf(((Option("--size", int, None, "N", 1, MAX_SIDE),), (_ROWS, _COLS))),
        Option("--k", int, None, "K", 1, MAX_SIDE),
        Option("--gravity"),
        _POSITION,
    ),
)
"""Tic-tac-toe's words: the board (square, or rows and columns), k, gravity, a position."""
CONNECT4 = Signature("connect4", options=(_ROWS, _COLS, Option("--k", int, 4, "K", 1, MAX_SIDE), _POSITION))
"""Connect Four's words: the board (6 rows x 7 columns unless given), k, a position."""


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
    """Every symmetric image of both bitboards, packed side by side (see `MNK.key`)."""


_new = tuple.__new__
"""Builds a Board without the keyword handling of its constructor: `result` is the hot path."""


class _Memo(dict[int, Any]):
    """Answers of a pure function of the game, kept by the game; pickled empty, so a game sent
    to a worker process carries none."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), ())


class MNK(Game[Board, int]):
    """k in a row on a rows x cols board; with `gravity` stones drop to the lowest empty cell."""

    player_names = ("X", "O")

    def __init__(
        self,
        rows: int = 3,
        cols: int = 3,
        k: int | None = None,
        gravity: bool = False,
        position: str | None = None,
        name: str = "tictactoe",
    ) -> None:
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise BadGameSpec(f"{name}: rows and columns must be 1 to {MAX_SIDE}, not {rows}x{cols}")
        k = min(rows, cols, 5) if k is None else k
        if k < 1:
            raise BadGameSpec(f"{name}: --k must be at least 1")
        if k > rows and k > cols:
            raise BadGameSpec(f"{name}: k={k} does not fit on {rows} rows x {cols} columns")
        self.name, self.rows, self.cols, self.k, self.gravity = name, rows, cols, k, gravity
        self.stride = stride = rows + 1
        self.cells = rows * cols
        self.span = cols * stride
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
        # Centre first: cells near the middle sit on the most lines.
        middle_row, middle_col = (rows - 1) / 2, (cols - 1) / 2
        by_centre = sorted(
            ((row, col) for row in range(rows) for col in range(cols)),
            key=lambda cell: (abs(cell[0] - middle_row) + abs(cell[1] - middle_col), cell[1], cell[0]),
        )
        self.cell_order = [self.bit(row, col) for row, col in by_centre]
        self.column_order = sorted(range(cols), key=lambda col: (abs(col - middle_col), col))
        self._order_stones = [(bit, 1 << bit) for bit in self.cell_order]
        self._moves = _Memo()
        self._children: dict[int, Board] | None = _Memo() if self.cells <= REMEMBERED_CELLS else None
        self._rank = {bit: index for index, bit in enumerate(self.cell_order)}
        self._scores: dict[int, float] = _Memo()
        self._shapes: dict[int, tuple[int, int]] = _Memo()
        self._tried: dict[int, tuple[int, ...]] = _Memo()
        self._vcfs: dict[int, int] = _Memo()
        self._odd_rows = sum(1 << col * stride + height for col in range(cols) for height in range(0, rows, 2))
        self._weights = [0.0] + [4.0 ** (count - 1) for count in range(1, k)] + [0.0]
        """A window's weight by its stones: a full window is a finished game, never scored."""
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
        self.position = position
        self.start = self.read_position(position if position is not None else "/".join(["." * cols] * rows))
        self.booked = name == "connect4" and (rows, cols, k) == (6, 7, 4)
        """Whether the opening books cover this board (Connect Four 7x6)."""
        if self.booked and connect4_book.installed():
            self.book = self._book  # type: ignore[method-assign]  # the capability, on this board alone

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

    @property
    def spec(self) -> str:
        position = self.format_position(self.start) if self.position is not None else None
        if self.name == "connect4":
            shape = (self.rows, self.cols) if (self.rows, self.cols) != (6, 7) else (None, None)
            return CONNECT4.spec(rows=shape[0], cols=shape[1], k=self.k, position=position)
        square = self.rows == self.cols
        return TICTACTOE.spec(
            size=self.rows if square and self.rows != 3 else None,
            rows=None if square else self.rows,
            cols=None if square else self.cols,
            k=self.k if self.k != min(self.rows, self.cols, 5) else None,
            gravity=self.gravity,
            position=position,
        )

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
            return f"no move {action!r} on this board; legal: {self.legal_text(state)}"
        if self.gravity:
            return f"column {LETTERS[action]} is full; legal: {self.legal_text(state)}"
        if action not in self._cells:
            return f"no move {action!r} on this board; legal: {self.legal_text(state)}"
        return f"{self.format_move(action)} is taken; legal: {self.legal_text(state)}"

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

    def missing_books(self) -> str | None:
        """How to get perfect play, on the board the opening books cover when they are not installed."""
        if self.booked and not connect4_book.installed():
            return connect4_book.ADVICE
        return None

    def _book(self, state: Board) -> Known | None:
        """Connect Four 7x6's opening books (`connect4_book`), asked only at the stone counts they cover."""
        taken = state.x | state.o
        if taken.bit_count() not in connect4_book.STONES or state.outcome:
            return None
        return connect4_book.probe(state.x, state.o, taken + self.bottom, state.x_threats)

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

    def heuristic_actions(self, state: Board) -> Sequence[int] | None:
        """On a board above NARROWED_CELLS without gravity, the moves worth a limited search:
        the forced move where there is one; where the mover can make two threats at once,
        those moves; where the mover wins by continuous fours (`vcf`), its first four; where
        the opponent can make two threats at once, the mover's threats and the cells of the
        opponent's windows that would make them (the answers to an open three); else the empty
        cells within two steps (any direction) of a stone, those next to one first, each centre
        first, the centre alone on an empty board. None on smaller boards, and where no cell is
        left out (a forced move, or every empty cell worth trying), so a search there proves what it can."""
        if self.gravity or self.cells <= NARROWED_CELLS or state.outcome:
            return None
        if state.x_threats or state.o_threats:  # a forced move: `search_actions` leaves nothing out
            return None
        taken = state.x | state.o
        if not taken:
            return (self.cell_order[0],)
        key = state.x | state.o << self.span
        tried = self._tried.get(key)
        if tried is None:
            if len(self._tried) >= REMEMBERED_POSITIONS:
                self._tried.clear()
            tried = self._worth_trying(state.o, state.x) if state.player else self._worth_trying(state.x, state.o)
            if len(tried) == self.cells - taken.bit_count():
                tried = ()  # every empty cell: none is left out, so the search may prove its value
            self._tried[key] = tried
        return tried or None

    def _worth_trying(self, mine: int, theirs: int) -> tuple[int, ...]:
        """`heuristic_actions` where no threat is on the board, remembered for the positions asked
        (iterative deepening asks again at every depth)."""
        rank = self._rank.__getitem__
        _, doubles = self.shapes(mine, theirs)
        if doubles:
            return tuple(sorted(_bits(doubles), key=rank))
        winning = self.vcf(mine, theirs)
        if winning:
            return (winning.bit_length() - 1,)
        _, their_doubles = self.shapes(theirs, mine)
        if their_doubles:
            fours, _ = self.shapes(mine, theirs)
            return tuple(sorted(_bits(fours | self._answers(theirs, mine, their_doubles)), key=rank))
        near = self._around(self._around(mine | theirs)) & ~(mine | theirs)
        gain = self._gain
        return tuple(sorted(_bits(near), key=lambda bit: (-gain(bit, mine, theirs), rank(bit)))[:BEAM])

    def shapes(self, stones: int, blockers: int) -> tuple[int, int]:
        """The empty cells where a stone of `stones` makes a threat (a four), and those where it
        makes two threats or more (an open or double four: it wins next move unless the
        opponent wins first). Remembered for the positions asked, both sides apart."""
        key = stones | blockers << self.span
        found = self._shapes.get(key)
        if found is not None:
            return found
        empty = self.board & ~(stones | blockers)
        once = twice = 0
        if self.k >= 3:
            for shift in self.directions:
                starts = self._windows(stones, blockers, shift, self.k - 2)
                for step in range(self.k):
                    cells = starts << step * shift & empty
                    twice |= once & cells
                    once |= cells
        doubles = 0
        for bit in _bits(twice):  # two windows may name the same threat: count the threats
            made = self._made(stones | 1 << bit, blockers, bit)
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
        Remembered for the positions asked."""
        if self.gravity or self.k < 3 or fours <= 0:
            return 0
        key = mine | theirs << self.span
        known = self._vcfs.get(key)
        if known is not None and (known > 0 or -known >= fours):
            return max(known, 0)
        found = 0
        once, _ = self.shapes(mine, theirs)
        for bit in sorted(_bits(once), key=self._rank.__getitem__):
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
        mine |= 1 << bit
        made = self._made(mine, theirs, bit)
        if not made:
            return False
        if made & (made - 1):
            return True
        theirs |= made
        answer = self._made(theirs, mine, made.bit_length() - 1)
        if answer:
            return (
                fours > 1
                and not answer & (answer - 1)
                and self._wins_with(mine, theirs, answer.bit_length() - 1, fours - 1)
            )
        return bool(self.vcf(mine, theirs, fours - 1))

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

    def _doubles(self, stones: int, blockers: int) -> int:
        """`shapes(stones, blockers)[1]`, known to be none at once when it was none before the
        blockers' last stone (a blocker only spoils windows), as a search's parent node knows."""
        span, shapes = self.span, self._shapes
        for bit in _bits(blockers):
            before = shapes.get(stones | (blockers ^ 1 << bit) << span)
            if before is not None:
                if not before[1]:
                    return 0
                break
        return self.shapes(stones, blockers)[1]

    def _answers(self, stones: int, blockers: int, doubles: int) -> int:
        """The empty cells of the windows of `stones` (k - 2 stones, free of `blockers`) that
        hold one of `doubles`: a stone on one of them spoils that double."""
        empty, answers = self.board & ~(stones | blockers), 0
        for shift in self.directions:
            starts = self._windows(stones, blockers, shift, self.k - 2)
            hit = 0
            for step in range(self.k):
                hit |= doubles >> step * shift & starts
            for step in range(self.k):
                answers |= hit << step * shift & empty
        return answers

    def _around(self, cells: int) -> int:
        """`cells` and every cell one step from them (a king's move), on the board."""
        board, stride = self.board, self.stride
        column = (cells | cells << 1 | cells >> 1) & board  # the guard bits keep columns apart
        return (column | column << stride | column >> stride) & board

    def threats(self, stones: int, blockers: int) -> int:
        """The empty cells that would complete a line of `stones` (a line free of `blockers`)."""
        found = 0
        for line in self.lines:
            if not blockers & line:
                common = stones & line
                if common.bit_count() == self.k - 1:
                    found |= line ^ common
        return found

    def evaluate(self, state: Board, player: int) -> float:
        """Open lines weighted by how full they are, plus immediate threats, squashed into
        (-0.9, 0.9) so that no estimate looks like a proven result. Without gravity a single
        threat is blocked first (up to FORCED_PLIES in a row) and the position after scored,
        and a move making two threats at once (or one the opponent must answer) weighs in; on
        a board above NARROWED_CELLS so does a victory by continuous fours, a win the horizon
        hides (VCF_WIN)."""
        for _ in range(FORCED_PLIES):
            if self.gravity or state.outcome:
                break
            x_threats, o_threats = state.x_threats, state.o_threats
            mine, theirs = (o_threats, x_threats) if state.player else (x_threats, o_threats)
            if mine or not theirs or theirs & (theirs - 1):
                break
            state = self.result(state, (theirs & -theirs).bit_length() - 1)  # the forced block
        if state.outcome:
            return self.utility(state, player) * 0.9
        x, o, mover, _, x_threats, o_threats, _ = state
        score = self.window_score(x, o)
        if self.gravity:
            score += self.parity_score(x_threats, o_threats)
            playable = (x | o) + self.bottom
            x_threats, o_threats = x_threats & playable, o_threats & playable
        mine, theirs = (o_threats, x_threats) if mover else (x_threats, o_threats)
        sign = -1 if mover else 1
        if mine:  # the mover wins at once
            score += sign * 1000.0
        elif theirs & (theirs - 1):  # two threats: one block cannot stop both
            score -= sign * 1000.0
        elif not self.gravity and not theirs:
            me, them = (o, x) if mover else (x, o)
            if self._doubles(me, them):
                score += sign * OPEN_FOUR
            elif self.cells > NARROWED_CELLS and self.vcf(me, them):
                score += sign * VCF_WIN
        estimate = 0.9 * math.tanh(score / 200.0)
        return estimate if player == 0 else -estimate

    def parity_score(self, x_threats: int, o_threats: int) -> float:
        """Threats under gravity valued by their row parity (rows counted from the bottom, 1
        first): X's on odd rows and O's on even rows are the ones that win a filled board
        (the odd/even threat rule), so they weigh GOOD_THREAT, the others POOR_THREAT."""
        odd = self._odd_rows
        good = (x_threats & odd).bit_count() - (o_threats & ~odd).bit_count()
        poor = (x_threats & ~odd).bit_count() - (o_threats & odd).bit_count()
        return GOOD_THREAT * good + POOR_THREAT * poor

    def window_score(self, x: int, o: int) -> float:
        """X's open windows minus O's, each weighted 4 ** (stones in it - 1).

        Remembered for the positions scored; a position one stone past a remembered one is
        scored from it by the windows through that stone (about 20, not the whole board), so
        a search's horizon, one ply past the last, costs little.
        """
        key = x | o << self.span
        scores = self._scores
        score = scores.get(key)
        if score is not None:
            return score
        x_moved = x.bit_count() > o.bit_count()
        stones, shift = (x, 0) if x_moved else (o, self.span)
        for bit in _bits(stones):
            base = scores.get(key ^ 1 << bit + shift)
            if base is not None:
                stone = 1 << bit
                gained = self._gain(bit, x ^ stone, o) if x_moved else -self._gain(bit, o ^ stone, x)
                score = base + gained
                break
        else:
            score = sum(self._line_score(x, o, way) - self._line_score(o, x, way) for way in self.directions)
        if len(scores) >= REMEMBERED_SCORES:
            scores.clear()
        scores[key] = score
        return score

    def _gain(self, bit: int, mine: int, theirs: int) -> float:
        """How much a stone at `bit` adds to its side's window score (its own windows grow,
        the opponent's through it are blocked)."""
        weights, gain = self._weights, 0.0
        for line in self.lines_through[bit]:
            if not theirs & line:
                count = (mine & line).bit_count()
                gain += weights[count + 1] - weights[count]
            elif not mine & line:
                gain += weights[(theirs & line).bit_count()]
        return gain

    def _line_score(self, stones: int, blockers: int, shift: int) -> float:
        """Sum over the windows along one direction free of `blockers`: 4 ** stones in them."""
        starts, planes = self._counters(stones, blockers, shift)
        missing = [starts & ~plane for plane in planes]
        score = 0.0
        for count in range(1, min(self.k, 1 << len(planes))):
            exact = starts
            for index, plane in enumerate(planes):
                exact &= plane if count >> index & 1 else missing[index]
            score += exact.bit_count() * 4.0 ** (count - 1)
        return score

    def _windows(self, stones: int, blockers: int, shift: int, count: int) -> int:
        """The starts of the windows along one direction free of `blockers` holding exactly
        `count` of `stones`."""
        starts, planes = self._counters(stones, blockers, shift)
        if count >> len(planes):
            return 0
        for index, plane in enumerate(planes):
            starts &= plane if count >> index & 1 else ~plane
        return starts

    def _counters(self, stones: int, blockers: int, shift: int) -> tuple[int, list[int]]:
        """The starts of the windows along one direction free of `blockers`, and their counts
        of `stones` bit-sliced: planes[j] holds bit j of each window's count."""
        k = self.k
        spread = blockers  # every window start that has a blocker in its window
        for step in range(1, k):
            spread |= blockers >> step * shift
        starts = self._window_starts[shift] & ~spread
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

    # -- notation -------------------------------------------------------------------------

    def format_move(self, action: int) -> str:
        if self.gravity:
            return LETTERS[action]
        row, col = self.cell(action)
        return f"{LETTERS[col]}{row + 1}"

    def parse_move(self, text: str, state: Board) -> int:
        typed = text.strip()
        what = "column" if self.gravity else "cell"
        legal = self.actions(state)
        if not legal:
            raise IllegalMove(f"{quoted(typed)} is not a legal {what}; the game is over")
        try:
            move = self._read_move(typed.lower())
            if move is None or move not in legal:
                raise IllegalMove(f"{quoted(typed)} is not a legal {what}")
        except IllegalMove as error:
            raise IllegalMove(f"{error}; legal: {self.legal_text(state)}") from None
        return move

    def _read_move(self, text: str) -> int | None:
        """The move a text names, legal or not; None when it is not written as a move, and
        IllegalMove when a row or column is off the board."""
        if self.gravity:
            if len(text) == 1 and text in LETTERS:
                return self._column(text)
            return parse_int(text, "column", 1, self.cols, IllegalMove) - 1
        lettered = re.fullmatch(r"([a-z])\s*(\S+)", text)  # b2: column letter, then row
        if lettered:
            col = self._column(lettered[1])
            return self.bit(parse_int(lettered[2], "row", 1, self.rows, IllegalMove) - 1, col)
        numbered = re.fullmatch(r"([^\s,]+)\s*[\s,]\s*([^\s,]+)", text)  # 2,2 or 2 2: row, then column
        if not numbered:
            return None
        row = parse_int(numbered[1], "row", 1, self.rows, IllegalMove) - 1
        return self.bit(row, parse_int(numbered[2], "column", 1, self.cols, IllegalMove) - 1)

    def _column(self, letter: str) -> int:
        """The column a letter names; IllegalMove when it is off the board."""
        col = LETTERS.index(letter)
        if col >= self.cols:
            raise IllegalMove(f"column must be a letter from a to {LETTERS[self.cols - 1]}, not {quoted(letter)}")
        return col

    def format_position(self, state: Board) -> str:
        return "/".join(
            "".join(self._mark(state, self.bit(row, col)) for col in range(self.cols)) for row in range(self.rows)
        )

    def _mark(self, state: Board, bit: int) -> str:
        return "x" if state.x >> bit & 1 else "o" if state.o >> bit & 1 else "."

    def stone_at(self, state: Board, row: int, col: int) -> str:
        """'x', 'o' or '.' at a cell (row from the top, column from the left)."""
        return self._mark(state, self.bit(row, col))

    def filled_by(self, state: Board, action: int) -> int:
        """The cell bit that `action` filled, `state` being the position after it (under
        gravity: the top stone of the column)."""
        if not self.gravity:
            return action
        return ((state.x | state.o) & self.column_masks[action]).bit_length() - 1

    def winning_line(self, state: Board) -> int:
        """The cells of a completed line (a bitmask), or 0."""
        for stones in (state.x, state.o):
            for line in self.lines:
                if stones & line == line:
                    return line
        return 0

    def winning_cells(self, state: Board) -> tuple[str, ...]:
        """The cells of the completed line from the left (then from the top), each named as a
        cell is typed without gravity (column letter, row from the top, as the board is
        labelled; a gravity move names only a column); () when no line is made."""
        cells = sorted((col, row) for row, col in map(self.cell, _bits(self.winning_line(state))))
        return tuple(f"{LETTERS[col]}{row + 1}" for col, row in cells)

    def read_position(self, text: str) -> Board:
        """A position from rows joined by '/', cells x, o and '.'; BadGameSpec if impossible."""
        rows = text.strip().lower().split("/")
        if len(rows) != self.rows or any(len(row) != self.cols for row in rows):
            raise BadGameSpec(
                f"{self.name}: position {quoted(text)} is not {self.rows} rows of {self.cols} cells joined by '/'"
            )
        x = o = 0
        for row, cells in enumerate(rows):
            for col, mark in enumerate(cells):
                if mark not in "xo.":
                    shown = quoted(text)
                    raise BadGameSpec(f"{self.name}: position {shown} has {quoted(mark)}; cells are x, o and '.'")
                if mark == "x":
                    x |= 1 << self.bit(row, col)
                elif mark == "o":
                    o |= 1 << self.bit(row, col)
        xs, os = x.bit_count(), o.bit_count()
        if not 0 <= xs - os <= 1:
            raise BadGameSpec(
                f"{self.name}: position {quoted(text)} has {xs} x and {os} o; x moves first, so "
                "x has as many stones as o or one more"
            )
        if self.gravity and ((x | o) + self.bottom) & (x | o):
            raise BadGameSpec(f"{self.name}: position {quoted(text)} has a stone above an empty cell (gravity)")
        x_line = any(x & line == line for line in self.lines)
        o_line = any(o & line == line for line in self.lines)
        if x_line and o_line:
            raise BadGameSpec(f"{self.name}: position {quoted(text)} has lines for both x and o")
        if (x_line and xs == os) or (o_line and xs > os):
            winner = "x" if x_line else "o"
            raise BadGameSpec(f"{self.name}: position {quoted(text)}: {winner} has a line but did not move last")
        outcome = X_WON if x_line else O_WON if o_line else DRAWN if (x | o) == self.board else ONGOING
        images = 0
        for bit in range(self.span):
            images |= self.x_images[bit] if x >> bit & 1 else self.o_images[bit] if o >> bit & 1 else 0
        return Board(x, o, xs - os, outcome, self.threats(x, o), self.threats(o, x), images)


def _bits(cells: int) -> list[int]:
    """The bits set in `cells`, lowest first."""
    found = []
    while cells:
        low = cells & -cells
        found.append(low.bit_length() - 1)
        cells ^= low
    return found


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
