"""The shape of a game's presentation: how its positions are drawn, its moves read and its results
worded.

A game type's `Presentation` is registered once, in `ui.games`; each part left None is the generic
one (`ui.render`, `ui.prompt`, `ui.results`, `ui.rules`), which is also all a plugin gets.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from rich.console import RenderableType

from nimmax.game import AnyGame

if TYPE_CHECKING:
    from nimmax.claim import Claim
    from nimmax.search.result import SearchResult


COMMANDS = MappingProxyType(
    {
        "hint": "the engine's best move here and its value",
        "why": "why the engine played its last move, and the line that refutes each other move",
        "undo": "take back your last move and the replies to it",
        "moves": "list the legal moves",
        "help": "show this help",
        "quit": "end the game (the record, if asked for, is still written)",
    }
)
"""Words a person may type instead of a move, with what they do."""


class Rules(NamedTuple):
    """How a game is played, how its moves are written, and its setup in a few words for the title
    (what its words may leave to a default: the k of a 15x15 board)."""

    rules: str
    notation: str
    setup: str = ""


Outcome = tuple[str, int | None]
"""A finished game in words, and the seat it went well for (None: neither, or a draw)."""

Renderer = Callable[[AnyGame, Any, Any, int], RenderableType]
"""Draws `(game, state, last_move, bottom)`: `bottom` is the seat whose side is drawn nearest the
viewer."""

MoveReader = Callable[[AnyGame, Any, str], str]
"""Reads one answer from a person for `state` of `game`, showing the prompt text."""


@dataclass(frozen=True)
class Presentation:
    """One game type's own presentation; None parts (all of a plugin's) are the generic ones."""

    render: Renderer | None = None
    rules: Callable[[AnyGame], Rules] | None = None
    outcome: Callable[[AnyGame, Any, Sequence[str], float | None], Outcome] | None = None
    """A finished game in the game's words; the float is the game's value from its start, where
    `valued`."""
    valued: bool = False
    """Whether `outcome` reads the result against the game's value, which the caller searches for
    and passes."""
    value: Callable[[AnyGame, float, int | None], str] | None = None
    """A proven value for the side to move (the seat, where known) in the game's words."""
    margin: str | None = None
    """The label of a duel's mean payoff per game, for two-player games that score."""
    ending: Callable[[AnyGame, Any, Sequence[str], int | None], str] | None = None
    """Why a finished game ended; the seat is the one that made the last move."""
    status: Callable[[AnyGame, Any, Any, SearchResult, Claim], str] | None = None
    """What an engine found for the move it plays in a state, where the generic status line would
    mislead."""
    standing: Callable[[AnyGame, Any], str] | None = None
    """How a game left unfinished stands, where its banner says more than the moves made."""
    notice: Callable[[AnyGame], str | None] | None = None
    """A line shown under the title before play (Connect Four: the opening books are not
    installed)."""
    reader: Callable[[], MoveReader] | None = None
    """The factory of the game's own terminal reader (one per session); a line prompt otherwise."""
    letters: frozenset[str] = frozenset()
    """Single letters its notation reads as moves in some position, though not always in the
    first."""


SAMPLED_MOVES = 1000
"""The most legal moves the examples are drawn from: a seeded sample where a position has more."""


def move_examples(game: AnyGame, state: Any, count: int) -> list[str]:
    """Up to `count` legal moves as typed, in the notation's own order (numbers by value): drawn
    from every legal move, by a sample seeded by the position where there are many, never in the
    engine's order (likeliest good first), so the examples give no move away."""
    moves = game.actions(state)
    if not isinstance(moves, Sequence):
        moves = list(moves)
    size = len(moves)
    sample = Random(game.format_position(state)).sample
    picks = sample(range(size), SAMPLED_MOVES) if size > SAMPLED_MOVES else range(size)
    return sorted((game.format_move(moves[pick]) for pick in picks), key=notation_order)[:count]


def notation_order(text: str) -> list[tuple[int, str]]:
    """A sort key reading the numbers in a move's text by value (`1:9` before `1:10`)."""
    return [
        (int(part), "") if part.isdigit() else (-1, part)
        for part in re.split(r"(\d+)", text)
        if part
    ]
