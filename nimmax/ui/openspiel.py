"""OpenSpiel's games: the board as OpenSpiel draws it (`str(state)`), its rules in a few words."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from nimmax.game import CHANCE, AnyGame, winner_of
from nimmax.games.openspiel import OpenSpielGame
from nimmax.plugins.guard import unguarded
from nimmax.ui.presentation import Rules


def render(game: AnyGame, state: Any, last_move: Any = None, bottom: int = 0) -> RenderableType:
    """OpenSpiel's drawing of the position, the last move and who moves under it."""
    own = unguarded(game)
    assert isinstance(own, OpenSpielGame)
    text = Text(own.render(state, last_move) + "\n")
    if last_move is not None:
        text.append(f"last move {game.format_move(last_move)}\n", style="dim")
    if game.is_terminal(state):
        winner = winner_of(game, state)
        text.append("draw" if winner is None else f"{game.player_names[winner]} wins", style="bold")
    elif game.to_move(state) != CHANCE:
        text.append(f"{game.player_names[game.to_move(state)]} to move", style="dim")
    return text


def rules(game: AnyGame) -> Rules:
    """OpenSpiel's name for the game; its moves as OpenSpiel writes them."""
    own = unguarded(game)
    return Rules(
        f"{getattr(own, 'summary', game.name)}, as OpenSpiel plays it (see OpenSpiel's "
        "documentation).",
        "moves as OpenSpiel writes them (type `moves` to list them); case does not matter where "
        "unambiguous",
    )
