"""m,n,k boards and Connect Four: the board (lettered columns, numbered rows, the last move
highlighted and a completed line marked), their rules, endings and the books' notice."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from nimmax.game import AnyGame, winner_of
from nimmax.games.mnk import LETTERS, MNK
from nimmax.ui.presentation import Rules

STONE_STYLES = MappingProxyType({"x": "bold cyan", "o": "bold magenta", ".": "dim"})
LAST_MOVE_STYLE = "reverse"
LINE_STYLE = "bold black on green"


def render_board(
    game: AnyGame, state: Any, last_move: Any = None, bottom: int = 0
) -> RenderableType:
    """The board as a grid of x, o and '.', with the notation's letters and numbers around it."""
    if not isinstance(game, MNK):
        return Text(game.format_position(state))
    shape, notation = game.geometry, game.notation
    line = notation.winning_line(state)
    last = notation.filled_by(state, last_move) if last_move is not None else None
    width = len(str(shape.rows))
    text = Text()
    text.append(" " * (width + 1) + " ".join(LETTERS[: shape.cols]) + "\n", style="bold")
    for row in range(shape.rows):
        text.append(f"{row + 1:>{width}} ", style="bold")
        for col in range(shape.cols):
            bit = shape.bit(row, col)
            mark = notation.stone_at(state, row, col)
            style = STONE_STYLES[mark]
            if line >> bit & 1:
                style = LINE_STYLE
            elif bit == last:
                style += " " + LAST_MOVE_STYLE
            text.append(mark, style=style)
            if col < shape.cols - 1:
                text.append(" ")
        text.append("\n")
    if game.is_terminal(state):
        winner = winner_of(game, state)
        text.append("draw" if winner is None else f"{game.player_names[winner]} wins", style="bold")
    else:
        text.append(f"{game.player_names[game.to_move(state)]} to move", style="dim")
    return text


def mnk_rules(game: AnyGame) -> Rules:
    """The rules of k in a row on this board, stones placed or dropped."""
    assert isinstance(game, MNK)
    shape = game.geometry
    line = f"{shape.k} in a row (across, down or diagonally) wins; a full board is a draw."
    setup = f"{shape.rows}x{shape.cols}, {shape.k} in a row" + (
        ", stones drop" if shape.gravity else ""
    )
    if shape.gravity:
        return Rules(
            f"X and O take turns dropping a stone into a column of the {shape.rows}x{shape.cols} "
            "board; it falls "
            f"to the lowest empty cell. {line}",
            "a column by its letter: c (also typed 3)",
            setup,
        )
    return Rules(
        f"X and O take turns placing a stone on an empty cell of the {shape.rows}x{shape.cols} "
        f"board. {line}",
        "a cell by column letter and row number from the top: b2 (also typed 2,2 or 2 2, row then "
        "column)",
        setup,
    )


def line_ending(game: AnyGame, state: Any, labels: Sequence[str], last: int | None) -> str:
    """An m,n,k game: the line that was made, its cells named by the game, or a full board."""
    assert isinstance(game, MNK)
    winner = winner_of(game, state)
    if winner is None:
        return "the board is full with no line made"
    return (
        f"{labels[winner]} made {game.geometry.k} in a row: "
        f"{', '.join(game.notation.winning_cells(state))}"
    )


def books_notice(game: AnyGame) -> str | None:
    """Connect Four 7x6 without the opening books installed: how to get perfect play."""
    assert isinstance(game, MNK)
    return game.missing_books()
