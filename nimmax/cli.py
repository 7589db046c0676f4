"""The thin Typer layer: each command parses, makes one library call, renders.

Game words after a command are the registry's own (`nim 2 3 5 --normal`): options the
command does not know are passed on to the game. Exit codes: 0 done, 1 failure (an output
that cannot be written: one line; a broken pipe: silent), 2 bad usage or input (one line on
stderr), 130 interrupted by Ctrl-C, 143 by SIGTERM (one line saying what was kept; see
`nimmax.interrupt` for how a command keeps its partial work).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from nimmax import duel, games, interrupt
from nimmax.files import CannotWrite, check_writable
from nimmax.game import BadInput
from nimmax.numbers import MAX_DELAY, MAX_SEED, float_option, int_option
from nimmax.players import RANGES
from nimmax.search import MOVE_SECONDS, engine_for

# A command imports what it draws and runs inside its body: `nimmax --help` and a small
# solve start in a fraction of the time the whole console takes to import.

app = typer.Typer(
    name="nimmax",
    help="A game console for perfect-play game search: play, solve and compare engines.",
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
MAX_DEPTH = int(RANGES["depth"][1])
LEAST_TIME, MOST_TIME = RANGES["time"]  # solve --time, play --time and bench --limit: seconds of search
MAX_TREE_NODES = 10**6
"""The most nodes `tree --max-nodes` lets a tree have: more than any picture shows."""
DELAY = float_option("--delay", 0, MAX_DELAY)
DEPTH = int_option("--depth", 1, MAX_DEPTH)
TIME = float_option("--time", LEAST_TIME, MOST_TIME, or_inf=True)
LIMIT = float_option("--limit", LEAST_TIME, MOST_TIME)
MOVE_TIME = float_option("--time", LEAST_TIME, MOST_TIME)  # ladder: every move must end
SEED = int_option("--seed", 0, MAX_SEED)
TREE_NODES = int_option("--max-nodes", 1, MAX_TREE_NODES)
GAME_COUNT = int_option("--games", 1, duel.MAX_GAMES)
JOBS = int_option("--jobs", 1, duel.MAX_JOBS)
SEED_RANGE = "0 to 2^64-1"
GameWords = Annotated[list[str], typer.Argument(metavar="GAME [ARGS]...", help="Game name and its options.")]


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
    from nimmax.ui import views

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
            }
        )
        return
    out.print(views.games_table())
    out.print(views.players_table())


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
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """Value every move of a position exactly and name the best.

    With no limit it searches to the end of the game, showing its progress; Ctrl-C stops it
    and prints what it has (not proven), exit 130.
    [bold]Examples[/bold]:
    [cyan]nimmax solve nim 2 3 5[/cyan] ·
    [cyan]nimmax solve connect4 --time 10[/cyan] ·
    [cyan]nimmax solve nim 1 2 3 --normal --algorithm minimax:cache=off --json[/cyan]
    """
    from nimmax.solve import solution_record, solve
    from nimmax.ui import views
    from nimmax.ui.live import LiveSearch

    game = games.create(game_words)
    state = game.initial_state()
    live = LiveSearch(game, err, "Ctrl-C stops and shows the answer so far")
    with live.watching("solving"):
        result = solve(game, state, algorithm, depth, time, live)
    if as_json:
        emit_json(solution_record(game, state, algorithm, result, live.interrupted))
    elif game.is_terminal(state):
        out.print(f"The game is already over: value {result.value:+g} for {game.player_names[game.to_move(state)]}.")
    elif result.moves:
        out.print(views.solution_table(game, state, result))
        out.print(views.solution_summary(game, algorithm, result))
    if live.interrupted:  # main() prints "interrupted" and this note, and exits 130
        stopped = KeyboardInterrupt()
        stopped.add_note(views.partial_answer(result))
        raise stopped


@app.command("tree", context_settings=GAME_WORDS)
def tree_command(
    game_words: GameWords,
    algorithm: Annotated[str, typer.Option(help="minimax or alphabeta (pruned branches shown dimmed).")] = "minimax",
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
            console.save_svg(str(svg), title=f"nimmax tree {game.spec} --algorithm {algorithm}")
        except OSError as error:
            raise CannotWrite("the picture", svg, error) from None


@app.command("bench")
def bench_command(
    family_name: Annotated[str, typer.Argument(metavar="FAMILY", help="simple-nim, nim, split-nim or tictactoe.")],
    sizes: Annotated[str | None, typer.Option(help="Board sizes, e.g. 3,4 (each family has defaults).")] = None,
    k: Annotated[str | None, typer.Option("--k", help="tictactoe: winning line lengths, e.g. 3,4.")] = None,
    engines: Annotated[str, typer.Option("--algorithms", help="Engines to compare.")] = "minimax:cache=off,alphabeta",
    limit: Annotated[
        float,
        typer.Option(
            parser=str,
            callback=LIMIT,
            metavar="S",
            help=f"Seconds allowed per run, {LEAST_TIME:g} to {MOST_TIME:.0f}.",
        ),
    ] = 10.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the runs as JSON.")] = False,
) -> None:
    """Enlarge the board and watch minimax: exact searches per board size, nodes on a log scale.

    [bold]Examples[/bold]:
    [cyan]nimmax bench simple-nim --sizes 10,15,20[/cyan] ·
    [cyan]nimmax bench nim --sizes 2,3 --algorithms minimax,negamax,alphabeta --limit 5[/cyan] ·
    [cyan]nimmax bench tictactoe --sizes 3,4 --k 3,4 --algorithms minimax:cache=off,alphabeta --limit 60[/cyan]
    """
    from nimmax.bench import Row, algorithms, boards, family, parse_sizes, run_all
    from nimmax.ui.bench import bench_table, nodes_chart

    chosen = family(family_name)
    grid = boards(chosen, parse_sizes(chosen, "--sizes", sizes), parse_sizes(chosen, "--k", k))
    runs, rows = algorithms(engines), list[Row]()
    total = len(grid) * len(runs)
    try:
        with err.status("searching", spinner="dots") as status:
            for row in run_all(grid, runs, limit):
                rows.append(row)
                status.update(f"{len(rows)} of {total} runs done (last: {row.board}, {row.algorithm})")
    except KeyboardInterrupt as error:
        error.add_note(f"after {len(rows)} of {total} runs; those are printed" if rows else "before any run ended")
        raise
    finally:  # interrupted or not, the runs so far are printed
        if as_json:
            emit_json({"family": chosen.name, "limit": limit, "rows": [row.record() for row in rows]})
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

    At your turn type a move or hint, undo, moves, help, quit. An engine thinks 1 s a move
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
) -> None:
    """Step through a recorded game, position by position.

    [bold]Example[/bold]: [cyan]nimmax replay game.json --delay 0.2[/cyan]
    """
    from nimmax.ui import play

    pause = delay if delay is not None else (0.5 if out.is_terminal else 0.0)
    play.replay(play.read_record(file), out, pause)


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
        help=f"Games to play (per pairing in a tournament), 1 to {duel.MAX_GAMES}.",
    ),
]
JobsOption = Annotated[
    int,
    typer.Option(
        parser=str,
        callback=JOBS,
        metavar="N",
        help=f"Processes playing games in parallel, 1 to {duel.MAX_JOBS}; the same games either way.",
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


def exit_if_interrupted(event: duel.Event) -> None:
    """After the partial results are shown: re-raise the Ctrl-C or SIGTERM that cut the event short."""
    if event.interruption is not None:
        done = event.done
        kept = f"after {done} games; their results are printed" if done else "before any game ended"
        event.interruption.add_note(kept)
        raise event.interruption


@app.command("duel")
def duel_command(
    first: Annotated[str, typer.Argument(metavar="SPEC_A", help="First player spec, e.g. alphabeta:depth=4.")],
    second: Annotated[str, typer.Argument(metavar="SPEC_B", help="Second player spec, e.g. random.")],
    game: GameOption = None,
    count: GamesOption = 100,
    jobs: JobsOption = 1,
    seed: SeedOption = None,
    as_json: JsonOption = False,
) -> None:
    """Play two AI players against each other many times; the first mover alternates.

    Shows wins, losses, draws (95% Wilson intervals), wins per seat, time and nodes per move.
    Engines think at most 1 s a move unless their spec says otherwise
    ([cyan]alphabeta:time=0.1[/cyan], [cyan]alphabeta:depth=4[/cyan]).

    Ctrl-C stops the duel and still prints the games finished.

    [bold]Examples[/bold]:
    [cyan]nimmax duel alphabeta random --games 1000[/cyan] ·
    [cyan]nimmax duel alphabeta random --game "nim 2 3 5" --seed 7 --jobs 2[/cyan] ·
    [cyan]nimmax duel alphabeta:depth=2 alphabeta --game "simple-nim 13" --json[/cyan]
    """
    from nimmax.ui import duel as duel_views

    plan = duel.plan(game or duel.DEFAULT_GAME, [first, second], count, seed)
    event = duel_views.play(plan, jobs, err)
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
    seed: SeedOption = None,
    as_json: JsonOption = False,
) -> None:
    """Round robin: every player meets every other; prints a crosstable and Elo ratings.

    Ratings are maximum-likelihood Elo (draws count half), averaging 1500.

    [bold]Examples[/bold]:
    [cyan]nimmax tournament alphabeta alphabeta:depth=1 random --game "nim 2 3 5"[/cyan] ·
    [cyan]nimmax tournament alphabeta minimax:depth=2 random --games 50 --jobs 2 --json[/cyan]
    """
    from nimmax.ui import duel as duel_views

    plan = duel.plan(game or duel.DEFAULT_GAME, specs, count, seed)
    event = duel_views.play(plan, jobs, err)
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
            callback=MOVE_TIME,
            metavar="S",
            help=f"Seconds a move for every engine whose spec sets no limit, {LEAST_TIME:g} to {MOST_TIME:.0f}.",
            show_default=f"{MOVE_SECONDS:g}",
        ),
    ] = None,
    count: GamesOption = 10,
    jobs: JobsOption = 1,
    seed: SeedOption = None,
    as_json: JsonOption = False,
) -> None:
    """Rank engines on one game: a seeded round robin at a fixed time a move.

    Every pair plays --games games, colours alternating. Prints the crosstable, each player's
    score with its 95% interval, Elo (relative: the players' mean is 0) and nodes a second.
    Ctrl-C stops it and prints the table so far (exit 130).
    [bold]Examples[/bold]:
    [cyan]nimmax ladder connect4 --games 4 --time 0.1[/cyan] ·
    [cyan]nimmax ladder tictactoe --size 15 --k 5 --players alphabeta,alphabeta:depth=2 --seed 1[/cyan] ·
    [cyan]nimmax ladder kalah --players alphabeta:time=0.2,random --games 20 --jobs 2 --json[/cyan]
    """
    from nimmax import ladder
    from nimmax.ui import ladder as ladder_views

    plan = ladder.plan(games.create(game_words), ladder.split_players(players), time, count, seed)
    event = ladder_views.play(plan, jobs, err)
    if as_json:
        emit_json(ladder.ladder_record(event, time))
    else:
        out.print(ladder_views.ladder_summary(event, time))
    exit_if_interrupted(event)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and turn every outcome into its exit code and at most one line on stderr, never a traceback."""
    if sys.stdout is None:  # started with stdout closed: the output goes nowhere, as Rich's does
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - it is stdout until the process ends
    code = 0
    try:
        code = _invoke(sys.argv[1:] if argv is None else argv)
        sys.stdout.flush()  # output still buffered fails here, not at the interpreter's exit
    except OSError as error:
        _system_error(error)
        return code or 1
    return code


def _invoke(args: list[str]) -> int:
    """Run one command; its exit code, with the line that explains a failure said on stderr."""
    # Invoked directly rather than through app(): typer's standalone handling would turn
    # Ctrl-C into a bare exit 130 before anything could say what was kept.
    group = typer.main.get_command(app)
    context: Any = None
    try:
        with interrupt.raise_on_sigterm(), group.make_context("nimmax", list(args)) as context:
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
    except KeyboardInterrupt as error:
        _say(f"nimmax: {interrupt.summary(error)}")
        return interrupt.exit_code(error)
    except (typer.Abort, EOFError):
        _say("nimmax: interrupted")
        return 130
    except (RecursionError, MemoryError) as error:
        what = "a deeper stack" if isinstance(error, RecursionError) else "more memory"
        limits = _limits(group, context)
        hint = f"the search needs {what} than this machine allows; limit it with {' or '.join(limits)}"
        _say(f"nimmax: {hint}" if limits else f"nimmax: this needs {what} than this machine allows")
        return 1
    return 0


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
        _say(f"nimmax: {error.strerror or error}" + (f": {error.filename}" if error.filename else ""))


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
