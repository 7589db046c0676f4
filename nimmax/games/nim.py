"""The Nim family: Simple-Nim (one pile, take 1-3), Nim (several piles), Split-Nim (Grundy's game).

All three are impartial: both seats have the same moves, so a position's value for the side
to move depends on the piles alone, and the table key leaves the seat out.

A pile may hold a billion counters, so the moves are lazy sequences (`Moves`): starting to
iterate, measuring them and testing a move's membership cost O(1) whatever the piles, and
the winning move, where theory names one cheaply (Bouton for Nim, the period for Simple-Nim),
comes first.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from functools import cache
from typing import NamedTuple

from nimmax.errors import quoted
from nimmax.game import BadGameSpec, Capability, Game, IllegalMove, Known, legal_text
from nimmax.games.nim_moves import (
    Moves,
    Split,
    Splits,
    Take,
    Takes,
    grundy,
    is_split,
    is_take,
    nim_mover_wins,
    winning_take,
)
from nimmax.games.words import Option, Signature
from nimmax.numbers import parse_int

__all__ = [
    "MAX_PILE",
    "GRUNDY_PILE",
    "MAX_SPLIT_PILE",
    "NIM",
    "SIMPLE_NIM",
    "SPLIT_NIM",
    "Moves",
    "Nim",
    "Pile",
    "Piles",
    "SimpleNim",
    "Split",
    "SplitNim",
    "Splits",
    "Take",
    "Takes",
    "create_nim",
    "create_simple_nim",
    "create_split_nim",
    "winning_take",
]

NIM_NAMES = ("First", "Second")
MAX_PILE = 10**9
"""The most counters a Simple-Nim or Nim pile holds or one move takes, and the highest pile
number a move may name: far past anything a search finishes, yet numbers the games handle."""
MAX_SPLIT_PILE = 10**6
"""The most counters a Split-Nim pile holds: `actions` lists every way to split a pile (a
pile of P has about P/2), and an error message lists the legal moves."""

GRUNDY_PILE = 2000
"""The largest Split-Nim pile whose Grundy value the book works out (by mex, in O(pile**2) the
first time, once a game): past it the book is silent and the search plays on its own."""

NORMAL = Option("--normal")
"""Normal play: whoever takes the last counter wins."""
SIMPLE_NIM = Signature("simple-nim", "N", (Option("--max-take", int, 3, "T", 1, MAX_PILE), NORMAL))
"""Simple-Nim's words: the counters, the most one move takes, normal play."""
NIM = Signature("nim", "P1 P2 ...", (NORMAL,))
"""Nim's words: the piles, normal play."""
SPLIT_NIM = Signature("split-nim", "P1 P2 ...")
"""Split-Nim's words: the piles."""


_new = tuple.__new__
"""Builds a named tuple from a plain one with no Python-level constructor: the hot path."""


class Pile(NamedTuple):
    """One-pile position: counters left and the seat to move."""

    counters: int
    player: int


class Piles(NamedTuple):
    """Several-pile position: the piles in their given order and the seat to move."""

    piles: tuple[int, ...]
    player: int


def _last_counter_payoff(state_player: int, player: int, misere: bool) -> float:
    """Payoff once no counter is left: under misère the mover did not take the last one and wins."""
    mover_wins = misere
    return 1.0 if (player == state_player) == mover_wins else -1.0


def _move_words(text: str) -> list[str]:
    """The numbers of a typed move, as text: `3:4`, `3 4` and `1:4+2` are split apart."""
    return [word for word in re.split(r"[\s:,+]+", text.strip()) if word]


