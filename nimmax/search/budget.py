"""The limits of one search: a deadline and a node limit, checked as nodes are counted."""

from __future__ import annotations

import time
from dataclasses import dataclass

from nimmax.search.score import INFINITY

CHECK_EVERY = 64
"""Nodes between looks at the clock: often enough that a slow heuristic (0.1 ms a node on a
big board) cannot overrun a deadline by more than a few milliseconds."""


class OutOfBudget(Exception):
    """Raised inside a search when its deadline passes or its node limit is reached."""


@dataclass
class Budget:
    """Limits of one search: a deadline on the perf_counter clock and a node limit; counts nodes."""

    deadline: float = INFINITY
    node_limit: float = INFINITY
    nodes: int = 0
    _next_check: int = CHECK_EVERY

    @classmethod
    def of(cls, seconds: float | None = None, nodes: int | None = None) -> Budget:
        """A budget of `seconds` from now and `nodes` nodes; None is no limit."""
        deadline = time.perf_counter() + seconds if seconds is not None else INFINITY
        return cls(deadline, nodes if nodes is not None else INFINITY)

    def count(self) -> None:
        """Count one node; every CHECK_EVERY nodes (and at the node limit) check the limits."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + CHECK_EVERY
            if self.nodes >= self.node_limit or time.perf_counter() >= self.deadline:
                raise OutOfBudget
            if self.node_limit < self._next_check:
                self._next_check = int(self.node_limit)
