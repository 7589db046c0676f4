"""m,n,k notation: moves (`b2`: column b from the left, row 2 from the top; people may type
`2,2` or `2 2`, row then column; under gravity a move is its column, `c` or `3`), positions
(rows from the top joined by `/`), the completed line, and the words that build a game."""

from __future__ import annotations

import re
from collections.abc import Sequence

from nimmax.errors import quoted
from nimmax.game import BadGameSpec, IllegalMove
from nimmax.games.mnk.board import (
    DRAWN,
    LETTERS,
    MAX_SIDE,
    O_WON,
    ONGOING,
    X_WON,
    Board,
    Geometry,
    bits_of,
)
from nimmax.games.words import OneOf, Option, Signature
from nimmax.numbers import parse_int

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
CONNECT4 = Signature(
    "connect4", options=(_ROWS, _COLS, Option("--k", int, 4, "K", 1, MAX_SIDE), _POSITION)
)
"""Connect Four's words: the board (6 rows x 7 columns unless given), k, a position."""


class Notation:
    """An m,n,k game's notation: moves and positions as people type them, and its words."""

    def __init__(self, geometry: Geometry, name: str) -> None:
        self.geometry, self.name = geometry, name

    def spec(self, start: Board | None) -> str:
        """The words that rebuild the game, starting from `start` (None: the empty board)."""
        geometry = self.geometry
        rows, cols, k = geometry.rows, geometry.cols, geometry.k
        position = self.format_position(start) if start is not None else None
        if self.name == "connect4":
            shape = (rows, cols) if (rows, cols) != (6, 7) else (None, None)
            return CONNECT4.spec(rows=shape[0], cols=shape[1], k=k, position=position)
        square = rows == cols
        return TICTACTOE.spec(
            size=rows if square and rows != 3 else None,
            rows=None if square else rows,
            cols=None if square else cols,
            k=k if k != min(rows, cols, 5) else None,
            gravity=geometry.gravity,
            position=position,
        )

    def format_move(self, action: int) -> str:
        """A move as written: `b2` (column letter, row from the top); under gravity its column."""
        if self.geometry.gravity:
            return LETTERS[action]
        row, col = self.geometry.cell(action)
        return f"{LETTERS[col]}{row + 1}"

    def listed(self, moves: Sequence[int], limit: int = 40) -> str:
        """Moves as one line, for error messages: the first `limit`, then how many in all."""
        shown = ", ".join(self.format_move(move) for move in moves[:limit])
        return shown + (f", ... ({len(moves)} in all)" if len(moves) > limit else "")

    def read_move(self, text: str, legal: Sequence[int]) -> int:
        """The move a person typed, one of `legal`; IllegalMove names them."""
        typed = text.strip()
        what = "column" if self.geometry.gravity else "cell"
        if not legal:
            raise IllegalMove(f"{quoted(typed)} is not a legal {what}; the game is over")
        try:
            move = self._named(typed.lower())
            if move is None or move not in legal:
                raise IllegalMove(f"{quoted(typed)} is not a legal {what}")
        except IllegalMove as error:
            raise IllegalMove(f"{error}; legal: {self.listed(legal)}") from None
        return move

    def _named(self, text: str) -> int | None:
        """The move a text names, legal or not; None when it is not written as a move, and
        IllegalMove when a row or column is off the board."""
        geometry = self.geometry
        if geometry.gravity:
            if len(text) == 1 and text in LETTERS:
                return self._column(text)
            return parse_int(text, "column", 1, geometry.cols, IllegalMove) - 1
        lettered = re.fullmatch(r"([a-z])\s*(\S+)", text)  # b2: column letter, then row
        if lettered:
            col = self._column(lettered[1])
            return geometry.bit(
                parse_int(lettered[2], "row", 1, geometry.rows, IllegalMove) - 1, col
            )
        # 2,2 or 2 2: row, then column
        numbered = re.fullmatch(r"([^\s,]+)\s*[\s,]\s*([^\s,]+)", text)
        if not numbered:
            return None
        row = parse_int(numbered[1], "row", 1, geometry.rows, IllegalMove) - 1
        return geometry.bit(
            row, parse_int(numbered[2], "column", 1, geometry.cols, IllegalMove) - 1
        )

    def _column(self, letter: str) -> int:
        """The column a letter names; IllegalMove when it is off the board."""
        col, cols = LETTERS.index(letter), self.geometry.cols
        if col >= cols:
            last = LETTERS[cols - 1]
            raise IllegalMove(f"column must be a letter from a to {last}, not {quoted(letter)}")
        return col

    def format_position(self, state: Board) -> str:
        """The position as `--position` reads it: rows from the top joined by '/', cells x o ."""
        geometry = self.geometry
        return "/".join(
            "".join(self._mark(state, geometry.bit(row, col)) for col in range(geometry.cols))
            for row in range(geometry.rows)
        )

    def _mark(self, state: Board, bit: int) -> str:
        return "x" if state.x >> bit & 1 else "o" if state.o >> bit & 1 else "."

    def stone_at(self, state: Board, row: int, col: int) -> str:
        """'x', 'o' or '.' at a cell (row from the top, column from the left)."""
        return self._mark(state, self.geometry.bit(row, col))

    def filled_by(self, state: Board, action: int) -> int:
        """The cell bit that `action` filled, `state` being the position after it (under
        gravity: the top stone of the column)."""
        if not self.geometry.gravity:
            return action
        return ((state.x | state.o) & self.geometry.column_masks[action]).bit_length() - 1

    def winning_line(self, state: Board) -> int:
        """The cells of a completed line (a bitmask), or 0."""
        for stones in (state.x, state.o):
            for line in self.geometry.lines:
                if stones & line == line:
                    return line
        return 0

    def winning_cells(self, state: Board) -> tuple[str, ...]:
        """The cells of the completed line from the left (then from the top), each named as a
        cell is typed without gravity (column letter, row from the top, as the board is
        labelled; a gravity move names only a column); () when no line is made."""
        cells = sorted(
            (col, row) for row, col in map(self.geometry.cell, bits_of(self.winning_line(state)))
        )
        return tuple(f"{LETTERS[col]}{row + 1}" for col, row in cells)

    def read_position(self, text: str) -> Board:
        """A position from rows joined by '/', cells x, o and '.'; BadGameSpec if impossible."""
        geometry, name, shown = self.geometry, self.name, quoted(text)
        rows = text.strip().lower().split("/")
        if len(rows) != geometry.rows or any(len(row) != geometry.cols for row in rows):
            shape = f"{geometry.rows} rows of {geometry.cols} cells"
            raise BadGameSpec(f"{name}: position {shown} is not {shape} joined by '/'")
        x = o = 0
        for row, cells in enumerate(rows):
            for col, mark in enumerate(cells):
                if mark not in "xo.":
                    wrong = quoted(mark)
                    raise BadGameSpec(
                        f"{name}: position {shown} has {wrong}; cells are x, o and '.'"
                    )
                if mark == "x":
                    x |= 1 << geometry.bit(row, col)
                elif mark == "o":
                    o |= 1 << geometry.bit(row, col)
        xs, os = x.bit_count(), o.bit_count()
        if not 0 <= xs - os <= 1:
            raise BadGameSpec(
                f"{name}: position {shown} has {xs} x and {os} o; x moves first, so "
                "x has as many stones as o or one more"
            )
        if geometry.gravity and ((x | o) + geometry.bottom) & (x | o):
            raise BadGameSpec(f"{name}: position {shown} has a stone above an empty cell (gravity)")
        x_line = any(x & line == line for line in geometry.lines)
        o_line = any(o & line == line for line in geometry.lines)
        if x_line and o_line:
            raise BadGameSpec(f"{name}: position {shown} has lines for both x and o")
        if (x_line and xs == os) or (o_line and xs > os):
            winner = "x" if x_line else "o"
            raise BadGameSpec(
                f"{name}: position {shown}: {winner} has a line but did not move last"
            )
        outcome = (
            X_WON
            if x_line
            else O_WON
            if o_line
            else DRAWN
            if (x | o) == geometry.board
            else ONGOING
        )
        images = 0
        for bit in range(geometry.span):
            images |= (
                geometry.x_images[bit]
                if x >> bit & 1
                else geometry.o_images[bit]
                if o >> bit & 1
                else 0
            )
        return Board(
            x, o, xs - os, outcome, geometry.threats_of(x, o), geometry.threats_of(o, x), images
        )
