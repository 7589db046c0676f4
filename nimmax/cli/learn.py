"""`nimmax train 2048`: TD self-play of 2048's n-tuple network into the user's cache folder."""

from __future__ import annotations

from typing import Annotated

import typer

from nimmax.cli.options import count_option, seed_option
from nimmax.cli.root import app, err, out
from nimmax.numbers import MAX_JOBS, float_option, int_option

LEARNS = ("2048",)
"""The games `train` can learn."""
MOST_GAMES = 10**9


Minutes = Annotated[
    float | None,
    typer.Option(
        "--minutes",
        parser=str,
        callback=float_option("--minutes", 0.01, 10**6),
        metavar="M",
        help="Minutes to train at most, 0.01 to 10^6.",
        show_default="no limit",
    ),
]
TrainJobs = Annotated[
    int,
    typer.Option(
        "--jobs",
        parser=str,
        callback=int_option("--jobs", 1, MAX_JOBS),
        metavar="N",
        help=f"Processes training together on one shared table of weights, 1 to {MAX_JOBS}.",
    ),
]
Tuples = Annotated[
    str,
    typer.Option(
        "--tuples",
        metavar="large|small",
        help="large: four 6-cell tuples (256 MiB); small: the shipped shape.",
    ),
]


@app.command("train")
def train_command(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game to learn: 2048.")],
    games: Annotated[int, count_option("--games", MOST_GAMES, "Training games to play")] = 100_000,
    minutes: Minutes = None,
    jobs: TrainJobs = 1,
    resume: Annotated[
        bool, typer.Option("--resume", help="Go on from the network kept in the cache.")
    ] = False,
    tuples: Tuples = "large",
    seed: Annotated[int, seed_option("Seed of the training games' spawns")] = 0,
) -> None:
    """Teach 2048's learned evaluation by self-play (TD(0) over afterstates), kept in the cache
    folder.

    Play and hint use the network kept there (eval=auto) once it has trained on as many games as the
    shipped one. Ctrl-C or SIGTERM keeps what was learned; --resume goes on from it. Needs numpy:
    pip install 'nimmax\\[learn]'. [bold]Examples[/bold]: [cyan]nimmax train 2048 --games
    200000[/cyan] · [cyan]nimmax train 2048 --resume --jobs 2 --minutes 60[/cyan]
    """
    from nimmax.game import BadInput

    if game not in LEARNS:
        raise BadInput(f"train learns {', '.join(LEARNS)}, not {game!r}")
    if tuples not in ("large", "small"):
        raise BadInput(f"--tuples is large or small, not {tuples!r}")
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise BadInput("train needs numpy: pip install 'nimmax[learn]'") from None
    from nimmax.games.ntuple import network as ntuple
    from nimmax.games.ntuple.networks import trained_path
    from nimmax.learn.session import train
    from nimmax.ui.training import training_bar

    path = trained_path()
    shapes = ntuple.LARGE if tuples == "large" else ntuple.SHIPPED
    seconds = minutes * 60 if minutes is not None else float("inf")
    with training_bar(err, games) as report:
        progress = train(path, shapes, resume, games, seconds, jobs, report, seed=seed)
    out.print(
        f"trained {progress.games:,} games ({progress.total_games:,} in all) in "
        f"{progress.seconds:.0f} s, "
        f"{progress.moves / max(progress.seconds, 1e-9):,.0f} moves/s; kept in {path}",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
