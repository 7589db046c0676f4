"""The user's cache folder, where nimmax keeps what it computes once and reads again (Kalah's
endgame books), and the one way a file there is read and written.

The folder is the one `platformdirs` names, found without that package: $NIMMAX_CACHE_DIR when
set, else $XDG_CACHE_HOME/nimmax or ~/.cache/nimmax on Linux, ~/Library/Caches/nimmax on macOS,
%LOCALAPPDATA%\\nimmax\\Cache on Windows. A file holds a header naming what it is, the format's
version and a checksum of its data; a file that is damaged, stale or another thing's is made
again, with one line on stderr saying so, and never trusted. A folder that cannot be written
costs only the keeping: the data is made in memory, with one line saying so.

Making the data may take seconds: how it goes is a value, `Work`, that the caller hands down with
the game (`at_work`): it reports its progress to the display named there (the CLI draws a bar on a
terminal; the core itself draws nothing), stops early where it is asked to (a watched search told
to answer now), and goes as far as the work allows only where a search may wait for it (`patient`:
a solve to the end, not a timed move).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, Self, TypeVar, cast, runtime_checkable

from nimmax.errors import quoted
from nimmax.files import user_folder, write_atomic

ENVIRONMENT = "NIMMAX_CACHE_DIR"
"""The variable that names the folder outright (tests point it at a temporary one)."""
MAGIC = b"nimmax cache\n"
"""How every cache file begins: a file without it is no file of ours."""

Advance = Callable[[int], None]
"""Told how many steps of the work are done so far."""
Progress = Callable[[str, int], AbstractContextManager[Advance]]
"""Given what is being made and its steps, a context that shows the work going on (a bar)."""


def folder(
    environ: Mapping[str, str] = os.environ, platform: str = sys.platform, home: Path | None = None
) -> Path:
    """The cache folder for this user and system (see the module docstring)."""
    windows = ("LOCALAPPDATA", "AppData/Local", "Cache")
    return user_folder(
        ENVIRONMENT, ("XDG_CACHE_HOME", ".cache"), "Caches", windows, environ, platform, home
    )


def nothing(done: int) -> None:
    """Progress nobody shows."""


def quiet(what: str, total: int) -> AbstractContextManager[Advance]:
    """A display that shows nothing."""
    return nullcontext(nothing)


def never() -> bool:
    """Work nobody stops."""
    return False


@dataclass(frozen=True)
class Work:
    """How long work made for the cache goes, as the caller says: where its progress shows
    (`progress`, a bar the CLI draws), whether the search may wait for it however long it takes
    (`patient`: a solve to the end, not a timed move), and whether to stop now (`halted`: a watched
    search told to answer now). A value the caller hands down with the game's search copy."""

    progress: Progress = quiet
    patient: bool = False
    halted: Callable[[], bool] = never

    def making(self, what: str, total: int) -> AbstractContextManager[Advance]:
        """The display of `what`, `total` steps long."""
        return self.progress(what, total)


IDLE = Work()
"""Work nobody shows, waits for or stops: what a game made without a caller's word does."""


@runtime_checkable
class Working(Protocol):
    """A game whose searches read work made for the cache (Kalah's book): its copy carries a
    `Work`."""

    work: Work

    def working(self, work: Work) -> Self:
        """A copy of this game whose searches do their cache's work as `work` says."""
        ...


G = TypeVar("G")


def at_work(
    game: G,
    progress: Progress | None = None,
    patient: bool | None = None,
    halted: Callable[[], bool] | None = None,
) -> G:
    """`game` with its cache's work changed where a setting is given (a game that makes none:
    itself)."""
    if not isinstance(game, Working):
        return game
    work = game.work
    changed = Work(
        work.progress if progress is None else progress,
        work.patient if patient is None else patient,
        work.halted if halted is None else halted,
    )
    return cast(G, game.working(changed))


def say(line: str) -> None:
    """One line on stderr (unless stderr itself is gone)."""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"nimmax: {line}\n")
        sys.stderr.flush()


def header(name: str, version: int, data: bytes) -> bytes:
    """The header of a cache file holding `data`: magic, name, version, checksum, length."""
    return MAGIC + f"{name}\n{version}\n{checksum(data)}\n{len(data)}\n".encode("ascii")


