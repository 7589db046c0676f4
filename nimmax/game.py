"""The Game protocol every nimmax game implements, and the errors games raise.

Names follow AIMA (`actions`, `result`, `is_terminal`, `utility`, `to_move`). States are
immutable and hashable; the side to move is always read from the state, never inferred by
alternation, so games with extra turns (Kalah) and chance nodes (2048) fit the same engines.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Sequence
from itertools import islice
from typing import (
    Any,
    Generic,
    Literal,
    NamedTuple,
    Protocol,
    Self,
    TypeVar,
    overload,
    runtime_checkable,
)

from nimmax.errors import BadGameSpec, BadInput, IllegalMove, quoted

__all__ = [
    "CHANCE",
    "Account",
    "REQUIRED",
    "AnyGame",
    "BadGameSpec",
    "BadInput",
    "Booked",
    "Bounded",
    "Capability",
    "Chancy",
    "Evaluated",
    "Evaluations",
    "Game",
    "IllegalMove",
    "Judged",
    "Known",
    "Narrowing",
    "Offset",
    "Ordered",
    "Seeded",
    "defined",
    "evaluator",
    "has_chance",
    "legal_text",
    "narrower",
    "ordered",
    "outcomes",
    "part",
    "seed_of",
    "winner_of",
]

CHANCE = -1
"""`to_move` answers this at a chance node, where `chance_outcomes` lists what may happen."""

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)
S_in = TypeVar("S_in", contravariant=True)
A_out = TypeVar("A_out", covariant=True)

REQUIRED = ("initial_state", "to_move", "actions", "result", "is_terminal", "utility")
"""The members every game defines; notation, `key` and `spec` have defaults, the rest are
capabilities."""


class Account(Protocol):
    """What a game's own work in a search (a proof, a book's build) is charged to: the search's
    node count, which it adds its nodes to, and the deadline (perf_counter) it must end by."""

    nodes: int

    @property
    def deadline(self) -> float:
        """The perf_counter time the work must end by."""


class Capability(enum.Enum):
    """An optional part of the protocol, which a game declares in `capabilities` (OpenSpiel's
    GameType): engines read the declaration (`part`) before they rely on the member it names."""

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
    """Rules of one game: every game defines REQUIRED; notation, `key` and `spec` have defaults, and
    each capability it declares brings that capability's members (`Ordered`, `Booked`, ...).

    Payoffs are whole numbers (+1/0/-1 for won/drawn/lost games, points where a game
    scores); `players` is 1 or 2, and two-player games are zero-sum, which the engines use.
    """

    name: str = "game"
    player_names: tuple[str, ...] = ("First", "Second")
    players: int = 2
    capabilities: frozenset[Capability] = frozenset()
    """The optional parts this game implements; an instance may narrow or extend its class's set."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        """A class saying `has_chance = True` (or False) declares CHANCE (or its absence) in its
        capabilities."""
        super().__init_subclass__(**kwargs)
        said = cls.__dict__.get("has_chance")
        if isinstance(said, bool):
            delattr(cls, "has_chance")
            cls.capabilities = _with_chance(cls.capabilities, said)

    @property
    def spec(self) -> str:
        """The words that rebuild this game with `nimmax.games.create` (a game with parameters says
        them)."""
        return self.name

    def for_search(self) -> Self:
        """The game as one search uses it: a game remembering answers across a search's nodes gives
        a copy holding memos of its own, which the search (or a player keeping it across its moves,
        like its table) owns; such a copy, or any other game, gives itself (a wrapper that forwards
        attributes to a game answers it itself, or the search takes the inner game's copy)."""
        return self

    def initial_state(self) -> S:
        """The position the game starts from."""
        raise NotImplementedError

    def to_move(self, state: S) -> int:
        """Seat to move (0, 1, ...) or CHANCE, read from the state."""
        raise NotImplementedError

    def actions(self, state: S) -> Sequence[A]:
        """Legal moves, the likeliest good ones first (engines search them in this order)."""
        raise NotImplementedError

    def result(self, state: S, action: A) -> S:
        """The position after `action`; raises IllegalMove when it is not legal."""
        raise NotImplementedError

    def is_terminal(self, state: S) -> bool:
        """True when the game is over."""
        raise NotImplementedError

    def utility(self, state: S, player: int) -> float:
        """Final payoff of a terminal state for `player`."""
        raise NotImplementedError

    def key(self, state: S) -> Hashable:
        """Canonical table key: positions with the same key have the same value for the mover."""
        return state

    def parse_move(self, text: str, state: S) -> A:
        """Read a move typed by a person; IllegalMove names the legal moves."""
        wanted = text.strip().lower()
        for action in self.actions(state):
            if self.format_move(action).lower() == wanted:
                return action
        raise IllegalMove(
            f"{quoted(text.strip())} is not a legal move; legal: {legal_text(self, state)}"
        )

    def format_move(self, action: A) -> str:
        """The canonical notation of a move."""
        return str(action)

    def format_position(self, state: S) -> str:
        """The position in the notation `--position` reads."""
        return str(state)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec!r}>"


