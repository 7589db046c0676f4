"""2048's rows: a row of 4-bit exponents slid by one table lookup (tables filled as rows are met),
exponents packed into an integer, and the 4x4 board transposed by masked shifts."""

from __future__ import annotations

from collections.abc import Sequence

TOP_RANK = 15
"""The largest exponent a 4-bit cell holds: 2**15 = 32768."""


class Slides:
    """The row tables of one board size: a row's value slid towards nibble 0, and the points
    made."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.row_mask = (1 << (4 * size)) - 1
        self.left: dict[int, tuple[int, int]] = {}
        self.right: dict[int, tuple[int, int]] = {}

    def slide_left(self, row: int) -> tuple[int, int]:
        """The row slid towards nibble 0 and the points scored, from the table or computed once."""
        known = self.left.get(row)
        if known is None:
            known = self.left[row] = self._slide(row)
        return known

    def slide_right(self, row: int) -> tuple[int, int]:
        """The row slid towards its last nibble: the left slide of the mirrored row, mirrored."""
        known = self.right.get(row)
        if known is None:
            slid, points = self.slide_left(self.mirror(row))
            known = self.right[row] = (self.mirror(slid), points)
        return known

    def mirror(self, row: int) -> int:
        """The row read from its other end."""
        ranks = [(row >> (4 * column)) & 15 for column in range(self.size)]
        return pack(ranks[::-1])

    def _slide(self, row: int) -> tuple[int, int]:
        tiles = [
            rank for rank in ((row >> (4 * column)) & 15 for column in range(self.size)) if rank
        ]
        merged: list[int] = []
        points = 0
        index = 0
        while index < len(tiles):
            rank = tiles[index]
            # each tile merges at most once, with its neighbour towards the wall
            if index + 1 < len(tiles) and tiles[index + 1] == rank and rank < TOP_RANK:
                merged.append(rank + 1)
                points += 1 << (rank + 1)
                index += 2
            else:
                merged.append(rank)
                index += 1
        return pack(merged), points


def pack(ranks: Sequence[int]) -> int:
    """Exponents, first at nibble 0, as one integer."""
    value = 0
    for index, rank in enumerate(ranks):
        value |= rank << (4 * index)
    return value


def transpose4(board: int) -> int:
    """Swap rows and columns of a 4x4 board with three rounds of masked shifts."""
    a1 = board & 0xF0F00F0FF0F00F0F
    a2 = board & 0x0000F0F00000F0F0
    a3 = board & 0x0F0F00000F0F0000
    a = a1 | (a2 << 12) | (a3 >> 12)
    b1 = a & 0xFF00FF0000FF00FF
    b2 = a & 0x00FF00FF00000000
    b3 = a & 0x00000000FF00FF00
    return b1 | (b2 >> 24) | (b3 << 24)
