"""Players and the player-spec parser shared by play, duel, solve and bench
("alphabeta:depth=4,time=0.5").

A player is small and swappable: `choose(game, state)` returns a move, or a `Decision` carrying the
move with the search behind it, so the play loop, duels and hints receive the engine's figures as a
value.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Any, cast

from nimmax.errors import quoted
from nimmax.game import AnyGame, BadInput, Game
from nimmax.numbers import MAX_SEED, Option, Value
from nimmax.player import Decision, Player
from nimmax.search import (
    DEFAULTS,
    ENGINES,
    PLAY,
    Engine,
    Limits,
    SearchResult,
    Settings,
    Watcher,
    engine_for,
)
from nimmax.search.engines import Kept
from nimmax.search.limits import ITERATIONS, NAMES, given


class BadPlayerSpec(BadInput):
    """A player spec that names no player or gives it a bad option."""


@dataclass(frozen=True)
class PlayerKind:
    """A kind of player a spec names (`alphabeta`), what it is, and the options it takes."""

    name: str
    summary: str
    options: tuple[Option, ...]

    def as_json(self) -> dict[str, object]:
        """The kind as `games --json` prints it."""
        return {
            "name": self.name,
            "summary": self.summary,
            "options": [
                {
                    "name": option.name,
                    "type": option.kind.__name__,
                    "default": option.default,
                    "help": option.help,
                }
                for option in self.options
            ],
        }


OPENSPIEL_KINDS = (
    PlayerKind(
        "openspiel-mcts",
        "OpenSpiel's MCTSBot (UCT, random rollouts), on any game; pip install 'nimmax[openspiel]'",
        (
            Option("simulations", int, 1000, low=1, high=10**7, help="simulations a move"),
            Option("uct", float, 2.0, low=0, high=100, help="UCT exploration constant (its uct_c)"),
            Option("seed", int, None, low=0, high=MAX_SEED, help="seed of the bot's rollouts"),
        ),
    ),
    PlayerKind(
        "openspiel-ab",
        "OpenSpiel's alpha-beta (expectiminimax with chance) to a depth, on any game",
        (Option("depth", int, 4, low=1, high=100, help="plies searched"),),
    ),
)
"""OpenSpiel's bots (`nimmax.players.openspiel`), players whatever the game."""

PLAYERS: Mapping[str, PlayerKind] = MappingProxyType(
    {
        kind.name: kind
        for kind in (
            PlayerKind("human", "you, typing moves at the prompt", ()),
            PlayerKind(
                "random",
                "a uniformly random legal move",
                (
                    Option(
                        "seed",
                        int,
                        None,
                        low=0,
                        high=MAX_SEED,
                        help="seed of the player's own random moves",
                    ),
                ),
            ),
            *(PlayerKind(name, engine.summary, engine.options) for name, engine in ENGINES.items()),
            *OPENSPIEL_KINDS,
        )
    }
)
"""Every kind of player a spec names: human and random, then every engine of the registry."""


PLUGIN = "plugin"
"""The kind of a plugin player's spec (`bots.py:Greedy`, `package.module:Class`, an entry point's
name)."""

SETTING_NAMES = frozenset(setting.name for setting in fields(Settings))
"""The options that are an engine's settings."""


