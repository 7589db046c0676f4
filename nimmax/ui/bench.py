"""`nimmax bench` views: the table of runs, and a log-scale bar chart of nodes per board."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from nimmax.commands.bench import DONE, OVER, TOO_DEEP, Board, Row

if TYPE_CHECKING:
    from nimmax.players import Spec

COLOURS = ("cyan", "magenta", "green", "yellow", "blue", "red")
EIGHTHS = " ▏▎▍▌▋▊▉"


def shared_family(rows: Sequence[Row]) -> str:
    """The game all rows are boards of ("tictactoe"), named once above them; "" when they differ."""
    families = {row.board.split()[0] for row in rows}
    return families.pop() if len(families) == 1 else ""


def board_label(row: Row, family: str) -> str:
    """A row's board without the family's name (`--size 4 --k 3`), so a row fits 80 columns."""
    return row.board.removeprefix(family).strip() or row.board


def bench_table(rows: Sequence[Row], limit: float) -> Group:
    """Every run: board, algorithm, value, nodes, seconds, nodes per second, or over the limit, or
    too deep."""
    family = shared_family(rows)
    title = (
        f"{family + ': ' if family else ''}exact search from the start, {limit:g} s limit per run"
    )
    # The family is named once in the title, so each row fits 80 columns.
    table = Table(
        box=box.SIMPLE_HEAD,
        caption_justify="left",
        padding=(0, 1, 0, 0),
        show_edge=False,
    )
    for name in ("board", "algorithm", "value", "nodes", "seconds", "nodes/s"):
        left = name in ("board", "algorithm", "value")
        table.add_column(name, justify="left" if left else "right", no_wrap=True)
    notes: dict[str, str] = {}
    for row in rows:
        board = board_label(row, family)
        if row.status == DONE:
            value = Text(f"{row.value:+g}" if row.value else "0", style="bold")
            nodes = f"{row.nodes:,}"
        elif row.status == OVER:
            value = Text("over the limit", style="bold red")
            nodes = f"> {row.nodes:,}"
        elif row.status == TOO_DEEP:
            table.add_row(board, row.algorithm, Text("too deep", style="bold red"), "", "", "")
            notes["too deep"] = "too deep: longer than the stack lets a search recurse"
            continue
        else:
            table.add_row(board, row.algorithm, Text("skipped", style="dim"), "", "", "")
            notes["skipped"] = "skipped: that algorithm already ran out on a board no larger"
            continue
        table.add_row(
            board, row.algorithm, value, nodes, f"{row.seconds:.3f}", f"{row.nodes_per_second:,.0f}"
        )
    table.caption = "\n".join(notes.values()) or None
    return Group(Text(title, style="italic"), table)


class BenchProgress:
    """The bench's progress line: runs done of all, and the run in progress with its elapsed time.

    Rendered afresh at every refresh of the status it sits in, so the seconds count up while
    one long search runs.
    """

    def __init__(self, total: int) -> None:
        self.total, self.done = total, 0
        self.board, self.algorithm, self.started = "", "", time.perf_counter()

    def starting(self, board: Board, algorithm: Spec) -> None:
        """A run begins (`bench.run_all`'s `starting`)."""
        self.board, self.algorithm, self.started = board.words, str(algorithm), time.perf_counter()

    def finished(self, row: Row) -> None:
        """A run ended, or was skipped."""
        self.done += 1

    def __rich__(self) -> Text:
        line = Text(f"{self.done} of {self.total} runs done", style="bold")
        if self.board and self.done < self.total:
            elapsed = time.perf_counter() - self.started
            line.append(f" · now {self.board} with {self.algorithm}, {elapsed:.1f} s", style="")
        return line


def short(number: float) -> str:
    """10 ** n as a tick label: 1, 10, 100, 1k, ..., 1M, ..., 1G."""
    for size, suffix in ((10**9, "G"), (10**6, "M"), (10**3, "k")):
        if number >= size:
            return f"{number / size:g}{suffix}"
    return f"{number:g}"


def bar(nodes: int, decades: int, width: int) -> str:
    """A bar as long as log10(nodes) on a `decades`-wide axis of `width` characters, in eighths."""
    eighths = round(math.log10(max(nodes, 1)) / decades * width * 8)
    return "█" * (eighths // 8) + (EIGHTHS[eighths % 8] if eighths % 8 else "")


def axis(decades: int, width: int) -> Text:
    """Tick labels at each power of ten under the bars."""
    line = [" "] * (width + 6)
    for decade in range(decades + 1):
        label = "|" + short(10**decade)
        start = round(decade * width / decades)
        if all(cell == " " for cell in line[max(start - 1, 0) : start + len(label)]):
            line[start : start + len(label)] = label
    return Text("".join(line).rstrip(), style="dim")


def count_label(row: Row) -> str:
    """The count written after a bar."""
    return f"{row.nodes:,}" if row.status == DONE else f"> {row.nodes:,} over the limit"


def nodes_chart(rows: Sequence[Row], total_width: int = 100) -> RenderableType:
    """Nodes per board on a log scale, one bar per algorithm, fitted to `total_width` columns;
    a run over the limit is marked."""
    measured = [row for row in rows if row.status in (DONE, OVER) and row.nodes > 0]
    if not measured:
        return Text("no run to chart", style="dim")
    labels = [count_label(row) for row in measured]
    family = shared_family(rows)
    names = max(len(board_label(row, family)) for row in measured) + max(
        len(row.algorithm) for row in measured
    )
    width = max(10, min(60, total_width - names - max(len(label) for label in labels) - 10))
    decades = max(1, math.ceil(math.log10(max(row.nodes for row in measured))))
    names_in_order = dict.fromkeys(row.algorithm for row in rows)
    colours = {name: COLOURS[index % len(COLOURS)] for index, name in enumerate(names_in_order)}
    chart = Table.grid(padding=(0, 1))
    chart.add_column(no_wrap=True)
    chart.add_column(no_wrap=True)
    chart.add_column(width=width + 6, no_wrap=True)
    chart.add_column(no_wrap=True)
    shown_board = None
    for row, text in zip(measured, labels, strict=True):
        board = board_label(row, family) if row.board != shown_board else ""
        shown_board = row.board
        label = Text(text, "" if row.status == DONE else "bold red")
        chart.add_row(
            board,
            Text(row.algorithm, colours[row.algorithm]),
            Text(bar(row.nodes, decades, width), colours[row.algorithm]),
            label,
        )
    chart.add_row("", "", axis(decades, width), "")
    title = Text("Nodes per board (log scale: each step is ten times more)", style="bold")
    return Group(title, chart)
