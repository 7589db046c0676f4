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
from collections.abc import Hashable, Iterator, Sequence
from functools import reduce
from itertools import chain, repeat
from operator import xor
from typing import NamedTuple, TypeVar, cast, overload

from nimmax.game import BadGameSpec, Capability, Game, IllegalMove
from nimmax.games.words import Option, Signature
from nimmax.numbers import parse_int, quoted

NIM_NAMES = ("First", "Second")
MAX_PILE = 10**9
"""The most counters a Simple-Nim or Nim pile holds or one move takes, and the highest pile
number a move may name: far past anything a search finishes, yet numbers the games handle."""
MAX_SPLIT_PILE = 10**6
"""The most counters a Split-Nim pile holds: `actions` lists every way to split a pile (a
pile of P has about P/2), and an error message lists the legal moves."""

NORMAL = Option("--normal")
"""Normal play: whoever takes the last counter wins."""
SIMPLE_NIM = Signature("simple-nim", "N", (Option("--max-take", int, 3, "T", 1, MAX_PILE), NORMAL))
"""Simple-Nim's words: the counters, the most one move takes, normal play."""
NIM = Signature("nim", "P1 P2 ...", (NORMAL,))
"""Nim's words: the piles, normal play."""
SPLIT_NIM = Signature("split-nim", "P1 P2 ...")
"""Split-Nim's words: the piles."""


class Pile(NamedTuple):
    """One-pile position: counters left and the seat to move."""

    counters: int
    player: int


class Piles(NamedTuple):
    """Several-pile position: the piles in their given order and the seat to move."""

    piles: tuple[int, ...]
    player: int


class Take(NamedTuple):
    """Take `amount` counters from pile `pile` (0-based; shown 1-based)."""

    pile: int
    amount: int


class Split(NamedTuple):
    """Split pile `pile` (0-based) into two unequal piles, `larger` and `smaller`."""

    pile: int
    larger: int
    smaller: int


M = TypeVar("M")

_new = tuple.__new__
"""Builds a named tuple from a plain one with no Python-level constructor: the hot path."""


class LazyMoves(Sequence[M]):
    """A sequence of moves made as they are asked for: a subclass gives `__len__`, `__iter__`,
    `__contains__` (each O(1) or O(piles), never O(moves)) and `at(position)`."""

    __slots__ = ()

    def at(self, position: int) -> M:
        """The move at `position`, 0 <= position < len(self)."""
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> M: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[M]: ...

    def __getitem__(self, index: int | slice) -> M | Sequence[M]:
        size = len(self)
        if isinstance(index, slice):
            return [self.at(position) for position in range(*index.indices(size))]
        position = index + size if index < 0 else index
        if not 0 <= position < size:
            raise IndexError("move index out of range")
        return self.at(position)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {len(self)} moves>"


class Moves(LazyMoves[M]):
    """`first` (when not None), then the moves of `rest` but `first`: a lazy sequence with the
    best move in front, however many moves `rest` holds."""

    __slots__ = ("first", "rest")

    def __init__(self, first: M | None, rest: Sequence[M]) -> None:
        self.first, self.rest = first, rest

    def __len__(self) -> int:
        return len(self.rest)

    def __contains__(self, move: object) -> bool:
        return move in self.rest

    def __iter__(self) -> Iterator[M]:
        first = self.first
        if first is None:
            return iter(self.rest)
        return chain((first,), filter(first.__ne__, self.rest))

    def at(self, position: int) -> M:
        first = self.first
        if first is None:
            return self.rest[position]
        if position == 0:
            return first
        # The moves of `rest` before `first` shift one place on; those after it stay put.
        return self.rest[position - 1] if position - 1 < self.rest.index(first) else self.rest[position]


class Takes(LazyMoves["Take"]):
    """Every take from `piles`: the largest pile first, the most counters first (big moves first
    is a cheap order that finds refutations early)."""

    __slots__ = ("piles",)

    def __init__(self, piles: tuple[int, ...]) -> None:
        self.piles = piles

    def order(self) -> list[int]:
        """The pile indexes, largest pile first (ties in pile order)."""
        return sorted(range(len(self.piles)), key=self.piles.__getitem__, reverse=True)

    def __len__(self) -> int:
        return sum(self.piles)

    def __contains__(self, move: object) -> bool:
        return is_take(self.piles, move)

    def __iter__(self) -> Iterator[Take]:
        piles = self.piles
        # map(_new, ...) makes each Take in C: no Python frame per move.
        return chain.from_iterable(
            map(_new, repeat(Take), zip(repeat(pile), range(piles[pile], 0, -1))) for pile in self.order()
        )

    def at(self, position: int) -> Take:
        for pile in self.order():
            size = self.piles[pile]
            if position < size:
                return Take(pile, size - position)
            position -= size
        raise IndexError("move index out of range")

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        """The place of a take, in O(piles) rather than by a scan of the moves."""
        if value not in self or start or stop is not None:
            return super().index(value, start, *(() if stop is None else (stop,)))
        pile, amount = cast(Take, value)
        order = self.order()
        return sum(self.piles[other] for other in order[: order.index(pile)]) + self.piles[pile] - amount


