"""The view of `nimmax check`: one row per law, passed, failed with its counterexample, or
skipped."""

from __future__ import annotations

from types import MappingProxyType

from rich.table import Table
from rich.text import Text

from nimmax.check import Report

STATUS_STYLE = MappingProxyType({"passed": "green", "failed": "bold red", "skipped": "dim"})
SHOWN_MOVES = 24
"""The most moves of a counterexample a row shows; --json has them all."""


def report_table(report: Report) -> Table:
    """Every law with its verdict; a failure shows the moves that lead to it and what broke."""
    table = Table(
        title=Text(
            f"{report.game}: {report.playouts} playouts (seed {report.seed}), "
            f"{report.positions:,} positions"
        ),
        title_justify="left",
    )
    table.add_column("law: what it says", ratio=2)
    table.add_column("verdict")
    table.add_column("counterexample (moves from the start): what broke", overflow="fold", ratio=3)
    for finding in report.findings:
        status = Text(finding.status, style=STATUS_STYLE[finding.status])
        if finding.status == "failed" and finding.moves is not None:
            moves = " ".join(finding.moves[:SHOWN_MOVES]) or "the start"
            if len(finding.moves) > SHOWN_MOVES:
                moves += f" … ({len(finding.moves)} moves)"
            detail = Text(f"{moves}: ", style="cyan") + Text(finding.detail)
        elif finding.status == "skipped":
            detail = Text(finding.detail, style="dim")
        else:
            detail = Text(f"{finding.checked:,} positions", style="dim")
        law = Text(finding.law.name, style="bold") + Text(f": {finding.law.says}", style="dim")
        table.add_row(law, status, detail)
    return table


def verdict_line(report: Report) -> Text:
    """One line under the table: every law holds, or how many failed."""
    failed = [finding.law.name for finding in report.findings if finding.status == "failed"]
    if not failed:
        return Text("Every law holds.", style="green")
    return Text(
        f"{len(failed)} law{'s' if len(failed) > 1 else ''} failed: {', '.join(failed)}.",
        style="bold red",
    )
