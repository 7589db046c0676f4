"""The thin Typer layer: each command parses, makes one library call, renders.

Game words after a command are the registry's own (`nim 2 3 5 --normal`): options the
command does not know are passed on to the game. Exit codes: 0 done, 1 failure (an output
that cannot be written: one line; a broken pipe: silent), 2 bad usage or input (one line on
stderr), 130 interrupted by Ctrl-C, 143 by SIGTERM (one line saying what was kept; see
`nimmax.interrupt` for how a command keeps its partial work).
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from nimmax import games, interrupt
from nimmax.files import CannotWrite, check_writable, write_atomic
from nimmax.game import BadInput
from nimmax.guard import PluginFailed
from nimmax.numbers import MAX_DELAY, MAX_GAMES, MAX_JOBS, MAX_OPENING, MAX_SEED, float_option, int_option
from nimmax.players import limited
from nimmax.search import MOVE_SECONDS, engine_for
from nimmax.search.limits import DEPTH as DEPTH_LIMIT
from nimmax.search.limits import TIME as TIME_LIMIT
from nimmax.search.limits import override
from nimmax.search.stack import interpreter

if TYPE_CHECKING:
    from nimmax.duel import Event

# A command imports what it draws and runs inside its body: `nimmax --help` and a small
# solve start in a fraction of the time the whole console takes to import.

app = typer.Typer(
    name="nimmax",
    help=(
        "A game console for perfect-play game search: play, solve and compare engines.\n\n"
        "[bold]Examples[/bold]: [cyan]nimmax play nim 2 3 5[/cyan] · [cyan]nimmax games[/cyan] · "
        "[cyan]nimmax solve tictactoe[/cyan] · [cyan]nimmax COMMAND --help[/cyan]"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)
out = Console()
err = Console(stderr=True)

GAME_WORDS = {"allow_extra_args": True, "ignore_unknown_options": True}
# Every numeric option's text is read by nimmax.numbers within its range: typer hands over the
# text (parser=str) and the reader is the option's callback.
MAX_DEPTH = int(DEPTH_LIMIT.high)
LEAST_TIME, MOST_TIME = TIME_LIMIT.low, TIME_LIMIT.high  # every command's --time: seconds of search
MAX_TREE_NODES = 10**6
"""The most nodes `tree --max-nodes` lets a tree have: more than any picture shows."""
DELAY = float_option("--delay", 0, MAX_DELAY)
DEPTH = int_option("--depth", 1, MAX_DEPTH)
TIME = float_option("--time", LEAST_TIME, MOST_TIME, or_inf=True)
BENCH_TIME = float_option("--time", LEAST_TIME, MOST_TIME)
LIMIT = float_option("--limit", LEAST_TIME, MOST_TIME)  # bench's old spelling of --time
SEED = int_option("--seed", 0, MAX_SEED)
TREE_NODES = int_option("--max-nodes", 1, MAX_TREE_NODES)
MAX_PLAYOUTS = 10**6
PLAYOUTS = int_option("--playouts", 1, MAX_PLAYOUTS)
GAME_COUNT = int_option("--games", 1, MAX_GAMES)
JOBS = int_option("--jobs", 1, MAX_JOBS)
OPENING_PLIES = int_option("--openings", 0, MAX_OPENING)
SEED_RANGE = "0 to 2^64-1"
GameWords = Annotated[list[str], typer.Argument(metavar="GAME [ARGS]...", help="Game name and its options.")]


def show_version(wanted: bool) -> None:
    """`nimmax --version`: the version, then exit."""
    if wanted:
        from nimmax import __version__

        out.print(f"nimmax {__version__}", markup=False, highlight=False)
        raise typer.Exit


@app.callback()
def options(
    version: Annotated[
        bool, typer.Option("--version", callback=show_version, is_eager=True, help="Print the version and exit.")
    ] = False,
    traceback: Annotated[
        bool,
        typer.Option("--traceback", help="When a plugin's own code fails, show the whole traceback, not its one line."),
    ] = False,
) -> None:
    """The options of nimmax itself, before a command."""


def emit_json(record: Any) -> None:
    """Machine output: one JSON document on stdout, nothing else; flushed, so a write error is raised here."""
    sys.stdout.write(json.dumps(record, indent=2) + "\n")
    sys.stdout.flush()


@app.command("games")
def games_command(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List the games, their options, and the players.

    [bold]Examples[/bold]: [cyan]nimmax games[/cyan], [cyan]nimmax games --json[/cyan]
    """
    from nimmax.games import GAMES
    from nimmax.players import OPTIONS, SUMMARIES
    from nimmax.plugins import installed
    from nimmax.ui import views

    plugins = installed()
    if as_json:
        emit_json(
            {
                "games": [
                    {
                        "name": info.name,
                        "aliases": list(info.aliases),
                        "usage": info.usage,
                        "summary": info.summary,
                        "example": info.example,
                    }
                    for info in GAMES
                ],
                "players": [
                    {
                        "name": kind,
                        "summary": SUMMARIES[kind],
                        "options": [
                            {
                                "name": option.name,
                                "type": option.kind.__name__,
                                "default": option.default,
                                "help": option.help,
                            }
                            for option in options
                        ],
                    }
                    for kind, options in OPTIONS.items()
                ],
                "plugins": plugins,
            }
        )
        return
    out.print(views.games_table())
    out.print(views.players_table())
    if plugins:
        out.print(views.plugins_table(plugins))


