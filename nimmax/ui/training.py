"""The bar `nimmax train` draws on stderr's terminal: games, moves a second and the rolling
rates of 2048, 4096 and 8192; off a terminal, a line every minute."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rich.console import Console

if TYPE_CHECKING:
    from nimmax.learn.session import Progress

LINE_SECONDS = 60.0
"""How often a line is written when stderr is no terminal."""


def describe(progress: Progress) -> str:
    """The figures of training so far, in one line."""
    rates = "  ".join(
        f"{tile}: {rate:.0%}" for tile, rate in zip((2048, 4096, 8192), progress.rates, strict=True)
    )
    speed = progress.moves / max(progress.seconds, 1e-9)
    return (
        f"{speed:,.0f} moves/s  mean score {progress.mean_score:,.0f}  {rates} (last "
        f"{len(progress.reached):,} games)"
    )


@contextmanager
def training_bar(console: Console, games: int) -> Iterator[Callable[[Progress], None]]:
    """A report of training progress for the block: a bar on a terminal, else a line a minute."""
    from rich import progress as bars

    if not console.is_terminal:
        shown = [time.monotonic()]

        def line(progress: Progress) -> None:
            if time.monotonic() - shown[0] >= LINE_SECONDS:
                shown[0] = time.monotonic()
                console.print(
                    f"{progress.games:,} games  {describe(progress)}", markup=False, highlight=False
                )

        yield line
        return
    bar = bars.Progress(
        bars.TextColumn("[bold]games"),
        bars.BarColumn(),
        bars.MofNCompleteColumn(),
        bars.TimeElapsedColumn(),
        bars.TextColumn("{task.description}"),
        console=console,
        transient=True,
    )
    task = bar.add_task("", total=games)
    with bar:

        def update(progress: Progress) -> None:
            bar.update(task, completed=progress.games, description=describe(progress))

        yield update
