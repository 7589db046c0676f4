"""The three-plates banknote game, the textbook first minimax tree with payoffs in money.

A picks one of the plates of banknotes; B hands A two notes from that plate; A keeps one of
the two. A wants the largest note, B the smallest (zero-sum: B's payoff is minus the note).
The seats go A, B, A: two plies of A with one of B between, read from the state.

Moves: a plate number (`1`), the pair B hands over (`20+50`, smaller note first), the note
A keeps (`20`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from nimmax.errors import quoted
from nimmax.game import BadGameSpec, Game, IllegalMove, legal_text
from nimmax.games.words import Signature
from nimmax.numbers import parse_int

A, B = 0, 1
DEFAULT_PLATES = ((1, 20, 50), (5, 10, 100), (1, 5, 20))
MAX_PLATES, MAX_NOTES, MAX_NOTE = 9, 9, 10**6
"""At most 9 plates of at most 9 notes, each worth 1 to a million: a tree small enough to draw."""
PLATES = Signature(
    "plates",
    "[N,N,N N,N,N ...]",
    note="each plate's banknotes; default "
    + " ".join(",".join(map(str, plate)) for plate in DEFAULT_PLATES),
)
"""The plates game's words: each plate's notes, separated by commas."""


class Position(NamedTuple):
    """A position: the plate A picked (0-based), the pair B handed over, the note A kept."""

    plate: int | None = None
    pair: tuple[int, int] | None = None
    kept: int | None = None


@dataclass(frozen=True)
class Pick:
    """A picks plate `plate` (0-based; shown 1-based)."""

    plate: int


@dataclass(frozen=True)
class Hand:
    """B hands A the two notes `notes` (smaller first) from the picked plate."""

    notes: tuple[int, int]


@dataclass(frozen=True)
class Keep:
    """A keeps the note `note` of the two handed over."""

    note: int


Move = Pick | Hand | Keep


class Plates(Game[Position, Move]):
    """Plates of banknotes: A picks a plate, B hands over two of its notes, A keeps one."""

    name = "plates"
    player_names = ("A", "B")
    scores = True
    """Its payoff is a margin (the note A keeps), not a win, a draw or a loss
    (`nimmax.claim.best_payoff`)."""

    def __init__(self, plates: Sequence[Sequence[int]] = DEFAULT_PLATES) -> None:
        self.plates = tuple(tuple(plate) for plate in plates)

    @property
    def spec(self) -> str:
        return PLATES.spec([",".join(map(str, plate)) for plate in self.plates])

    def initial_state(self) -> Position:
        return Position()

    def to_move(self, state: Position) -> int:
        return B if state.plate is not None and state.pair is None else A

    def actions(self, state: Position) -> Sequence[Move]:
        if state.plate is None:
            return [Pick(plate) for plate in range(len(self.plates))]
        if state.pair is None:
            pairs = sorted(
                {(min(pair), max(pair)) for pair in combinations(self.plates[state.plate], 2)}
            )
            return [Hand(pair) for pair in pairs]
        if state.kept is None:
            return [Keep(note) for note in sorted(set(state.pair), reverse=True)]
        return []

    def result(self, state: Position, action: Move) -> Position:
        if action not in self.actions(state):
            raise IllegalMove(
                f"{self.format_move(action)} is not legal here; legal: {legal_text(self, state)}"
            )
        if isinstance(action, Pick):
            return state._replace(plate=action.plate)
        if isinstance(action, Hand):
            return state._replace(pair=action.notes)
        return state._replace(kept=action.note)

    def is_terminal(self, state: Position) -> bool:
        return state.kept is not None

    def utility(self, state: Position, player: int) -> float:
        note = state.kept if state.kept is not None else 0
        return note if player == A else -note

    def parse_move(self, text: str, state: Position) -> Move:
        """A plate number (`1`, `plate 1`), then the notes handed over (`20+50`), then the note
        kept."""
        words = text.lower().replace("plate", " ").replace("+", " ").replace(",", " ").split()
        try:
            wanted = self._read_move(words, state)
            if wanted is None or wanted not in self.actions(state):
                raise IllegalMove(f"{quoted(text.strip())} is not a legal move")
        except IllegalMove as error:
            raise IllegalMove(f"{error}; legal: {legal_text(self, state)}") from None
        return wanted

    def _read_move(self, words: Sequence[str], state: Position) -> Move | None:
        """The move the words name at this stage, legal or not; None when they name none."""
        if state.plate is None and len(words) == 1:
            return Pick(parse_int(words[0], "plate", 1, len(self.plates), IllegalMove) - 1)
        if state.plate is not None and state.pair is None and len(words) == 2:
            first, second = (parse_int(word, "note", 1, MAX_NOTE, IllegalMove) for word in words)
            return Hand((min(first, second), max(first, second)))
        if state.pair is not None and state.kept is None and len(words) == 1:
            return Keep(parse_int(words[0], "note", 1, MAX_NOTE, IllegalMove))
        return None

    def format_move(self, action: Move) -> str:
        if isinstance(action, Pick):
            return str(action.plate + 1)
        if isinstance(action, Hand):
            return f"{action.notes[0]}+{action.notes[1]}"
        return str(action.note)

    def format_position(self, state: Position) -> str:
        if state.plate is None:
            return "/".join(",".join(map(str, plate)) for plate in self.plates)
        if state.pair is None:
            return f"plate {state.plate + 1}: " + ",".join(map(str, self.plates[state.plate]))
        if state.kept is None:
            return f"A holds {state.pair[0]}+{state.pair[1]}"
        return f"A keeps {state.kept}"


def create_plates(argv: Sequence[str]) -> Plates:
    """The plates game from its words (PLATES): each plate is its notes separated by commas."""
    words = PLATES.parse(argv)
    if not words.positional:
        return Plates()
    if len(words.positional) > MAX_PLATES:
        raise BadGameSpec(f"plates: at most {MAX_PLATES} plates of at most {MAX_NOTES} notes")
    plates = []
    for word in words.positional:
        texts = word.split(",")
        if len(texts) < 2:
            raise BadGameSpec(
                f"plates: a plate needs at least two notes, not {quoted(word)}; usage: "
                f"{PLATES.usage}"
            )
        if len(texts) > MAX_NOTES:
            raise BadGameSpec(f"plates: at most {MAX_PLATES} plates of at most {MAX_NOTES} notes")
        plates.append(
            tuple(parse_int(text, "plates: a banknote", 1, MAX_NOTE, BadGameSpec) for text in texts)
        )
    return Plates(plates)