@app.command("solve", context_settings=GAME_WORDS)
def solve_command(
    game_words: GameWords,
    algorithm: Annotated[str, typer.Option(help="Player spec of the engine, e.g. minimax:cache=off.")] = "alphabeta",
    depth: Annotated[
        int | None,
        typer.Option(parser=str, callback=DEPTH, metavar="N", help=f"Search depth limit in plies, 1 to {MAX_DEPTH}."),
    ] = None,
    time: Annotated[
        float | None,
        typer.Option(
            parser=str,
            callback=TIME,
            metavar="S",
            help=f"Seconds to search, deepening ply by ply: {LEAST_TIME:g} to {MOST_TIME:.0f}, or inf.",
            show_default="to the end",
        ),
    ] = None,
    every_move: Annotated[
        bool, typer.Option("--all", help="Show every move in the table, not only the best ten (--json lists all).")
    ] = False,
    explain: Annotated[
        bool, typer.Option("--explain", help="Show the best line and each other move's refutation as a tree.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """Value every move of a position exactly and name the best.

    With no limit it searches to the end of the game, showing its progress; Ctrl-C stops it
    and prints what it has (not proven), exit 130.
    [bold]Examples[/bold]:
    [cyan]nimmax solve nim 2 3 5[/cyan] ·
    [cyan]nimmax solve connect4 --time 10[/cyan] ·
    [cyan]nimmax solve tictactoe --size 15 --k 5 --time 5 --all[/cyan] ·
    [cyan]nimmax solve tictactoe --position x../.o./... --explain[/cyan] ·
    [cyan]nimmax solve nim 1 2 3 --normal --algorithm minimax:cache=off --json[/cyan]
    """
    from nimmax.solve import solution_record, solve, solver
    from nimmax.ui import views
    from nimmax.ui.live import LiveSearch
    from nimmax.ui.results import outcome

    game = games.create(game_words)
    state = game.initial_state()
    live = LiveSearch(game, err, "Ctrl-C stops and shows the answer so far")
    player = solver(algorithm, override(depth, time), live)
    with live.watching("solving"):
        result = solve(game, state, player=player)
    if as_json:
        emit_json(solution_record(game, state, algorithm, result, live.interrupted))
    elif game.is_terminal(state):
        out.print(f"The game is already over: {outcome(game, state, game.player_names)[0]}.")
    elif result.moves:
        out.print(views.solution_table(game, state, result, None if every_move else views.BEST_ROWS))
        out.print(views.solution_summary(game, algorithm, result, game.to_move(state)))
        if explain and not live.interrupted:
            from nimmax.explain import lines
            from nimmax.ui.why import explain_tree

            with live.watching("explaining"):
                found = lines(game, state, player, result)
            out.print(explain_tree(game, state, found, result.depth))
    if live.interrupted:  # main() prints "interrupted" and this note, and exits 130
        stopped = KeyboardInterrupt()
        stopped.add_note(views.partial_answer(result))
        raise stopped


@app.command("tree", context_settings=GAME_WORDS)
def tree_command(
    game_words: GameWords,
    algorithm: Annotated[
        str,
        typer.Option(
            help=(
                "minimax or alphabeta (pruned branches shown dimmed). The default is minimax, not solve's "
                "alphabeta: the whole tree is the picture, and alphabeta's cuts are best seen against it."
            )
        ),
    ] = "minimax",
    max_nodes: Annotated[
        int,
        typer.Option(
            parser=str,
            callback=TREE_NODES,
            metavar="N",
            help=f"Refuse trees with more nodes than this, 1 to {MAX_TREE_NODES}.",
        ),
    ] = 2_000,
    svg: Annotated[
        Path | None,
        typer.Option(
            callback=lambda path: check_writable(path, "the picture"), help="Also write the picture to this SVG file."
        ),
    ] = None,
) -> None:
    """Draw the whole game tree: every position, the side to move (Max or Min) and its value.

    [bold]Examples[/bold]:
    [cyan]nimmax tree plates[/cyan] ·
    [cyan]nimmax tree simple-nim 6 --algorithm alphabeta[/cyan] ·
    [cyan]nimmax tree nim 2 2 --algorithm alphabeta --svg nim.svg[/cyan]
    """
    from nimmax.tree import explore
    from nimmax.ui.tree import tree_picture

    game = games.create(game_words)
    explored = explore(game, game.initial_state(), algorithm, max_nodes)
    console = Console(record=True) if svg is not None else out
    console.print(tree_picture(game, explored))
    if svg is not None:
        try:
            write_atomic(svg, console.export_svg(title=f"nimmax tree {game.spec} --algorithm {algorithm}"))
        except OSError as error:
            raise CannotWrite("the picture", svg, error) from None


OLD_NAMES = {"--algorithms": "--algorithm", "--limit": "--time"}
"""Options renamed to the shared vocabulary; the old spellings work for one more release, with a note."""


def renamed(old: str, value: Any, new_value: Any) -> Any:
    """The value of an option given by its old name (`--limit`), with a note on stderr; else the new one's."""
    if value is None:
        return new_value
    _say(f"nimmax: {old} is now {OLD_NAMES[old]}; the old spelling goes in the next release")
    return value


@app.command("bench")
def bench_command(
    family_name: Annotated[str, typer.Argument(metavar="FAMILY", help="simple-nim, nim, split-nim or tictactoe.")],
    sizes: Annotated[str | None, typer.Option(help="Board sizes, e.g. 3,4 (each family has defaults).")] = None,
    k: Annotated[str | None, typer.Option("--k", help="tictactoe: winning line lengths, e.g. 3,4.")] = None,
    algorithm: Annotated[
        str,
        typer.Option(
            "--algorithm",
            metavar="LIST",
            help="Engines to compare, comma-separated; plain minimax is the point of the bench, alpha-beta its foil.",
        ),
    ] = "minimax:cache=off,alphabeta",
    time: Annotated[
        float,
        typer.Option(
            parser=str,
            callback=BENCH_TIME,
            metavar="S",
            help=f"Seconds allowed per run, {LEAST_TIME:g} to {MOST_TIME:.0f}.",
        ),
    ] = 10.0,
    old_algorithms: Annotated[str | None, typer.Option("--algorithms", hidden=True)] = None,
    old_limit: Annotated[float | None, typer.Option("--limit", parser=str, callback=LIMIT, hidden=True)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the runs as JSON.")] = False,
) -> None:
    """Enlarge the board and watch minimax: exact searches per board size, nodes on a log scale.

    An algorithm that runs out of time (or stack) on a board skips every board at least as large.
    The progress line names the run in progress and its time.
    [bold]Examples[/bold]:
    [cyan]nimmax bench simple-nim --sizes 10,15,20[/cyan] ·
    [cyan]nimmax bench nim --sizes 2,3 --algorithm minimax,negamax,alphabeta --time 5[/cyan] ·
    [cyan]nimmax bench tictactoe --sizes 3,4 --k 3,4 --algorithm minimax:cache=off,alphabeta --time 60[/cyan]
    """
    from nimmax.bench import Row, algorithms, boards, family, parse_sizes, run_all
    from nimmax.ui.bench import BenchProgress, bench_table, nodes_chart

    engines = renamed("--algorithms", old_algorithms, algorithm)
    limit = renamed("--limit", old_limit, time)
    chosen = family(family_name)
    grid = boards(chosen, parse_sizes(chosen, "--sizes", sizes), parse_sizes(chosen, "--k", k))
    runs, rows = algorithms(engines), list[Row]()
    progress = BenchProgress(len(grid) * len(runs))
    try:
        with err.status(progress, spinner="dots"):
            for row in run_all(grid, runs, limit, progress.starting):
                rows.append(row)
                progress.finished(row)
    except KeyboardInterrupt as error:
        done = f"after {len(rows)} of {progress.total} runs; those are printed"
        error.add_note(done if rows else "before any run ended")
        raise
    finally:  # interrupted or not, the runs so far are printed
        if as_json:
            emit_json({"family": chosen.name, "time": limit, "limit": limit, "rows": [row.record() for row in rows]})
        else:
            out.print(bench_table(rows, limit))
            out.print(nodes_chart(rows, out.width))


@app.command("play", context_settings=GAME_WORDS)
def play_command(
    game_words: GameWords,
    first: Annotated[str, typer.Option(help="Player spec of the first seat.")] = "human",
    second: Annotated[
        str | None,
        typer.Option(
            help="Player spec of the second seat.", show_default="alphabeta (expectimax where chance is averaged)"
        ),
    ] = None,
    time: Annotated[
        float | None,
        typer.Option(
            parser=str,
            callback=TIME,
            metavar="S",
            help=(
                "Seconds a move for every engine whose spec sets no limit, "
                f"{LEAST_TIME:g} to {MOST_TIME:.0f} (inf: search to the end)."
            ),
            show_default=f"{MOVE_SECONDS:g}",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(parser=str, callback=SEED, metavar="N", help=f"Seed for random players and chance, {SEED_RANGE}."),
    ] = None,
    delay: Annotated[
        float,
        typer.Option(
            parser=str, callback=DELAY, metavar="S", help=f"Pause after each engine move, 0 to {MAX_DELAY:g} s."
        ),
    ] = 0.0,
    record: Annotated[
        Path | None,
        typer.Option(
            callback=lambda path: check_writable(path, "the record"), help="Write the game to this JSON file."
        ),
    ] = None,
) -> None:
    """Play a game: you against an engine, engines against each other, or two people.

    At your turn type a move or hint, why, undo, moves, help, quit. An engine thinks 1 s a move
    unless told otherwise ([cyan]--time S[/cyan] for every engine, or a spec's own
    [cyan]alphabeta:time=S[/cyan] / [cyan]depth=N[/cyan]); where it proves the position in
    that time it plays perfectly. Ctrl-C while it thinks makes it move now; twice ends the game.
    [bold]Examples[/bold]:
    [cyan]nimmax play nim 2 3 5[/cyan] ·
    [cyan]nimmax play tictactoe --size 4 --k 3[/cyan] ·
    [cyan]nimmax play connect4 --time 5[/cyan] (a stronger opponent) ·
    [cyan]nimmax play 2048[/cyan] (arrow keys) ·
    [cyan]nimmax play kalah --first alphabeta:depth=6 --second random --delay 0.3[/cyan] ·
    [cyan]nimmax play nim 3 4 5 --first alphabeta --second random:seed=3 --record game.json[/cyan]
    """
    from nimmax.ui import play  # prompt_toolkit loads only for the commands that play

    game = games.create(game_words)
    if game.players == 1 and second is not None:
        raise BadInput(f"{game.name} is a one-player game: give only --first")
    specs = [first] if game.players == 1 else [first, second or engine_for(game).name]
    play.play(game, specs, out, seed=seed, delay=delay, record=record, time_limit=time)


PluginOption = Annotated[
    str | None,
    typer.Option(
        metavar="FILE",
        help="The plugin a plugin game's record needs: its file (or module, or installed name). "
        "A record never runs code you did not name.",
    ),
]


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A record written by play --record.")],
    delay: Annotated[
        float | None,
        typer.Option(
            parser=str,
            callback=DELAY,
            metavar="S",
            help=f"Pause between moves, 0 to {MAX_DELAY:g} s.",
            show_default="0.5 on a terminal, else 0",
        ),
    ] = None,
    analyze: Annotated[
        bool, typer.Option("--analyze", help="Then analyse every move, as nimmax analyze does (its defaults).")
    ] = False,
    plugin: PluginOption = None,
) -> None:
    """Step through a recorded game, position by position.

    [bold]Examples[/bold]: [cyan]nimmax replay game.json --delay 0.2[/cyan] ·
    [cyan]nimmax replay game.json --analyze[/cyan]
    """
    from nimmax.ui import play

    record = play.read_record(file, plugin)
    pause = delay if delay is not None else (0.5 if out.is_terminal else 0.0)
    play.replay(record, out, pause)
    if analyze:
        _analyze(record, None, None, as_json=False)


@app.command("analyze")
def analyze_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A record written by play --record.")],
    algorithm: Annotated[
        str | None,
        typer.Option(help="Player spec of the engine that values the positions.", show_default="the game's engine"),
    ] = None,
    time: Annotated[
        float | None,
        typer.Option(
            parser=str,
            callback=TIME,
            metavar="S",
            help=f"Seconds per position, deepening: {LEAST_TIME:g} to {MOST_TIME:.0f}, or inf (each to the end).",
            show_default=f"{MOVE_SECONDS:g} s, less in a game of over 60 moves (a minute in all)",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON.")] = False,
    plugin: PluginOption = None,
) -> None:
    """Value every move of a recorded game against the best, and name the mistake that decided it.

    Each position is valued exactly where the engine proves it in its time, else estimated.
    Verdicts: best; good (keeps the outcome); mistake (changes the proven outcome); inaccuracy
    (an estimate that gives up more than a fifth of the best value). Ctrl-C prints the moves
    analysed so far, exit 130.
    [bold]Examples[/bold]: [cyan]nimmax analyze game.json[/cyan] ·
    [cyan]nimmax analyze game.json --algorithm alphabeta:time=inf --json[/cyan]
    """
    from nimmax.ui import play

    _analyze(play.read_record(file, plugin), algorithm, time, as_json)


def _analyze(record: Any, algorithm: str | None, time: float | None, as_json: bool) -> None:
    """Analyse a record and print the table (or JSON); Ctrl-C prints the moves analysed so far."""
    from nimmax.analyze import Analysis, analyst, choices, judged
    from nimmax.ui.live import LiveSearch
    from nimmax.ui.views import counted
    from nimmax.ui.why import analysis_table, decisive_line

    game = games.create(record.game)
    live = LiveSearch(game, err, "Ctrl-C stops and shows the moves analysed so far")
    player = analyst(game, algorithm, override(time=time), live, choices(record))
    done: list[Any] = []
    moves = judged(record, player)
    try:
        while True:
            with live.watching(f"analysing move {len(done) + 1}"):
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


@app.command("check", context_settings=GAME_WORDS)
def check_command(
    game_words: GameWords,
    playouts: Annotated[
        int,
        typer.Option(
            parser=str,
            callback=PLAYOUTS,
            metavar="N",
            help=f"Random playouts to try the laws on, 1 to {MAX_PLAYOUTS:,}.",
        ),
    ] = 100,
    seed: Annotated[
        int, typer.Option(parser=str, callback=SEED, metavar="N", help=f"Seed of the playouts, {SEED_RANGE}.")
    ] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the findings as JSON.")] = False,
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

    from nimmax.check import check, position_reader
    from nimmax.ui.check import report_table, verdict_line

    game = games.create(game_words)
    with Progress(console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("playouts", total=playouts)
        report = check(
            game, playouts, seed, position_reader(game_words), lambda done, total: progress.update(task, completed=done)
        )
    if as_json:
        emit_json(report.as_json())
    else:
        out.print(report_table(report))
        out.print(verdict_line(report))
    if report.interruption is not None:
        report.interruption.add_note(f"after {report.positions:,} positions; the findings so far are printed")
        raise report.interruption
    if not report.holds:
        raise typer.Exit(1)


GameOption = Annotated[
    str | None,
    typer.Option(
        "--game", metavar="GAME ARGS", help='Game words in quotes, e.g. "nim 2 3 5". Default: tictactoe (3x3).'
    ),
]
GamesOption = Annotated[
    int,
    typer.Option(
        "--games",
        parser=str,
        callback=GAME_COUNT,
        metavar="N",
        help=f"Games to play (per pairing in a tournament), 1 to {MAX_GAMES}.",
    ),
]
JobsOption = Annotated[
    int,
    typer.Option(
        parser=str,
        callback=JOBS,
        metavar="N",
        help=f"Processes of the local backend playing games in parallel, 1 to {MAX_JOBS}; the same games either way.",
    ),
]
BackendOption = Annotated[
    str,
    typer.Option(
        metavar="local|ray",
        help="Where the games are played: this machine's processes, or a Ray cluster (pip install 'nimmax\\[ray]'); "
        "the same games either way.",
    ),
]
AddressOption = Annotated[
    str | None,
    typer.Option(
        metavar="ADDR",
        help="The Ray cluster to join, as ray.init takes it: auto (the one running here) or HOST:6379. "
        "Default: a Ray started on this machine for the event.",
    ),
]
SeedOption = Annotated[
    int | None,
    typer.Option(
        parser=str,
        callback=SEED,
        metavar="N",
        help=f"Seed of every game's random draws, {SEED_RANGE} (default: drawn, shown).",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
MoveTimeOption = Annotated[
    float | None,
    typer.Option(
        parser=str,
        callback=TIME,
        metavar="S",
        help=(
            "Seconds a move for every engine whose spec sets no limit, "
            f"{LEAST_TIME:g} to {MOST_TIME:.0f} (inf: search to the end), as play's --time."
        ),
        show_default=f"{MOVE_SECONDS:g}",
    ),
]


def exit_if_interrupted(event: Event) -> None:
    """After the partial results are shown: re-raise the Ctrl-C or SIGTERM that cut the event short;
    exit 1 when blocks were given up (a Ray worker lost twice)."""
    if event.interruption is not None:
        done = event.done
        kept = f"after {done} games; their results are printed" if done else "before any game ended"
        if done == 1:
            kept = "after 1 game; its result is printed"
        event.interruption.add_note(kept)
        raise event.interruption
    if event.failed:
        lost = sum(block.count for block in event.failed)
        blocks = "1 block" if len(event.failed) == 1 else f"{len(event.failed)} blocks"
        _say(f"nimmax: {blocks} of {lost} games lost their worker twice; the other games' results are printed")
        raise typer.Exit(1)


@app.command("duel")
def duel_command(
    first: Annotated[str, typer.Argument(metavar="SPEC_A", help="First player spec, e.g. alphabeta:depth=4.")],
    second: Annotated[str, typer.Argument(metavar="SPEC_B", help="Second player spec, e.g. random.")],
    game: GameOption = None,
    count: GamesOption = 100,
    jobs: JobsOption = 1,
    backend: BackendOption = "local",
    address: AddressOption = None,
    seed: SeedOption = None,
    time: MoveTimeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Play two AI players against each other many times; the first mover alternates.

    Shows wins, losses, draws (95% Wilson intervals), wins per seat, time and nodes per move.
    Engines think at most 1 s a move unless told otherwise ([cyan]--time S[/cyan] for every engine,
    or a spec's own [cyan]alphabeta:time=0.1[/cyan], [cyan]alphabeta:depth=4[/cyan]).

    Ctrl-C stops the duel and still prints the games finished.

    [bold]Examples[/bold]:
    [cyan]nimmax duel alphabeta random --games 1000[/cyan] ·
    [cyan]nimmax duel alphabeta random --game "nim 2 3 5" --seed 7 --jobs 2[/cyan] ·
    [cyan]nimmax duel alphabeta:depth=2 alphabeta --game "simple-nim 13" --json[/cyan] ·
    [cyan]nimmax duel alphabeta expectimax --game "2048 --size 3" --games 10 --time 0.1[/cyan] ·
    [cyan]nimmax duel alphabeta:depth=2 random --games 2000 --backend ray --address auto[/cyan]
    """
    from nimmax import duel
    from nimmax.ui import duel as duel_views

    plan = duel.plan(
        game or duel.DEFAULT_GAME,
        [limited(spec, override(time=time)) for spec in (first, second)],
        count,
        seed,
    )
    event = duel_views.play(plan, jobs, err, backend, address)
    if as_json:
        emit_json(duel.pairing_record(event, event.pairings[0]))
    else:
        out.print(duel_views.duel_summary(event))
    exit_if_interrupted(event)


@app.command("tournament")
def tournament_command(
    specs: Annotated[list[str], typer.Argument(metavar="SPEC SPEC...", help="Two or more player specs.")],
    game: GameOption = None,
    count: GamesOption = 20,
    jobs: JobsOption = 1,
    backend: BackendOption = "local",
    address: AddressOption = None,
    seed: SeedOption = None,
    time: MoveTimeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Round robin: every player meets every other; prints a crosstable and Elo ratings.

    Ratings are maximum-likelihood Elo (draws count half), averaging 1500.

    [bold]Examples[/bold]:
    [cyan]nimmax tournament alphabeta alphabeta:depth=1 random --game "nim 2 3 5"[/cyan] ·
    [cyan]nimmax tournament alphabeta minimax:depth=2 random --games 50 --jobs 2 --json[/cyan] ·
    [cyan]nimmax tournament alphabeta alphabeta:depth=1 random --backend ray --address auto[/cyan]
    """
    from nimmax import duel
    from nimmax.ui import duel as duel_views

    plan = duel.plan(game or duel.DEFAULT_GAME, [limited(spec, override(time=time)) for spec in specs], count, seed)
    event = duel_views.play(plan, jobs, err, backend, address)
    if as_json:
        emit_json(duel.tournament_record(event))
    else:
        out.print(duel_views.tournament_summary(event))
    exit_if_interrupted(event)


@app.command("ladder", context_settings=GAME_WORDS)
def ladder_command(
    game_words: GameWords,
    players: Annotated[
        str,
        typer.Option(
            metavar="SPEC,SPEC...",
            help="The players, specs separated by commas (a spec's own options too: alphabeta:depth=2,time=1,random).",
        ),
    ] = "alphabeta,alphabeta:depth=2,random",
    time: Annotated[
        float | None,
        typer.Option(
            parser=str,
            callback=BENCH_TIME,
            metavar="S",
            help=f"Seconds a move for every engine whose spec sets no limit, {LEAST_TIME:g} to {MOST_TIME:.0f}.",
            show_default=f"{MOVE_SECONDS:g}",
        ),
    ] = None,
    count: GamesOption = 10,
    openings: Annotated[
        int,
        typer.Option(
            parser=str,
            callback=OPENING_PLIES,
            metavar="N",
            help=f"Random plies (from the seed) each pair of colour-swapped games starts from, 0 to {MAX_OPENING}.",
        ),
    ] = 4,
    jobs: JobsOption = 1,
    seed: SeedOption = None,
    as_json: JsonOption = False,
) -> None:
    """Rank engines on one game: a seeded round robin at a fixed time a move.

    Every pair plays --games games, colours alternating, each two from the same random opening.
    Prints the crosstable, each player's score with its 95% interval, Elo (relative: the
    players' mean is 0) and nodes a second.
    Ctrl-C stops it and prints the table so far (exit 130).
    [bold]Examples[/bold]:
    [cyan]nimmax ladder connect4 --games 4 --time 0.1[/cyan] ·
    [cyan]nimmax ladder tictactoe --size 15 --k 5 --players alphabeta,alphabeta:depth=2 --seed 1[/cyan] ·
    [cyan]nimmax ladder kalah --players alphabeta:time=0.2,random --games 20 --jobs 2 --json[/cyan]
    """
    from nimmax import ladder
    from nimmax.ui import ladder as ladder_views

    plan = ladder.plan(games.create(game_words), ladder.split_players(players), time, count, seed, openings)
    event = ladder_views.play(plan, jobs, err)
    if as_json:
        emit_json(ladder.ladder_record(event, time))
    else:
        out.print(ladder_views.ladder_summary(event, time))
    exit_if_interrupted(event)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and turn every outcome into its exit code and at most one line on stderr, never a traceback."""
    _open_closed_streams()
    _plain_streams()
    code = 0
    try:
        code = _invoke(sys.argv[1:] if argv is None else argv)
        sys.stdout.flush()  # output still buffered fails here, not at the interpreter's exit
    except OSError as error:
        _system_error(error)
        return code or 1
    return code


ASCII_MARKS = {
    "·": "-",
    "…": ".",
    "—": "-",
    "–": "-",
    "›": ">",
    "←": "<",
    "→": ">",
    "↑": "^",
    "≤": "<",
    "≥": ">",
    "●": "o",
    "○": ".",
    "◀": "<",
    "▶": ">",
    "✂": "x",
    "█": "#",
    **dict.fromkeys("▏▎▍▌▋▊▉", "+"),  # a bar's last part
    "è": "e",
    "×": "x",
    "²": "2",
}
"""What nimmax's own marks become on a stream that speaks only ASCII (anything else: `?`): one character
for one, so what Rich lined up stays lined up. Rich draws its boxes in ASCII there by itself."""


def _ascii_marks(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler behind ASCII_MARKS."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    return "".join(ASCII_MARKS.get(character, "?") for character in text), error.end


def _plain_streams() -> None:
    """Stdout and stderr whose encoding cannot write nimmax's marks (`PYTHONIOENCODING=ascii`, a C locale)
    write them as ASCII_MARKS rather than fail."""
    codecs.register_error("nimmax-ascii", _ascii_marks)
    for stream in (sys.stdout, sys.stderr):
        try:
            "".join(ASCII_MARKS).encode(stream.encoding or "ascii")
        except (UnicodeError, LookupError):
            if isinstance(stream, io.TextIOWrapper):
                stream.reconfigure(errors="nimmax-ascii")


def _open_closed_streams() -> None:
    """Started with stdin, stdout or stderr closed (`<&-`): it reads as ended, and output goes nowhere, as
    Rich's does. Opened in order, each takes its own descriptor (0, 1, 2), so no file opened later does."""
    if sys.stdin is None:
        sys.stdin = open(os.devnull)  # noqa: SIM115 - it is stdin until the process ends
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - likewise
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - likewise


def _invoke(args: list[str]) -> int:
    """Run one command; its exit code, with the line that explains a failure said on stderr."""
    # Invoked directly rather than through app(): typer's standalone handling would turn
    # Ctrl-C into a bare exit 130 before anything could say what was kept.
    group = typer.main.get_command(app)
    context: Any = None
    try:
        with interrupt.raise_on_sigterm(), interpreter(), group.make_context("nimmax", list(args)) as context:
            group.invoke(context)
    except typer.Exit as stop:
        return stop.exit_code
    except SystemExit as stop:  # Rich's answer to a broken pipe: stdout already points to devnull
        return stop.code if isinstance(stop.code, int) else 1
    except typer.TyperException as error:
        show = getattr(error, "show", None)  # usage errors also print the command's usage line
        if show is not None:
            show()
        else:
            _say(f"nimmax: {error.format_message()}")
        return 2 if error.exit_code == 2 else error.exit_code
    except BadInput as error:
        _say(f"nimmax: {error}")
        return 2
    except PluginFailed as error:
        if _asked_for_traceback(args):
            raise
        _say(f"nimmax: a plugin failed: {error}{TRACEBACK_HINT}")
        return 2
    except KeyboardInterrupt as error:
        _say(f"nimmax: {interrupt.summary(error)}")
        return interrupt.exit_code(error)
    except (typer.Abort, EOFError):
        _say("nimmax: interrupted")
        return 130
    except (RecursionError, MemoryError) as error:
        if _plugin_failed(error, args):
            return 2
        what = "a deeper stack" if isinstance(error, RecursionError) else "more memory"
        limits = _limits(group, context)
        hint = f"the search needs {what} than this machine allows; limit it with {' or '.join(limits)}"
        _say(f"nimmax: {hint}" if limits else f"nimmax: this needs {what} than this machine allows")
        return 1
    except Exception as error:
        if _plugin_failed(error, args):
            return 2
        raise
    return 0


def _asked_for_traceback(args: list[str]) -> bool:
    """Whether `--traceback`, nimmax's own option, comes before the command."""
    for arg in args:
        if arg == "--traceback":
            return True
        if not arg.startswith("-"):
            return False
    return False


def _plugin_failed(error: BaseException, args: list[str]) -> bool:
    """Say in one line where a plugin's own code failed (file, line, message), unless asked for the
    traceback; False when the error did not come from a plugin (nimmax's own bug: a traceback)."""
    plugins = sys.modules.get("nimmax.plugins")
    where = plugins.blame(error) if plugins is not None else None
    if where is None or _asked_for_traceback(args):
        return False
    _say(f"nimmax: a plugin failed: {where}{TRACEBACK_HINT}")
    return True


TRACEBACK_HINT = " (nimmax --traceback ... shows the whole traceback)"


LIMITS = ("--depth", "--time")
"""The options that bound a search, named in the hint when the running command has them."""


def _limits(group: Any, context: Any) -> list[str]:
    """The LIMITS options of the command `context` ran (none when it did not get that far)."""
    name = None if context is None else context.invoked_subcommand
    command = None if name is None else group.get_command(context, name)
    options = set() if command is None else {option for param in command.params for option in param.opts}
    return [option for option in LIMITS if option in options]


def _say(line: str) -> None:
    """One line on stderr, unless stderr itself cannot be written."""
    with contextlib.suppress(OSError):
        err.print(line, markup=False, highlight=False, soft_wrap=True)


def _system_error(error: OSError) -> None:
    """An output (or other system) error: one line; none for a broken pipe, whose reader left on purpose.

    Stdout that still fails to flush is pointed at devnull, so the interpreter's own flush at
    exit has nothing left to fail on (the way the Python docs handle SIGPIPE).
    """
    try:
        sys.stdout.flush()
    except OSError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    if error.errno != errno.EPIPE:
        notes = "".join(f"; {note}" for note in getattr(error, "__notes__", []))  # what was kept, and where
        _say(f"nimmax: {error.strerror or error}" + (f": {error.filename}" if error.filename else "") + notes)


def run() -> None:
    """The console-script entry of installs made before it moved to `nimmax.__main__.run`: the same run."""
    from nimmax.__main__ import run

    run()
