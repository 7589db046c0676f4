"""`nimmax bench`: exact searches over a grid of board sizes, shown as a table and a chart."""

from __future__ import annotations

from types import MappingProxyType
from typing import Annotated, TypeVar

import typer

from nimmax.cli.options import LEAST_TIME, MOST_TIME, json_option, seconds_option
from nimmax.cli.root import app, emit_json, err, out, say, stop_if_interrupted
from nimmax.numbers import float_option

OLD_NAMES = MappingProxyType({"--algorithms": "--algorithm", "--limit": "--time"})
"""Options renamed to the shared vocabulary; the old spellings work for one more release, with a
note."""

OLD_LIMIT = float_option("--limit", LEAST_TIME, MOST_TIME)
"""bench's old --time, read as its own name, so an error names what was typed."""

Value = TypeVar("Value")


def renamed(old: str, value: Value | None, new_value: Value) -> Value:
    """The value of an option given by its old name (`--limit`), with a note on stderr; else the new
    one's."""
    if value is None:
        return new_value
    say(f"nimmax: {old} is now {OLD_NAMES[old]}; the old spelling goes in the next release")
    return value


@app.command("bench")
def bench_command(
    family_name: Annotated[
        str, typer.Argument(metavar="FAMILY", help="simple-nim, nim, split-nim or tictactoe.")
    ],
    sizes: Annotated[
        str | None, typer.Option(help="Board sizes, e.g. 3,4 (each family has defaults).")
    ] = None,
    k: Annotated[
        str | None, typer.Option("--k", help="tictactoe: winning line lengths, e.g. 3,4.")
    ] = None,
    algorithm: Annotated[
        str,
        typer.Option(
            "--algorithm",
            metavar="LIST",
            help="Engines to compare, comma-separated; plain minimax is the point of the bench, "
            "alpha-beta its foil.",
        ),
    ] = "minimax:cache=off,alphabeta",
    time: Annotated[float, seconds_option("allowed per run", unlimited=False)] = 10.0,
    old_algorithms: Annotated[str | None, typer.Option("--algorithms", hidden=True)] = None,
    old_limit: Annotated[
        float | None, typer.Option("--limit", parser=str, callback=OLD_LIMIT, hidden=True)
    ] = None,
    as_json: Annotated[bool, json_option("the runs")] = False,
) -> None:
    """Enlarge the board and watch minimax: exact searches per board size, nodes on a log scale.

    An algorithm that runs out of time (or stack) on a board skips every board at least as large.
    The progress line names the run in progress and its time. [bold]Examples[/bold]: [cyan]nimmax
    bench simple-nim --sizes 10,15,20[/cyan] · [cyan]nimmax bench nim --sizes 2,3 --algorithm
    minimax,negamax,alphabeta --time 5[/cyan] · [cyan]nimmax bench tictactoe --sizes 3,4 --k 3,4
    --algorithm minimax:cache=off,alphabeta --time 60[/cyan]
    """
    from nimmax.commands.bench import Setup, bench, split_algorithms
    from nimmax.players import parse_spec
    from nimmax.ui.bench import BenchProgress, bench_table, nodes_chart

    engines = [
        parse_spec(words)
        for words in split_algorithms(renamed("--algorithms", old_algorithms, algorithm))
    ]
    setup = Setup.of(family_name, sizes, k, engines, renamed("--limit", old_limit, time))
    progress = BenchProgress(setup.runs)
    with err.status(progress, spinner="dots"):
        found = bench(setup, progress)
    if as_json:
        emit_json(found.record())
    else:
        out.print(bench_table(found.rows, setup.limit))
        out.print(nodes_chart(found.rows, out.width))
    stop_if_interrupted(found.interruption, found.kept)
