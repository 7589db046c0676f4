"""The commands about one game at a time: `play` it, `replay` its record, `analyze` its moves."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from nimmax.cli.options import (
    GAME_WORDS,
    MoveTime,
    Plugin,
    RecordFile,
    delay_option,
    from_records,
    json_option,
    output_file,
    seat_spec,
    seconds_option,
    seed_option,
)
from nimmax.cli.root import app, emit_json, err, out
from nimmax.search.limits import MOVE_SECONDS, override

if TYPE_CHECKING:
    from nimmax.commands.analyze import MoveAnalysis
    from nimmax.match import GameRecord


@app.command("play", context_settings=dict(GAME_WORDS))
def play_command(
    game_words: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="GAME [ARGS]... | RECORD",
            help="Game name and its options (with --resume: a record).",
            callback=from_records,
        ),
    ] = None,
    first: Annotated[
        str | None, typer.Option(help="Player spec of the first seat.", show_default="human")
    ] = None,
    second: Annotated[
        str | None,
        typer.Option(
            help="Player spec of the second seat.",
            show_default="alphabeta (expectimax where chance is averaged)",
        ),
    ] = None,
    time: MoveTime = None,
    seed: Annotated[int | None, seed_option("Seed for random players and chance")] = None,
    delay: Annotated[float, delay_option("after each engine move")] = 0.0,
    record: Annotated[
        Path | None, output_file("the record", "Write the game to this JSON file.")
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Go on with an unfinished record (its players; written back to it), or the last "
            "one left.",
        ),
    ] = False,
    plugin: Plugin = None,
) -> None:
    """Play a game: you against an engine, engines against each other, or two people.

    At your turn type a move or hint, why, undo, moves, help, quit. An engine thinks 1 s a move
    unless told otherwise ([cyan]--time S[/cyan] for every engine, or a spec's own
    [cyan]alphabeta:time=S[/cyan] / [cyan]depth=N[/cyan]); where it proves the position in
    that time it plays perfectly. Ctrl-C while it thinks makes it move now; twice ends the game.
    A game you leave unfinished is kept: [cyan]nimmax play --resume[/cyan] goes on with it.
    [bold]Examples[/bold]:
    [cyan]nimmax play nim 2 3 5[/cyan] ·
    [cyan]nimmax play tictactoe --size 4 --k 3[/cyan] ·
    [cyan]nimmax play connect4 --time 5[/cyan] (a stronger opponent) ·
    [cyan]nimmax play 2048[/cyan] (arrow keys) ·
    [cyan]nimmax play kalah --first alphabeta:depth=6 --second random --delay 0.3[/cyan] ·
    [cyan]nimmax play nim 3 4 5 --first alphabeta --second random:seed=3 --record game.json[/cyan]
    """
    from nimmax.commands.play import setup
    from nimmax.ui import play  # prompt_toolkit loads only for the commands that play

    game, specs, record, history = setup(
        game_words or [], seat_spec(first), seat_spec(second), resume, record, plugin
    )
    play.play(
        game, specs, out, seed=seed, delay=delay, record=record, time_limit=time, history=history
    )


@app.command("replay")
def replay_command(
    file: RecordFile,
    delay: Annotated[
        float | None, delay_option("between moves", show_default="0.5 on a terminal, else 0")
    ] = None,
    analyze: Annotated[
        bool,
        typer.Option(
            "--analyze", help="Then analyse every move, as nimmax analyze does (its defaults)."
        ),
    ] = False,
    plugin: Plugin = None,
) -> None:
    """Step through a recorded game, position by position.

    At a terminal: → / ← (l / h, n / p) one ply, Home / End, g N to a ply, a the ply's analysis
    (stored by analyze --write), r play on from there, q quit. Piped, or with --delay, it plays
    the game through at that pace.
    [bold]Examples[/bold]: [cyan]nimmax replay game.json --delay 0.2[/cyan] ·
    [cyan]nimmax replay game.json --analyze[/cyan]
    """
    import sys

    from nimmax import games
    from nimmax.commands.play import read_record, start_value
    from nimmax.ui.games import presentation

    record = read_record(file, plugin)
    game = games.create(record.game)
    valued = presentation(game).valued  # only then are the record's positions replayed here
    value = start_value(game, record.positions()[-1], valued) if valued else None
    if delay is None and out.is_terminal and sys.stdin.isatty():
        from nimmax.ui.stepper import step

        step(record, file, out, value)
    else:
        from nimmax.ui.play import replay

        replay(record, out, delay or 0.0, value)
    if analyze:
        analyse_record(record, None, None, as_json=False)


@app.command("analyze")
def analyze_command(
    file: RecordFile,
    algorithm: Annotated[
        str | None,
        typer.Option(
            help="Player spec of the engine that values the positions.",
            show_default="the game's engine",
        ),
    ] = None,
    time: Annotated[
        float | None,
        seconds_option(
            "per position, deepening",
            show_default=f"{MOVE_SECONDS:g} s, less in a game of over 60 moves (a minute in all)",
        ),
    ] = None,
    as_json: Annotated[bool, json_option("the analysis")] = False,
    write: Annotated[
        bool, typer.Option("--write", help="Store the analysis in the record, for replay's a key.")
    ] = False,
    plugin: Plugin = None,
) -> None:
    """Value every move of a recorded game against the best, and name the mistake that decided it.

    Each position is valued exactly where the engine proves it in its time, else estimated.
    Verdicts: best (proven to keep the best payoff); mistake (a proven loss of payoff, by its
    size); inaccuracy (an estimate that gives up more than a fifth of the best value); estimate
    (not proven either way). Ctrl-C prints the moves analysed so far, exit 130.
    [bold]Examples[/bold]: [cyan]nimmax analyze game.json[/cyan] ·
    [cyan]nimmax analyze game.json --algorithm alphabeta:time=inf --json[/cyan]
    """
    from nimmax.commands.play import read_record

    analyse_record(read_record(file, plugin), algorithm, time, as_json, file if write else None)


def time_now() -> float:
    """The clock the progress line reads."""
    import time

    return time.perf_counter()


def progress_label(done: int, total: int, elapsed: float, player: object) -> str:
    """The live line's label while analysing: "move 5 of 31", and about how long is left (the pace
    so far, no more than a paced analysis's own clock leaves)."""
    from nimmax.commands.analyze import Paced

    label = f"analysing move {done + 1} of {total} (last first)"
    if done:
        left = elapsed / done * (total - done)
        if isinstance(player, Paced):
            left = min(left, max(player.deadline - time_now(), 0.0))
        label += f", about {left:,.0f} s left"
    return label


