"""`nimmax check`: the Game protocol's laws tried on a game's seeded random playouts."""

from __future__ import annotations

from typing import Annotated

import typer

from nimmax.cli.options import GAME_WORDS, GameWords, count_option, json_option, seed_option
from nimmax.cli.root import app, emit_json, err, out, stop_if_interrupted

MAX_PLAYOUTS = 10**6


@app.command("check", context_settings=dict(GAME_WORDS))
def check_command(
    game_words: GameWords,
    playouts: Annotated[
        int, count_option("--playouts", MAX_PLAYOUTS, "Random playouts to try the laws on")
    ] = 100,
    seed: Annotated[int, seed_option("Seed of the playouts")] = 0,
    as_json: Annotated[bool, json_option("the findings")] = False,
) -> None:
    """Try the Game protocol's laws on seeded random playouts of a game (yours, or nimmax's own).

    One row per law: passed, failed with the shortest counterexample found (the moves from the
    start), or skipped where the game keeps the default of an optional member. Exit 0 when
    every law holds, 1 when one fails.
    [bold]Examples[/bold]: [cyan]nimmax check examples/tictactoe.py:TicTacToe[/cyan] ·
    [cyan]nimmax check connect4 --playouts 20[/cyan] ·
    [cyan]nimmax check examples/subtraction.py:Subtraction 20 --json[/cyan]
    """
    from rich.progress import Progress

    from nimmax import games
    from nimmax.check import check, position_reader
    from nimmax.ui.check import report_table, verdict_line

    game = games.create(game_words)
    with Progress(console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("playouts", total=playouts)
        report = check(
            game,
            playouts,
            seed,
            position_reader(game_words),
            lambda done, total: progress.update(task, completed=done),
        )
    if as_json:
        emit_json(report.as_json())
    else:
        out.print(report_table(report))
        out.print(verdict_line(report))
    stop_if_interrupted(
        report.interruption,
        f"after {report.positions:,} positions; the findings so far are printed",
    )
    if not report.holds:
        raise typer.Exit(1)
