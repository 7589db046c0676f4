"""Rich views of duels and tournaments: the live progress bar (an `EventView` that `commands.events`
tells), the summary table, the crosstable."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markup import escape
from rich.text import Text

from nimmax.duel.stats import wilson
from nimmax.ui.games import presentation

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID
    from rich.table import Table

    from nimmax.duel import Event, Pairing, Plan, Side, Standings

SHOW_EVERY = 0.05
"""Seconds between the tallies handed to the progress bar, which redraws ten times a second."""


def score_line(event: Event) -> str:
    """Wins and draws so far, in one line: `alphabeta 12 · random 3 · draws 5` (as markup: names
    escaped)."""
    if len(event.pairings) != 1:
        return f"{len(event.pairings)} pairings"
    pairing = event.pairings[0]
    names = [event.plan.names[entrant] for entrant in pairing.entrants]
    return " · ".join(
        [f"{escape(name)} {side.wins}" for name, side in zip(names, pairing.sides, strict=True)]
        + [f"draws {pairing.draws}"]
    )


def stopping_line(event: Event) -> str:
    """Said the moment Ctrl-C (or SIGTERM) reaches a duel: that it stops, and the games finished so
    far."""
    total = event.plan.total
    return f"stopping: {event.done:,} of {total:,} games finished so far; games in play are dropped"


class StopLine:
    """A duel's view where no bar is drawn (output not a terminal): only the line said when it
    stops."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def watching(self, plan: Plan) -> AbstractContextManager[object]:
        """Nothing drawn while the games are played."""
        return nullcontext()

    def game_ended(self, event: Event) -> None:
        """Nothing drawn for a game."""

    def stopping(self, event: Event) -> None:
        """Said the moment Ctrl-C (or SIGTERM) reaches the event."""
        self.console.print(stopping_line(event), style="yellow", markup=False, highlight=False)


class DuelBar(StopLine):
    """A duel's view on a terminal: a progress bar (games done, wins and draws so far, rate,
    ETA)."""

    def __init__(self, console: Console) -> None:
        super().__init__(console)
        self.shown = 0.0
        self.bar: tuple[Progress, TaskID, int] | None = None
        """The bar while it is drawn, its task and the games it counts to."""

    @contextmanager
    def watching(self, plan: Plan) -> Iterator[object]:
        """The bar, drawn while the games are played."""
        from nimmax.ui.progress import events_bar  # rich's progress loads only for a terminal

        progress = events_bar(self.console)
        with progress:
            task = progress.add_task(escape(plan.game.spec), total=plan.total, score="")
            self.bar, self.shown = (progress, task, plan.total), 0.0
            yield progress

    def game_ended(self, event: Event) -> None:
        """The tally on the bar, at most every SHOW_EVERY seconds (and at the last game)."""
        if self.bar is None:
            return
        progress, task, total = self.bar
        now = time.monotonic()
        # the bar redraws 10 times a second
        if now - self.shown >= SHOW_EVERY or event.done == total:
            self.shown = now
            progress.update(task, completed=event.done, score=score_line(event))


def event_view(console: Console) -> StopLine:
    """How a duel or tournament is drawn as it is played on `console`
    (`commands.events.EventView`)."""
    return DuelBar(console) if console.is_terminal else StopLine(console)


def _share(count: int, games: int) -> str:
    """`count` with its Wilson 95% interval as shares: `12 (39-78%)`."""
    if not games:
        return str(count)
    low, high = wilson(count, games)
    return f"{count} ({low:.0%}-{high:.0%})"


def _seconds(value: float) -> str:
    return f"{value * 1000:.2f} ms" if value < 1 else f"{value:.2f} s"


def summary_table(event: Event, pairing: Pairing) -> Table:
    """One column per player: wins, losses, draws with 95% intervals, first/second-mover wins,
    time and nodes per move (for one-player games: mean score, goal reached)."""
    names = [event.plan.names[entrant] for entrant in pairing.entrants]
    games = pairing.games
    from rich.table import Table  # loaded when a table is drawn: `--json` draws none

    table = Table(caption="(95% Wilson intervals)", caption_justify="left")
    table.add_column("", style="bold")
    for name in names:
        table.add_column(Text(name), justify="right", style="cyan", no_wrap=True)

    def row(label: str, show: Callable[[Side], str]) -> None:
        table.add_row(label, *(show(side) for side in pairing.sides))

    row("wins", lambda side: _share(side.wins, games))
    row("losses", lambda side: _share(side.losses, games))
    row("draws", lambda side: _share(side.draws, games))
    if event.players == 2:
        row("wins as first", lambda side: f"{side.wins_first}/{side.games_first}")
        row("wins as second", lambda side: f"{side.wins_second}/{side.games_second}")
        margin = presentation(event.plan.game).margin
        if margin is not None:
            row(margin, lambda side: f"{side.mean_score:+,.1f}")
    else:
        row("mean score", lambda side: f"{side.mean_score:,.1f}")
        row("reached the goal", lambda side: f"{side.goal_share:.0%}")
    row("avg move", lambda side: _seconds(side.moves.mean_seconds))
    row("worst move", lambda side: _seconds(side.moves.max_seconds))
    row("nodes per move", lambda side: f"{side.moves.nodes_per_move:,.0f}")
    return table


