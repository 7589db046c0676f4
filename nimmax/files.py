"""The files people name: read with a size cap, checked writable before the work that fills them,
and written atomically.

A reader never takes more than its cap into memory, whatever the path names (a 100 MB file,
/dev/zero). An output file is checked before a game or a tree starts, so a path that cannot be
written costs nothing; the check leaves an existing file as it was (opened to append, never
truncated), since the work may still be cut short. Every file nimmax writes goes through
`write_atomic`: a full disk leaves the file the path held as it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections.abc import Mapping
from pathlib import Path, PosixPath

from nimmax.errors import BadInput, quoted


def _reason(error: OSError) -> str:
    return error.strerror or type(error).__name__


class CannotWrite(OSError):
    """An output that could not be written once the work was done: an output error, which the CLI
    says in one line with exit 1 (a path refused before the work is BadInput, exit 2)."""

    def __init__(self, what: str, path: Path, failure: OSError) -> None:
        super().__init__(None, f"cannot write {what} to {quoted(str(path))}: {_reason(failure)}")


def read_text(path: Path, limit: int, what: str, error: type[BadInput] = BadInput) -> str:
    """The UTF-8 text of `path`, at most `limit` bytes (the most `what` may be, e.g. "a record");
    otherwise `error` saying why in one line."""
    shown = quoted(str(path))
    try:
        # Non-blocking open: a FIFO with no writer reads as empty at once instead of waiting for
        # one.
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        os.set_blocking(descriptor, True)
        with os.fdopen(descriptor, "rb") as file:
            data = file.read(limit + 1)  # one byte more tells a file at the cap from one over it
    except OSError as failure:
        raise error(f"cannot read {shown}: {_reason(failure)}") from None
    if len(data) > limit:
        raise error(f"{shown} is larger than {limit:,} bytes, the most {what} may be")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{shown} is not UTF-8 text") from None


STDOUT = Path("-")
"""The path that names standard output (as do /dev/stdout and the like): the output is printed after
the work, never written through a rename that would replace what stdout was sent to."""


class HeldFifo(PosixPath):
    """A FIFO checked writable, holding the descriptor the check opened: the output is written
    through it, once, since closing it would tell the reader the output had ended."""

    held: int | None = None

    def take(self) -> int | None:
        """The held descriptor, handed on once (None after)."""
        held, self.held = self.held, None
        return held


def is_stdout(path: Path) -> bool:
    """Whether `path` names standard output: `-`, /dev/stdout, /dev/fd/1 or /proc/self/fd/1."""
    return str(path) in ("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")


def names_descriptor(path: Path) -> bool:
    """Whether `path` names one of this process's open descriptors (/dev/stderr, /dev/fd/N): written
    in place, appended to, since renaming over the file it resolves to would replace what it was
    sent to."""
    return str(path) in ("/dev/stderr", "/dev/stdin") or str(path).startswith(
        ("/dev/fd/", "/proc/self/fd/")
    )


def check_writable(path: Path | None, what: str) -> Path | None:
    """`path` if it can be written (STDOUT for a name of standard output), else BadInput naming
    `what` ("the record"): a missing folder, a folder in its place, no permission, a read-only file
    system, a file whose folder takes no new file (the write replaces it by a rename), a FIFO nobody
    reads. None (no output) passes, and the path is returned so the check serves as a command-line
    option's callback."""
    if path is None:
        return None
    if is_stdout(path):
        return STDOUT
    try:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "it is a directory")
        target = Path(os.path.realpath(path))
        status = os.stat(target) if path.exists() else None
        if status is not None and stat.S_ISFIFO(status.st_mode):
            # Non-blocking: a FIFO without a reader is refused, not waited on; held open for the
            # write.
            fifo = HeldFifo(path.absolute())
            fifo.held = os.open(target, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            os.set_blocking(fifo.held, True)
            return fifo
        elif status is not None and (not stat.S_ISREG(status.st_mode) or names_descriptor(path)):
            # Writing nothing changes nothing yet fails where writing would (/proc, /dev/full).
            descriptor = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK)
            try:
                os.write(descriptor, b"")
            finally:
                os.close(descriptor)
        else:
            # the write renames a new file over it: it must open without truncating
            if status is not None:
                os.close(os.open(target, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK))
            probe = (
                target
                if status is None
                else target.with_name(f".{target.name}.{os.urandom(4).hex()}.tmp")
            )
            os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
            probe.unlink()
    except OSError as failure:
        raise BadInput(f"cannot write {what} to {quoted(str(path))}: {_reason(failure)}") from None
    return path


