"""The options commands share, each declared once: its name, the range `nimmax.numbers` reads it
within, and its help. Typer hands an option's text over (parser=str) and its reader is the
option's callback, so a bad number is one line, exit 2."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated

import typer

from nimmax.numbers import MAX_DELAY, MAX_GAMES, MAX_JOBS, MAX_SEED, float_option, int_option
from nimmax.search.limits import DEPTH as DEPTH_LIMIT
from nimmax.search.limits import MOVE_SECONDS
from nimmax.search.limits import TIME as TIME_LIMIT

if TYPE_CHECKING:
    from nimmax.players import Spec

GAME_WORDS = MappingProxyType({"allow_extra_args": True, "ignore_unknown_options": True})
"""A command's context settings where game words follow it: options it does not know go to the
game."""


def from_records(words: list[str] | None) -> list[str] | None:
    """Game words with `--position RECORD@N` read as the record's game at ply N (`match.at_ply`)."""
    from nimmax.recorded import at_ply

    return at_ply(words) if words else words


GameWords = Annotated[
    list[str],
    typer.Argument(
        metavar="GAME [ARGS]...", help="Game name and its options.", callback=from_records
    ),
]

MAX_DEPTH = int(DEPTH_LIMIT.high)
LEAST_TIME, MOST_TIME = TIME_LIMIT.low, TIME_LIMIT.high  # every command's --time: seconds of search
SEED_RANGE = "0 to 2^64-1"
TIME = float_option("--time", LEAST_TIME, MOST_TIME, or_inf=True)
FINITE_TIME = float_option("--time", LEAST_TIME, MOST_TIME)


def seconds_option(
    what: str, *, unlimited: bool = True, show_default: str | bool = True
) -> typer.models.OptionInfo:
    """`--time`: seconds of search `what` ("a move for ..."), within the time limit's range, `inf`
    where `unlimited` (search to the end)."""
    limit = f"{LEAST_TIME:g} to {MOST_TIME:.0f}" + (", or inf (to the end)" if unlimited else "")
    option: typer.models.OptionInfo = typer.Option(
        "--time",
        parser=str,
        callback=TIME if unlimited else FINITE_TIME,
        metavar="S",
        help=f"Seconds {what}, {limit}.",
        show_default=show_default,
    )
    return option


MOVE = "a move for every engine whose spec sets no limit"
"""What play's, duel's, tournament's and ladder's --time is: a default, a spec's own limit wins."""
MoveTime = Annotated[float | None, seconds_option(MOVE, show_default=f"{MOVE_SECONDS:g}")]


def seed_option(what: str, note: str = "") -> typer.models.OptionInfo:
    """`--seed`: the seed of `what`, 0 to 2^64-1 (`note`: what happens without one)."""
    option: typer.models.OptionInfo = typer.Option(
        "--seed",
        parser=str,
        callback=int_option("--seed", 0, MAX_SEED),
        metavar="N",
        help=f"{what}, {SEED_RANGE}{note}.",
    )
    return option


def delay_option(what: str, show_default: str | bool = True) -> typer.models.OptionInfo:
    """`--delay`: seconds of pause `what`, 0 to MAX_DELAY."""
    option: typer.models.OptionInfo = typer.Option(
        "--delay",
        parser=str,
        callback=float_option("--delay", 0, MAX_DELAY),
        metavar="S",
        help=f"Pause {what}, 0 to {MAX_DELAY:g} s.",
        show_default=show_default,
    )
    return option


def json_option(what: str) -> typer.models.OptionInfo:
    """`--json`: machine output, one document on stdout; while the command runs, anything else
    written to stdout (a plugin's print) goes to stderr."""

    def machine(context: typer.Context, value: bool) -> bool:
        if value:
            from nimmax.cli.root import json_stdout

            context.with_resource(json_stdout())
        return value

    option: typer.models.OptionInfo = typer.Option(
        "--json", callback=machine, help=f"Print {what} as JSON."
    )
    return option


def output_file(what: str, help: str) -> typer.models.OptionInfo:
    """A file the command writes, checked writable before the work (`what`: "the record"); `-` (or
    /dev/stdout) is standard output."""

    def check(path: Path | None) -> Path | None:
        if path is None:
            return None
        from nimmax.files import STDOUT, check_writable  # loaded only when a file is named

        checked = check_writable(path, what)
        # made absolute now, before any plugin loads: a plugin's os.chdir cannot move it
        return checked if checked is None or checked == STDOUT else checked.absolute()

    option: typer.models.OptionInfo = typer.Option(callback=check, help=help)
    return option


def count_option(name: str, most: int, help: str, least: int = 1) -> typer.models.OptionInfo:
    """A whole-number option read within least..most; `help` names what it counts."""
    option: typer.models.OptionInfo = typer.Option(
        name,
        parser=str,
        callback=int_option(name, least, most),
        metavar="N",
        help=f"{help}, {least} to {most}.",
    )
    return option


Json = Annotated[bool, json_option("the result")]
Depth = Annotated[int | None, count_option("--depth", MAX_DEPTH, "Search depth limit in plies")]
Games = Annotated[
    int, count_option("--games", MAX_GAMES, "Games to play (per pairing in a tournament)")
]
Jobs = Annotated[
    int,
    typer.Option(
        "--jobs",
        parser=str,
        callback=int_option("--jobs", 1, MAX_JOBS),
        metavar="N",
        help=f"Processes of the local backend playing games in parallel, 1 to {MAX_JOBS}; the "
        "same games either way.",
    ),
]
EventSeed = Annotated[
    int | None, seed_option("Seed of every game's random draws", " (default: drawn, shown)")
]
Plugin = Annotated[
    str | None,
    typer.Option(
        metavar="FILE",
        help="The plugin a plugin game's record needs: its file (or module, or installed name). "
        "A record never runs code you did not name.",
    ),
]
RecordFile = Annotated[
    Path, typer.Argument(metavar="FILE", help="A record written by play --record.")
]


def seat_spec(text: str | None) -> Spec | None:
    """A seat's player words (`--first`, `--second`) read once into its Spec; None: the default."""
    from nimmax.players import parse_spec  # the engines load only for the commands that play

    return None if text is None else parse_spec(text)
