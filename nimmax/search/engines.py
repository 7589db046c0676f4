"""The engines: each a small class with its name, options (typed, with ranges and defaults), the
game properties it can honour, and `search(game, state, limits, ...)`, the one way to run it."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, cast

from nimmax.game import AnyGame, BadInput, Capability, Evaluations, has_chance
from nimmax.numbers import MAX_SEED, Option, Value
from nimmax.search.adversary import ChanceAsAdversary
from nimmax.search.alphabeta import AlphaBeta
from nimmax.search.budget import Budget
from nimmax.search.deepening import UNLIMITED, Searcher, run
from nimmax.search.expectimax import DEFAULT_CUTOFF, Expectimax
from nimmax.search.limits import ITERATIONS, LIMITS, PLAY, TIME, Limits, given
from nimmax.search.mcts import EXPLORATION, ROLLOUTS, MonteCarlo, Tree
from nimmax.search.minimax import Minimax, Negamax
from nimmax.search.result import SearchResult, Watcher
from nimmax.search.stack import deep
from nimmax.search.table import DEFAULT_CAPACITY, Table

Kept = Table | Tree
"""What a player keeps between the moves of one game: a table, or (MCTS) the tree."""


def table_for(settings: Settings) -> Table:
    """A deepening engine's table: of the `table=` size, none when `cache=off`."""
    return Table(settings.table if settings.cache else 0)


class CannotSearch(BadInput):
    """An engine asked to search a game whose declared properties it cannot honour."""


@dataclass(frozen=True)
class Settings:
    """An engine's options other than its limits, typed; each engine reads those it declares."""

    cache: bool = True
    table: int = DEFAULT_CAPACITY
    near: bool = True
    book: bool = True
    cutoff: float | None = None
    eval: str = "auto"
    c: float = EXPLORATION
    rollout: str = ROLLOUTS[0]
    seed: int | None = None

    @classmethod
    def of(cls, options: Mapping[str, Value]) -> Settings:
        """The settings `options` give (typed by their Option), the defaults for the rest; limits
        are not settings."""
        names = {field.name for field in dataclasses.fields(cls)}
        chosen = {name: value for name, value in options.items() if name in names}
        # each value typed by its Option
        return dataclasses.replace(DEFAULTS, **cast("dict[str, Any]", chosen))


DEFAULTS = Settings()
"""Every setting at its default."""

CACHE = Option("cache", bool, DEFAULTS.cache, help="keep a table of positions already valued")
TABLE_SIZE = Option(
    "table", int, DEFAULTS.table, low=1, high=10**8, help="most entries in the transposition table"
)
# 10**8 entries is about 20 GB of table.
NEAR = Option(
    "near",
    bool,
    DEFAULTS.near,
    help="under a limit, only the moves the game calls worth trying (big boards: cells near the "
    "stones);"
    " off: every move",
)
"""Narrowing on or off: off shows how a depth-first search copes with every move of a big board."""
BOOK = Option(
    "book",
    bool,
    DEFAULTS.book,
    help="read the game's book of known values where it has one (Connect Four 7x6, Kalah's "
    "endgames,"
    " the Nim family's theory)",
)
"""The book on or off: off shows what the search finds by itself (and keeps the textbook counts)."""
CUTOFF = Option(
    "cutoff",
    float,
    DEFAULTS.cutoff,
    low=0,
    high=1,
    help="least chance of reaching a node that is still searched",
    chosen=f"{DEFAULT_CUTOFF:g} (0 when exact)",
)
"""`cutoff=0` cuts nothing off."""
EVAL = Option(
    "eval",
    str,
    DEFAULTS.eval,
    choices=("auto", "heuristic", "ntuple"),
    help="what values a horizon: auto (the game's best: 2048's learned network), heuristic, or "
    "ntuple (2048)",
)
"""The evaluation at a horizon, among the game's own (`Game.evaluations`)."""
DEEPENING_OPTIONS = (*LIMITS, CACHE, TABLE_SIZE, NEAR, BOOK)
"""The options of every engine that deepens."""


