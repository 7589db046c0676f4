"""Game-agnostic search engines; no game rule lives here.

The core is cut into rooms: `score` (scores and distance to the end), `table`, `budget`,
`result`, `deepening` (the searcher, root search, iterative deepening), `stack` (how deep a
search may recurse), the engines (`minimax`, `alphabeta`, `expectimax`, `mcts`), `adversary` (chance
as an opponent) and `engines`, the one registry. This face only re-exports.
"""

from nimmax.search.budget import Budget, OutOfBudget
from nimmax.search.deepening import Progress, Searcher, Watcher, iterate, run, search_root
from nimmax.search.engines import (
    ENGINES,
    ITERATIONS,
    LIMITS,
    MOVE_SECONDS,
    CannotSearch,
    Engine,
    Option,
    defaults,
    engine_for,
    limits,
    lookup,
    search,
)
from nimmax.search.result import MoveValue, SearchResult
from nimmax.search.score import FULL_DEPTH, INFINITY, SCALE, older, payoff, to_value, younger
from nimmax.search.stack import FRAMES_PER_PLY, TooDeep, deep, interpreter_for
from nimmax.search.table import EXACT, LOWER, UPPER, Entry, Table, principal_variation

__all__ = (
    "ENGINES",
    "EXACT",
    "ITERATIONS",
    "FRAMES_PER_PLY",
    "FULL_DEPTH",
    "INFINITY",
    "LIMITS",
    "LOWER",
    "MOVE_SECONDS",
    "SCALE",
    "UPPER",
    "Budget",
    "CannotSearch",
    "Engine",
    "Entry",
    "MoveValue",
    "Option",
    "OutOfBudget",
    "Progress",
    "SearchResult",
    "Searcher",
    "Table",
    "Watcher",
    "TooDeep",
    "deep",
    "defaults",
    "engine_for",
    "interpreter_for",
    "iterate",
    "limits",
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