# The capabilities' members. A game declaring a capability defines its members (it need not subclass
# these); engines reach them through `part` once per search, never by probing.


class Ordered(Protocol[S_in, A_out]):
    """SEARCH_ORDER: the moves a pruning search must try, best first."""

    def search_actions(self, state: S_in) -> Sequence[A_out]:
        """All of `actions` unless the game can prove that fewer give the same value at the same
        distance to the end (m,n,k: a move that wins at once, or the block of the opponent's
        immediate win). Engines that prune use it; plain minimax and every root move keep
        `actions`."""
        ...


class Narrowing(Protocol[S_in, A_out]):
    """NARROWING: the few promising moves a limited search tries."""

    def heuristic_actions(self, state: S_in) -> Sequence[A_out] | None:
        """The moves near what matters (m,n,k on a big board: the cells near the stones), or None to
        try them all. A search that takes them leaves moves out, so it proves no value below."""
        ...


class Bounded(Protocol[S_in]):
    """BOUNDS: the payoff range still reachable."""

    def utility_bounds(self, state: S_in) -> tuple[float, float] | None:
        """The least and the most `utility` can give the side to move at any end reached from
        `state` (and `evaluate` on the way), or None; a search cuts a node whose range lies outside
        its window."""
        ...


class Booked(Protocol[S_in]):
    """BOOK: positions whose value a book (an opening or endgame database, a theory) knows."""

    def book(self, state: S_in) -> Known | None:
        """What the book knows of `state`, or None; engines read a hit as a proven table entry."""
        ...


class Offset(Protocol[S_in]):
    """OFFSET_KEY: a key on part of the state, and the payoff the rest has banked."""

    def keyed(self, state: S_in) -> tuple[Hashable, float]:
        """The key and the banked payoff for the side to move (Kalah: the pits, and the mover's
        store lead): states with equal keys have values equal but for their offsets, at the same
        distance to the end, so engines store a value less the offset and share it."""
        ...


class Chancy(Protocol[S_in, A_out]):
    """CHANCE: chance nodes, where `to_move` is CHANCE."""

    def chance_outcomes(self, state: S_in) -> Sequence[tuple[float, A_out]]:
        """`(probability, outcome)` pairs at a CHANCE node; `result` applies an outcome."""
        ...


class Evaluated(Protocol[S_in]):
    """EVALUATION: a heuristic payoff at a search's horizon."""

    def evaluate(self, state: S_in, player: int) -> float:
        """The estimated payoff for `player` (a game without one is neutral: 0)."""
        ...


@runtime_checkable
class Evaluations(Protocol):
    """A game with several evaluations, which an engine's `eval=` chooses among (2048)."""

    evaluations: tuple[str, ...]

    def evaluated(self, name: str) -> Game[Any, Any]:
        """This game valued at a horizon by the evaluation `name`, one of `evaluations`."""
        ...


@runtime_checkable
class Seeded(Protocol):
    """A game with chance that says which seed play draws its outcomes with (2048's `--seed`)."""

    seed: int | None


@runtime_checkable
class Charged(Protocol):
    """A game whose search copy does work of its own (a proof, a book's build) that a search pays
    for."""

    def charge(self, account: Account | None) -> None:
        """Charge that work to `account`, a search's: its nodes counted there, ended once its
        deadline passes; None: to nothing."""
        ...


@runtime_checkable
class Judged(Protocol):
    """A game whose winner is not the seat with the best payoff (2048: whoever made the goal
    tile)."""

    def winner(self, state: Any) -> int | None:
        """Seat that won a terminal state, or None."""
        ...


AnyGame = Game[Any, Any]


