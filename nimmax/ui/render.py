"""Per-game Rich renderers: one function per game draws a position, the last move marked.

Adding a game's renderer = a function `(game, state, last_move) -> renderable` in its own
`ui/` module and one line in RENDERERS below. Games without one are drawn as their
position string.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from nimmax.game import AnyGame
from nimmax.ui import nim, twenty48
from nimmax.ui.boards import render_board
from nimmax.ui.kalah import render_kalah
from nimmax.ui.plates import render_plates

Renderer = Callable[[AnyGame, Any, Any], RenderableType]


def plain(game: AnyGame, state: Any, last_move: Any) -> RenderableType:
    """The position string, for games that have no renderer of their own."""
    return Text(game.format_position(state))


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
    """The renderer of `game`, or the plain one (always for a plugin, whatever name it takes)."""
    return plain if game.words else RENDERERS.get(game.name, plain)


def render(game: AnyGame, state: Any, last_move: Any = None) -> RenderableType:
    """Draw `state` of `game`, marking `last_move` when given."""
    return renderer_for(game)(game, state, last_move)