class Engine:
    """A search engine: its name, options and how it searches; the deepening engines' ways by
    default.

    An engine that does not average chance plays a one-player game with chance against chance as an
    adversary (`ChanceAsAdversary`) and refuses two-player games with chance.
    """

    name = ""
    summary = ""
    options: tuple[Option, ...] = DEEPENING_OPTIONS
    averages_chance = False

    def refuses(self, game: AnyGame, settings: Settings) -> str | None:
        """Why these settings cannot search `game`; None when they can."""
        return None

    def new_table(self, settings: Settings) -> Kept:
        """What a player keeps between the moves of one game: a table of the `table=` size, none
        when `cache=off`."""
        return table_for(settings)

    def game_for(self, game: AnyGame, settings: Settings = DEFAULTS) -> AnyGame:
        """The game as this engine searches it; CannotSearch when it cannot honour its
        properties."""
        refusal = self.refuses(game, settings)
        if refusal is not None:
            raise CannotSearch(refusal)
        if isinstance(game, Evaluations) and (
            settings.eval in game.evaluations or settings.eval == DEFAULTS.eval
        ):
            game = game.evaluated(settings.eval)
        elif settings.eval not in (DEFAULTS.eval, "heuristic"):
            raise CannotSearch(
                f"{self.name}: eval={settings.eval} is not one of {game.name}'s evaluations; use "
                "eval=auto"
            )
        if game.players not in (1, 2):
            raise CannotSearch(
                f"{self.name} searches one- and two-player games; {game.name} has {game.players}"
            )
        if not has_chance(game) or self.averages_chance:
            return game
        if game.players == 1:
            return ChanceAsAdversary(game)
        able = ", ".join(engine.name for engine in ENGINES.values() if engine.averages_chance)
        raise CannotSearch(f"{self.name} cannot value the chance nodes of {game.name}; use {able}")

    def build(
        self, game: AnyGame, table: Table, budget: Budget, settings: Settings, limits: Limits
    ) -> Searcher:
        """This engine's searcher, for the deepening engines (MCTS simulates in its own
        `search`)."""
        raise NotImplementedError(f"{self.name} has no deepening searcher")

    def searcher(
        self,
        game: AnyGame,
        settings: Settings = DEFAULTS,
        limits: Limits = UNLIMITED,
        table: Kept | None = None,
    ) -> Searcher:
        """A searcher of `game` with these settings, its budget made from `limits` now."""
        table = table if isinstance(table, Table) else table_for(settings)
        searcher = self.build(
            self.game_for(game, settings), table, limits.budget(), settings, limits
        )
        searcher.near = settings.near
        if not settings.book:
            searcher.book = None
        return searcher

    def search(
        self,
        game: AnyGame,
        state: object,
        limits: Limits,
        *,
        table: Kept | None = None,
        watcher: Watcher | None = None,
        every_move: bool = False,
        deepen: bool | None = None,
        settings: Settings = DEFAULTS,
    ) -> SearchResult:
        """Search `state` under `limits`; `every_move` values every root move exactly.

        It deepens one ply at a time when `deepen`, which by default it does under a time or
        node limit; otherwise it searches straight to the end of the game (or to the depth limit).
        """
        searcher = self.searcher(game, settings, limits, table)
        return run(searcher, state, limits, every_move, deepen, watcher)


class MinimaxEngine(Engine):
    """Plain minimax, the oracle the others are tested against."""

    name = "minimax"
    summary = (
        "plain minimax, Max and Min apart: no pruning; a memo of positions valued "
        "(cache=off: every node)"
    )

    def build(
        self, game: AnyGame, table: Table, budget: Budget, settings: Settings, limits: Limits
    ) -> Searcher:
        return Minimax(game, table, budget, cache=settings.cache)


class NegamaxEngine(Engine):
    """Minimax in its negamax form."""

    name = "negamax"
    summary = "minimax as one maximising recursion: no pruning; a memo (cache=off: every node)"

    def build(
        self, game: AnyGame, table: Table, budget: Budget, settings: Settings, limits: Limits
    ) -> Searcher:
        return Negamax(game, table, budget, cache=settings.cache)


class AlphaBetaEngine(Engine):
    """Alpha-beta, the engine people play against."""

    name = "alphabeta"
    summary = "alpha-beta pruning with a transposition table and the game's move order"

    def build(
        self, game: AnyGame, table: Table, budget: Budget, settings: Settings, limits: Limits
    ) -> Searcher:
        return AlphaBeta(game, table, budget)


