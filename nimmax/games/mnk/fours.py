"""Four in a row on Connect Four bitboards (`board`'s layout: column by column, bottom first, a
guard bit on top of each column), as functions with the board's shifts bound in: the proof
(`proof.Proof`) asks them at every node."""

from __future__ import annotations

from collections.abc import Callable


def completing(stride: int) -> Callable[[int, int], int]:
    """For a board of this stride: the cells of `empty` that would complete four of `stones`
    (playable or not). Shifts are bound into the function: this runs at every node. A cell's
    answer reads only the cells 3 lines away at most, so boards laid side by side, that far
    apart, are answered at once (`Proof.ordered`)."""
    up, down, rise = stride, stride - 1, stride + 1
    up2, down2, rise2, up3, down3, rise3 = 2 * up, 2 * down, 2 * rise, 3 * up, 3 * down, 3 * rise

    def winning(stones: int, empty: int) -> int:
        pair = stones & stones << 1
        found = pair << 1 & stones << 3
        behind = stones >> up  # per direction: the pairs of stones, then a third on either side
        pair = stones & behind
        found |= pair >> up & (stones >> up3 | stones << up) | pair << up2 & (
            stones << up3 | behind
        )
        behind = stones >> down
        pair = stones & behind
        found |= pair >> down & (stones >> down3 | stones << down) | pair << down2 & (
            stones << down3 | behind
        )
        behind = stones >> rise
        pair = stones & behind
        found |= pair >> rise & (stones >> rise3 | stones << rise) | pair << rise2 & (
            stones << rise3 | behind
        )
        return found & empty

    return winning


def aligning(stride: int) -> Callable[[int], bool]:
    """For a board of this stride: whether `stones` hold four in a row."""
    up, down, rise = stride, stride - 1, stride + 1

    def four(stones: int) -> bool:
        pair = stones & stones >> 1
        if pair & pair >> 2:
            return True
        pair = stones & stones >> up
        if pair & pair >> 2 * up:
            return True
        pair = stones & stones >> down
        if pair & pair >> 2 * down:
            return True
        pair = stones & stones >> rise
        return bool(pair & pair >> 2 * rise)

    return four
