"""Rich views of the Nim family: each pile a numbered row of counters, the last move marked.

Counters just taken stay visible as hollow red rings beside the pile they came from; the
two piles a split made are marked; piles too small to split in Split-Nim are dimmed.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from nimmax.game import AnyGame
from nimmax.games.nim import Pile, Piles, Split, Take

SHOWN = 30
"""Counters drawn per row at most; a longer pile is drawn cut short with its count beside it."""


def counters(count: int, taken: int = 0, style: str = "bold yellow") -> Text:
    """A row of `count` counters followed by `taken` hollow ones, cut at SHOWN."""
    shown = min(count, SHOWN)
    pieces = [("●", style)] * shown + [("○", "red")] * min(taken, SHOWN - shown)
    if count + taken > SHOWN:
        pieces.append(("…", "dim"))
    return Text(" ").join(Text(piece, style=piece_style) for piece, piece_style in pieces)


def board(game: AnyGame, state: Any, rows: list[tuple[int, int, str, str]]) -> RenderableType:
    """Rows of (counters, taken, mark, counter style) in a panel saying whose turn it is."""
    width = max(len(str(count)) for count, *_ in rows)
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="dim", no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    for number, (count, taken, mark, style) in enumerate(rows, start=1):
        # The count and its mark share a cell: Rich mis-measures a grid whose last cell is empty.
        label = Text.assemble(f"{count:>{width}}", (f"  {mark}" if mark else "", "bold red"))
        table.add_row(f"pile {number}", counters(count, taken, style), label)
    over = game.is_terminal(state)
    status = "game over" if over else f"{game.player_names[game.to_move(state)]} to move"
    return Panel(table, title=game.spec, title_align="left", subtitle=status, subtitle_align="right", expand=False)


def render_simple_nim(game: AnyGame, state: Pile, last_move: Any, bottom: int = 0) -> RenderableType:
    """Simple-Nim: the one pile, with the counters just taken."""
    taken = int(last_move) if last_move is not None else 0
    return board(game, state, [(state.counters, taken, f"← took {taken}" if taken else "", "bold yellow")])


def render_nim(game: AnyGame, state: Piles, last_move: Any, bottom: int = 0) -> RenderableType:
    """Nim: every pile, the one just taken from showing what was taken."""
    rows = []
    for index, count in enumerate(state.piles):
        taken = last_move.amount if isinstance(last_move, Take) and last_move.pile == index else 0
        rows.append((count, taken, f"← took {taken}" if taken else "", "bold yellow"))
    return board(game, state, rows)


def render_split_nim(game: AnyGame, state: Piles, last_move: Any, bottom: int = 0) -> RenderableType:
    """Split-Nim: every pile, the two just made marked, piles of one or two dimmed (they cannot split)."""
    made = {last_move.pile, last_move.pile + 1} if isinstance(last_move, Split) else set()
    rows = []
    for index, count in enumerate(state.piles):
        mark = "← split" if index in made else ""
        rows.append((count, 0, mark, "bold yellow" if count > 2 else "dim"))
    return board(game, state, rows)