class SimpleNim(Game[Pile, int]):
    """One pile; take 1 to `max_take` counters; under misère whoever takes the last loses."""

    name = "simple-nim"
    player_names = NIM_NAMES
    capabilities = frozenset({Capability.SEARCH_ORDER, Capability.BOOK})

    def __init__(self, counters: int, max_take: int = 3, misere: bool = True) -> None:
        if max_take < 1:
            raise BadGameSpec("simple-nim: --max-take must be at least 1")
        self.counters, self.max_take, self.misere = counters, max_take, misere

    @property
    def spec(self) -> str:
        return SIMPLE_NIM.spec([self.counters], max_take=self.max_take, normal=not self.misere)

    def initial_state(self) -> Pile:
        return Pile(self.counters, 0)

    def to_move(self, state: Pile) -> int:
        return state.player

    def actions(self, state: Pile) -> Sequence[int]:
        """Take 1 to `max_take`: the winning take first (the period), then the most counters
        first."""
        counters = state.counters
        takes = range(min(self.max_take, counters), 0, -1)
        # The mover wins by leaving a multiple of max_take + 1 (plus one counter under misère).
        winning = (counters - self.misere) % (self.max_take + 1)
        return Moves(winning if winning and counters else None, takes)

    search_actions = actions
    """Every move, the winning one first: nothing narrows them further."""

    def result(self, state: Pile, action: int) -> Pile:
        counters, player = state
        if not (isinstance(action, int) and 1 <= action <= counters and action <= self.max_take):
            raise IllegalMove(f"cannot take {action!r}; legal: {legal_text(self, state)}")
        return _new(Pile, (counters - action, 1 - player))

    def is_terminal(self, state: Pile) -> bool:
        return state.counters == 0

    def utility(self, state: Pile, player: int) -> float:
        return _last_counter_payoff(state.player, player, self.misere)

    def key(self, state: Pile) -> Hashable:
        return state.counters

    def book(self, state: Pile) -> Known | None:
        """The period's answer, with its exact plies: every round of two plies takes max_take + 1
        counters whatever the loser takes, and the winner cannot leave the period without losing."""
        rounds, rest = divmod(state.counters - self.misere, self.max_take + 1)
        # Misère play ends with the loser taking the last counter: one ply past the period's end.
        if rest:
            return Known(1.0, 1 + 2 * rounds + self.misere, True)
        return Known(-1.0, 2 * rounds + self.misere, True)

    def parse_move(self, text: str, state: Pile) -> int:
        words = _move_words(text)
        try:
            if len(words) != 1:
                raise IllegalMove(f"{quoted(text.strip())} is not a number of counters")
            amount = parse_int(words[0], "counters to take", 1, self.max_take, IllegalMove)
            if amount > state.counters:
                raise IllegalMove(f"cannot take {amount}")
        except IllegalMove as error:
            raise IllegalMove(f"{error}; legal: {legal_text(self, state)}") from None
        return amount

    def format_position(self, state: Pile) -> str:
        return str(state.counters)


