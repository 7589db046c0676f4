"""Players and the player-spec parser shared by play, duel, solve and bench ("alphabeta:depth=4,time=0.5").

A player is small and swappable: `choose(game, state)` returns a move, or a `Decision`
carrying the move with the search behind it, so the play loop, duels and hints receive the
engine's figures as a value.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from nimmax.game import AnyGame, BadInput
from nimmax.numbers import MAX_SEED, parse_float, parse_int, quoted
from nimmax.search import ENGINES, ITERATIONS, LIMITS, Engine, Option, SearchResult, Watcher, defaults
from nimmax.search.engines import Kept
from nimmax.search.mcts import ROLLOUTS


class BadPlayerSpec(BadInput):
    """A player spec that names no player or gives it a bad option."""


@dataclass(frozen=True)
class Decision:
    """A player's move, with the search that chose it when there was one."""

    move: Any
    search: SearchResult | None = None


class Player(Protocol):
    """Anything that picks a move: a bare move or a Decision."""

    spec: str

    def choose(self, game: AnyGame, state: Any) -> Any: ...


def decide(player: Player, game: AnyGame, state: Any) -> Decision:
    """Ask `player` for its move at `state`, as a Decision whatever it returned."""
    chosen = player.choose(game, state)
    return chosen if isinstance(chosen, Decision) else Decision(chosen)


OPTIONS: dict[str, tuple[Option, ...]] = {
    "human": (),
    "random": (Option("seed", int, None, "seed of the player's own random moves"),),
    **{name: engine.options for name, engine in ENGINES.items()},
}
"""Each player kind's options: human and random, then every engine of the registry."""

SUMMARIES: dict[str, str] = {
    "human": "you, typing moves at the prompt",
    "random": "a uniformly random legal move",
    **{name: engine.summary for name, engine in ENGINES.items()},
}
"""What each player kind is, in one line."""


@dataclass(frozen=True)
class Spec:
    """A parsed player spec: the kind of player and the options given (typed)."""

    kind: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        shown = ",".join(f"{name}={_show(value)}" for name, value in self.options.items())
        return f"{self.kind}:{shown}" if shown else self.kind

    @property
    def engine(self) -> Engine | None:
        """The search engine this spec names; None for human and random players."""
        return ENGINES.get(self.kind)

    @property
    def settings(self) -> dict[str, Any]:
        """Every option of this kind of player: those given, and the defaults of the rest
        (for an engine, with its limits read as `search.limits` reads them)."""
        engine = self.engine
        if engine is not None:
            return engine.settings(self.options)
        return {**defaults(OPTIONS[self.kind]), **self.options}

    def with_options(self, **options: Any) -> Spec:
        """The same spec with some options set (None values are left out)."""
        given = {name: value for name, value in options.items() if value is not None}
        return Spec(self.kind, {**self.options, **given})


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


RANGES: Mapping[str, tuple[float, float]] = {
    "depth": (1, 10**6),
    "time": (0.001, 10**6),
    "nodes": (1, 10**12),
    "table": (1, 10**8),
    "cutoff": (0, 1),
    "seed": (0, MAX_SEED),
    "iterations": (1, 10**12),
    "c": (0, 100),
}
"""The values each numeric option takes, lowest and highest: far beyond any real setting, and
short of where a number stops meaning what it says (a depth past 2**30 plies outruns the mark a
proven table entry carries, which silently turns the table off). 10**8 entries is about 20 GB
of table; `cutoff=0` cuts nothing off; `c=0` is MCTS without exploration; `time=inf` lifts the
time limit (UNLIMITED)."""

CHOICES: Mapping[str, tuple[str, ...]] = {"rollout": ROLLOUTS}
"""The words each option of words takes."""

UNLIMITED = frozenset({"time"})
"""Options that also take `inf`, for no limit at all."""

_SWITCHES = {"on": True, "true": True, "yes": True, "1": True, "off": False, "false": False, "no": False, "0": False}


def parse_spec(text: str) -> Spec:
    """Read `kind[:name=value,...]`; BadPlayerSpec says what is wrong and what is allowed."""
    kind, _, rest = text.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in OPTIONS:
        raise BadPlayerSpec(f"unknown player {quoted(kind)} in {quoted(text.strip())}; players: {', '.join(OPTIONS)}")
    allowed = {option.name: option for option in OPTIONS[kind]}
    options: dict[str, Any] = {}
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
        options[name] = _option_value(kind, allowed[name], value.strip())
    return Spec(kind, options)


