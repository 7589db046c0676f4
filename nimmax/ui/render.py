"""Draw a game's position: its type's renderer (`ui.games`), or for a plugin its own `render` method
when it has one, else the generic view (`plugin_view`).
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.protocol import is_renderable
from rich.table import Table
from rich.text import Text

from nimmax.game import CHANCE, AnyGame, legal_text
from nimmax.ui.games import presentation

PLUGIN_MOVES = 12
"""Legal moves the generic view of a plugin's position lists."""


def plugin_view(game: AnyGame, state: Any, last_move: Any, bottom: int = 0) -> RenderableType:
    """A plugin's board: its own `render(state, last_move)` (a string, or any Rich renderable) where
    it has one, else a generic view: the position in the game's notation, the last move, whose turn
    it is and the moves to type."""
    own = getattr(game, "render", None)
    if callable(own):
        drawn = own(state, last_move)
        return drawn if is_renderable(drawn) and not isinstance(drawn, str) else Text(str(drawn))
    table = Table.grid(padding=(0, 2))
    table.add_column(style="dim", no_wrap=True)
    table.add_column()
    table.add_row("position", Text(game.format_position(state), style="bold"))
    if last_move is not None:
        table.add_row("last move", Text(game.format_move(last_move), style="bold cyan"))
    seat = None if game.is_terminal(state) else game.to_move(state)
    if seat is None:
        table.add_row("to move", "nobody: the game is over")
    elif seat == CHANCE:
        table.add_row("to move", "chance")
    else:
        table.add_row("to move", Text(game.player_names[seat], style="bold"))
        table.add_row("moves", Text(legal_text(game, state, PLUGIN_MOVES)))
    return Panel(table, title=Text(game.name), title_align="left", expand=False)


def render(game: AnyGame, state: Any, last_move: Any = None, bottom: int = 0) -> RenderableType:
    """Draw `state` of `game` from `bottom`'s side, marking `last_move` when given."""
    return (presentation(game).render or plugin_view)(game, state, last_move, bottom)
