"""Rich views of the Nim family: each pile a numbered row of counters, the last move marked; their
rules and endings.

Counters just taken stay visible as hollow red rings beside the pile they came from; the two piles a
split made are marked; piles too small to split in Split-Nim are dimmed. A game of more than
SHOWN_PILES piles shows the piles around the last move and a count of them all, so a board of
thousands of piles is drawn at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from nimmax.game import AnyGame
from nimmax.games.nim import Nim, Pile, Piles, SimpleNim, Split, Take
from nimmax.ui.presentation import Rules
from nimmax.ui.text import words_shown

SHOWN = 24
"""Counters drawn per row at most (a pile of many, its count and a mark fit 80 columns); a longer
pile is drawn cut short with its count beside it."""

SHOWN_PILES = 24
"""Piles drawn at most; a game of more shows those near the last move (NEAR each side), the first
ones at the start."""

NEAR = 2
"""Piles drawn each side of a pile the last move changed, on a board of more than SHOWN_PILES."""

Row = tuple[int, int, str, str]
"""A pile as drawn: its counters, the counters just taken, its mark, its counters' style."""


def counters(count: int, taken: int = 0, style: str = "bold yellow") -> Text:
    """A row of `count` counters followed by `taken` hollow ones, cut at SHOWN."""
    shown = min(count, SHOWN)
    pieces = [("●", style)] * shown + [("○", "red")] * min(taken, SHOWN - shown)
    if count + taken > SHOWN:
        pieces.append(("…", "dim"))
    return Text(" ").join(Text(piece, style=piece_style) for piece, piece_style in pieces)


def shown_piles(rows: Sequence[Row]) -> list[int]:
    """The piles a board draws: all of SHOWN_PILES or fewer; of more, those within NEAR of a marked
    pile (or the first SHOWN_PILES // 2 where none is marked)."""
    if len(rows) <= SHOWN_PILES:
        return list(range(len(rows)))
    marked = [index for index, (_, _, mark, _) in enumerate(rows) if mark]
    if not marked:
        return list(range(SHOWN_PILES // 2))
    near = {
        index
        for mark in marked
        for index in range(mark - NEAR, mark + NEAR + 1)
        if 0 <= index < len(rows)
    }
    return sorted(near)


def board(game: AnyGame, state: Any, rows: Sequence[Row]) -> RenderableType:
    """Rows of (counters, taken, mark, counter style) in a panel saying whose turn it is; of many
    piles, those near the last move, a gap marked where piles are left out, and the count of them
    all."""
    shown = shown_piles(rows)
    width = max(len(str(rows[index][0])) for index in shown)
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="dim", no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    previous = -1
    for index in shown:
        if index > previous + 1:
            table.add_row("…", Text(f"{index - previous - 1:,} piles not shown", style="dim"), "")
        count, taken, mark, style = rows[index]
        # The count and its mark share a cell: Rich mis-measures a grid whose last cell is empty.
        label = Text.assemble(f"{count:>{width}}", (f"  {mark}" if mark else "", "bold red"))
        table.add_row(f"pile {index + 1}", counters(count, taken, style), label)
        previous = index
    if previous < len(rows) - 1:
        table.add_row("…", Text(f"{len(rows) - previous - 1:,} piles not shown", style="dim"), "")
    over = game.is_terminal(state)
    status = "game over" if over else f"{game.player_names[game.to_move(state)]} to move"
    if len(shown) < len(rows):
        left = sum(1 for count, *_ in rows if count)
        status = f"{len(rows):,} piles, {left:,} not empty · {status}"
    return Panel(
        table,
        title=words_shown(game),
        title_align="left",
        subtitle=status,
        subtitle_align="right",
        expand=False,
    )


def render_simple_nim(
    game: AnyGame, state: Pile, last_move: Any, bottom: int = 0
) -> RenderableType:
    """Simple-Nim: the one pile, with the counters just taken."""
    taken = int(last_move) if last_move is not None else 0
    return board(
        game, state, [(state.counters, taken, f"← took {taken}" if taken else "", "bold yellow")]
    )


def render_nim(game: AnyGame, state: Piles, last_move: Any, bottom: int = 0) -> RenderableType:
    """Nim: every pile, the one just taken from showing what was taken."""
    rows = []
    for index, count in enumerate(state.piles):
        taken = last_move.amount if isinstance(last_move, Take) and last_move.pile == index else 0
        rows.append((count, taken, f"← took {taken}" if taken else "", "bold yellow"))
    return board(game, state, rows)


def render_split_nim(
    game: AnyGame, state: Piles, last_move: Any, bottom: int = 0
) -> RenderableType:
    """Split-Nim: every pile, the two just made marked, piles of one or two dimmed (they cannot
    split)."""
    made = {last_move.pile, last_move.pile + 1} if isinstance(last_move, Split) else set()
    rows = []
    for index, count in enumerate(state.piles):
        mark = "← split" if index in made else ""
        rows.append((count, 0, mark, "bold yellow" if count > 2 else "dim"))
    return board(game, state, rows)


def _last_counter(game: AnyGame) -> str:
    """What taking the last counter does in this play."""
    assert isinstance(game, SimpleNim | Nim)
    return "loses" if game.misere else "wins"


def simple_nim_rules(game: AnyGame) -> Rules:
    """Simple-Nim's rules, with its largest take and its play."""
    assert isinstance(game, SimpleNim)
    return Rules(
        f"One pile; a move takes 1 to {game.max_take:,} counters. Whoever takes the last counter "
        f"{_last_counter(game)}.",
        "the number of counters taken: 2",
        f"take 1 to {game.max_take:,}, the last counter {_last_counter(game)}",
    )


def nim_rules(game: AnyGame) -> Rules:
    """Nim's rules, misère or normal play."""
    return Rules(
        "A move takes any number of counters from one pile. Whoever takes the last counter "
        f"{_last_counter(game)}.",
        "pile:counters, 3:4 takes 4 from pile 3 (also typed 3 4)",
        f"the last counter {_last_counter(game)}",
    )


def split_nim_rules(game: AnyGame) -> Rules:
    """Grundy's game's rules."""
    return Rules(
        "A move splits one pile into two unequal piles (piles of 1 and 2 cannot be split). "
        "Whoever cannot move loses.",
        "pile:part+part, 1:4+2 splits pile 1 into 4 and 2 (also typed 1 4)",
    )


def counter_ending(game: AnyGame, state: Any, labels: Sequence[str], last: int | None) -> str:
    """Nim and Simple-Nim: who took the last counter, and what that means in this play."""
    if last is None:
        return "no counters to take"
    misere = getattr(game, "misere", True)
    return f"{labels[last]} took the last counter, and " + (
        "loses (misère play)" if misere else "wins (normal play)"
    )


def split_ending(game: AnyGame, state: Any, labels: Sequence[str], last: int | None) -> str:
    """Split-Nim: the side to move has no pile it can split into two unequal piles."""
    return f"{labels[game.to_move(state)]} cannot split any pile into two unequal piles"
