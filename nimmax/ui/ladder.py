"""Rich views of a ladder: live progress (game i of n, elapsed), the standings and the crosstable."""

from __future__ import annotations

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from nimmax import duel
from nimmax.duel import Event, Plan
from nimmax.ladder import ladder


def play(plan: Plan, jobs: int, console: Console) -> Event:
    """Run the round robin under a progress line on a terminal: games done of all, elapsed, the leader."""
    duel.check_jobs(jobs)
    if not console.is_terminal:
        return duel.run(plan, jobs)
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("{task.fields[leader]}"),
        console=console,
        transient=True,
    )
    with progress:
        task = progress.add_task(f"ladder {escape(plan.game.spec)}", total=plan.total, leader="")

        def show(event: Event) -> None:
            best = ladder(event)[0]
            progress.update(task, completed=event.done, leader=f"leading: {escape(best.name)} {best.score:.0%}")

        return duel.run(plan, jobs, show)


def standings_table(event: Event) -> Table:
    """The crosstable, best first: each player's wins-draws-losses against each other, then its
    games, score with its interval, Elo and speed."""
    standings, rungs = duel.standings(event), ladder(event)
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


def ladder_summary(event: Event, seconds: float | None) -> RenderableType:
    """The heading, the standings and the crosstable of a ladder (so far, when interrupted)."""
    status = "interrupted after" if event.interrupted else "played"
    pace = f"{seconds:g} s a move" if seconds is not None else "each engine's own time a move"
    plan = event.plan
    heading = f"{plan.game.spec}: ladder at {pace}, {status} {event.done} of {plan.total} games, seed {plan.seed}"
    if plan.openings:
        heading += f", each pair of games from its own {plan.openings} random plies"
    return Group(
        Text(heading, style="bold"),
        standings_table(event),
        Text(f"{event.done} games in {event.seconds:.1f} s", style="dim"),
    )
