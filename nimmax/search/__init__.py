"""Game-agnostic search engines; no game rule lives here.

The core is cut into rooms: `score` (scores and distance to the end), `table`, `budget`,
`limits` (the one typed value of a search's limits), `result`, `deepening` (the searcher, root
search, iterative deepening), `stack` (the interpreter policy a command enters), the engines
(`minimax`, `alphabeta`, `expectimax`, `mcts`), `adversary` (chance as an opponent) and
`engines`, the one registry. This face only re-exports, each name loaded from its room when first
asked for, so a command that needs one room (`--help`'s limits) does not load the engines.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nimmax.search.budget import Budget, OutOfBudget
    from nimmax.search.deepening import Searcher, iterate, run, search_root
    from nimmax.search.engines import (
        DEFAULTS,
        ENGINES,
        CannotSearch,
        Engine,
        Settings,
        engine_for,
        lookup,
        search,
    )
    from nimmax.search.limits import ITERATIONS, LIMITS, MOVE_SECONDS, PLAY, Limits
    from nimmax.search.result import MoveValue, Progress, SearchResult, Watcher
    from nimmax.search.score import FULL_DEPTH, INFINITY, SCALE, older, payoff, to_value, younger
    from nimmax.search.stack import FRAMES_PER_PLY, TooDeep, deep, interpreter
    from nimmax.search.table import EXACT, LOWER, UPPER, Entry, Table, principal_variation

ROOMS = (
    ("budget", ("Budget", "OutOfBudget")),
    ("deepening", ("Searcher", "iterate", "run", "search_root")),
    (
        "engines",
        (
            "DEFAULTS",
            "ENGINES",
            "CannotSearch",
            "Engine",
            "Settings",
            "engine_for",
            "lookup",
            "search",
        ),
    ),
    ("limits", ("ITERATIONS", "LIMITS", "MOVE_SECONDS", "PLAY", "Limits")),
    ("result", ("MoveValue", "Progress", "SearchResult", "Watcher")),
    ("score", ("FULL_DEPTH", "INFINITY", "SCALE", "older", "payoff", "to_value", "younger")),
    ("stack", ("FRAMES_PER_PLY", "TooDeep", "deep", "interpreter")),
    ("table", ("EXACT", "LOWER", "UPPER", "Entry", "Table", "principal_variation")),
)
"""Each room of the core and the names this face re-exports from it."""


def __getattr__(name: str) -> object:
    """A re-exported name, from its room, imported when asked for."""
    for room, names in ROOMS:
        if name in names:
            return getattr(importlib.import_module(f"{__name__}.{room}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = (
    "DEFAULTS",
    "ENGINES",
    "EXACT",
    "FRAMES_PER_PLY",
    "FULL_DEPTH",
    "INFINITY",
    "ITERATIONS",
    "LIMITS",
    "LOWER",
    "MOVE_SECONDS",
    "PLAY",
    "SCALE",
    "UPPER",
    "Budget",
    "CannotSearch",
    "Engine",
    "Entry",
    "Limits",
    "MoveValue",
    "OutOfBudget",
    "Progress",
    "SearchResult",
    "Searcher",
    "Settings",
    "Table",
    "TooDeep",
    "Watcher",
    "deep",
    "engine_for",
    "interpreter",
    "iterate",
    "lookup",
    "older",
    "payoff",
    "principal_variation",
    "run",
    "search",
    "search_root",
    "to_value",
    "younger",
)
