"""A game a person leaves unfinished: kept (in its record, else as an autosave) and the last line
saying how to go on with it (`nimmax play --resume`)."""

from __future__ import annotations

import contextlib
import shlex
import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

from nimmax import saves
from nimmax.match import GameRecord


def keep_to_resume(record: GameRecord, path: Path | None, console: Console) -> None:
    """A game a person left unfinished: kept (in `path`, else as an autosave), and the last line
    says how to go on (a Ctrl-C's or a hang-up's note, where one is on its way out)."""
    if record.finished:
        return
    ending = sys.exc_info()[1]
    if path is not None and written(record, path):
        said = f"to go on: nimmax play --resume {shlex.quote(str(path))}"
    else:
        try:
            said = f"game kept in {saves.keep(record)}; to go on: nimmax play --resume"
        except OSError as error:
            said = f"the game could not be kept in {saves.folder()} ({error.strerror or error})"
    if isinstance(ending, KeyboardInterrupt):
        ending.add_note(f"with the {said}" if said.startswith("game") else said)
        return
    with contextlib.suppress(OSError):  # stdout gone: main() says so
        console.print(Text(said, style="dim"), soft_wrap=True)


def written(record: GameRecord, path: Path) -> bool:
    """Whether `path` holds `record` as `write_record` writes it (it may have failed, or gone to
    stdout)."""
    try:
        return (
            path.is_file()
            and path.read_text(encoding="utf-8") == record.located(path.parent).to_json() + "\n"
        )
    except (OSError, UnicodeDecodeError):
        return False
