"""The Typer app, its two consoles and nimmax's own options (`--version`, `--traceback`): what
every command module draws on."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Annotated, Any, TextIO, cast

import typer
from rich.console import Console

from nimmax.cli.group import Commands

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
    cls=Commands,
)
# No emoji codes: nimmax never writes one, and a `:dog:` in what people or plugins name stays as
# typed (the table of codes is also the largest module a first print would load).
out = Console(emoji=False)
err = Console(stderr=True, emoji=False)


def show_version(wanted: bool) -> None:
    """`nimmax --version`: the version, then exit."""
    if wanted:
        from nimmax import __version__

        out.print(f"nimmax {__version__}", markup=False, highlight=False)
        raise typer.Exit


@app.callback()
def options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
    traceback: Annotated[
        bool,
        typer.Option(
            "--traceback",
            help="When a plugin's own code fails, show the whole traceback, not its one line.",
        ),
    ] = False,
) -> None:
    """The options of nimmax itself, before a command."""


class Diverted:
    """Stdout while `json_stdout` holds it: what is printed goes to stderr; `machine` is the real
    stdout, which the JSON alone is written to."""

    def __init__(self, machine: TextIO) -> None:
        self.machine = machine

    def __getattr__(self, name: str) -> Any:
        return getattr(sys.stderr, name)


@contextlib.contextmanager
def json_stdout() -> Iterator[None]:
    """Within this block stdout is stderr, so that what a plugin prints cannot spoil the JSON, which
    `emit_json` writes to the real stdout."""
    real = sys.stdout
    sys.stdout = cast(TextIO, Diverted(real))
    try:
        yield
    finally:
        sys.stdout = real


def emit_json(record: object) -> None:
    """Machine output: one JSON document on stdout, nothing else; flushed, so a write error is
    raised here."""
    import json  # loaded by the commands that print JSON, when they do

    out = sys.stdout.machine if isinstance(sys.stdout, Diverted) else sys.stdout
    out.write(json.dumps(record, indent=2) + "\n")
    out.flush()


def say(line: str) -> None:
    """One line on stderr, unless stderr itself cannot be written."""
    with contextlib.suppress(OSError):
        err.print(line, markup=False, highlight=False, soft_wrap=True)


def stop_if_interrupted(interruption: KeyboardInterrupt | None, kept: str) -> None:
    """After a partial result is shown: re-raise the Ctrl-C or SIGTERM that cut it short, with a
    note of what was kept (main() prints "interrupted" and the note, and exits 130 or 143)."""
    if interruption is not None:
        interruption.add_note(kept)
        raise interruption
