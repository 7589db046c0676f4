"""The engine registry: every engine's name, options (typed, with defaults) and the game
properties it can honour, and `search`, the one way to run any of them under a limit."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from nimmax.game import AnyGame, BadInput
from nimmax.search.adversary import ChanceAsAdversary
from nimmax.search.alphabeta import AlphaBeta
from nimmax.search.budget import Budget
from nimmax.search.deepening import Searcher, Watcher, run
from nimmax.search.expectimax import DEFAULT_CUTOFF, Expectimax
from nimmax.search.mcts import EXPLORATION, ROLLOUTS, MonteCarlo, Tree, refuses
from nimmax.search.minimax import Minimax, Negamax
from nimmax.search.result import SearchResult
from nimmax.search.score import INFINITY
from nimmax.search.table import DEFAULT_CAPACITY, Table


class CannotSearch(BadInput):
    """An engine asked to search a game whose declared properties it cannot honour."""


@dataclass(frozen=True)
class Option:
    """One option of a spec (`depth=4`): its type (int, float or bool), default and meaning.

    Numbers must be positive; None as a default means "not set" (no limit, or chosen by the engine).
    """

    name: str
    kind: type
    default: Any
    help: str
    chosen: str = ""
    """For a default of None that the engine chooses, what it chooses, in words (`nimmax games` shows it)."""


def defaults(options: Sequence[Option]) -> dict[str, Any]:
    """Each option's name with its default value."""
    return {option.name: option.default for option in options}


MOVE_SECONDS = 1.0
"""A move's time when no limit is given: with the budget checked every few dozen nodes and
the answer assembled after, a move is made within about 2 s on any board."""

LIMITS = (
    Option("depth", int, None, "plies deep; beyond them positions are estimated"),
    Option(
        "time",
        float,
        MOVE_SECONDS,
        "seconds per move, deepening until they run out; inf for none (no default when depth or nodes is set)",
    ),
    Option("nodes", int, None, "nodes per move, deepening until they run out"),
)
"""The limits every engine takes: a second a move unless told otherwise; `time=inf` (or
an explicit `depth=` or `nodes=` without `time=`) searches as deep as those allow."""


ITERATIONS = Option("iterations", int, None, "simulations per move (each one counted as a node)")
"""MCTS's node limit under its own name: a simulation is its node."""


def limits(given: Mapping[str, Any]) -> dict[str, Any]:
    """The limits a search runs under, from the options given: `time` defaults to
    MOVE_SECONDS unless `depth` or `nodes` (MCTS's `iterations`) is given instead, and
    `time=inf` means no limit."""
    chosen = {limit.name: given.get(limit.name, limit.default) for limit in LIMITS}
    if given.get(ITERATIONS.name) is not None:
        chosen["nodes"] = given[ITERATIONS.name]
    if "time" not in given and (chosen["depth"] is not None or chosen["nodes"] is not None):
        chosen["time"] = None
    if chosen["time"] is not None and chosen["time"] == INFINITY:
        chosen["time"] = None
    return chosen


TABLE_SIZE = Option("table", int, DEFAULT_CAPACITY, "most entries in the transposition table")


def _table(options: Mapping[str, Any]) -> Table:
    """A transposition table of the `table=` size, none when `cache=off`."""
    return Table(options["table"] if options["cache"] else 0)


Kept = Table | Tree
"""What a player keeps between the moves of one game: a table, or (MCTS) the tree."""


def _tabled(kept: Kept) -> Table:
    """The table a deepening engine searches with (a tree, kept by MCTS, is none of its)."""
    return kept if isinstance(kept, Table) else Table()


def _deepened(
    searcher: Searcher | MonteCarlo, state: Any, depth: int | None, every: bool, deepen: bool, watcher: Watcher | None
) -> SearchResult:
    """Run a deepening engine's searcher (`run`)."""
    assert isinstance(searcher, Searcher)
    return run(searcher, state, depth, every, deepen, watcher)


def _simulated(
    searcher: Searcher | MonteCarlo, state: Any, depth: int | None, every: bool, deepen: bool, watcher: Watcher | None
) -> SearchResult:
    """Run an MCTS searcher (depth and deepening do not apply)."""
    assert isinstance(searcher, MonteCarlo)
    return searcher.run(state, every, watcher)


