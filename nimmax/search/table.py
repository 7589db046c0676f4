"""The transposition table: entries keyed by the game's canonical key, each a bound and a depth."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from itertools import islice
from typing import Any

from nimmax.game import AnyGame, Capability, has_chance, part
from nimmax.search.score import EXACT, FULL_DEPTH, LOWER, PAYOFF, UPPER

__all__ = (
    "DEFAULT_CAPACITY",
    "EXACT",
    "LOWER",
    "PAYOFF",
    "UPPER",
    "Entry",
    "Table",
    "exact_move",
    "key_of",
    "offsets",
    "principal_variation",
)

DEFAULT_CAPACITY = 1_000_000
"""Entries a table holds unless told otherwise (about 200 MB of entries at the most)."""


Entry = tuple[int, int, float, Any, int]
"""A table entry: (depth searched, bound, score relative to its node and to its key's offset,
best move, the hash of the state the move belongs to).

Keys fold symmetries, so a move is only reused as a hint, or followed for the principal
variation, at the very position it was found in: the state's hash tells it, as a Zobrist key
does in a chess engine (two states of one key with the same 64-bit hash are not met in
practice). An entry is a plain tuple of numbers (and the move), which the garbage collector
stops tracking the first time it sees it; a state (a named tuple) stays tracked for good, and
every full collection walks all that is tracked: a million of them between two moves.
"""


class Table(dict[Hashable, Entry]):
    """A transposition table with a size cap: when full, the oldest sixteenth goes (short enough for
    a timed move)."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        super().__init__()
        self.capacity = capacity

    def put(self, key: Hashable, entry: Entry) -> None:
        """Store `entry`; a table of capacity 0 stores nothing."""
        if self.capacity > 0:
            self[key] = entry
            if len(self) > self.capacity:
                self.trim()

    def trim(self) -> None:
        """Drop the oldest sixteenth of the entries (the newest stays, in a table of one entry
        too)."""
        for old in list(islice(self, max(1, self.capacity // 16))):
            del self[old]


def offsets(game: AnyGame) -> Callable[[Any], tuple[Hashable, float]] | None:
    """The game's `keyed` where a search keys its table by it: the game declares OFFSET_KEY, and has
    no chance (averaged scores hold no distance to shift); else None."""
    own = part(game, Capability.OFFSET_KEY)
    return own.keyed if own is not None and not has_chance(game) else None


def key_of(game: AnyGame) -> Callable[[Any], Hashable]:
    """How a search files states in its table: by the offset key's part where `offsets`, else by
    `key`."""
    if (keyed := offsets(game)) is not None:
        return lambda state: keyed(state)[0]
    return game.key


def principal_variation(
    game: AnyGame, table: Table, state: Any, first: Any, length: int = 64
) -> tuple[Any, ...]:
    """The best line from `state` starting with `first`, followed through the table's exact
    entries."""
    line, key = [first], key_of(game)
    position = game.result(state, first)
    while len(line) < length and not game.is_terminal(position):
        move = exact_move(table.get(key(position)), position)
        if move is None:
            break
        line.append(move)
        position = game.result(position, move)
    return tuple(line)


def exact_move(entry: Entry | None, state: Any, proven: bool = False) -> Any:
    """The best move an exact entry (a proven one, when `proven`) holds for this very `state`, else
    None."""
    if entry is None:
        return None
    searched, bound, _, move, seen = entry
    exact = bound == EXACT and seen == hash(state) and (searched >= FULL_DEPTH or not proven)
    return move if exact else None
