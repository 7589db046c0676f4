"""The limits of one search: a deadline and a node limit, checked as nodes are counted, and the
watcher that sees the search's progress at each check (and may stop it: "move now")."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from nimmax.search.score import INFINITY

CHECK_EVERY = 64
"""Nodes between looks at the clock: often enough that a slow heuristic (0.1 ms a node on a
big board) cannot overrun a deadline by more than a few milliseconds."""


class OutOfBudget(Exception):
    """Raised inside a search when its deadline passes, its node limit is reached, or it is
    stopped."""


@dataclass
class Budget:
    """Limits of one search: a deadline on the perf_counter clock and a node limit; counts nodes.

    `watch`, when set, is called with the budget at every check (every CHECK_EVERY nodes):
    a live display reads `nodes` and `elapsed` there, and `stop()` ends the search at once.
    """

    deadline: float = INFINITY
    node_limit: float = INFINITY
    nodes: int = 0
    next_check: int = CHECK_EVERY
    watch: Callable[[Budget], None] | None = None
    started: float = field(default_factory=time.perf_counter)

    @classmethod
    def of(cls, seconds: float | None = None, nodes: int | None = None) -> Budget:
        """A budget of `seconds` from now and `nodes` nodes; None is no limit."""
        now = time.perf_counter()
        deadline = now + seconds if seconds is not None else INFINITY
        return cls(deadline, nodes if nodes is not None else INFINITY, started=now)

    @property
    def elapsed(self) -> float:
        """Seconds since the budget was made."""
        return time.perf_counter() - self.started

    def count(self) -> None:
        """Count one node; every CHECK_EVERY nodes (and at the node limit) check the limits."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()

    def check(self) -> None:
        """Show the watcher the progress, then raise OutOfBudget if a limit is reached."""
        self.next_check = self.nodes + CHECK_EVERY
        if self.watch is not None:
            self.watch(self)
        if self.nodes >= self.node_limit or time.perf_counter() >= self.deadline:
            raise OutOfBudget
        if self.node_limit < self.next_check:
            self.next_check = int(self.node_limit)

    def stop(self) -> None:
        """End the search at the next check, as if its time had run out ("move now")."""
        self.deadline = -INFINITY
