"""The limits of one search, as one typed value read once where people give them (a spec's
`depth=`, `time=`, `nodes=`, a command's --depth and --time) and handed down as it is."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from nimmax.numbers import Option, Value
from nimmax.search.budget import Budget

MOVE_SECONDS = 1.0
"""A move's time when no limit is given: with the budget checked every few dozen nodes and
the answer assembled after, a move is made within about 2 s on any board."""


@dataclass(frozen=True)
class Limits:
    """How far one search may go: plies deep, seconds, nodes; None is no such limit."""

    depth: int | None = None
    time: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.time is not None and math.isinf(self.time):  # `time=inf` as typed: no limit
            object.__setattr__(self, "time", None)

    @property
    def limited(self) -> bool:
        """Whether any limit applies (then positions at the horizon are estimated)."""
        return self.depth is not None or self.clocked

    @property
    def clocked(self) -> bool:
        """Whether a time or node limit applies (then the search deepens until it runs out)."""
        return self.time is not None or self.nodes is not None

    def budget(self) -> Budget:
        """A budget of this time from now and these nodes."""
        return Budget.of(self.time, self.nodes)


PLAY = Limits(time=MOVE_SECONDS)
"""A player's limits when its spec names none: a second a move."""

DEPTH = Option(
    "depth", int, None, low=1, high=10**6, help="plies deep; beyond them positions are estimated"
)
TIME = Option(
    "time",
    float,
    MOVE_SECONDS,
    low=0.001,
    high=10**6,
    unlimited=True,
    help="seconds per move, deepening until they run out; inf for none (no default when depth or "
    "nodes is set)",
)
NODES = Option(
    "nodes", int, None, low=1, high=10**12, help="nodes per move, deepening until they run out"
)
ITERATIONS = Option(
    "iterations",
    int,
    None,
    low=1,
    high=10**12,
    help="simulations per move (each one counted as a node)",
)
"""MCTS's node limit under its own name: a simulation is its node."""
# The ranges reach far beyond any real setting and stop short of where a number stops meaning
# what it says: a depth past 2**30 plies outruns the mark a proven table entry carries.

LIMITS = (DEPTH, TIME, NODES)
"""The limits every deepening engine takes: a second a move unless told otherwise; `time=inf`
(or an explicit `depth=` or `nodes=` without `time=`) searches as deep as those allow."""

NAMES = frozenset(option.name for option in (*LIMITS, ITERATIONS))
"""The option names that are limits."""


def given(options: Mapping[str, Value]) -> Limits | None:
    """The limits a spec's options name (`iterations` is `nodes`); None when they name none."""
    if not NAMES & set(options):
        return None
    depth, time, nodes = (
        options.get("depth"),
        options.get("time"),
        options.get("nodes", options.get("iterations")),
    )
    assert depth is None or isinstance(depth, int)
    assert time is None or isinstance(time, (int, float))
    assert nodes is None or isinstance(nodes, int)
    return Limits(depth, None if time is None else float(time), nodes)


def override(depth: int | None = None, time: float | None = None) -> Limits | None:
    """The limits a command's --depth and --time give, read once where they are typed (`inf`:
    no limit); None when neither is given, so a spec keeps its own."""
    return None if depth is None and time is None else Limits(depth, time)
