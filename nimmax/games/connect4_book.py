"""Connect Four 7x6's opening books: the package `bitbully-databases` (MIT, `nimmax[books]`).

Two files of it are read. `book_8ply.dat` lists every position with 8 stones that the first
player (X, to move) does not win: 3 bytes each, the position's code with its value in the
two lowest bits (0 a draw, 1 a loss); a position it lacks is a win. `book_12ply_distances.dat`
lists positions with 12 stones: 4 bytes of code (big-endian, signed) and one signed byte of
value for X, to move: 100 - v plies to a win when v > 0, 100 + v plies to a loss when v < 0,
0 a draw. It lists every draw and loss; a position it lacks is a win (one in a ply where X has
a playable threat). Both are sorted by code, and a position may be listed as its mirror image.

A position's code: column by column from the left, each column's stones from the bottom
(10 for X, 11 for O) and a 0 after them, then one more 0; the first bit is the highest.

The books are read once per process on first use into two compact arrays each (keys and
values) and searched by bisection: some 21 MB and a few tenths of a second for the 12-stone
book, against a list of 4.2 M tuples (490 MB, 3 s) in the package's own reader.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from array import array
from bisect import bisect_left
from pathlib import Path

from nimmax.game import Known

PACKAGE = "bitbully_databases"
ADVICE = "Perfect play from the first move with the opening books: pip install 'nimmax[books]'"
"""How a person gets the books."""

ROWS, COLUMNS, STRIDE = 6, 7, 7
"""The board the books hold, and nimmax's bit layout of it (a guard bit on each column)."""

STONES = (8, 12)
"""The stone counts the books cover."""


def installed() -> bool:
    """Whether the books' package is installed (looked up without importing it)."""
    try:
        return importlib.util.find_spec(PACKAGE) is not None
    except (ImportError, ValueError):  # an import system that hides it
        return False


def _column_codes() -> list[tuple[int, int]]:
    """Each column's code and its length in bits, indexed by O's stones | 1 << height."""
    codes = [(0, 0)] * (1 << ROWS + 1)
    for height in range(ROWS + 1):
        for o_stones in range(1 << height):
            code = 0
            for row in range(height):
                code = code << 2 | 2 | (o_stones >> row & 1)
            codes[o_stones | 1 << height] = (code << 1, 2 * height + 1)
    return codes


_CODES = _column_codes()


def codes(x: int, o: int) -> tuple[int, int]:
    """The codes of a position (bitboards as nimmax lays them out) and of its mirror image."""
    taken = x | o
    forward = backward = 0
    shift = 0
    for col in range(COLUMNS):
        height = (taken >> col * STRIDE & 63).bit_length()
        code, length = _CODES[(o >> col * STRIDE & 63) | 1 << height]
        forward = forward << length | code
        backward |= code << shift
        shift += length
    return forward << 1, backward << 1


class Book:
    """One book file as sorted keys (an array) and values (bytes)."""

    def __init__(self, keys: array[int], values: bytes) -> None:
        self.keys, self.values = keys, values

    def find(self, code: int, mask: int = -1) -> int | None:
        """The index of the entry whose key, masked, is `code`; None if there is none."""
        keys = self.keys
        index = bisect_left(keys, code)
        if index < len(keys) and keys[index] & mask == code:
            return index
        return None


def _columns(data: bytes, width: int, record: int) -> bytearray:
    """The first `width` bytes (a big-endian key) of each `record`-byte entry, as 4-byte
    native integers: bytes are moved by slices, in C, not number by number."""
    count = len(data) // record
    native = bytearray(4 * count)
    little = sys.byteorder == "little"
    for place in range(width):
        target = width - 1 - place if little else 4 - width + place
        native[target::4] = data[place::record]
    return native


@functools.cache
def _load(name: str, width: int, record: int) -> Book:
    """A book file of the package, read once per process."""
    from importlib.resources import files

    data = files(PACKAGE).joinpath("assets", name).read_bytes()
    keys = array("i")
    keys.frombytes(_columns(data, width, record))
    values = data[width::record] if record > width else b""
    return Book(keys, values)


def twelve() -> Book:
    """The 12-stone book with distances."""
    return _load("book_12ply_distances.dat", 4, 5)


def eight() -> Book:
    """The 8-stone book: draws and losses, the value in each key's lowest two bits."""
    return _load("book_8ply.dat", 3, 3)


def _signed(code: int) -> int:
    """A 32-bit code as the signed number the 12-stone book sorts by."""
    return code - (1 << 32) if code >> 31 else code


def probe(x: int, o: int, playable: int, x_threats: int) -> Known | None:
    """What the books know of a Connect Four 7x6 position with X to move (8 or 12 stones):
    `playable` holds the cells a stone can drop into, `x_threats` the cells completing X's lines."""
    stones = (x | o).bit_count()
    left = ROWS * COLUMNS - stones
    forward, backward = codes(x, o)
    if stones == 12:
        book = twelve()
        for code in (forward, backward):
            index = book.find(_signed(code))
            if index is not None:
                value = book.values[index]
                value = value - 256 if value > 127 else value
                if value == 0:
                    return Known(0.0, left, True)
                return (
                    Known(1.0, 100 - value, True) if value > 0 else Known(-1.0, 100 + value, True)
                )
        if x_threats & playable:
            return Known(1.0, 1, True)
        return Known(1.0, left, False)
    if stones == 8:
        book = eight()
        for code in (forward, backward):
            index = book.find(code, ~3)
            if index is not None:
                return (
                    Known(0.0, left, True)
                    if book.keys[index] & 3 == 0
                    else Known(-1.0, left, False)
                )
        return Known(1.0, 1, True) if x_threats & playable else Known(1.0, left, False)
    return None


def path() -> Path:
    """Where the books' files are (for messages and scripts)."""
    from importlib.resources import files

    return Path(str(files(PACKAGE).joinpath("assets")))
