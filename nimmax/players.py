"""Players and the player-spec parser shared by play, duel and solve ("alphabeta:depth=4,time=0.5").

A player is small and swappable: `choose(game, state)` returns a move, and a search-backed
player leaves its last SearchResult readable as `last`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from nimmax.game import AnyGame, BadInput
from nimmax.search import SearchResult, Table
from nimmax.search.alphabeta import alphabeta
from nimmax.search.expectimax import expectimax
from nimmax.search.minimax import minimax, negamax


class BadPlayerSpec(BadInput):
    """A player spec that names no player or gives it a bad option."""


class Player(Protocol):
    """Anything that picks a move; `last` is its last search, when it searches."""

    spec: str
    last: SearchResult | None

    def choose(self, game: AnyGame, state: Any) -> Any: ...


ENGINES: dict[str, Callable[..., SearchResult]] = {
    "minimax": minimax,
    "negamax": negamax,
    "alphabeta": alphabeta,
    "expectimax": expectimax,
}
"""The search engines by player name; each takes depth, time, nodes, table and every_move."""

KINDS = ("human", "random", *ENGINES)

_SEARCH_OPTIONS: dict[str, type] = {"depth": int, "time": float, "nodes": int, "cache": bool, "table": int}

_OPTIONS: dict[str, dict[str, type]] = {
    "human": {},
    "random": {"seed": int},
    "minimax": _SEARCH_OPTIONS,
    "negamax": _SEARCH_OPTIONS,
    "alphabeta": _SEARCH_OPTIONS,
    "expectimax": {**_SEARCH_OPTIONS, "cutoff": float},
}
"""Each player kind's options; expectimax's `cutoff` is the least probability of reaching a
node that is still searched."""


def option_names(kind: str) -> tuple[str, ...]:
    """The options a player kind's spec accepts."""
    return tuple(_OPTIONS[kind])


@dataclass(frozen=True)
class Spec:
    """A parsed player spec: the kind of player and its options."""

    kind: str
    options: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        shown = ",".join(f"{name}={_show(value)}" for name, value in self.options.items())
        return f"{self.kind}:{shown}" if shown else self.kind


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def parse_spec(text: str) -> Spec:
    """Read `kind[:name=value,...]`; BadPlayerSpec says what is wrong and what is allowed."""
    kind, _, rest = text.strip().partition(":")
    kind = kind.lower()
    if kind not in _OPTIONS:
        raise BadPlayerSpec(f"unknown player {kind!r} in {text!r}; players: {', '.join(KINDS)}")
    allowed = _OPTIONS[kind]
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        name, equals, value = item.partition("=")
        name = name.strip().lower()
        if name not in allowed:
            known = ", ".join(allowed) or "none"
            raise BadPlayerSpec(f"{kind} has no option {name!r} (options: {known})")
        if not equals:
            raise BadPlayerSpec(f"option {name!r} of {kind} needs a value, e.g. {name}=...")
        options[name] = _option_value(kind, name, allowed[name], value.strip())
    return Spec(kind, options)


def _option_value(kind: str, name: str, wanted: type, text: str) -> Any:
    if wanted is bool:
        if text.lower() not in ("on", "off", "true", "false", "yes", "no", "1", "0"):
            raise BadPlayerSpec(f"{kind}: {name} is on or off, not {text!r}")
        return text.lower() in ("on", "true", "yes", "1")
    try:
        number = wanted(text)
    except ValueError:
        raise BadPlayerSpec(f"{kind}: {name} must be a number, not {text!r}") from None
    if name != "seed" and not number > 0:
        raise BadPlayerSpec(f"{kind}: {name} must be positive, not {text!r}")
    return number


class RandomPlayer:
    """Plays a uniformly random legal move from its own seeded generator."""

    def __init__(self, seed: int | None = None, spec: str = "random") -> None:
        self.spec = spec
        self.last: SearchResult | None = None
        self.rng = random.Random(seed)

    def choose(self, game: AnyGame, state: Any) -> Any:
        return self.rng.choice(list(game.actions(state)))


class SearchPlayer:
    """Plays the move an engine finds; its table lives across the moves of one game."""

    def __init__(self, engine: str, spec: str, **options: Any) -> None:
        self.engine, self.spec = engine, spec
        self.last: SearchResult | None = None
        self.depth: int | None = options.get("depth")
        self.time: float | None = options.get("time")
        self.nodes: int | None = options.get("nodes")
        self.cache: bool = options.get("cache", engine != "minimax" and engine != "negamax")
        self.capacity: int = options.get("table", 1_000_000) if self.cache else 0
        self.cutoff: float | None = options.get("cutoff")
        self._table, self._table_game = Table(self.capacity), ""

    def table_for(self, game: AnyGame) -> Table:
        """The table for `game`: kept while the game is the same, since keys mean one game's positions."""
        if game.spec != self._table_game:
            self._table, self._table_game = Table(self.capacity), game.spec
        return self._table

    def search(self, game: AnyGame, state: Any, every_move: bool = False) -> SearchResult:
        """Run this player's engine on `state` with its limits."""
        limits: dict[str, Any] = {"depth": self.depth, "time": self.time, "nodes": self.nodes}
        if self.engine in ("minimax", "negamax"):
            limits["cache"] = self.cache
        if self.cutoff is not None:
            limits["cutoff"] = self.cutoff
        search = ENGINES[self.engine]
        self.last = search(game, state, table=self.table_for(game), every_move=every_move, **limits)
        return self.last

    def choose(self, game: AnyGame, state: Any) -> Any:
        return self.search(game, state).move


class HumanPlayer:
    """A person: `ask(game, state)` is supplied by the user interface that reads the moves."""

    def __init__(self, ask: Callable[[AnyGame, Any], Any] | None = None, spec: str = "human") -> None:
        self.spec, self.ask = spec, ask
        self.last: SearchResult | None = None

    def choose(self, game: AnyGame, state: Any) -> Any:
        if self.ask is None:
            raise RuntimeError("a human player needs a user interface to ask for moves")
        return self.ask(game, state)


def create(spec: str | Spec, seed: int | None = None, ask: Callable[[AnyGame, Any], Any] | None = None) -> Player:
    """Build a player from its spec, e.g. create("alphabeta:time=0.5"); `seed` feeds random players."""
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    text = str(parsed)
    if parsed.kind == "human":
        return HumanPlayer(ask, text)
    if parsed.kind == "random":
        return RandomPlayer(parsed.options.get("seed", seed), text)
    return SearchPlayer(parsed.kind, text, **parsed.options)
