"""What a search returns: one SearchResult, the same for every engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from nimmax.search.budget import Budget


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
    """The root moves searched, each with its value (only those searched, when it was stopped before
    its first depth was done): `move` first, then the others in the order the engine prefers them
    (its own key: a score with the distance to the end, visits), which every view keeps. A move in
    `upper_bounds` has an upper bound for its value; the others, their own value."""
    moves_proven: bool = False
    """Whether each value in `moves` is proven (a bound, proven as a bound): so in an exact
    search, and in one stopped early that had met no horizon (a search to the end of the game)."""
    upper_bounds: frozenset[Any] = frozenset()
    """The moves of `moves` valued only by an upper bound: a pruning search tried them only for a
    better score than the best so far and found none, so each is worth at most its value (an
    engine asked to value every move, `every_move`, leaves this empty)."""
    distance_exact: bool = True
    """Whether the distances behind the values are proven too (which of equal payoffs wins
    quickest or loses slowest, and so `move` among equals): `exact` proves the payoffs, and a
    book that bounds its plies leaves the distances bounded."""

    @property
    def every_value(self) -> bool:
        """Whether `moves` holds each root move's own value (none only bounded), proven."""
        return self.moves_proven and not self.upper_bounds


class Progress(Protocol):
    """What a watcher reads of a running search, of any engine: its budget and its best root move so
    far."""

    simulates: bool
    """Whether its nodes are simulations (MCTS) rather than positions searched."""
    position: Any
    """The root position being searched (None before it starts)."""

    @property
    def budget(self) -> Budget:
        """The search's budget: nodes, elapsed, and `stop()`."""

    def best_scored(self) -> tuple[Any, float, int] | None:
        """The move the search would play now, its value, and how many root moves it has tried."""

    def unhorizoned(self) -> bool:
        """Whether that value is proven."""


class Watcher(Protocol):
    """Sees a search as it runs (a live display): every budget check, and every depth completed."""

    def tick(self, searcher: Progress) -> None:
        """Called every few dozen nodes: read the search's progress; `searcher.budget.stop()` makes
        it answer now."""

    def reached(self, result: SearchResult) -> None:
        """Called with each completed depth's answer; its nodes and seconds are the search's so
        far."""
