"""The commands that play many games: `duel`, `tournament`, `ladder`; partial results are printed
when Ctrl-C or SIGTERM cuts the event short."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from nimmax.cli.options import (
    GAME_WORDS,
    MOVE,
    EventSeed,
    Games,
    GameWords,
    Jobs,
    Json,
    MoveTime,
    count_option,
    seconds_option,
)
from nimmax.cli.root import app, emit_json, err, out, say
from nimmax.numbers import MAX_OPENING
from nimmax.search.limits import MOVE_SECONDS, override

if TYPE_CHECKING:
    from nimmax.duel import Event

GameOption = Annotated[
    str | None,
    typer.Option(
        "--game",
        metavar="GAME ARGS",
        help='Game words in quotes, e.g. "nim 2 3 5". Default: tictactoe (3x3).',
    ),
]
Backend = Annotated[
    str,
    typer.Option(
        metavar="local|ray",
        help="Where the games are played: this machine's processes, or a Ray cluster (pip install "
        "'nimmax\\[ray]'); "
        "the same games either way.",
    ),
]
Address = Annotated[
    str | None,
    typer.Option(
        metavar="ADDR",
        help="The Ray cluster to join, as ray.init takes it: auto (the one running here) or "
        "HOST:6379. "
        "Default: a Ray started on this machine for the event.",
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
        say(
            f"nimmax: {blocks} of {lost} games lost their worker twice; the other games' results "
            "are printed"
        )
        raise typer.Exit(1)


@app.command("duel")
def duel_command(
    first: Annotated[
        str, typer.Argument(metavar="SPEC_A", help="First player spec, e.g. alphabeta:depth=4.")
    ],
    second: Annotated[
        str, typer.Argument(metavar="SPEC_B", help="Second player spec, e.g. random.")
    ],
    game: GameOption = None,
    count: Games = 100,
    jobs: Jobs = 1,
    backend: Backend = "local",
    address: Address = None,
    seed: EventSeed = None,
    time: MoveTime = None,
    as_json: Json = False,
) -> None:
    """Play two AI players against each other many times; the first mover alternates.

    Shows wins, losses, draws (95% Wilson intervals), wins per seat, time and nodes per move.
    Engines think at most 1 s a move unless told otherwise ([cyan]--time S[/cyan] for every engine,
    or a spec's own [cyan]alphabeta:time=0.1[/cyan], [cyan]alphabeta:depth=4[/cyan]).

    Ctrl-C stops the duel and still prints the games finished.

    [bold]Examples[/bold]: [cyan]nimmax duel alphabeta random --games 1000[/cyan] · [cyan]nimmax
    duel alphabeta random --game "nim 2 3 5" --seed 7 --jobs 2[/cyan] · [cyan]nimmax duel
    alphabeta:depth=2 alphabeta --game "simple-nim 13" --json[/cyan] · [cyan]nimmax duel
    alphabeta:depth=2 expectimax:depth=2 --game "2048 --size 3" --games 10[/cyan] · [cyan]nimmax
    duel alphabeta:depth=2 random --games 2000 --backend ray --address auto[/cyan]
    """
    from nimmax import duel
    from nimmax.commands.events import run_event
    from nimmax.players import limited, parse_spec
    from nimmax.ui import duel as duel_views

    plan = duel.plan(
        game or duel.DEFAULT_GAME,
        [limited(parse_spec(spec), override(time=time)) for spec in (first, second)],
        count,
        seed,
    )
    event = run_event(plan, jobs, duel_views.event_view(err), backend, address)
    if as_json:
        emit_json(duel.pairing_record(event, event.pairings[0]))
    else:
        out.print(duel_views.duel_summary(event))
    exit_if_interrupted(event)


@app.command("tournament")
def tournament_command(
    specs: Annotated[
        list[str], typer.Argument(metavar="SPEC SPEC...", help="Two or more player specs.")
    ],
    game: GameOption = None,
    count: Games = 20,
    jobs: Jobs = 1,
    backend: Backend = "local",
    address: Address = None,
    seed: EventSeed = None,
    time: MoveTime = None,
    as_json: Json = False,
) -> None:
    """Round robin: every player meets every other; prints a crosstable and Elo ratings.

    Ratings are maximum-likelihood Elo (draws count half), averaging 1500.

    [bold]Examples[/bold]:
    [cyan]nimmax tournament alphabeta alphabeta:depth=1 random --game "nim 2 3 5"[/cyan] ·
    [cyan]nimmax tournament alphabeta minimax:depth=2 random --games 50 --jobs 2 --json[/cyan] ·
    [cyan]nimmax tournament alphabeta alphabeta:depth=1 random --backend ray --address auto[/cyan]
    """
    from nimmax import duel
    from nimmax.commands.events import run_event
    from nimmax.players import limited, parse_spec
    from nimmax.ui import duel as duel_views

    entrants = [limited(parse_spec(spec), override(time=time)) for spec in specs]
    plan = duel.plan(game or duel.DEFAULT_GAME, entrants, count, seed)
    event = run_event(plan, jobs, duel_views.event_view(err), backend, address)
    if as_json:
        emit_json(duel.tournament_record(event))
    else:
        out.print(duel_views.tournament_summary(event, duel.final_standings(event)))
    exit_if_interrupted(event)


@app.command("ladder", context_settings=dict(GAME_WORDS))
def ladder_command(
    game_words: GameWords,
    players: Annotated[
        str,
        typer.Option(
            metavar="SPEC,SPEC...",
            help="The players, specs separated by commas (a spec's own options too: "
            "alphabeta:depth=2,time=1,random).",
        ),
    ] = "alphabeta,alphabeta:depth=2,random",
    time: Annotated[
        float | None, seconds_option(MOVE, unlimited=False, show_default=f"{MOVE_SECONDS:g}")
    ] = None,
    count: Games = 10,
    openings: Annotated[
        int,
        count_option(
            "--openings",
            MAX_OPENING,
            "Random plies (from the seed) each pair of colour-swapped games starts from",
            least=0,
        ),
    ] = 4,
    jobs: Jobs = 1,
    seed: EventSeed = None,
    as_json: Json = False,
) -> None:
    """Rank engines on one game: a seeded round robin at a fixed time a move.

    Every pair plays --games games, colours alternating, each two from the same random opening.
    Prints the crosstable, each player's score with its 95% interval, Elo (relative: the players'
    mean is 0) and nodes a second. Ctrl-C stops it and prints the table so far (exit 130).
    [bold]Examples[/bold]: [cyan]nimmax ladder connect4 --games 4 --time 0.1[/cyan] · [cyan]nimmax
    ladder tictactoe --size 15 --k 5 --players alphabeta,alphabeta:depth=2 --seed 1[/cyan] ·
    [cyan]nimmax ladder kalah --players alphabeta:time=0.2,random --games 20 --jobs 2 --json[/cyan]
    """
    from nimmax import duel, games
    from nimmax.commands import ladder
    from nimmax.commands.events import run_ladder
    from nimmax.players import parse_spec
    from nimmax.ui import ladder as ladder_views

    entrants = [parse_spec(spec) for spec in ladder.split_players(players)]
    plan = ladder.plan(games.create(game_words), entrants, time, count, seed, openings)
    event = run_ladder(plan, jobs, ladder_views.ladder_view(err))
    if as_json:
        emit_json(ladder.ladder_record(event, time))
    else:
        out.print(
            ladder_views.ladder_summary(event, time, duel.standings(event), ladder.ladder(event))
        )
    exit_if_interrupted(event)