class Nim(Game[Piles, Take]):
    """Several piles; take any number from one pile; misère (last counter loses) by default."""

    name = "nim"
    player_names = NIM_NAMES
    capabilities = frozenset({Capability.SEARCH_ORDER, Capability.BOOK})

    def __init__(self, piles: Sequence[int], misere: bool = True) -> None:
        self.piles, self.misere = tuple(piles), misere

    @property
    def spec(self) -> str:
        return NIM.spec(self.piles, normal=not self.misere)

    def initial_state(self) -> Piles:
        return Piles(self.piles, 0)

    def to_move(self, state: Piles) -> int:
        return state.player

    def actions(self, state: Piles) -> Sequence[Take]:
        """Every take, lazily: the winning take first (Bouton), then the biggest moves first."""
        piles = state.piles
        return Moves(winning_take(piles, self.misere), Takes(piles))

    search_actions = actions
    """Every move, the winning one first: nothing narrows them further."""

    def result(self, state: Piles, action: Take) -> Piles:
        piles, player = state
        # is_take, inlined for the moves the game made itself (Takes of ints): this runs at every
        # node
        if type(action) is Take and type(action[0]) is int and type(action[1]) is int:
            pile, amount = action
            legal = 0 <= pile < len(piles) and 1 <= amount <= piles[pile]
        else:
            legal = is_take(piles, action)
        if not legal:
            raise IllegalMove(f"cannot take {action!r}; piles are {self.format_position(state)}")
        pile, amount = action
        return _new(Piles, (piles[:pile] + (piles[pile] - amount,) + piles[pile + 1 :], 1 - player))

    def is_terminal(self, state: Piles) -> bool:
        return not any(state.piles)

    def utility(self, state: Piles, player: int) -> float:
        return _last_counter_payoff(state.player, player, self.misere)

    def key(self, state: Piles) -> Hashable:
        return tuple(sorted(state.piles))

    def book(self, state: Piles) -> Known | None:
        """Bouton's theorem's payoff; the plies exact where few counters are left (EXACT_COUNTERS),
        else bounded by the counters left (each ply takes one or more)."""
        piles = state.piles
        payoff = 1.0 if nim_mover_wins(piles, self.misere) else -1.0
        counters = sum(piles)
        if counters <= EXACT_COUNTERS:
            return Known(
                payoff, nim_plies(tuple(sorted(pile for pile in piles if pile)), self.misere), True
            )
        return Known(payoff, counters, False)

    def parse_move(self, text: str, state: Piles) -> Take:
        words = _move_words(text)
        try:
            if len(words) != 2:
                raise IllegalMove(f"{quoted(text.strip())} is not PILE:COUNT (e.g. 3:4)")
            pile = parse_int(words[0], "pile", 1, MAX_PILE, IllegalMove)
            amount = parse_int(words[1], "count", 1, MAX_PILE, IllegalMove)
            if pile > len(state.piles):
                raise IllegalMove(f"there is no pile {pile}")
            if amount > state.piles[pile - 1]:
                raise IllegalMove(f"cannot take {amount} from pile {pile}")
        except IllegalMove as error:
            raise IllegalMove(f"{error}; piles are {self.format_position(state)}") from None
        return Take(pile - 1, amount)

    def format_move(self, action: Take) -> str:
        return f"{action.pile + 1}:{action.amount}"

    def format_position(self, state: Piles) -> str:
        return ",".join(map(str, state.piles))


class SplitNim(Game[Piles, Split]):
    """Grundy's game: split one pile into two unequal non-empty piles; who cannot move loses."""

    name = "split-nim"
    player_names = NIM_NAMES
    capabilities = frozenset({Capability.SEARCH_ORDER, Capability.BOOK})

    def __init__(self, piles: Sequence[int]) -> None:
        self.piles = tuple(piles)
        self.grundy_values: list[int] = []
        """Grundy values of piles 0, 1, 2, ...: this game's own table, grown by `grundy`, never
        shrunk."""

    @property
    def spec(self) -> str:
        return SPLIT_NIM.spec(self.piles)

    def initial_state(self) -> Piles:
        return Piles(self.piles, 0)

    def to_move(self, state: Piles) -> int:
        return state.player

    def actions(self, state: Piles) -> Sequence[Split]:
        """Every split, lazily, pile by pile."""
        return Splits(state.piles)

    search_actions = actions
    """Every move, the winning one first: nothing narrows them further."""

    def result(self, state: Piles, action: Split) -> Piles:
        piles, player = state
        if not is_split(piles, action):
            raise IllegalMove(f"cannot split {action!r}; piles are {self.format_position(state)}")
        pile, larger, smaller = action
        return _new(Piles, (piles[:pile] + (larger, smaller) + piles[pile + 1 :], 1 - player))

    def is_terminal(self, state: Piles) -> bool:
        return max(state.piles, default=0) <= 2

    def utility(self, state: Piles, player: int) -> float:
        return _last_counter_payoff(state.player, player, misere=False)

    def key(self, state: Piles) -> Hashable:
        return tuple(sorted(pile for pile in state.piles if pile > 2))

    def book(self, state: Piles) -> Known | None:
        """Sprague-Grundy: the mover wins iff the piles' Grundy values have a non-zero nim-sum,
        where those values are cheap (piles up to GRUNDY_PILE); the plies bounded by the sum of
        each pile's counters past two, which every split lowers by one or more."""
        piles = state.piles
        if max(piles, default=0) > GRUNDY_PILE:
            return None
        total = 0
        for pile in piles:
            total ^= grundy(pile, self.grundy_values)
        return Known(1.0 if total else -1.0, sum(pile - 2 for pile in piles if pile > 2), False)

    def parse_move(self, text: str, state: Piles) -> Split:
        """`PILE:A+B`, or `PILE:A` with B the rest of the pile."""
        words = _move_words(text)
        try:
            if len(words) not in (2, 3):
                raise IllegalMove(f"{quoted(text.strip())} is not PILE:A+B (e.g. 1:4+2)")
            pile = parse_int(words[0], "pile", 1, MAX_PILE, IllegalMove)
            parts = [parse_int(word, "part", 1, MAX_SPLIT_PILE, IllegalMove) for word in words[1:]]
            size = state.piles[pile - 1] if pile <= len(state.piles) else 0
            if len(parts) == 1:
                parts.append(size - parts[0])
            larger, smaller = max(parts), min(parts)
            if not larger > smaller >= 1 or larger + smaller != size:
                raise IllegalMove(f"cannot split pile {pile} that way")
        except IllegalMove as error:
            raise IllegalMove(f"{error}; legal: {legal_text(self, state)}") from None
        return Split(pile - 1, larger, smaller)

    def format_move(self, action: Split) -> str:
        return f"{action.pile + 1}:{action.larger}+{action.smaller}"

    def format_position(self, state: Piles) -> str:
        return ",".join(map(str, state.piles))