@overload
def part(
    game: Game[S, A], capability: Literal[Capability.SEARCH_ORDER]
) -> Ordered[S, A] | None: ...
@overload
def part(game: Game[S, A], capability: Literal[Capability.NARROWING]) -> Narrowing[S, A] | None: ...
@overload
def part(game: Game[S, A], capability: Literal[Capability.BOUNDS]) -> Bounded[S] | None: ...
@overload
def part(game: Game[S, A], capability: Literal[Capability.BOOK]) -> Booked[S] | None: ...
@overload
def part(game: Game[S, A], capability: Literal[Capability.OFFSET_KEY]) -> Offset[S] | None: ...
@overload
def part(game: Game[S, A], capability: Literal[Capability.CHANCE]) -> Chancy[S, A] | None: ...
@overload
def part(game: Game[S, A], capability: Literal[Capability.EVALUATION]) -> Evaluated[S] | None: ...
def part(game: AnyGame, capability: Capability) -> Any:
    """The game as the capability's members, where it declares it and defines them; else None (the
    caller refuses, or goes without). Read once per search: bind what it gives, never ask per
    node."""
    return game if capability in game.capabilities and hasattr(game, capability.member) else None


def has_chance(game: AnyGame) -> bool:
    """Whether the game has chance nodes: CHANCE among its capabilities."""
    return Capability.CHANCE in game.capabilities


def ordered(game: Game[S, A]) -> Callable[[S], Sequence[A]]:
    """The moves a pruning search tries: `search_actions` where declared, else `actions`."""
    own = part(game, Capability.SEARCH_ORDER)
    return own.search_actions if own is not None else game.actions


def evaluator(game: Game[S, A]) -> Callable[[S, int], float]:
    """The payoff estimate at a horizon: `evaluate` where declared, else neutral."""
    own = part(game, Capability.EVALUATION)
    return own.evaluate if own is not None else _neutral


def narrower(game: Game[S, A]) -> Callable[[S], Sequence[A] | None]:
    """A limited search's few moves: `heuristic_actions` where declared, else none (None: every
    move)."""
    own = part(game, Capability.NARROWING)
    return own.heuristic_actions if own is not None else _every


def charge(game: AnyGame, account: Account | None) -> None:
    """Charge a game's own work in a search to `account` where it does any (`Charged`)."""
    if isinstance(game, Charged):
        game.charge(account)


def seed_of(game: AnyGame) -> int | None:
    """The seed a game with chance asks play to draw its outcomes with (`Seeded`), or None: the
    caller's."""
    return game.seed if isinstance(game, Seeded) and has_chance(game) else None


def outcomes(game: Game[S, A], state: S) -> Sequence[tuple[float, A]]:
    """`chance_outcomes` at a chance node of a game declaring CHANCE (BadGameSpec for one that does
    not)."""
    own = part(game, Capability.CHANCE)
    if own is None:
        raise BadGameSpec(f"{game.name} has no chance nodes")
    return own.chance_outcomes(state)


def legal_text(game: Game[S, A], state: S, limit: int = 40) -> str:
    """The legal moves as one line, for error messages and prompts."""
    actions = game.actions(state)
    shown = ", ".join(game.format_move(action) for action in islice(actions, limit))
    return shown + (f", ... ({len(actions)} in all)" if len(actions) > limit else "")


def winner_of(game: Game[S, A], state: S) -> int | None:
    """Seat that won a terminal state, or None for a draw: the game's own judgement (`Judged`),
    else the seat with the best payoff (in a one-player game, any positive one)."""
    if isinstance(game, Judged):
        return game.winner(state)
    payoffs = [game.utility(state, seat) for seat in range(game.players)]
    best = max(payoffs)
    if game.players == 1:
        return 0 if best > 0 else None
    return None if payoffs.count(best) > 1 else payoffs.index(best)


def _neutral(state: object, player: int) -> float:
    return 0.0


def _every(state: object) -> None:
    return None


def _with_chance(capabilities: frozenset[Capability], chance: bool) -> frozenset[Capability]:
    return capabilities | {Capability.CHANCE} if chance else capabilities - {Capability.CHANCE}


def defined(cls: type[AnyGame]) -> frozenset[Capability]:
    """The capabilities whose member `cls` defines: what a plugin offers (it declares chance itself,
    with `has_chance`), and what `check` compares with a game's declaration."""
    return frozenset(
        capability for capability in Capability if callable(getattr(cls, capability.member, None))
    )