@dataclass(frozen=True)
class Spec:
    """A player spec, read once from its words (`parse_spec`) and handed on as this value (pickled
    to a duel's workers): the kind of player, the limits it searches under (a second a move unless
    it names its own), its engine's settings. Its text (`str`) is derived from these, for display
    and records; a plugin player's is its reference, which the plugin loader reads."""

    kind: str
    limits: Limits = PLAY
    settings: Settings = DEFAULTS
    named: tuple[str, ...] = ()
    """The options its words named, in their order: the text shows them, and a named limit wins over
    --time."""
    own: tuple[tuple[str, Value], ...] = ()
    """A kind's options that are neither limits nor settings (OpenSpiel's bots': simulations,
    uct)."""
    reference: str = ""
    """A plugin player's words as typed (`bots.py:Greedy:depth=2`), which the plugin loader
    reads."""

    def __str__(self) -> str:
        if self.kind == PLUGIN:
            return self.reference
        shown = ",".join(f"{name}={_show(value)}" for name, value in self.options.items())
        return f"{self.kind}:{shown}" if shown else self.kind

    @property
    def options(self) -> dict[str, Value]:
        """The options its words named and their values (`time=inf`: no clock), as its text shows
        them."""
        own = dict(self.own)
        return {name: own[name] if name in own else self._value(name) for name in self.named}

    def _value(self, name: str) -> Value:
        if name == "time":
            return math.inf if self.limits.time is None else self.limits.time
        if name == "depth":
            return self.limits.depth
        if name in NAMES:  # nodes, or MCTS's iterations
            return self.limits.nodes
        value: Value = getattr(self.settings, name)
        return value

    @property
    def engine(self) -> Engine | None:
        """The search engine this spec names; None for other players."""
        return ENGINES.get(self.kind)

    @property
    def is_plugin(self) -> bool:
        """Whether it names a plugin player rather than one of nimmax's own."""
        return self.kind == PLUGIN

    @property
    def names_limits(self) -> bool:
        """Whether the spec names limits of its own."""
        return not NAMES.isdisjoint(self.named)

    def seeded(self, seed: int) -> Spec:
        """The same spec with its engine's random moves drawn from `seed`."""
        named = self.named if "seed" in self.named else (*self.named, "seed")
        return replace(self, settings=replace(self.settings, seed=seed), named=named)

    def limited(self, limits: Limits) -> Spec:
        """The same spec searching under `limits` instead of the limits it names."""
        nodes = ITERATIONS.name if ITERATIONS in PLAYERS[self.kind].options else "nodes"
        each = (("depth", limits.depth), ("time", limits.time), (nodes, limits.nodes))
        # time=inf: none at all
        shown = tuple(name for name, value in each if value is not None) or ("time",)
        return replace(
            self, limits=limits, named=(*(name for name in self.named if name not in NAMES), *shown)
        )


ALPHABETA = Spec("alphabeta")
"""Alpha-beta as it plays: a second a move."""