def duel_summary(event: Event) -> RenderableType:
    """The summary of a duel under a heading, with the time it took."""
    rate = event.done / event.seconds if event.seconds else 0.0
    status = "interrupted after" if event.interrupted else "played"
    heading = (
        f"{event.plan.game.spec}: {status} {event.done} of {event.plan.games} games, seed "
        f"{event.plan.seed}"
    )
    return Group(
        Text(heading, style="bold"),
        summary_table(event, event.pairings[0]),
        Text(f"{event.done} games in {event.seconds:.1f} s ({rate:,.1f} games/s)", style="dim"),
        *failed_lines(event),
    )


def failed_lines(event: Event) -> list[Text]:
    """One line per block given up (its Ray worker lost twice): whose games, which, and why."""
    lines = []
    for block in event.failed:
        names = " vs ".join(
            event.plan.names[entrant] for entrant in event.pairings[block.pairing].entrants
        )
        games = f"games {block.start + 1}-{block.start + block.count}"
        lines.append(Text(f"not played: {names}, {games}: {block.reason}", style="red"))
    return lines


def tournament_summary(event: Event, standings: Standings) -> RenderableType:
    """The crosstable of a tournament under a heading (`standings`: `duel.final_standings`, fitted
    before the heading is worded, since Ctrl-C in the fit marks the event interrupted)."""
    table = Crosstable(standings)
    status = "interrupted after" if event.interrupted else "played"
    heading = (
        f"{event.plan.game.spec}: round robin, {status} {event.done} of {event.plan.total} games, "
        f"seed {event.plan.seed}"
    )
    return Group(Text(heading, style="bold"), table, *failed_lines(event))


class Crosstable:
    """Each player's wins-draws-losses against each other player, points and Elo rating, best first;
    where the cells do not fit the width they are left out (the standings stay) and the caption says
    so."""

    def __init__(self, standings: Standings) -> None:
        self.standings = standings

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The table for the width it is drawn in."""
        yield self.table(options.max_width)

    def table(self, width: int) -> Table:
        """The table, with the cells where every column fits `width` at its natural size."""
        standings = self.standings
        order = standings.order
        cells = [
            ["-" if column == row else _games(standings.sides[row, column]) for column in order]
            for row in order
        ]
        points = [f"{standings.points[row]:g}" for row in order]
        widths = [
            len(str(len(order))),
            max([len("player"), *map(len, standings.names)]),
            max(map(len, [*points, "points"])),
        ]
        widths += [len("1500")] if standings.ratings else []
        widths += [
            max([len(str(place + 1)), *(len(line[place]) for line in cells)])
            for place in range(len(order))
        ]
        # a column is its widest text plus two of padding and one of rule; the table one rule more
        needed = 1 + sum(width + 3 for width in widths)
        shown = needed <= width
        from rich.table import Table

        caption = [
            "cells: the row player's wins-draws-losses"
            if shown
            else f"cells left out: they need {needed} columns, not {width} (--json has them)"
        ]
        caption.append(
            "Elo: maximum likelihood, mean 1500"
            if standings.ratings
            else "Elo: left out (interrupted)"
        )
        caption.append(
            "points: a win 1, a draw ½, margins not counted: perfect play keeps its proven value "
            "and does not "
            "press random's mistakes, so it can rank below a weaker engine"
        )
        table = Table(caption="\n".join(caption), caption_justify="left")
        table.add_column("#", justify="right")
        table.add_column("player", style="bold cyan")
        if shown:
            for place in range(1, len(order) + 1):
                table.add_column(str(place), justify="center")
        table.add_column("points", justify="right")
        if standings.ratings:
            table.add_column("Elo", justify="right", style="bold")
        for place, (row, line) in enumerate(zip(order, cells, strict=True), start=1):
            rating = [f"{standings.ratings[row]:.0f}"] if standings.ratings else []
            shown_cells = line if shown else []
            table.add_row(
                str(place), Text(standings.names[row]), *shown_cells, points[place - 1], *rating
            )
        return table


def _games(side: Side) -> str:
    """A crosstable cell: `wins-draws-losses`."""
    return f"{side.wins}-{side.draws}-{side.losses}"
