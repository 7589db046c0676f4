"""The process's own streams as a user may hand them over: stdin closed or endless, stdout closed or
full, a terminal that speaks only ASCII. Each is one line and an exit code, never a traceback, and a
record asked for is kept."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from nimmax.errors import quoted
from nimmax.ui.prompt import ENDLESS, LONGEST_LINE

from .cli_helpers import ENVIRONMENT, ROOT

MEMORY = 1 << 30
"""The address space a run may take: nimmax needs a small part of it; an unbounded read soon passes
it."""


def run(
    *args: str,
    stdin: int | None = None,
    close_stdin: bool = False,
    full_stdout: bool = False,
    file_size: int = -1,
    **env: str,
) -> subprocess.CompletedProcess[str]:
    """`python -m nimmax ARGS` with its memory capped; stdin from a descriptor, or closed as `<&-`
    closes it; stdout on /dev/full (every write: no space left); files it writes capped at
    `file_size` bytes (beyond them a write fails: Python ignores SIGXFSZ)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
        if close_stdin:
            os.close(0)
        if full_stdout:
            os.dup2(os.open("/dev/full", os.O_WRONLY), 1)

    return subprocess.run(
        [sys.executable, "-m", "nimmax", *args],
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT), **ENVIRONMENT, **env},
        cwd=ROOT,
        preexec_fn=limit,
    )


def test_an_endless_typed_line_is_refused_in_one_line_and_the_record_kept(tmp_path: Path) -> None:
    """`play nim 2 3 5 < /dev/zero`: a line without end is read no further than LONGEST_LINE."""
    record = tmp_path / "game.json"
    with open("/dev/zero", "rb") as zeros:
        done = run("play", "nim", "2", "3", "5", "--record", str(record), stdin=zeros.fileno())
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"nimmax: a typed line has no end within {ENDLESS:,} characters\n"
    assert json.loads(record.read_text())["moves"] == []


def test_an_over_long_typed_line_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    """A line past LONGEST_LINE is refused as a bad move is; the next line is read as ever."""
    typed = "3" + " " * LONGEST_LINE + "x\n3:4\nquit\n"  # its first character alone would be a move
    done = subprocess.run(
        [sys.executable, "-m", "nimmax", "play", "nim", "2", "3", "5", "--second", "random:seed=1"],
        input=typed,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT), **ENVIRONMENT},
        cwd=ROOT,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert (
        f"a typed line is longer than {LONGEST_LINE:,} characters: no move or command is"
        in done.stdout
    )
    # the winning move of 2 3 5, read after the refusal
    assert "First (you) plays 3:4" in done.stdout


def test_a_closed_stdin_is_the_end_of_input(tmp_path: Path) -> None:
    """`play <&-`: engines play their game out and write it; a person's turn finds the input
    ended."""
    engines, person = tmp_path / "engines.json", tmp_path / "person.json"
    spec = ["--first", "alphabeta", "--second", "random:seed=1"]
    played = run("play", "nim", "2", "3", "5", *spec, "--record", str(engines), close_stdin=True)
    assert played.returncode == 0 and played.stderr == "", played.stderr
    saved = json.loads(engines.read_text())
    # 2^3^5 != 0: the first wins
    assert saved["result"]["finished"] is True and saved["result"]["winner"] == 0
    asked = run("play", "nim", "2", "3", "5", "--record", str(person), close_stdin=True)
    assert asked.returncode == 0 and asked.stderr == "" and "end of input" in asked.stdout, (
        asked.stderr
    )
    assert json.loads(person.read_text())["moves"] == []


def test_a_pool_works_under_a_temporary_folder_too_long_for_a_socket(tmp_path: Path) -> None:
    """The forkserver's socket lives in the temporary folder; a path of over 107 bytes cannot be
    one."""
    long = tmp_path / ("a" * 60) / ("b" * 60)
    long.mkdir(parents=True)
    done = run(
        "duel",
        "random",
        "random",
        "--games",
        "20",
        "--jobs",
        "2",
        "--seed",
        "1",
        "--json",
        TMPDIR=str(long),
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert json.loads(done.stdout)["games"] == 20


@pytest.mark.parametrize(
    "args",
    [
        ["play", "nim", "2", "3", "5", "--first", "alphabeta", "--second", "alphabeta"],
        ["play", "tictactoe", "--first", "alphabeta", "--second", "random:seed=1"],
        ["solve", "nim", "2", "3", "5"],
        ["games"],
        ["tree", "nim", "1", "2"],
        ["bench", "nim", "--sizes", "2", "--time", "5"],
    ],
    ids=lambda args: "-".join(args[:2]),
)
def test_an_ascii_stdout_gets_ascii_boards_and_marks(args: list[str]) -> None:
    """`PYTHONIOENCODING=ascii`: every character written is ASCII, boxes and marks alike, and
    nothing fails."""
    done = run(*args, PYTHONIOENCODING="ascii")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.isascii() and "?" not in done.stdout  # no mark left without its ASCII twin
    if args[:2] == ["play", "nim"]:
        # the winning move of 2 3 5 takes 4 from pile 3
        assert "pile 3  o . . . .  1  < took 4" in done.stdout


GAME = ["play", "nim", "2", "3", "5", "--first", "alphabeta", "--second", "random:seed=1"]
"""A game between engines: 2^3^5 is not 0, so the first to move wins it."""


def test_a_record_neither_written_nor_printed_goes_to_stderr_and_says_so(tmp_path: Path) -> None:
    """A disk too full for the record and a full stdout: the record is printed on stderr, and the
    line says why each failed and where the record is."""
    record = tmp_path / "game.json"
    done = run(*GAME, "--record", str(record), full_stdout=True, file_size=100)
    *printed, line = done.stderr.splitlines()
    assert done.returncode == 1
    assert line == (
        f"nimmax: No space left on device; the record was not written to {quoted(str(record))}: "
        "File too large; "
        "it is printed on stderr above (stdout: No space left on device)"
    )
    kept = json.loads("\n".join(printed))
    assert kept["game"] == "nim 2 3 5" and kept["players"] == ["alphabeta", "random:seed=1"]


def test_a_full_stdout_says_where_the_record_is(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    done = run(*GAME, "--record", str(record), full_stdout=True)
    assert (done.returncode, done.stderr) == (
        1,
        f"nimmax: No space left on device; the record is in {quoted(str(record))}\n",
    )
    # stdout failed at the title, before any move
    assert json.loads(record.read_text())["moves"] == []
