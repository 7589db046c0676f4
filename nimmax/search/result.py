"""What a search returns: one SearchResult, the same for every engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple


class MoveValue(NamedTuple):
    """A root move with its value for the side to move at the root."""

    move: Any
    value: float


@dataclass(frozen=True)
class SearchResult:
    """One search's answer: `value` is for the side to move at the root."""

    value: float
    move: Any
    pv: tuple[Any, ...]
    nodes: int
    depth: int
    seconds: float
    exact: bool
    moves: tuple[MoveValue, ...] = ()
    """Every root move with its value, when the search was asked to value them all (only those
    searched, when it was stopped before its first depth was done): `move` first, then the others
    in the order the engine prefers them (its own key: a score with the distance to the end,
    visits), which every view keeps."""
    moves_proven: bool = False
    """Whether each value in `moves` is proven: so in an exact search, and in one stopped
    early that had met no horizon (a search to the end of the game)."""
