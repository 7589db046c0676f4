"""A game's record saved after play: written whole, or printed instead so that no move is lost."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from nimmax.errors import quoted
from nimmax.files import is_stdout, write_atomic
from nimmax.match import GameRecord


class RecordNotWritten(OSError):
    """The record could not be written after the game, and was printed instead: an output error,
    which the CLI says in one line (this one's text), exit 1."""

    def __init__(self, said: str) -> None:
        super().__init__(None, said)


def write_record(record: GameRecord, path: Path, console: Console) -> None:
    """Save a record as JSON. The path was checked before the game (`files.check_writable`); if
    writing fails even so, the record goes to stdout instead (stderr when stdout fails too), so no
    move is lost, and one line says where it is: RecordNotWritten (the CLI says it on stderr, exit
    1), or the note of the Ctrl-C or the output error that ended the game."""
    # called from play()'s `finally`: a Ctrl-C or an output error may be on its way out
    ending = sys.exc_info()[1]
    carried = ending if isinstance(ending, KeyboardInterrupt | OSError) else None
    if is_stdout(path):  # after the game, whatever stdout was sent to (appended to, never replaced)
        _on_stdout(record.located(Path.cwd()).to_json() + "\n", console)
        return
    shown = quoted(str(path))
    text = record.located(path.parent).to_json() + "\n"  # a plugin's path from the record's folder
    try:
        write_atomic(path, text)
    except OSError as error:
        reason = error.strerror or str(error)
        where = _print_instead(text, console)
        # main() says it on the interrupt's line, with its code
        if isinstance(carried, KeyboardInterrupt):
            carried.add_note(
                f"with the record {where}: it could not be written to {shown} ({reason})"
            )
            return
        said = f"the record was not written to {shown}: {reason}; it is {where}"
        if carried is not None:  # stdout failed: main() says so, then this
            carried.add_note(said)
            return
        raise RecordNotWritten(said) from None
    try:
        console.print(f"[dim]record written to {escape(str(path))}[/dim]")
        if ending is None and record.moves and path.is_file():
            console.print(f"[dim]analyze: nimmax analyze {escape(shlex.quote(str(path)))}[/dim]")
    except OSError as error:  # stdout failed: main() says so, and where the record is
        if carried is None:
            error.add_note(f"the record is in {shown}")
            raise
    if isinstance(carried, KeyboardInterrupt):
        carried.add_note(f"with the record written to {shown}")
    elif carried is not None:
        carried.add_note(f"the record is in {shown}")


def _on_stdout(text: str, console: Console) -> None:
    """A record asked for on standard output: printed after the game; an output error that ended the
    game already is not met again."""
    ending = sys.exc_info()[1]
    if isinstance(ending, OSError):
        return
    console.file.flush()
    sys.stdout.write(text)
    sys.stdout.flush()


def _print_instead(text: str, console: Console) -> str:
    """Print a record that could not be written: on stdout, else on stderr; where it is now, or why
    it is lost."""
    try:
        console.print(text, markup=False, highlight=False, soft_wrap=True)
        return "printed above"
    except OSError as error:
        failed = f"stdout: {error.strerror or error}"
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except OSError as error:
        return f"lost, printed nowhere ({failed}; stderr: {error.strerror or error})"
    return f"printed on stderr above ({failed})"
