"""`nimmax bench` views: the table of runs, and a log-scale bar chart of nodes per board."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from nimmax.bench import DONE, OVER, TOO_DEEP, Row

COLOURS = ("cyan", "magenta", "green", "yellow", "blue", "red")
EIGHTHS = " ▏▎▍▌▋▊▉"


def bench_table(rows: Sequence[Row], limit: float) -> Table:
    """Every run: board, algorithm, value, nodes, seconds, nodes per second, or over the limit, or too deep."""
    table = Table(title=f"Exact search from the start, {limit:g} s limit per run", title_justify="left")
    for name in ("board", "algorithm", "value", "nodes", "seconds", "nodes/s"):
        table.add_column(name, justify="left" if name in ("board", "algorithm", "value") else "right")
    notes: dict[str, str] = {}
    for row in rows:
        if row.status == DONE:
            value = Text(f"{row.value:+g}" if row.value else "0", style="bold")
            nodes = f"{row.nodes:,}"
        elif row.status == OVER:
            value = Text("over the limit", style="bold red")
            nodes = f"> {row.nodes:,}"
        elif row.status == TOO_DEEP:
            table.add_row(row.board, row.algorithm, Text("too deep", style="bold red"), "", "", "")
            notes["too deep"] = "too deep: longer than the stack lets a search recurse"
            continue
        else:
            table.add_row(row.board, row.algorithm, Text("skipped", style="dim"), "", "", "")
            notes["skipped"] = "skipped: a smaller board already went over the limit or too deep"
            continue
        table.add_row(row.board, row.algorithm, value, nodes, f"{row.seconds:.3f}", f"{row.nodes_per_second:,.0f}")
    table.caption = "\n".join(notes.values()) or None
    return table


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
    names = max(len(row.board) for row in measured) + max(len(row.algorithm) for row in measured)
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
        board = row.board if row.board != shown_board else ""
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