class Splits(LazyMoves["Split"]):
    """Every split of `piles`: pile by pile, the smaller part growing."""

    __slots__ = ("piles",)

    def __init__(self, piles: tuple[int, ...]) -> None:
        self.piles = piles

    def __len__(self) -> int:
        return sum((size - 1) // 2 for size in self.piles if size > 2)

    def __contains__(self, move: object) -> bool:
        return is_split(self.piles, move)

    def __iter__(self) -> Iterator[Split]:
        return (
            _new(Split, (pile, size - smaller, smaller))
            for pile, size in enumerate(self.piles)
            if size > 2
            for smaller in range(1, (size + 1) // 2)
        )

    def at(self, position: int) -> Split:
        for pile, size in enumerate(self.piles):
            splits = max(0, (size - 1) // 2)
            if position < splits:
                return Split(pile, size - position - 1, position + 1)
            position -= splits
        raise IndexError("move index out of range")


def is_take(piles: tuple[int, ...], move: object) -> bool:
    """True when `move` takes one or more counters from one of `piles`, no more than it holds."""
    if not (isinstance(move, tuple) and len(move) == 2):
        return False
    pile, amount = move
    return isinstance(pile, int) and isinstance(amount, int) and 0 <= pile < len(piles) and 1 <= amount <= piles[pile]


def is_split(piles: tuple[int, ...], move: object) -> bool:
    """True when `move` splits one of `piles` into two unequal non-empty piles."""
    if not (isinstance(move, tuple) and len(move) == 3):
        return False
    pile, larger, smaller = move
    return (
        isinstance(pile, int)
        and isinstance(larger, int)
        and isinstance(smaller, int)
        and 0 <= pile < len(piles)
        and larger > smaller >= 1
        and larger + smaller == piles[pile]
    )


def winning_take(piles: tuple[int, ...], misere: bool) -> Take | None:
    """A take that wins by Bouton's theorem, or None where every take loses (or all are alike).

    Normal play: leave a nim-sum of 0. Misère play: the same while two piles or more exceed
    one counter; with one such pile, leave an odd number of single counters.
    """
    if misere:
        ones = piles.count(1)
        big = len(piles) - piles.count(0) - ones  # piles of two counters or more
        if not big:
            return None
        if big == 1:
            pile = piles.index(max(piles))
            return Take(pile, piles[pile] - (0 if ones % 2 else 1))
    total = reduce(xor, piles, 0)
    if not total:
        return None
    for pile, size in enumerate(piles):
        if size ^ total < size:
            return Take(pile, size - (size ^ total))
    return None  # unreachable: the highest bit of a non-zero nim-sum is set in some pile


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
    capabilities = frozenset({Capability.SEARCH_ORDER})

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
        """Take 1 to `max_take`: the winning take first (the period), then the most counters first."""
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
            raise IllegalMove(f"cannot take {action!r}; legal: {self.legal_text(state)}")
        return _new(Pile, (counters - action, 1 - player))

    def is_terminal(self, state: Pile) -> bool:
        return state.counters == 0

    def utility(self, state: Pile, player: int) -> float:
        return _last_counter_payoff(state.player, player, self.misere)

    def key(self, state: Pile) -> Hashable:
        return state.counters

    def parse_move(self, text: str, state: Pile) -> int:
        words = _move_words(text)
        try:
            if len(words) != 1:
                raise IllegalMove(f"{quoted(text.strip())} is not a number of counters")
            amount = parse_int(words[0], "counters to take", 1, self.max_take, IllegalMove)
            if amount > state.counters:
                raise IllegalMove(f"cannot take {amount}")
        except IllegalMove as error:
            raise IllegalMove(f"{error}; legal: {self.legal_text(state)}") from None
        return amount

    def format_position(self, state: Pile) -> str:
        return str(state.counters)


class Nim(Game[Piles, Take]):
    """Several piles; take any number from one pile; misère (last counter loses) by default."""

    name = "nim"
    player_names = NIM_NAMES
    capabilities = frozenset({Capability.SEARCH_ORDER})

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
        # is_take, inlined for the moves the game made itself (Takes of ints): this runs at every node
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

    def parse_move(self, text: str, state: Piles) -> Take:
        words = _move_words(text)
        try:
            if len(words) != 2:
                raise IllegalMove(f"{quoted(text.strip())} is not PILE:COUNT (e.g. 3:4)")
            pile = parse_int(words[0], "pile", 1, MAX_PILE, IllegalMove)
            amount = parse_int(words[1], "count", 1, MAX_PILE, IllegalMove)
            if pile > len(state.piles) or amount > state.piles[pile - 1]:
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
    capabilities = frozenset({Capability.SEARCH_ORDER})

    def __init__(self, piles: Sequence[int]) -> None:
        self.piles = tuple(piles)

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
            raise IllegalMove(f"{error}; legal: {self.legal_text(state)}") from None
        return Split(pile - 1, larger, smaller)

    def format_move(self, action: Split) -> str:
        return f"{action.pile + 1}:{action.larger}+{action.smaller}"

    def format_position(self, state: Piles) -> str:
        return ",".join(map(str, state.piles))


def _piles(signature: Signature, words: Sequence[str], most: int) -> tuple[int, ...]:
    """Piles from positional words ("2 3 5" or "2,3,5"), each from 0 to `most` counters."""
    texts = [text for word in words for text in word.split(",") if text]
    if not texts:
        raise BadGameSpec(f"{signature.game}: give at least one pile; usage: {signature.usage}")
    return tuple(parse_int(text, f"{signature.game}: a pile", 0, most, BadGameSpec) for text in texts)


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
    return Nim(_piles(NIM, words.positional or ("3", "4", "5"), MAX_PILE), misere=not words["normal"])


def create_split_nim(argv: Sequence[str]) -> SplitNim:
    """Split-Nim from its words (SPLIT_NIM); one pile of 7 unless given."""
    words = SPLIT_NIM.parse(argv)
    return SplitNim(_piles(SPLIT_NIM, words.positional or ("7",), MAX_SPLIT_PILE))