def _option_value(kind: str, option: Option, text: str) -> Any:
    """One option's value, read by `numbers` within the option's RANGES; a switch is on or off."""
    field = f"{kind}: {option.name}"
    if option.kind is str:
        choices = CHOICES[option.name]
        if text.lower() not in choices:
            raise BadPlayerSpec(f"{field} is {' or '.join(choices)}, not {quoted(text)}")
        return text.lower()
    if option.kind is bool:
        if text.lower() not in _SWITCHES:
            raise BadPlayerSpec(f"{field} is on or off, not {quoted(text)}")
        return _SWITCHES[text.lower()]
    low, high = RANGES[option.name]
    if option.kind is int:
        return parse_int(text, field, int(low), int(high), BadPlayerSpec)
    return parse_float(text, field, low, high, BadPlayerSpec, or_inf=option.name in UNLIMITED)


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
            raise BadPlayerSpec(f"{spec.kind} is not a search engine; engines: {', '.join(ENGINES)}")
        self.engine, self.spec = engine, str(spec)
        self.options = spec.settings
        self.watcher = watcher
        self._table, self._table_game = self.new_table(), ""

    def new_table(self) -> Kept:
        """An empty table of this player's size (none when its cache is off; MCTS: an empty tree)."""
        return self.engine.table(self.options)

    def table_for(self, game: AnyGame) -> Kept:
        """The table for `game`: kept while the game is the same, since keys mean one game's positions."""
        if game.spec != self._table_game:
            self._table, self._table_game = self.new_table(), game.spec
        return self._table

    def search(self, game: AnyGame, state: Any, every_move: bool = False, deepen: bool | None = None) -> SearchResult:
        """Run this player's engine on `state` with its options (`deepen`: see `Engine.search`)."""
        return self.engine.search(game, state, self.options, self.table_for(game), every_move, deepen, self.watcher)

    def choose(self, game: AnyGame, state: Any) -> Decision:
        result = self.search(game, state)
        return Decision(result.move, result)


class HumanPlayer:
    """A person: `ask(game, state)` is supplied by the user interface that reads the moves."""

    def __init__(self, ask: Callable[[AnyGame, Any], Any] | None = None, spec: str = "human") -> None:
        self.spec, self.ask = spec, ask

    def choose(self, game: AnyGame, state: Any) -> Any:
        if self.ask is None:
            raise RuntimeError("a human player needs a user interface to ask for moves")
        return self.ask(game, state)


def is_plugin(spec: str | Spec) -> bool:
    """Whether a spec names a plugin player (`file.py:Class`, `package.module:Class`, or a name an
    installed package registers) rather than one of nimmax's own."""
    if not isinstance(spec, str):
        return False
    name = spec.strip().partition(":")[0].lower()
    if name in OPTIONS:
        return False
    from nimmax import plugins  # plugin code is loaded only when a spec names it

    return plugins.is_reference(spec) or name in plugins.registered(plugins.PLAYER_GROUP)


def check_fit(spec: str | Spec, game: AnyGame) -> None:
    """Refuse, before play starts, a search engine that cannot honour the game's properties (CannotSearch)."""
    if is_plugin(spec):
        return
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    if parsed.engine is not None:
        parsed.engine.game_for(game, parsed.settings)


def create(
    spec: str | Spec,
    seed: int | None = None,
    ask: Callable[[AnyGame, Any], Any] | None = None,
    watcher: Watcher | None = None,
) -> Player:
    """Build a player from its spec, e.g. create("alphabeta:time=0.5"); `seed` feeds random
    players (and a plugin's `seed` keyword, when its spec sets none), `ask` asks a person,
    `watcher` sees an engine's searches."""
    if is_plugin(spec):
        from nimmax import plugins

        return cast(Player, plugins.create_player(str(spec), seed))
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    if parsed.kind == "human":
        return HumanPlayer(ask, str(parsed))
    if parsed.kind == "random":
        return RandomPlayer(parsed.options.get("seed", seed), str(parsed))
    return SearchPlayer(parsed, watcher)


def timed(spec: str | Spec, seconds: float | None) -> str:
    """The spec with `time=seconds` when it is a search engine's that sets no limit of its own
    (play --time); other specs, and any spec when `seconds` is None, are returned as they are."""
    if is_plugin(spec):
        return str(spec)
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    limited = {limit.name for limit in LIMITS} | {ITERATIONS.name}
    if seconds is None or parsed.engine is None or limited & set(parsed.options):
        return str(parsed) if isinstance(spec, Spec) else spec
    return str(parsed.with_options(time=seconds))