def _show(value: Value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def parse_spec(text: str) -> Spec:
    """Read `kind[:name=value,...]` (or a plugin player's reference) into a Spec, once, where people
    give it; BadPlayerSpec says what is wrong and what is allowed."""
    kind, _, rest = text.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in PLAYERS:
        if _names_plugin(text):
            return Spec(PLUGIN, reference=text)
        # the kind alone, said once
        whole = "" if kind == text.strip().lower() else f" in {quoted(text.strip(), 24)}"
        raise BadPlayerSpec(
            f"unknown player {quoted(kind, 24)}{whole}; players: {', '.join(PLAYERS)}"
        )
    allowed = {option.name: option for option in PLAYERS[kind].options}
    options: dict[str, Value] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        name, equals, value = item.partition("=")
        name = name.strip().lower()
        if name not in allowed:
            known = ", ".join(allowed) or "none"
            raise BadPlayerSpec(f"{kind} has no option {quoted(name)} (options: {known})")
        if not equals:
            raise BadPlayerSpec(f"option {name} of {kind} needs a value, e.g. {name}=...")
        if name in options:
            raise BadPlayerSpec(f"option {name} of {kind} is given twice")
        options[name] = allowed[name].read(value.strip(), f"{kind}: {name}", BadPlayerSpec)
    own = tuple(
        (name, value) for name, value in options.items() if name not in NAMES | SETTING_NAMES
    )
    return Spec(kind, given(options) or PLAY, Settings.of(options), tuple(options), own)


def _names_plugin(text: str) -> bool:
    """Whether a spec's words name a plugin player (`file.py:Class`, `package.module:Class`, or a
    name an installed package registers)."""
    from nimmax import plugins  # plugin code is loaded only when a spec names it

    name = text.strip().partition(":")[0].lower()
    return plugins.is_reference(text) or name in plugins.registered(plugins.PLAYER_GROUP)


class RandomPlayer:
    """Plays a uniformly random legal move from its own seeded generator."""

    def __init__(self, seed: int | None = None, spec: str = "random") -> None:
        self.spec = spec
        self.rng = random.Random(seed)

    def choose(self, game: AnyGame, state: Any) -> Any:
        moves = game.actions(state)  # a lazy sequence of a huge pile is drawn from, never listed
        return self.rng.choice(moves if isinstance(moves, Sequence) else list(moves))


class SearchPlayer:
    """Plays the move an engine finds; its table (MCTS: its tree) lives across the moves of
    one game, so the next search starts from what this one learnt.

    `watcher`, when given, sees every search the player makes (a live display that may
    also tell the engine to move now).
    """

    def __init__(self, spec: Spec, watcher: Watcher | None = None) -> None:
        engine = spec.engine
        if engine is None:
            raise BadPlayerSpec(
                f"{spec.kind} is not a search engine; engines: {', '.join(ENGINES)}"
            )
        self.engine, self.spec, self.parsed = engine, str(spec), spec
        self.limits, self.settings = spec.limits, spec.settings
        self.watcher = watcher
        self._table, self._table_game = self.new_table(), ""
        self._searching: AnyGame = Game()  # set with the table, for the game it is asked for
        self._asked: AnyGame | None = None

    def new_table(self) -> Kept:
        """An empty table of this player's size (none when its cache is off; MCTS: an empty
        tree)."""
        return self.engine.new_table(self.settings)

    def table_for(self, game: AnyGame) -> Kept:
        """The table for `game`: kept while the game is the same, since keys mean one game's
        positions; so is the game as its searches use it (`for_search`: m,n,k's memos)."""
        if game is not self._asked and game.spec != self._table_game:
            self._table, self._table_game, self._searching = (
                self.new_table(),
                game.spec,
                game.for_search(),
            )
        # asked again for the very same game, its spec need not be worked out again
        self._asked = game
        return self._table

    def search(
        self,
        game: AnyGame,
        state: Any,
        every_move: bool = False,
        deepen: bool | None = None,
        limits: Limits | None = None,
    ) -> SearchResult:
        """Run this player's engine on `state` under its limits, or this search's `limits` when
        given (`deepen`: see `Engine.search`)."""
        table = self.table_for(game)
        return self.engine.search(
            self._searching,
            state,
            self.limits if limits is None else limits,
            table=table,
            watcher=self.watcher,
            every_move=every_move,
            deepen=deepen,
            settings=self.settings,
        )

    def choose(self, game: AnyGame, state: Any) -> Decision:
        started = time.perf_counter()
        result = self.search(game, state)
        _overran(game, self.limits.time, time.perf_counter() - started)
        return Decision(result.move, result)


OVERRUN = 0.5
"""Seconds past a move's time limit that a plugin game's code may take before nimmax says so."""


def _overran(game: AnyGame, limit: float | None, took: float) -> None:
    """One line on stderr when a plugin game's code held a move past its time limit: nimmax cannot
    stop a plugin's call midway (a search checks its clock between the game's calls)."""
    guard = sys.modules.get("nimmax.plugins.guard")  # loaded with any plugin
    if (
        limit is None
        or took <= limit + OVERRUN
        or guard is None
        or not isinstance(game, guard.PluginGame)
    ):
        return
    from nimmax.cache import say

    say(
        f"a move took {took:.1f} s, past its limit of {limit:g} s: the plugin game's own code ran "
        "on"
    )


class HumanPlayer:
    """A person: `ask(game, state)` is supplied by the user interface that reads the moves; it
    answers a move or a command (`match.TakeBack`, `match.Abandon`), which the match acts on."""

    def __init__(
        self, ask: Callable[[AnyGame, Any], Any] | None = None, spec: str = "human"
    ) -> None:
        self.spec, self.ask = spec, ask

    def choose(self, game: AnyGame, state: Any) -> Any:
        if self.ask is None:
            raise RuntimeError("a human player needs a user interface to ask for moves")
        return self.ask(game, state)


def check_fit(spec: Spec, game: AnyGame) -> None:
    """Refuse, before play starts, a search engine that cannot honour the game's properties
    (CannotSearch)."""
    if spec.engine is not None:
        spec.engine.game_for(game, spec.settings)


def create(
    spec: Spec,
    seed: int | None = None,
    ask: Callable[[AnyGame, Any], Any] | None = None,
    watcher: Watcher | None = None,
) -> Player:
    """Build a player from its spec, e.g. create(parse_spec("alphabeta:time=0.5")); `seed` feeds
    random players (and a plugin's `seed` keyword, when its spec sets none), `ask` asks a person,
    `watcher` sees an engine's searches."""
    if spec.is_plugin:
        from nimmax import plugins

        return cast(Player, plugins.create_player(spec.reference, seed))
    if spec.kind == "human":
        return HumanPlayer(ask, str(spec))
    if spec.kind == "random":
        own = spec.settings.seed
        return RandomPlayer(own if own is not None else seed, str(spec))
    if spec.kind.startswith("openspiel-"):
        from nimmax.players import openspiel

        chosen = {"seed": seed, **spec.options} if seed is not None else spec.options
        return openspiel.create(spec.kind, str(spec), chosen)
    return SearchPlayer(spec, watcher)


def limited(spec: Spec, limits: Limits | None) -> Spec:
    """The spec under `limits` when it is a search engine's that names no limit of its own (play
    --time); any other spec, and any spec when `limits` is None, as it is."""
    if limits is None or spec.engine is None or spec.names_limits:
        return spec
    return spec.limited(limits)


def suggested(game: AnyGame) -> Spec:
    """The player nimmax suggests for `game` (the default opponent, hints, analysis): its engine's
    own spec, expectimax where chance is averaged, else alpha-beta."""
    return Spec(engine_for(game).name)