def write_atomic(path: Path, text: str | bytes, *, own: bool = False) -> None:
    """Write `text` (UTF-8 text, or bytes as they are) to `path` whole or not at all: into a new
    file in the same folder, then renamed over the path, so a failure (a full disk) leaves what the
    path held as it was. A link is followed (its target is replaced); a path that is not a regular
    file (a terminal, a pipe, /dev/null) is written in place, since it cannot be renamed over. A
    file of nimmax's `own` (the cache's) is never followed nor written through: whatever the path
    names (a link, a FIFO, a device) is itself replaced. STDOUT is printed. OSError when it
    fails."""
    if path == STDOUT:  # printed: stdout may be a file opened to append, never to be renamed over
        _print(text)
        return
    in_place = not own and names_descriptor(path)
    target = path if own or in_place else Path(os.path.realpath(path))
    try:
        regular = own or (not in_place and stat.S_ISREG(target.stat().st_mode))
    except FileNotFoundError:
        regular = True
    if not regular:  # written in place, once: through the descriptor the check held open (a FIFO's)
        held = path.take() if isinstance(path, HeldFifo) else None
        flags = os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK | os.O_CLOEXEC
        _write_through(held if held is not None else os.open(target, flags), text)
        return
    temporary = target.with_name(f".{target.name}.{os.urandom(4).hex()}.tmp")
    # the umask applies
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        _write_through(descriptor, text, durable=True)
        if not own:
            with contextlib.suppress(FileNotFoundError):  # a new file keeps the umask's mode
                os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _print(text: str | bytes) -> None:
    """`text` on standard output, after whatever was printed before it."""
    sys.stdout.flush()
    if isinstance(text, bytes):
        sys.stdout.buffer.write(text)
    else:
        sys.stdout.write(text)
    sys.stdout.flush()


def _write_through(descriptor: int, text: str | bytes, durable: bool = False) -> None:
    """`text` written whole through an open descriptor (UTF-8 for text), which is then closed;
    `durable`: on the disk before it is (a file about to be renamed over another)."""
    os.set_blocking(descriptor, True)
    mode, encoding = ("wb", None) if isinstance(text, bytes) else ("w", "utf-8")
    with os.fdopen(descriptor, mode, encoding=encoding) as file:
        file.write(text)
        if durable:
            file.flush()
            os.fsync(file.fileno())


def user_folder(
    variable: str,
    xdg: tuple[str, str],
    darwin: str,
    windows: tuple[str, str, str],
    environ: Mapping[str, str],
    platform: str,
    home: Path | None,
) -> Path:
    """One of nimmax's own folders for this user and system: `variable` names it outright; else
    XDG's (its variable, or the place below home) on Linux, ~/Library/`darwin` on macOS, and on
    Windows `windows` (its variable, or the place below home, then the part below nimmax's
    folder)."""
    chosen = environ.get(variable)
    if chosen:
        return Path(chosen).expanduser()
    home = home if home is not None else Path.home()
    if platform == "darwin":
        return home / "Library" / darwin / "nimmax"
    if platform.startswith(("win", "cygwin")):
        name, below_home, below = windows
        base = environ.get(name)
        return (Path(base) if base else home / below_home) / "nimmax" / below
    name, below_home = xdg
    base = environ.get(name)
    return (Path(base) if base and os.path.isabs(base) else home / below_home) / "nimmax"
