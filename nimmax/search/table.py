"""The transposition table: entries keyed by the game's canonical key, each a bound and a depth."""

from __future__ import annotations

from collections.abc import Hashable
from itertools import islice
from typing import Any, NamedTuple

from nimmax.game import AnyGame

EXACT, LOWER, UPPER = 0, 1, 2
"""Table bounds: the stored score is the value, at least the value, or at most the value."""

DEFAULT_CAPACITY = 1_000_000
"""Entries a table holds unless told otherwise (about 200 MB of entries at the most)."""


class Entry(NamedTuple):
    """A table entry: score relative to its node, its bound, the depth searched, the best move.

    `state` is the position the move belongs to: keys fold symmetries, so a move is only
    reused as a hint, or followed for the principal variation, at that very position.
    """

    depth: int
    bound: int
    score: float
    move: Any
    state: Hashable


new_entry = tuple.__new__
"""Builds an Entry from a plain tuple, `new_entry(Entry, (depth, bound, score, move, state))`,
with no Python-level constructor: engines store one at every node they expand."""


class Table(dict[Hashable, Entry]):
    """A transposition table with a size cap: when full, the oldest sixteenth is dropped.

    A sixteenth at a time keeps each eviction short enough to happen inside a timed move.
    """

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        super().__init__()
        self.capacity = capacity

    def put(self, key: Hashable, entry: Entry) -> None:
        """Store `entry`; a table of capacity 0 stores nothing."""
        if self.capacity <= 0:
            return
        if len(self) >= self.capacity and key not in self:
            for old in list(islice(self, max(1, self.capacity // 16))):
                del self[old]
        self[key] = entry


def principal_variation(game: AnyGame, table: Table, state: Any, first: Any, length: int = 64) -> tuple[Any, ...]:
    """The best line from `state` starting with `first`, followed through the table's exact entries."""
    line = [first]
    position = game.result(state, first)
    while len(line) < length and not game.is_terminal(position):
        entry = table.get(game.key(position))
        if entry is None or entry.move is None or entry.state != position or entry.bound != EXACT:
            break
        line.append(entry.move)
        position = game.result(position, entry.move)
    return tuple(line)
