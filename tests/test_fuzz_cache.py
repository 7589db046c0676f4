"""The cache and paths fuzz: the Kalah book's name in the cache folder made into a link (to a decoy,
/dev/zero, /dev/null, nowhere), a FIFO, a huge sparse file, a file cut or flipped at a random byte,
a header that lies; then builders run at once on one folder and are SIGKILLed at random moments.

Whatever the name held, a read costs no wait and no memory, says at most one line, never trusts a
spoilt book, and the book made again equals the oracle's (`build`); the decoy is never written; the
name ends as a regular file. Whatever builders were killed, the book file there is whole or absent.
The CI part is seeded and small; `scripts/fuzz_cache.py` runs many more cases.
"""

from __future__ import annotations

import os
import random
import resource
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimmax import cache
from nimmax.games import kalah_book

from .cli_helpers import ROOT

PITS, SEEDS = 3, 6
NAME = f"kalah-{PITS}.book"
NOTES = "the user's own notes\n"


def oracle() -> bytes:
    """The book as `build` makes it, never read from a cache."""
    return kalah_book.build(PITS, SEEDS).encode()


def whole_file() -> bytes:
    data = oracle()
    return cache.header(NAME, kalah_book.FORMAT, data) + data


def link_to(target: str) -> Callable[[Path, random.Random], None]:
    def spoil(path: Path, rng: random.Random) -> None:
        path.symlink_to(target)

    return spoil


def link_to_decoy(path: Path, rng: random.Random) -> None:
    path.symlink_to(path.parent.parent / "notes.txt")


def device(path: Path, rng: random.Random) -> None:
    """A character device of /dev/null's numbers made in the folder (root only), else a link to
    it."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except PermissionError:
        path.symlink_to("/dev/null")


def fifo(path: Path, rng: random.Random) -> None:
    os.mkfifo(path)


def sparse(path: Path, rng: random.Random) -> None:
    with path.open("wb") as file:
        if rng.random() < 0.5:  # a header that claims the hole as its data
            file.write(
                cache.MAGIC
                + f"{NAME}\n{kalah_book.FORMAT}\n{'0' * 64}\n{rng.randrange(1 << 40)}\n".encode()
            )
        file.truncate(rng.randrange(1 << 30, 1 << 35))


def cut(path: Path, rng: random.Random) -> None:
    data = whole_file()
    path.write_bytes(data[: rng.randrange(len(data))])


def flipped(path: Path, rng: random.Random) -> None:
    data = bytearray(whole_file())
    data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


def lying_length(path: Path, rng: random.Random) -> None:
    data = oracle()
    told = max(0, len(data) + rng.choice([-1, 1]) * rng.randrange(1, 1000))
    path.write_bytes(
        cache.MAGIC
        + f"{NAME}\n{kalah_book.FORMAT}\n{cache.checksum(data)}\n{told}\n".encode()
        + data
    )


SPOILS: dict[str, Callable[[Path, random.Random], None]] = {
    "link to a decoy": link_to_decoy,
    "link to /dev/zero": link_to("/dev/zero"),
    "link to /dev/null": link_to("/dev/null"),
    "dangling link": link_to("/nonexistent-nimmax-fuzz/book"),
    "FIFO": fifo,
    "device": device,
    "sparse": sparse,
    "cut": cut,
    "flipped": flipped,
    "lying length": lying_length,
}


def spoil_case(folder: Path, spoil: str, seed: int, said: Callable[[], str]) -> list[str]:
    """One case in `folder` (made, empty): the name spoilt, the book read and made again; what went
    wrong, if anything. `said()` gives what was written on stderr since it was last asked."""
    rng = random.Random(seed)
    notes = folder.parent / "notes.txt"
    notes.write_text(NOTES)
    path = folder / NAME
    SPOILS[spoil](path, rng)
    said()
    failures = []
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    started = time.monotonic()
    book = kalah_book.Shelf(PITS).shelved(SEEDS).encode()
    if time.monotonic() - started > 10:
        failures.append(f"took {time.monotonic() - started:.1f} s")
    if resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - peak > 64 << 20:
        failures.append("took more than 64 MB")
    if book != oracle():
        failures.append("a book unlike the oracle's")
    lines = said().splitlines()
    if len(lines) > 1 or (lines and "not trusted" not in lines[0]):
        failures.append(f"said {lines}")
    if spoil == "flipped" and not lines and book != oracle():
        failures.append("a flipped book trusted")
    if notes.read_text() != NOTES:
        failures.append("the decoy was written through")
    if not stat.S_ISREG(path.lstat().st_mode):
        failures.append("the name is not a regular file after the keeping")
    elif not isinstance(cache.parse(path.read_bytes(), NAME, kalah_book.FORMAT), bytes):
        failures.append("the kept book does not parse")
    return failures


@settings(max_examples=18, deadline=None, derandomize=True)
@given(spoil=st.sampled_from(sorted(SPOILS)), seed=st.integers(0, 2**32))
def test_a_spoilt_cache_name_is_never_followed_trusted_or_written_through(
    spoil: str, seed: int
) -> None:
    import io
    import tempfile
    from contextlib import redirect_stderr

    stderr = io.StringIO()

    def said() -> str:
        text = stderr.getvalue()
        stderr.seek(0)
        stderr.truncate()
        return text

    with tempfile.TemporaryDirectory() as scratch, redirect_stderr(stderr):
        folder = Path(scratch) / "cache"
        folder.mkdir()
        saved = os.environ.get(cache.ENVIRONMENT)
        os.environ[cache.ENVIRONMENT] = str(folder)
        try:
            failures = spoil_case(folder, spoil, seed, said)
        finally:
            if saved is None:
                del os.environ[cache.ENVIRONMENT]
            else:
                os.environ[cache.ENVIRONMENT] = saved
    assert not failures, (spoil, seed, failures)


BUILDER = (
    "from nimmax.games import kalah_book; import sys; kalah_book.Shelf(3).shelved(int(sys.argv[1]))"
)


def builders_case(folder: Path, builders: int, seed: int) -> list[str]:
    """`builders` processes widening the book in one cache folder at once, some SIGKILLed at random
    moments; what went wrong, if anything."""
    rng = random.Random(seed)
    env = {**os.environ, "PYTHONPATH": str(ROOT), cache.ENVIRONMENT: str(folder)}
    started = [
        subprocess.Popen(
            [sys.executable, "-c", BUILDER, str(rng.randrange(4, 11))],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(builders)
    ]
    failures = []
    for process in started:
        if rng.random() < 0.5:
            time.sleep(rng.uniform(0, 0.4))
            process.send_signal(signal.SIGKILL)
        _, err = process.communicate(timeout=60)
        if process.returncode not in (0, -signal.SIGKILL) or "Traceback" in err:
            failures.append(f"a builder ended {process.returncode}: {err.strip()[-300:]}")
        elif process.returncode == 0 and err:
            failures.append(f"a builder said {err.strip()!r}")
    path = folder / NAME
    if path.exists():
        data = cache.parse(path.read_bytes(), NAME, kalah_book.FORMAT)
        if not isinstance(data, bytes):
            failures.append(f"the book left {data}")
        else:
            book = kalah_book.Book.decode(PITS, data)
            if data != kalah_book.build(PITS, book.seeds).encode():
                failures.append(f"the book of {book.seeds} seeds differs from the oracle's")
    return failures


@pytest.mark.parametrize("seed", [1, 2])
def test_builders_at_once_with_random_kills_leave_the_book_whole_or_absent(
    tmp_path: Path, seed: int
) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    failures = builders_case(folder, 3, seed)
    assert not failures, failures
