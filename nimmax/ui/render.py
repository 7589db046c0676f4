"""Per-game Rich renderers: one function per game draws a position, the last move marked.

Adding a game's renderer = a function `(game, state, last_move, bottom) -> renderable` in its
own `ui/` module and one line in RENDERERS below (`bottom`: the seat whose side is drawn
nearest the viewer, where a board has sides). A plugin game is drawn by its own `render`
method when it has one, else by the generic view (`plugin_view`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.protocol import is_renderable
from rich.table import Table
from rich.text import Text

from nimmax.game import CHANCE, AnyGame
from nimmax.ui import nim, twenty48
from nimmax.ui.boards import render_board
from nimmax.ui.kalah import render_kalah
from nimmax.ui.plates import render_plates

Renderer = Callable[[AnyGame, Any, Any, int], RenderableType]

PLUGIN_MOVES = 12
"""Legal moves the generic view of a plugin's position lists."""


def plugin_view(game: AnyGame, state: Any, last_move: Any, bottom: int = 0) -> RenderableType:
    """A plugin's board: its own `render(state, last_move)` (a string, or any Rich renderable) where it
    has one, else a generic view: the position in the game's notation, the last move, whose turn it is
    and the moves to type."""
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
        table.add_row("moves", Text(game.legal_text(state, PLUGIN_MOVES)))
    return Panel(table, title=Text(game.name), title_align="left", expand=False)


RENDERERS: Mapping[str, Renderer] = {
    "plates": render_plates,
    "simple-nim": nim.render_simple_nim,
    "nim": nim.render_nim,
    "split-nim": nim.render_split_nim,
    "kalah": render_kalah,
    "tictactoe": render_board,
    "connect4": render_board,
    "2048": twenty48.render,
}
"""Game name (the registry's, `game.name`) to its renderer."""


def renderer_for(game: AnyGame) -> Renderer:
    """The renderer of `game`; a plugin's is its own `render` or the generic view, whatever name it takes."""
    return plugin_view if game.words or game.name not in RENDERERS else RENDERERS[game.name]


def render(game: AnyGame, state: Any, last_move: Any = None, bottom: int = 0) -> RenderableType:
    """Draw `state` of `game` from `bottom`'s side, marking `last_move` when given."""
    return renderer_for(game)(game, state, last_move, bottom)