EXACT_COUNTERS = 24
"""The most counters left for which Nim's book works out the exact plies to the end (`nim_plies`):
a few thousand positions at most, each once a process."""


@cache
def nim_plies(piles: tuple[int, ...], misere: bool) -> int:
    """Plies to the end of Nim from sorted non-empty `piles` when the winner (by Bouton) wins
    quickest and the loser loses slowest."""
    if not piles:
        return 0
    wins = nim_mover_wins(piles, misere)
    lengths = []
    for index, size in enumerate(piles):
        if index and piles[index - 1] == size:
            continue  # equal piles give the same positions
        for amount in range(1, size + 1):
            rest = piles[:index] + ((size - amount,) if amount < size else ()) + piles[index + 1 :]
            child = tuple(sorted(rest))
            if not wins or not nim_mover_wins(child, misere):  # the winner keeps to winning moves
                lengths.append(1 + nim_plies(child, misere))
    return min(lengths) if wins else max(lengths)


def _piles(signature: Signature, words: Sequence[str], most: int) -> tuple[int, ...]:
    """Piles from positional words ("2 3 5" or "2,3,5"), each from 0 to `most` counters."""
    texts = [text for word in words for text in word.split(",") if text]
    if not texts:
        raise BadGameSpec(f"{signature.game}: give at least one pile; usage: {signature.usage}")
    return tuple(
        parse_int(text, f"{signature.game}: a pile", 0, most, BadGameSpec) for text in texts
    )


def create_simple_nim(argv: Sequence[str]) -> SimpleNim:
    """Simple-Nim from its words (SIMPLE_NIM); one pile of 12 unless given."""
    words = SIMPLE_NIM.parse(argv)
    piles = _piles(SIMPLE_NIM, words.positional or ("12",), MAX_PILE)
    if len(piles) != 1:
        raise BadGameSpec(f"simple-nim has one pile, got {len(piles)}; usage: {SIMPLE_NIM.usage}")
    return SimpleNim(piles[0], words["max_take"], misere=not words["normal"])


def create_nim(argv: Sequence[str]) -> Nim:
    """Nim from its words (NIM); piles 3 4 5 unless given."""
    words = NIM.parse(argv)
    return Nim(
        _piles(NIM, words.positional or ("3", "4", "5"), MAX_PILE), misere=not words["normal"]
    )


def create_split_nim(argv: Sequence[str]) -> SplitNim:
    """Split-Nim from its words (SPLIT_NIM); one pile of 7 unless given."""
    words = SPLIT_NIM.parse(argv)
    return SplitNim(_piles(SPLIT_NIM, words.positional or ("7",), MAX_SPLIT_PILE))
