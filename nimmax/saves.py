"""Autosaves: a game a person quits unfinished is kept in the user's data folder, so that
`nimmax play --resume` continues it; and the record a resume starts from.

The folder is $NIMMAX_DATA_DIR when set, else $XDG_DATA_HOME/nimmax or ~/.local/share/nimmax on
Linux, ~/Library/Application Support/nimmax on macOS, %APPDATA%\\nimmax on Windows. In it nimmax
never follows a link nor opens anything but a regular file of its own naming, and it keeps the
newest KEPT autosaves.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import stat
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from nimmax.errors import quoted
from nimmax.files import user_folder
from nimmax.game import BadInput
from nimmax.match import MAX_RECORD_BYTES, BadRecord, GameRecord

ENVIRONMENT = "NIMMAX_DATA_DIR"
"""The variable that names the folder outright (tests point it at a temporary one)."""

PREFIX, SUFFIX = "autosave-", ".json"
KEPT = 20
"""Autosaves kept; the oldest beyond these go."""


def folder(
    environ: Mapping[str, str] = os.environ, platform: str = sys.platform, home: Path | None = None
) -> Path:
    """The data folder for this user and system (see the module docstring)."""
    windows = ("APPDATA", "AppData/Roaming", "")
    return user_folder(
        ENVIRONMENT,
        ("XDG_DATA_HOME", ".local/share"),
        "Application Support",
        windows,
        environ,
        platform,
        home,
    )


def _own_folder(make: bool) -> Path:
    """The folder, made if asked; OSError where it is a link or no folder (never followed)."""
    where = folder()
    if make:
        where.mkdir(parents=True, exist_ok=True)
    if not stat.S_ISDIR(os.lstat(where).st_mode):
        raise NotADirectoryError(f"{where} is a link or not a folder")
    return where


def keep(record: GameRecord) -> Path:
    """Write an unfinished game's record as a new autosave, whole or not at all; its path. OSError
    if it cannot."""
    where = _own_folder(make=True)
    name = f"{PREFIX}{time.strftime('%Y%m%d-%H%M%S')}-{os.urandom(3).hex()}{SUFFIX}"
    temporary = where / f".{name}.tmp"
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(record.to_json() + "\n")
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, where / name)  # a rename replaces a name, never follows it
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    for old in saved()[KEPT:]:
        with contextlib.suppress(OSError):
            os.unlink(old)
    return where / name


def saved() -> list[Path]:
    """The autosaves, newest first: regular files of our naming only, links passed over."""
    try:
        where = _own_folder(make=False)
        entries = list(os.scandir(where))
    except OSError:
        return []
    found = [
        entry
        for entry in entries
        if entry.name.startswith(PREFIX)
        and entry.name.endswith(SUFFIX)
        and entry.is_file(follow_symlinks=False)
    ]
    found.sort(
        key=lambda entry: (entry.stat(follow_symlinks=False).st_mtime, entry.name), reverse=True
    )
    return [Path(entry.path) for entry in found]


def read_own(path: Path) -> str:
    """An autosave's text, opened without following a link or blocking, at most a record's size."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(descriptor, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise BadRecord(f"{quoted(str(path))} is not a regular file")
            data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise BadRecord(f"cannot read {quoted(str(path))}: {error.strerror or error}") from None
    return data.decode("utf-8", errors="replace")


def latest() -> tuple[GameRecord, Path]:
    """The newest autosave of a game not yet finished, and its path; BadInput where there is
    none."""
    for path in saved():
        try:
            record = GameRecord.from_json(read_own(path))
        except BadInput:
            continue  # a damaged or plugin autosave: an older one may still serve
        if not record.finished:
            return record, path
    raise BadInput(
        f"no unfinished game to resume in {quoted(str(folder()))}: name a record, nimmax play "
        "--resume FILE"
    )


def resumable(record: GameRecord, path: Path) -> GameRecord:
    """`record` (read from `path`) where a game may go on from it; BadInput naming replay and
    analyze if finished."""
    if record.finished:
        name = shlex.quote(str(path))
        raise BadInput(
            f"that game is finished: nimmax replay {name} shows it, nimmax analyze {name} judges "
            "its moves"
        )
    return record
