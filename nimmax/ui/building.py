"""A bar for work nimmax does once and keeps in the user's cache (Kalah's endgame book), drawn on a
terminal only: `nimmax.cache` reports the steps; the CLI installs this view on stderr for every
command, and a live search line installs it on its own console while it shows, so the bar joins
that line rather than fighting it for the terminal."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.errors import LiveError
from rich.markup import escape

from nimmax.cache import Advance, nothing


@contextmanager
def building(console: Console, what: str, total: int) -> Iterator[Advance]:
    """Show `what` being made, a bar of `total` steps, while the block runs; nothing off a terminal
    (or where the installed Rich cannot draw it inside a live line already shown)."""
    from rich.progress import (
        BarColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    shown = console.is_terminal
    if shown:
        try:
            progress.start()
        except LiveError:  # a Rich without nested live displays, under the search's live line
            shown = False
    if not shown:
        yield nothing
        return
    try:
        task = progress.add_task(f"building {escape(what)} once, kept in the cache", total=total)
        yield lambda done: progress.update(task, completed=done)
    finally:
        progress.stop()