def analyse_record(
    record: GameRecord,
    algorithm: str | None,
    time: float | None,
    as_json: bool,
    keep: Path | None = None,
) -> None:
    """Analyse a record and print the table (or JSON); Ctrl-C prints the moves analysed so far."""
    from nimmax import games
    from nimmax.claim import Proofs
    from nimmax.commands.analyze import Analysis, analyst, choices, judged
    from nimmax.players import parse_spec
    from nimmax.ui.live import LiveSearch
    from nimmax.ui.views import counted
    from nimmax.ui.why import analysis_table, decisive_line

    game = games.create(record.game)
    live = LiveSearch(game, err, "Ctrl-C stops and shows the moves analysed so far")
    spec = None if algorithm is None else parse_spec(algorithm)
    player = analyst(game, spec, override(time=time), live, choices(record))
    done: list[MoveAnalysis] = []
    moves, total, started = judged(record, player, Proofs()), choices(record), time_now()
    try:
        while True:
            with live.watching(progress_label(len(done), total, time_now() - started, player)):
                found = next(moves, None)
            if found is None:
                break
            if live.interrupted:  # its search was cut short: the moves before it stand
                raise KeyboardInterrupt
            done.append(found)
    except KeyboardInterrupt as stopped:
        stopped.add_note(f"after analysing {counted(len(done), 'move')}, printed above")
        raise
    finally:
        analysis = Analysis.of(record, player.spec, done)
        if as_json:
            emit_json(analysis.as_json())
        else:
            out.print(analysis_table(game, analysis))
            out.print(decisive_line(game, analysis))
    if keep is not None:
        store_analysis(keep, analysis.as_json()["moves"])


def store_analysis(path: Path, moves: object) -> None:
    """analyze --write: the analysis stored in the record it was made of, written whole."""
    from rich.markup import escape

    from nimmax.files import CannotWrite, read_text, write_atomic
    from nimmax.match import MAX_RECORD_BYTES, BadRecord
    from nimmax.recorded import with_analysis

    stored = with_analysis(read_text(path, MAX_RECORD_BYTES, "a record", BadRecord), moves)  # type: ignore[arg-type]
    try:
        write_atomic(path, stored)
    except OSError as error:
        raise CannotWrite("the analysis", path, error) from None
    err.print(
        f"[dim]analysis stored in {escape(str(path))}: nimmax replay shows it with the a key[/dim]"
    )
