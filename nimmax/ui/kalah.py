"""The Kalah board as people draw it: the mover's row at the bottom sown left to right, the
opponent's row above it sown right to left, the mover's store on the right, the opponent's
on the left, pit numbers as the mover types them, and an extra turn announced.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from nimmax.game import AnyGame
from nimmax.games.kalah import Position
from nimmax.ui.results import kalah_outcome

MOVER, OPPONENT, STORE, FRAME, LABEL = "bold green", "cyan", "bold yellow", "dim", "dim"


def render_kalah(game: AnyGame, state: Position, last_move: Any) -> RenderableType:
    """The board from the side to move, with whose turn it is and why."""
    me = state.player
    them = 1 - me
    names = game.player_names
    bottom, top = state.row(me), tuple(reversed(state.row(them)))
    pits = len(bottom)
    width = len(str(max(state.board))) + 2
    gap = " " * (width + 1)

    def number(value: int) -> str:
        return str(value).rjust(width - 1) + " "

    def cells(values: tuple[int, ...], style: str) -> list[tuple[str, str]]:
        parts: list[tuple[str, str]] = []
        for index, value in enumerate(values):
            if index:
                parts.append(("│", FRAME))
            parts.append((number(value), style))
        return parts

    def labels(numbers: range) -> list[tuple[str, str]]:
        return [(gap + " " + " ".join(number(pit) for pit in numbers), LABEL)]

    rule = "─" * width
    lines: list[list[tuple[str, str]]] = [
        labels(range(pits, 0, -1)) + [(f"   {names[them]}'s pits", LABEL)],
        [(gap + "╭" + "┬".join([rule] * pits) + "╮", FRAME)],
        [("╭" + rule + "┤", FRAME), *cells(top, OPPONENT), ("├" + rule + "╮", FRAME)],
        [
            ("│", FRAME),
            (number(state.store(them)), STORE),
            ("├" + "┼".join([rule] * pits) + "┤", FRAME),
            (number(state.store(me)), STORE),
            ("│", FRAME),
        ],
        [("╰" + rule + "┤", FRAME), *cells(bottom, MOVER), ("├" + rule + "╯", FRAME)],
        [(gap + "╰" + "┴".join([rule] * pits) + "╯", FRAME)],
        labels(range(1, pits + 1)) + [(f"   {names[me]}'s pits", LABEL)],
        [(f"{names[them]}'s store on the left, {names[me]}'s on the right", LABEL)],
    ]
    text = Text()
    for line in lines:
        text.append_text(Text.assemble(*line))
        text.append("\n")
    text.append_text(_status(game, state, last_move))
    return text


def _status(game: AnyGame, state: Position, last_move: Any) -> Text:
    """Whose turn it is, the extra turn when the last sowing earned one, or the final score."""
    names = game.player_names
    if game.is_terminal(state):
        return Text(f"Game over: {kalah_outcome(game, state, names)[0]}", style="bold")
    mover = names[state.player]
    if state.again:
        sown = f" (pit {last_move})" if last_move is not None else ""
        return Text(f"Extra turn: {mover}'s last seed{sown} landed in the store, so {mover} moves again", style=MOVER)
    return Text(f"{mover} to move", style="bold")
