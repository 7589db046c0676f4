"""The cache never follows, waits on or writes through what its file's name holds when that is not a
regular file nimmax made (a link, a FIFO, a device, a huge sparse file, a truncated file): it reads
nothing it has not sized against the header, says one line, and replaces the name itself. Every
target here is a decoy in a temporary folder."""

from __future__ import annotations

import os
import resource
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from nimmax import cache
from nimmax.games import kalah_book

from .cli_helpers import nimmax

NAME, VERSION, WHAT = "thing.book", 3, "the test thing"
DATA = b"the data of a cache file\n" * 40
HUGE = 20 << 30
"""20 GB: a hole, costing the disk nothing, that a reader must never take into memory."""


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of this test's own, made."""
    made = tmp_path / "cache"
    made.mkdir()
    monkeypatch.setenv(cache.ENVIRONMENT, str(made))
    return made


def decoy(path: Path) -> Path:
    """A file of the user's the cache must never touch, beside the cache folder."""
    target = path.parent.parent / "notes.txt"
    target.write_text("my notes\n")
    return target


def link_to_decoy(path: Path) -> None:
    path.symlink_to(decoy(path))


def link_to_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")  # an endless file: only ever named, never opened


def dangling_link(path: Path) -> None:
    path.symlink_to(path.parent.parent / "nowhere" / "file")


def fifo(path: Path) -> None:
    os.mkfifo(path)


def sparse(path: Path) -> None:
    with path.open("wb") as file:
        file.truncate(HUGE)


def sparse_behind_a_header(path: Path) -> None:
    """A header that claims 20 GB of data, then the hole: believed, it would cost 20 GB."""
    with path.open("wb") as file:
        file.write(cache.MAGIC + f"{NAME}\n{VERSION}\n{'0' * 64}\n{HUGE}\n".encode())
        file.truncate(HUGE + 100)


def truncated(path: Path) -> None:
    path.write_bytes((cache.header(NAME, VERSION, DATA) + DATA)[:-100])


def longer(path: Path) -> None:
    path.write_bytes(cache.header(NAME, VERSION, DATA) + DATA + b"more")


CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "link to a decoy": (link_to_decoy, "is a link"),
    "link to /dev/zero": (link_to_zero, "is a link"),
    "dangling link": (dangling_link, "is a link"),
    "FIFO": (fifo, "is not a regular file"),
    "20 GB hole": (sparse, "is not a nimmax cache file"),
    "20 GB behind a header": (sparse_behind_a_header, "more than a cache file may hold"),
    "truncated": (truncated, "is cut short"),
    "longer than its header": (longer, "is damaged"),
}


def peak_bytes() -> int:
    """This process's peak resident memory so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


@pytest.mark.parametrize("case", CASES)
def test_a_cache_name_holding_what_nimmax_did_not_make_is_replaced_never_followed(
    folder: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    spoil, reason = CASES[case]
    path = folder / NAME
    spoil(path)
    before = peak_bytes()
    # at once: a FIFO with no writer is not waited on
    assert cache.read(NAME, VERSION, WHAT) is None
    assert peak_bytes() - before < 64 << 20  # the hole and /dev/zero cost no memory
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and reason in lines[0] and "made again, not trusted" in lines[0], lines
    cache.keep(NAME, VERSION, WHAT, DATA)
    # the name itself replaced
    assert stat.S_ISREG(path.lstat().st_mode) and path.lstat().st_size < 4096
    assert cache.read(NAME, VERSION, WHAT) == DATA and not capsys.readouterr().err
    notes = folder.parent / "notes.txt"
    # the decoy never written through
    assert not notes.exists() or notes.read_text() == "my notes\n"
    assert sorted(os.listdir(folder)) == [NAME]  # no temporary file left


def test_a_name_that_cannot_be_replaced_costs_the_keeping_only(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (folder / NAME).mkdir()  # a folder in the file's place: neither read nor renamed over
    assert cache.read(NAME, VERSION, WHAT) is None
    cache.keep(NAME, VERSION, WHAT, DATA)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and "is not a regular file" in lines[0] and "cannot keep" in lines[1], (
        lines
    )


def test_solve_with_the_kalah_book_linked_to_a_users_file_leaves_the_file_as_it_was(
    folder: Path,
) -> None:
    """`ln -s ~/notes.txt ~/.cache/nimmax/kalah-4.book; nimmax solve kalah --pits 4 --seeds 2`
    replaced notes.txt with the book."""
    book = folder / "kalah-4.book"
    notes = decoy(book)
    book.symlink_to(notes)
    run = nimmax("solve", "kalah", "--pits", "4", "--seeds", "2")  # its environment names `folder`
    assert run.returncode == 0, run.stderr
    assert notes.read_text() == "my notes\n" and not book.is_symlink()
    assert isinstance(cache.parse(book.read_bytes(), "kalah-4.book", kalah_book.FORMAT), bytes)
    assert run.stderr.count("is a link") == 1, run.stderr
