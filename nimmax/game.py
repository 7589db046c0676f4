"""The Game protocol every nimmax game implements, and the errors games raise.

Names follow AIMA (`actions`, `result`, `is_terminal`, `utility`, `to_move`). States are
immutable and hashable; the side to move is always read from the state, never inferred by
alternation, so games with extra turns (Kalah) and chance nodes (2048) fit the same engines.
"""

from __future__ import annotations

import enum
import shlex
from collections.abc import Hashable, Sequence
from itertools import islice
from typing import Any, Generic, NamedTuple, Protocol, Self, TypeVar

from nimmax.errors import BadGameSpec, BadInput, IllegalMove
from nimmax.numbers import quoted

__all__ = [
    "CHANCE",
    "Account",
    "REQUIRED",
    "AnyGame",
    "BadGameSpec",
    "BadInput",
    "Capability",
    "Game",
    "IllegalMove",
    "Known",
    "defined",
]

CHANCE = -1
"""`to_move` answers this at a chance node, where `chance_outcomes` lists what may happen."""

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

REQUIRED = ("initial_state", "to_move", "actions", "result", "is_terminal", "utility")
"""The members every game defines; notation has defaults, and the rest are capabilities."""


class Account(Protocol):
    """What a game's own work in a search (a proof, a book's build) is charged to: the search's
    node count, which it adds its nodes to, and the deadline (perf_counter) it must end by."""

    nodes: int

    @property
    def deadline(self) -> float:
        """The perf_counter time the work must end by."""


class Capability(enum.Enum):
    """An optional part of the protocol, which a game declares in `capabilities` (OpenSpiel's
    GameType): engines read the declaration before they rely on the member it names."""

    SEARCH_ORDER = "search_actions"
    NARROWING = "heuristic_actions"
    EVALUATION = "evaluate"
    BOUNDS = "utility_bounds"
    BOOK = "book"
    OFFSET_KEY = "keyed"
    CHANCE = "chance_outcomes"

    @property
    def member(self) -> str:
        """The Game member this capability declares."""
        return self.value


class Known(NamedTuple):
    """A position's value as a book (an opening or endgame database) knows it: the payoff for
    the side to move, the plies to the end, and whether those plies are exact (else they are
    the most the game can last from there: the book knows the payoff alone)."""

    payoff: float
    plies: int
    exact: bool