def checksum(data: bytes) -> str:
    """The sha256 of `data` in hex."""
    import hashlib  # here, not at the top: OpenSSL's binding costs every command's start-up 3 ms

    return hashlib.sha256(data).hexdigest()


def parse(raw: bytes, name: str, version: int) -> bytes | str:
    """The data of a cache file's bytes, or why it cannot be trusted."""
    if not raw.startswith(MAGIC):
        return "is not a nimmax cache file"
    lines = raw[len(MAGIC) :].split(b"\n", 4)
    if len(lines) < 5:
        return "is cut short"
    found, made, digest, length, data = lines
    if found != name.encode("ascii"):
        return f"holds {quoted(found.decode('ascii', 'replace'))}, not {quoted(name)}"
    if made != str(version).encode("ascii"):
        return f"is of format {quoted(made.decode('ascii', 'replace'))}, not {version}"
    if length != str(len(data)).encode("ascii") or checksum(data).encode("ascii") != digest:
        return "is damaged (its checksum differs)"
    return data


LARGEST = 1 << 30
"""The most bytes a cache file may hold: a header claiming more is not believed."""

HEAD = 4096
"""Bytes read first, enough for any header: what a file claims to hold is checked before the rest is
read."""


def read(name: str, version: int, what: str) -> bytes | None:
    """The data of the cache file `name` of this format `version`, checked; None where there is
    none, or (with one line saying so) where it cannot be read or trusted.

    The file is opened without following a link and without waiting (a FIFO), and read only when it
    is a regular file whose size is the one its header states: a link, a FIFO, a device or a huge
    sparse file costs neither time nor memory, and is replaced by `keep`, never written through."""
    path = folder() / name
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        link = error.errno == errno.ELOOP
        why = "is a link, not a file nimmax made" if link else f"cannot be read ({error.strerror})"
        say(f"{what} at {quoted(str(path))} {why}: made again, not trusted")
        return None
    try:
        data = _checked(descriptor, name, version)
    except OSError as error:
        data = f"cannot be read ({error.strerror})"
    finally:
        os.close(descriptor)
    if isinstance(data, bytes):
        return data
    say(f"{what} at {quoted(str(path))} {data}: made again, not trusted")
    return None


def _checked(descriptor: int, name: str, version: int) -> bytes | str:
    """The data of the open cache file, or why it cannot be trusted: its kind and size are checked
    against its header before the rest of it is read."""
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode):
        return "is not a regular file nimmax made"
    head = _read(descriptor, min(status.st_size, HEAD))
    if not head.startswith(MAGIC):
        return "is not a nimmax cache file"
    lines = head[len(MAGIC) :].split(b"\n", 4)
    if len(lines) < 5 or not lines[3].isdigit():
        return "is cut short" if status.st_size < HEAD else "is not a nimmax cache file"
    stated = len(head) - len(lines[4]) + int(lines[3])
    if int(lines[3]) > LARGEST:
        return f"claims {int(lines[3]):,} bytes, more than a cache file may hold"
    if status.st_size != stated:
        return (
            "is cut short"
            if status.st_size < stated
            else "is damaged (longer than its header says)"
        )
    return parse(head + _read(descriptor, stated - len(head)), name, version)


def _read(descriptor: int, size: int) -> bytes:
    """Exactly `size` bytes from the descriptor, fewer only where the file ends first."""
    parts: list[bytes] = []
    while size > 0 and (part := os.read(descriptor, min(size, 1 << 24))):
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def keep(name: str, version: int, what: str, data: bytes) -> None:
    """Keep `data` as the cache file `name` for the next time, whole or not at all; a folder that
    cannot be written costs the keeping only (one line says so). Whatever the name holds (a link,
    a FIFO) is replaced by the new file, never followed."""
    path = folder() / name
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, header(name, version, data) + data, own=True)
    except OSError as error:
        reason = error.strerror or str(error)
        say(
            f"cannot keep {what} in {quoted(str(path.parent))} ({reason}): made in memory for "
            "this run"
        )
