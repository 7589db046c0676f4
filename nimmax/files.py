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
from pathlib import Path

from nimmax.game import BadInput
from nimmax.numbers import quoted


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
        with path.open("rb") as file:
            data = file.read(limit + 1)  # one byte more tells a file at the cap from one over it
    except OSError as failure:
        raise error(f"cannot read {shown}: {_reason(failure)}") from None
    if len(data) > limit:
        raise error(f"{shown} is larger than {limit:,} bytes, the most {what} may be")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{shown} is not UTF-8 text") from None


def check_writable(path: Path | None, what: str) -> Path | None:
    """`path` if it can be written, else BadInput naming `what` ("the record"): a missing folder,
    a folder in its place, no permission, a read-only file system. None (no output) passes, and
    the path is returned so the check serves as a command-line option's callback."""
    if path is None:
        return None
    try:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "it is a directory")
        if path.exists():
            # Append mode opens without truncating; non-blocking, so a FIFO without a reader is refused,
            # not waited on. Writing nothing changes nothing yet fails where writing would (/proc, /dev/full).
            descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK)
            try:
                os.write(descriptor, b"")
            finally:
                os.close(descriptor)
        else:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
            path.unlink()
    except OSError as failure:
        raise BadInput(f"cannot write {what} to {quoted(str(path))}: {_reason(failure)}") from None
    return path


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write `text` (UTF-8 text, or bytes as they are) to `path` whole or not at all: into a new file
    in the same folder, then renamed over the path, so a failure (a full disk) leaves what the path
    held as it was. A link is followed (its target is replaced); a path that is not a regular file
    (a terminal, a pipe, /dev/null) is written in place, since it cannot be renamed over. OSError
    when it fails."""
    target = Path(os.path.realpath(path))
    try:
        regular = stat.S_ISREG(target.stat().st_mode)
    except FileNotFoundError:
        regular = True
    mode, encoding = ("wb", None) if isinstance(text, bytes) else ("w", "utf-8")
    if not regular:
        with target.open(mode, encoding=encoding) as file:
            file.write(text)
        return
    temporary = target.with_name(f".{target.name}.{os.urandom(4).hex()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
    try:
        with os.fdopen(descriptor, mode, encoding=encoding) as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        with contextlib.suppress(FileNotFoundError):  # a new file keeps the umask's mode
            os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