class ExpectimaxEngine(Engine):
    """Expectimax: chance nodes averaged, a probability cut-off under a limit."""

    name = "expectimax"
    summary = "players maximise, chance nodes average their outcomes (2048)"
    options = (*DEEPENING_OPTIONS, CUTOFF, EVAL)
    averages_chance = True

    def build(
        self, game: AnyGame, table: Table, budget: Budget, settings: Settings, limits: Limits
    ) -> Searcher:
        cutoff = settings.cutoff
        # chosen: cut unlikely spawns in a limited search, nothing in an exact one
        if cutoff is None:
            cutoff = DEFAULT_CUTOFF if limits.limited else 0.0
        return Expectimax(game, table, budget, cutoff)


class MonteCarloEngine(Engine):
    """Monte Carlo tree search: simulations, not depths; what it keeps between moves is its tree."""

    name = "mcts"
    summary = "Monte Carlo tree search (UCT) proving what it can (MCTS-Solver); random playouts"
    options = (
        dataclasses.replace(
            TIME, help="seconds per move; inf for none (no default when iterations is set)"
        ),
        ITERATIONS,
        Option(
            "c",
            float,
            DEFAULTS.c,
            low=0,
            high=100,
            help="UCT's exploration constant (payoffs scaled to 0..1)",
        ),
        Option(
            "rollout",
            str,
            DEFAULTS.rollout,
            choices=ROLLOUTS,
            help="random: playouts to the end; heuristic: a few plies, scored by the game's "
            "evaluate",
        ),
        Option(
            "seed",
            int,
            DEFAULTS.seed,
            low=0,
            high=MAX_SEED,
            help="seed of the playouts and chance draws (reproducible with iterations=)",
        ),
        BOOK,
    )
    averages_chance = True

    def refuses(self, game: AnyGame, settings: Settings) -> str | None:
        """A heuristic playout needs the game's `evaluate`."""
        if settings.rollout == "heuristic" and Capability.EVALUATION not in game.capabilities:
            return (
                "mcts: rollout=heuristic scores playouts with the game's evaluate, and "
                f"{game.name} has none;"
                " use rollout=random"
            )
        return None

    def new_table(self, settings: Settings) -> Kept:
        """An empty tree."""
        return Tree()

    def search(
        self,
        game: AnyGame,
        state: object,
        limits: Limits,
        *,
        table: Kept | None = None,
        watcher: Watcher | None = None,
        every_move: bool = False,
        deepen: bool | None = None,
        settings: Settings = DEFAULTS,
    ) -> SearchResult:
        """Simulate until the limits end or the root is proven (a depth limit does not apply)."""
        tree = table if isinstance(table, Tree) else Tree()
        simulator = MonteCarlo(
            self.game_for(game, settings),
            tree,
            limits.budget(),
            settings.c,
            settings.rollout,
            settings.seed,
        )
        if not settings.book:
            simulator.book = None
        return simulator.run(state, every_move, watcher)


ENGINES: Mapping[str, Engine] = MappingProxyType(
    {
        engine.name: engine
        for engine in (
            MinimaxEngine(),
            NegamaxEngine(),
            AlphaBetaEngine(),
            ExpectimaxEngine(),
            MonteCarloEngine(),
        )
    }
)
"""The engines by name, in the order they are listed to users."""


def engine_for(game: AnyGame) -> Engine:
    """The engine to suggest for a game: expectimax where chance is averaged, else alpha-beta."""
    return ENGINES["expectimax" if has_chance(game) else "alphabeta"]


def lookup(name: str) -> Engine:
    """The engine called `name`; CannotSearch lists the engines."""
    engine = ENGINES.get(name)
    if engine is None:
        raise CannotSearch(f"unknown engine {name!r}; engines: {', '.join(ENGINES)}")
    return engine


def search(
    game: AnyGame,
    state: object,
    engine: str | Engine = "alphabeta",
    table: Kept | None = None,
    every_move: bool = False,
    **options: Value,
) -> SearchResult:
    """`Engine.search` with the options a spec would give (`depth=`, `time=inf`, `cache=False`,
    ...), for scripts and tests: a second a move unless they name a limit. A call is a command of
    its own: it runs inside the interpreter policy, on a stack that holds a search to the end
    (`deep`)."""
    chosen = lookup(engine) if isinstance(engine, str) else engine
    unknown = set(options) - {option.name for option in chosen.options}
    if unknown:
        raise CannotSearch(f"{chosen.name} has no option {', '.join(sorted(unknown))}")
    limits = given(options) or PLAY
    settings = Settings.of(options)
    return deep(
        lambda: chosen.search(
            game, state, limits, table=table, every_move=every_move, settings=settings
        )
    )
