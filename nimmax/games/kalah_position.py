"""Kalah's positions: the board in sowing order with the side to move, and their text
(`POSITION_FORMAT`), apart from the rules that move them (`kalah`)."""

from __future__ import annotations

from typing import NamedTuple

from nimmax.errors import quoted
from nimmax.game import BadGameSpec
from nimmax.numbers import parse_int

SOUTH, NORTH = 0, 1
SIDE_LETTERS = ("s", "n")
MAX_PITS, MAX_SEEDS = 32, 1000
"""Limits that keep a board printable and a sowing quick; real Kalah is 6 pits, 4-6 seeds."""
MAX_SEEDS_IN_ALL = 2 * MAX_PITS * MAX_SEEDS
"""The most seeds a position holds, on both sides together."""
DEFAULT_PITS, DEFAULT_SEEDS = 6, 4
"""Kalah(6, 4), the game as usually played."""
POSITION_FORMAT = "SOUTH_PITS:STORE/NORTH_PITS:STORE/SIDE, e.g. 4,4,4:0/4,4,4:0/s"

_new = tuple.__new__
"""Builds a Position from a plain tuple with no Python-level constructor: `result` is the hot
path."""


class _Cells(NamedTuple):
    """A position's fields: see `Position`."""

    board: tuple[int, ...]
    player: int
    left: int
    """The seeds in the pits, both sides: a function of `board`, kept so that the book's range
    and the utility bounds, asked at every node searched, need not count them."""
    over: bool
    """Whether a side's pits are all empty (the game is over): a function of `board`, kept for
    `is_terminal`."""


class Position(_Cells):
    """The board in sowing order (see the module docstring), the seat to move, and what `_Cells`
    keeps beside.

    `again` records that the mover earned this turn by ending the last sowing in their store; it is
    for display only and takes no part in equality or hashing, so positions reached with and without
    an extra turn are one position to the search. It is the class's (`_Again`'s is True), not a
    field, so that the tuple's own hash (C, no Python call) serves.
    """

    __slots__ = ()
    again: bool = False

    def __new__(cls, board: tuple[int, ...], player: int, again: bool = False) -> Position:
        pits = max(len(board) - 2, 0) // 2
        left = sum(board) - sum(board[pits :: pits + 1])  # less both stores
        over = not any(board[:pits]) or not any(board[pits + 1 : 2 * pits + 1])
        return _new(_Again if again else Position, (board, player, left, over))

    def __getnewargs__(self) -> tuple[tuple[int, ...], int, bool]:
        return self.board, self.player, self.again

    def _replace(self, **changes: object) -> Position:
        """A position with some of `board`, `player` and `again` changed (`left` and `over` follow
        the board)."""
        fields = {"board": self.board, "player": self.player, "again": self.again} | changes
        return Position(**fields)  # type: ignore[arg-type]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.board == other.board
            and self.player == other.player
        )

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__
    """The tuple's: `left` and `over` follow the board, and `again` is no field."""

    def __repr__(self) -> str:
        return f"Position(board={self.board!r}, player={self.player!r}, again={self.again!r})"

    @property
    def pits(self) -> int:
        """Pits on each side."""
        return (len(self.board) - 2) // 2

    def row(self, seat: int) -> tuple[int, ...]:
        """The pits of `seat`, numbered 1.. from that seat's left."""
        start = seat * (self.pits + 1)
        return self.board[start : start + self.pits]

    def store(self, seat: int) -> int:
        """The seeds in the store of `seat`."""
        return self.board[seat * (self.pits + 1) + self.pits]


class _Again(Position):
    """A position whose mover earned the turn by ending the last sowing in their store."""

    __slots__ = ()
    again = True


def parse_position(text: str, pits: int | None = None) -> Position:
    """A position from its text (POSITION_FORMAT); BadGameSpec says what is wrong."""
    parts = text.strip().lower().split("/")
    if len(parts) != 3:
        raise BadGameSpec(f"kalah: position {quoted(text)} is not {POSITION_FORMAT}")
    rows = [_row_words(part.replace(" ", "")) for part in parts[:2]]
    side = parts[2].strip()
    seats = {"s": SOUTH, "south": SOUTH, "n": NORTH, "north": NORTH}
    if side not in seats:
        raise BadGameSpec(f"kalah: side to move {quoted(parts[2])} is not s (South) or n (North)")
    if len(rows[0]) != len(rows[1]):
        raise BadGameSpec(f"kalah: the rows of {quoted(text)} have different numbers of pits")
    size = len(rows[0]) - 1
    if pits is not None and size != pits:
        raise BadGameSpec(f"kalah: the position has {size} pits a side but --pits says {pits}")
    if size > MAX_PITS:
        raise BadGameSpec(f"kalah: at most {MAX_PITS} pits and {MAX_SEEDS_IN_ALL} seeds in all")
    name = "kalah: seeds in a pit or store"
    board = [
        parse_int(word, name, 0, MAX_SEEDS_IN_ALL, BadGameSpec) for row in rows for word in row
    ]
    if sum(board) > MAX_SEEDS_IN_ALL:
        raise BadGameSpec(f"kalah: at most {MAX_PITS} pits and {MAX_SEEDS_IN_ALL} seeds in all")
    return Position(tuple(board), seats[side])


def _row_words(row: str) -> list[str]:
    """A row's seed counts as text, its pits then its store: `4,4,4:0` is 4, 4, 4, 0."""
    pits, colon, store = row.partition(":")
    if not colon or not pits or ":" in store:
        raise BadGameSpec(
            f"kalah: row {quoted(row)} is not pits then store, e.g. 4,4,4:0 ({POSITION_FORMAT})"
        )
    return [*pits.split(","), store]
