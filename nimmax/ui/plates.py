"""The plates banknote game: the plates in rows (the picked plate, the notes handed over and the
note kept standing out), its rules, and its result as the note kept beside the best A could make
sure of."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from nimmax.game import AnyGame
from nimmax.games.plates import Plates, Position
from nimmax.ui.presentation import Outcome, Rules


def render_plates(game: AnyGame, state: Any, last_move: Any, bottom: int = 0) -> RenderableType:
    """One line per plate; the picked plate is bold, the pair handed over green, the kept note
    reversed."""
    assert isinstance(game, Plates) and isinstance(state, Position)
    picture = Text()
    for index, plate in enumerate(game.plates):
        picked = state.plate == index
        picture.append(
            f"{'▶' if picked else ' '} plate {index + 1}  ", style="bold" if picked else "dim"
        )
        offered = list(state.pair) if picked and state.pair is not None else []
        for note in plate:
            style = "bold" if picked else ""
            if note in offered:
                # a plate may hold two equal notes: mark one per note handed over
                offered.remove(note)
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


def plates_rules(game: AnyGame) -> Rules:
    """The plates game's rules."""
    return Rules(
        "A picks a plate; B hands A two notes of that plate; A keeps one. A wants the largest "
        "note, B the smallest.",
        "A: a plate number (1); B: the two notes handed over (20+50, also typed 50 20); A: the "
        "note kept (20)",
    )


def plates_outcome(
    game: AnyGame, state: Any, labels: Sequence[str], value: float | None
) -> Outcome:
    """The note A keeps, beside the best A can make sure of (`value`, the game's): "A keeps 20; best
    possible 20"."""
    kept = game.utility(state, 0)
    if value is None:
        return f"{labels[0]} keeps {kept:,g}", None
    # above the value: B erred; below: A did
    went_well = 0 if kept > value else 1 if kept < value else None
    return f"{labels[0]} keeps {kept:,g}; best possible {value:,g}", went_well


def plates_value(game: AnyGame, value: float, mover: int | None) -> str:
    """A plates value is the note A ends with, signed for the mover: "A keeps 20"."""
    if mover is None:
        return "ahead" if value > 0 else "behind" if value < 0 else "even"
    return f"{game.player_names[0]} keeps {value if mover == 0 else -value:,g}"


def plates_ending(game: AnyGame, state: Any, labels: Sequence[str], last: int | None) -> str:
    """The plates game: A kept one of the two notes B handed over."""
    return f"{labels[0]} kept one of the two notes {labels[1]} handed over"
