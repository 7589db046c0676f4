"""Renderer for the plates banknote game: the plates in rows, the picked plate, the notes
handed over and the note kept standing out."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from nimmax.game import AnyGame
from nimmax.games.plates import Plates, Position


def render_plates(game: AnyGame, state: Any, last_move: Any, bottom: int = 0) -> RenderableType:
    """One line per plate; the picked plate is bold, the pair handed over green, the kept note reversed."""
    assert isinstance(game, Plates) and isinstance(state, Position)
    picture = Text()
    for index, plate in enumerate(game.plates):
        picked = state.plate == index
        picture.append(f"{'▶' if picked else ' '} plate {index + 1}  ", style="bold" if picked else "dim")
        offered = list(state.pair) if picked and state.pair is not None else []
        for note in plate:
            style = "bold" if picked else ""
            if note in offered:
                offered.remove(note)  # a plate may hold two equal notes: mark one per note handed over
                style = "bold reverse green" if note == state.kept else "bold green"
            picture.append(f" {note:>3} ", style=style)
        picture.append("\n")
    if state.kept is not None:
        picture.append(f"A keeps {state.kept}", style="bold green")
    elif state.pair is not None:
        picture.append(f"B hands A {state.pair[0]} and {state.pair[1]}; A keeps one", style="dim")
    elif state.plate is not None:
        picture.append("B picks two notes of the plate to hand over", style="dim")
    else:
        picture.append("A picks a plate", style="dim")
    return picture