class Game(Generic[S, A]):
    """Rules of one game: every game defines REQUIRED, and the members of the capabilities it declares.

    Payoffs are whole numbers (+1/0/-1 for won/drawn/lost games, points where a game
    scores); `players` is 1 or 2, and two-player games are zero-sum, which the engines use.
    """

    name: str = "game"
    player_names: tuple[str, ...] = ("First", "Second")
    players: int = 2
    capabilities: frozenset[Capability] = frozenset()
    """The optional members this game implements; an instance may narrow or extend its class's set."""
    seed: int | None = None
    """Seed for drawing chance outcomes when the game is played (2048's `--seed`); None: the caller's."""
    evaluations: tuple[str, ...] = ()
    """The evaluations an engine's `eval=` may choose among (`evaluated`); empty: `evaluate` alone."""
    words: tuple[str, ...] = ()
    """The words that built a plugin game, its reference first (set when nimmax loads it)."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        """A class saying `has_chance = True` (or False) declares CHANCE (or its absence) in its capabilities."""
        super().__init_subclass__(**kwargs)
        said = cls.__dict__.get("has_chance")
        if isinstance(said, bool):
            delattr(cls, "has_chance")
            cls.capabilities = _with_chance(cls.capabilities, said)

    @property
    def has_chance(self) -> bool:
        """Whether the game has chance nodes: CHANCE among its capabilities."""
        return Capability.CHANCE in self.capabilities

    @has_chance.setter
    def has_chance(self, chance: bool) -> None:
        self.capabilities = _with_chance(self.capabilities, chance)

    @property
    def spec(self) -> str:
        """The words that rebuild this game with `nimmax.games.create`."""
        return shlex.join(self.words) if self.words else self.name

    def for_search(self) -> Self:
        """The game as one search uses it: a game remembering answers across a search's nodes
        gives a copy holding memos of its own, which the search (or a player keeping it across its
        moves, like its table) owns; such a copy, or any other game, gives itself (a wrapper that
        forwards attributes to a game answers it itself, or the search takes the inner game's copy)."""
        return self

    def charge(self, account: Account | None) -> None:
        """Charge the work this search copy does of its own (a proof, a book's build) to `account`,
        a search's: its nodes counted there, ended once its deadline passes; None: to nothing."""

    def initial_state(self) -> S:
        """The position the game starts from."""
        raise NotImplementedError

    def to_move(self, state: S) -> int:
        """Seat to move (0, 1, ...) or CHANCE, read from the state."""
        raise NotImplementedError

    def actions(self, state: S) -> Sequence[A]:
        """Legal moves, the likeliest good ones first (engines search them in this order)."""
        raise NotImplementedError

    def search_actions(self, state: S) -> Sequence[A]:
        """The moves a search must try, best first: all of `actions` unless the game can prove
        that fewer give the same value at the same distance to the end (m,n,k: a move that
        wins at once, or the block of the opponent's immediate win). Engines that prune use it;
        plain minimax and every root move keep `actions`."""
        return self.actions(state)

    def heuristic_actions(self, state: S) -> Sequence[A] | None:
        """The few moves a limited search tries where the game knows which are promising (m,n,k
        on a big board: the cells near the stones), or None to try `search_actions` (also where
        they would leave no move out). A search that takes them leaves moves out, so it reports
        no value that depends on them as proven."""
        return None

    def utility_bounds(self, state: S) -> tuple[float, float] | None:
        """The least and the most `utility` can give the side to move at any end reached from
        `state` (and `evaluate` at any position on the way), or None where the game knows none.
        A search that proves a node's value lies outside its window cuts it there, exactly."""
        return None

    def book(self, state: S) -> Known | None:
        """What a book knows of `state` (its payoff, and plies to the end), or None. Engines ask
        only a game declaring BOOK, and read a hit as a proven table entry."""
        return None

    def result(self, state: S, action: A) -> S:
        """The position after `action`; raises IllegalMove when it is not legal."""
        raise NotImplementedError

    def is_terminal(self, state: S) -> bool:
        """True when the game is over."""
        raise NotImplementedError

    def utility(self, state: S, player: int) -> float:
        """Final payoff of a terminal state for `player`."""
        raise NotImplementedError

    def chance_outcomes(self, state: S) -> Sequence[tuple[float, A]]:
        """`(probability, outcome)` pairs at a CHANCE node; `result` applies an outcome."""
        raise NotImplementedError(f"{self.name} has no chance nodes")

    def evaluate(self, state: S, player: int) -> float:
        """Heuristic payoff estimate for `player` at a search horizon; neutral by default."""
        return 0.0

    def evaluated(self, name: str) -> Self:
        """This game valued at a horizon by the evaluation `name`, one of `evaluations`."""
        raise BadGameSpec(f"{self.name} has no evaluation {name!r}")

    def key(self, state: S) -> Hashable:
        """Canonical table key: positions with the same key have the same value for the mover."""
        return state

    def keyed(self, state: S) -> tuple[Hashable, float]:
        """A table key on part of the state and the payoff the rest banks for the side to move (Kalah:
        the pits, and the mover's store lead): states with equal keys have values equal but for
        their offsets, at the same distance to the end. Engines ask only a game declaring OFFSET_KEY,
        and store a value under the key less the offset, to share it among states that differ only
        in what is banked."""
        return self.key(state), 0.0

    def parse_move(self, text: str, state: S) -> A:
        """Read a move typed by a person; IllegalMove names the legal moves."""
        wanted = text.strip().lower()
        for action in self.actions(state):
            if self.format_move(action).lower() == wanted:
                return action
        raise IllegalMove(f"{quoted(text.strip())} is not a legal move; legal: {self.legal_text(state)}")

    def format_move(self, action: A) -> str:
        """The canonical notation of a move."""
        return str(action)

    def format_position(self, state: S) -> str:
        """The position in the notation `--position` reads."""
        return str(state)

    def winner(self, state: S) -> int | None:
        """Seat with the best payoff at a terminal state, or None for a draw."""
        payoffs = [self.utility(state, seat) for seat in range(self.players)]
        best = max(payoffs)
        if self.players == 1:
            return 0 if best > 0 else None
        return None if payoffs.count(best) > 1 else payoffs.index(best)

    def legal_text(self, state: S, limit: int = 40) -> str:
        """The legal moves as one line, for error messages and prompts."""
        actions = self.actions(state)
        shown = ", ".join(self.format_move(action) for action in islice(actions, limit))
        return shown + (f", ... ({len(actions)} in all)" if len(actions) > limit else "")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec!r}>"


AnyGame = Game[Any, Any]


def _with_chance(capabilities: frozenset[Capability], chance: bool) -> frozenset[Capability]:
    return capabilities | {Capability.CHANCE} if chance else capabilities - {Capability.CHANCE}


def defined(cls: type[AnyGame]) -> frozenset[Capability]:
    """The capabilities whose member `cls` defines rather than keeping Game's default: what a
    plugin offers (it declares chance itself, with `has_chance`), and what `check` compares with
    a game's declaration."""
    return frozenset(
        capability
        for capability in Capability
        if getattr(cls, capability.member) is not getattr(Game, capability.member)
    )
