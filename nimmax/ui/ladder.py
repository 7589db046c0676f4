"""Rich views of a ladder: live progress (game i of n, elapsed, the leader: a `LadderView` that
`commands.events` tells), the standings and the crosstable."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from rich.progress import TaskID

    from nimmax.commands.ladder import Rung
    from nimmax.duel import Event, Plan, Standings


class LadderBar:
    """A ladder's view on a terminal: games done of all, elapsed, the leader
    (`commands.events.LadderView`)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.bar: tuple[Progress, TaskID] | None = None
        """The progress line while it is drawn, and its task."""

    @contextmanager
    def watching(self, plan: Plan) -> Iterator[object]:
        """The progress line, drawn while the games are played."""
        progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("games"),
            TimeElapsedColumn(),
            TextColumn("{task.fields[leader]}"),
            console=self.console,
            transient=True,
        )
        with progress:
            self.bar = (
                progress,
                progress.add_task(f"ladder {escape(plan.game.spec)}", total=plan.total, leader=""),
            )
            yield progress

    def leading(self, event: Event, leader: Rung) -> None:
        """The games done and who leads."""
        if self.bar is not None:
            progress, task = self.bar
            progress.update(
                task,
                completed=event.done,
                leader=f"leading: {escape(leader.name)} {leader.score:.0%}",
            )


def ladder_view(console: Console) -> LadderBar | None:
    """How a ladder is drawn as it is played on `console`: a progress line on a terminal, else
    nothing."""
    return LadderBar(console) if console.is_terminal else None


def standings_table(standings: Standings, rungs: Sequence[Rung]) -> Table:
    """The crosstable, best first (`rungs`: `ladder.ladder`'s): each player's wins-draws-losses
    against each other, then its games, score with its interval, Elo and speed."""
    order = standings.order
    table = Table(
        caption="cells: the row player's wins-draws-losses against the column's\n"
        "score: points a game (a draw 1/2), 95% Wilson interval\n"
        "Elo: maximum likelihood, relative (the players' mean is 0)\n"
        "nodes/s: nodes (simulations) a second of the engine's own thinking",
        caption_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column("player", style="bold cyan")
    for place in range(1, len(order) + 1):
        table.add_column(str(place), justify="center")
    for heading in ("games", "score", "95% interval", "Elo", "nodes/s", "avg move"):
        table.add_column(heading, justify="right", style="bold" if heading == "Elo" else "")
    for place, (row, rung) in enumerate(zip(order, rungs, strict=True), start=1):
        cells = []
        for column in order:
            side = standings.sides.get((row, column))
            cells.append("-" if side is None else f"{side.wins}-{side.draws}-{side.losses}")
        low, high = rung.interval
        table.add_row(
            str(place),
            Text(rung.name),
            *cells,
            str(rung.games),
            f"{rung.score:.0%}",
            f"{low:.0%}-{high:.0%}",
            f"{rung.elo:+.0f}",
            f"{rung.nodes_per_second:,.0f}" if rung.nodes else "-",
            _seconds(rung.seconds / rung.moves) if rung.moves else "-",
        )
    return table


def _seconds(value: float) -> str:
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def ladder_summary(
    event: Event, seconds: float | None, standings: Standings, rungs: Sequence[Rung]
) -> RenderableType:
    """The heading, the standings and the crosstable of a ladder (so far, when interrupted), from
    `duel.standings` and `ladder.ladder` of the event."""
    status = "interrupted after" if event.interrupted else "played"
    pace = f"{seconds:g} s a move" if seconds is not None else "each engine's own time a move"
    plan = event.plan
    heading = (
        f"{plan.game.spec}: ladder at {pace}, {status} {event.done} of {plan.total} games, "
        f"seed {plan.seed}"
    )
    if plan.openings:
        heading += f", each pair of games from its own {plan.openings} random plies"
    return Group(
        Text(heading, style="bold"),
        standings_table(standings, rungs),
        Text(f"{event.done} games in {event.seconds:.1f} s", style="dim"),
    )