Runner = Callable[[Searcher | MonteCarlo, Any, "int | None", bool, bool, "Watcher | None"], SearchResult]
"""How an engine's searcher is run: (searcher, state, depth, every_move, deepen, watcher)."""


NEAR = Option(
    "near",
    bool,
    True,
    "under a limit, only the moves the game calls worth trying (big boards: cells near the stones); off: every move",
)
"""Narrowing on or off: off shows how a depth-first search copes with every move of a big board."""


BOOK = Option("book", bool, True, "read the game's book of known values where it has one (Connect Four 7x6)")
"""The book on or off: off shows what the search finds by itself (and keeps the textbook counts)."""


def cache(default: bool) -> Option:
    """The option that turns the transposition table (the memo) on or off."""
    return Option("cache", bool, default, "keep a table of positions already valued")


@dataclass(frozen=True)
class Engine:
    """A search engine: how to build its searcher, its options, and whether it averages chance.

    An engine that does not average chance plays a one-player game with chance against chance
    as an adversary (`ChanceAsAdversary`) and refuses two-player games with chance. `run`
    runs its searcher (iterative deepening unless the engine has its own way), `table` makes
    what a player keeps between the moves of one game (MCTS: its tree), and `refuses` says
    why options cannot search a game (None when they can).
    """

    name: str
    summary: str
    build: Callable[[AnyGame, Kept, Budget, Mapping[str, Any]], Searcher | MonteCarlo]
    options: tuple[Option, ...]
    averages_chance: bool = False
    run: Runner = _deepened
    table: Callable[[Mapping[str, Any]], Kept] = _table
    refuses: Callable[[AnyGame, Mapping[str, Any]], str | None] = lambda game, options: None

    def defaults(self) -> dict[str, Any]:
        """Every option with its default value."""
        return defaults(self.options)

    def settings(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every option a search runs with: those given, the limits as `limits` reads them,
        and the defaults of the rest."""
        return {**self.defaults(), **given, **limits(given)}

    def game_for(self, game: AnyGame, options: Mapping[str, Any] | None = None) -> AnyGame:
        """The game as this engine searches it; CannotSearch when it cannot honour its
        properties (or, given the options, when they cannot search it)."""
        refusal = self.refuses(game, options) if options is not None else None
        if refusal is not None:
            raise CannotSearch(refusal)
        if game.players not in (1, 2):
            raise CannotSearch(f"{self.name} searches one- and two-player games; {game.name} has {game.players}")
        if not game.has_chance or self.averages_chance:
            return game
        if game.players == 1:
            return ChanceAsAdversary(game)
        able = ", ".join(engine.name for engine in ENGINES.values() if engine.averages_chance)
        raise CannotSearch(f"{self.name} cannot value the chance nodes of {game.name}; use {able}")

    def searcher(
        self, game: AnyGame, options: Mapping[str, Any], table: Kept | None = None, budget: Budget | None = None
    ) -> Searcher | MonteCarlo:
        """A searcher for `game` with these options (defaults for those missing)."""
        chosen = self.settings(options)
        if table is None:
            table = self.table(chosen)
        if budget is None:
            budget = Budget.of(chosen["time"], chosen["nodes"])
        searcher = self.build(self.game_for(game, chosen), table, budget, chosen)
        if "near" in chosen and isinstance(searcher, Searcher):  # the engines that take NEAR
            searcher.near = chosen["near"]
        if not chosen.get("book", True):
            searcher.book = None
        return searcher

    def search(
        self,
        game: AnyGame,
        state: Any,
        options: Mapping[str, Any],
        table: Kept | None = None,
        every_move: bool = False,
        deepen: bool | None = None,
        watcher: Watcher | None = None,
    ) -> SearchResult:
        """Search `state` under its limits; `every_move` values every root move exactly.

        It deepens one ply at a time when `deepen`, which by default it does under a time or
        node limit; unlimited, it searches straight to the end of the game (or to `depth`).
        """
        chosen = self.settings(options)
        searcher = self.searcher(game, chosen, table)
        if deepen is None:
            deepen = chosen["time"] is not None or chosen["nodes"] is not None
        return self.run(searcher, state, chosen["depth"], every_move, deepen, watcher)


def _cutoff(options: Mapping[str, Any]) -> float:
    """Expectimax's cut-off: as given, else DEFAULT_CUTOFF for a limited search and 0 for an
    exact one (`options` are a search's settings, its limits read)."""
    if options["cutoff"] is not None:
        return float(options["cutoff"])
    limited = any(options[limit.name] is not None for limit in LIMITS)
    return DEFAULT_CUTOFF if limited else 0.0


ENGINES: Mapping[str, Engine] = MappingProxyType(
    {
        engine.name: engine
        for engine in (
            Engine(
                "minimax",
                "plain minimax, Max and Min apart: no pruning; a memo of positions valued (cache=off: every node)",
                lambda game, table, budget, options: Minimax(game, _tabled(table), budget, cache=options["cache"]),
                (*LIMITS, cache(True), TABLE_SIZE, NEAR, BOOK),
            ),
            Engine(
                "negamax",
                "minimax as one maximising recursion: no pruning; a memo (cache=off: every node)",
                lambda game, table, budget, options: Negamax(game, _tabled(table), budget, cache=options["cache"]),
                (*LIMITS, cache(True), TABLE_SIZE, NEAR, BOOK),
            ),
            Engine(
                "alphabeta",
                "alpha-beta pruning with a transposition table and the game's move order",
                lambda game, table, budget, options: AlphaBeta(game, _tabled(table), budget),
                (*LIMITS, cache(True), TABLE_SIZE, NEAR, BOOK),
            ),
            Engine(
                "expectimax",
                "players maximise, chance nodes average their outcomes (2048)",
                lambda game, table, budget, options: Expectimax(game, _tabled(table), budget, _cutoff(options)),
                (
                    *LIMITS,
                    cache(True),
                    TABLE_SIZE,
                    NEAR,
                    BOOK,
                    Option(
                        "cutoff",
                        float,
                        None,
                        "least chance of reaching a node that is still searched",
                        f"{DEFAULT_CUTOFF:g} (0 when exact)",
                    ),
                ),
                averages_chance=True,
            ),
            Engine(
                "mcts",
                "Monte Carlo tree search (UCT) proving what it can (MCTS-Solver); random playouts",
                lambda game, table, budget, options: MonteCarlo(
                    game,
                    table if isinstance(table, Tree) else None,
                    budget,
                    options["c"],
                    options["rollout"],
                    options["seed"],
                ),
                (
                    Option(
                        "time",
                        float,
                        MOVE_SECONDS,
                        "seconds per move; inf for none (no default when iterations is set)",
                    ),
                    ITERATIONS,
                    Option("c", float, EXPLORATION, "UCT's exploration constant (payoffs scaled to 0..1)"),
                    Option(
                        "rollout",
                        str,
                        ROLLOUTS[0],
                        "random: playouts to the end; heuristic: a few plies, scored by the game's evaluate",
                    ),
                    Option("seed", int, None, "seed of the playouts and chance draws (reproducible with iterations=)"),
                    BOOK,
                ),
                averages_chance=True,
                run=_simulated,
                table=lambda options: Tree(),
                refuses=refuses,
            ),
        )
    }
)
"""The engines by name, in the order they are listed to users."""


def engine_for(game: AnyGame) -> Engine:
    """The engine to suggest for a game: expectimax where chance is averaged, else alpha-beta."""
    return ENGINES["expectimax" if game.has_chance else "alphabeta"]


def lookup(name: str) -> Engine:
    """The engine called `name`; CannotSearch lists the engines."""
    engine = ENGINES.get(name)
    if engine is None:
        raise CannotSearch(f"unknown engine {name!r}; engines: {', '.join(ENGINES)}")
    return engine


def search(
    game: AnyGame,
    state: Any,
    engine: str | Engine = "alphabeta",
    table: Kept | None = None,
    every_move: bool = False,
    **options: Any,
) -> SearchResult:
    """Search `state` with an engine named by the registry and its options (`depth=`, `time=`, ...).

    `table` is a table to search with and keep (a fresh one of the `table=` capacity by default).
    """
    chosen = lookup(engine) if isinstance(engine, str) else engine
    unknown = set(options) - set(chosen.defaults())
    if unknown:
        raise CannotSearch(f"{chosen.name} has no option {', '.join(sorted(unknown))}")
    return chosen.search(game, state, options, table, every_move)
