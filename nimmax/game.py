"""The Game protocol every nimmax game implements, and the errors games raise.

Names follow AIMA (`actions`, `result`, `is_terminal`, `utility`, `to_move`). States are
immutable and hashable; the side to move is always read from the state, never inferred by
alternation, so games with extra turns (Kalah) and chance nodes (2048) fit the same engines.
"""

from __future__ import annotations

import shlex
from collections.abc import Hashable, Sequence
from itertools import islice
from typing import Any, Generic, NamedTuple, TypeVar

CHANCE = -1
"""`to_move` answers this at a chance node, where `chance_outcomes` lists what may happen."""

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


class BadInput(ValueError):
    """Anything a user typed that nimmax cannot use; the CLI shows the message and exits 2."""


class IllegalMove(BadInput):
    """A move that is not legal in the position, or text that names no move."""


class BadGameSpec(BadInput):
    """Game words that build no game: unknown name, bad option, impossible position."""


class Known(NamedTuple):
    """A position's value as a book (an opening or endgame database) knows it: the payoff for
    the side to move, the plies to the end, and whether those plies are exact (else they are
    the most the game can last from there: the book knows the payoff alone)."""

    payoff: float
    plies: int
    exact: bool


class Game(Generic[S, A]):
    """Rules of one game; subclasses override the members below.

    Payoffs are whole numbers (+1/0/-1 for won/drawn/lost games, points where a game
    scores); `players` is 1 or 2, and two-player games are zero-sum, which the engines use.
    """

    name: str = "game"
    player_names: tuple[str, ...] = ("First", "Second")
    players: int = 2
    has_chance: bool = False
    seed: int | None = None
    """Seed for drawing chance outcomes when the game is played (2048's `--seed`); None: the caller's."""
    words: tuple[str, ...] = ()
    """The words that built a plugin game, its reference first (set when nimmax loads it)."""

    @property
    def spec(self) -> str:
        """The words that rebuild this game with `nimmax.games.create`."""
        return shlex.join(self.words) if self.words else self.name

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
        """What a book knows of `state` (its payoff, and plies to the end), or None. A declared
        capability: engines ask only a game that overrides it, and read a hit as a proven
        table entry."""
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

    def key(self, state: S) -> Hashable:
        """Canonical table key: positions with the same key have the same value for the mover."""
        return state

    def parse_move(self, text: str, state: S) -> A:
        """Read a move typed by a person; IllegalMove names the legal moves."""
        from nimmax.numbers import quoted  # numbers imports this module for BadInput

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


def overrides(game: Any, member: str) -> bool:
    """Whether `game` (or a wrapper of it) has `member` of its own rather than Game's default:
    an engine asks once per search, so a game keeping the default costs it no call a node."""
    own = getattr(game, member, None)
    return own is not None and getattr(own, "__func__", own) is not getattr(Game, member)
