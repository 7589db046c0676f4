"""Rich renderer for m,n,k boards and Connect Four: lettered columns, numbered rows, the
last move highlighted and a completed line marked."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from nimmax.game import AnyGame
from nimmax.games.mnk import LETTERS, MNK

STONE_STYLES = {"x": "bold cyan", "o": "bold magenta", ".": "dim"}
LAST_MOVE_STYLE = "reverse"
LINE_STYLE = "bold black on green"


def render_board(game: AnyGame, state: Any, last_move: Any = None, bottom: int = 0) -> RenderableType:
    """The board as a grid of x, o and '.', with the notation's letters and numbers around it."""
    if not isinstance(game, MNK):
        return Text(game.format_position(state))
    line = game.winning_line(state)
    last = game.filled_by(state, last_move) if last_move is not None else None
    width = len(str(game.rows))
    text = Text()
    text.append(" " * (width + 1) + " ".join(LETTERS[: game.cols]) + "\n", style="bold")
    for row in range(game.rows):
        text.append(f"{row + 1:>{width}} ", style="bold")
        for col in range(game.cols):
            bit = game.bit(row, col)
            mark = game.stone_at(state, row, col)
            style = STONE_STYLES[mark]
            if line >> bit & 1:
                style = LINE_STYLE
            elif bit == last:
                style += " " + LAST_MOVE_STYLE
            text.append(mark, style=style)
            if col < game.cols - 1:
                text.append(" ")
        text.append("\n")
    if game.is_terminal(state):
        winner = game.winner(state)
        text.append("draw" if winner is None else f"{game.player_names[winner]} wins", style="bold")
    else:
        text.append(f"{game.player_names[game.to_move(state)]} to move", style="dim")
    return text
