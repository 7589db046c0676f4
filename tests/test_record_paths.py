"""Records go where they are sent, once, losing nothing: `-` and /dev/stdout are standard output
(after the game, appended to whatever stdout was sent to), a FIFO is written in place once, a FIFO
with no writer is never waited on, a record that could only fail after the game is refused before
it; and plugins misbehaving in the process (printing under --json, moving the current folder,
leaving threads) change none of it."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from nimmax import files
from nimmax.game import BadInput

from .cli_helpers import ENVIRONMENT, ROOT, nimmax_in_process

GAME = ("play", "nim", "2", "3", "5", "--first", "alphabeta", "--second", "random:seed=1")


def run_nimmax(
    *args: str, cwd: Path, stdout: Any = subprocess.PIPE, timeout: float = 30
) -> subprocess.CompletedProcess[str]:
    """`python -m nimmax ARGS` from `cwd`, stdout where asked."""
    return subprocess.run(
        [sys.executable, "-m", "nimmax", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(ROOT), **ENVIRONMENT},
        cwd=cwd,
    )


def last_document(text: str) -> dict[str, Any]:
    """The JSON record that ends `text`."""
    start = text.rindex("\n{\n") + 1 if not text.startswith("{\n") else 0
    record = json.loads(text[start:])
    assert isinstance(record, dict)
    return record


@pytest.mark.parametrize("name", ["-", "/dev/stdout"])
def test_a_record_to_stdout_is_printed_after_the_game_and_no_file_made(
    tmp_path: Path, name: str
) -> None:
    """`--record -` made a file named `-`; `--record /dev/stdout` replaced what stdout was sent
    to."""
    run = nimmax_in_process(*GAME, "--record", name, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "First (alphabeta) plays" in run.stdout.split("\n{\n")[0]  # the game, then the record
    assert last_document(run.stdout)["game"] == "nim 2 3 5" and os.listdir(tmp_path) == []


def test_a_record_to_dev_stdout_appended_to_a_log_keeps_the_log(tmp_path: Path) -> None:
    """`... --record /dev/stdout >> log.txt` emptied log.txt and left only the record."""
    log = tmp_path / "log.txt"
    log.write_text("the old log\n")
    with log.open("a") as appended:
        run = run_nimmax(*GAME, "--record", "/dev/stdout", cwd=tmp_path, stdout=appended)
    assert run.returncode == 0, run.stderr
    text = log.read_text()
    assert text.startswith("the old log\nnim 2 3 5") and "First (alphabeta) plays" in text
    assert last_document(text)["players"] == ["alphabeta", "random:seed=1"]


def test_a_record_to_dev_stderr_appended_to_a_log_keeps_the_log(tmp_path: Path) -> None:
    """/dev/stderr resolves to the log: renamed over, the log was lost."""
    log = tmp_path / "errors.txt"
    log.write_text("the old log\n")
    with log.open("a") as appended:
        run = subprocess.run(
            [sys.executable, "-m", "nimmax", *GAME, "--record", "/dev/stderr"],
            stdout=subprocess.DEVNULL,
            stderr=appended,
            timeout=30,
            env={**os.environ, "PYTHONPATH": str(ROOT), **ENVIRONMENT},
            cwd=tmp_path,
        )
    assert run.returncode == 0
    text = log.read_text()
    assert (
        text.startswith("the old log\n{")
        and json.loads(text.split("\n", 1)[1])["game"] == "nim 2 3 5"
    )


def test_a_record_to_a_fifo_reaches_its_reader_whole_and_once(tmp_path: Path) -> None:
    """The check opened and closed the FIFO: the reader saw the end, the real write blocked for
    ever."""
    fifo = tmp_path / "record.fifo"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()), daemon=True)
    reader.start()
    time.sleep(0.1)  # the reader waits in open() for a writer
    run = run_nimmax(*GAME, "--record", str(fifo), cwd=tmp_path)
    reader.join(10)
    assert run.returncode == 0, run.stderr
    assert len(received) == 1 and json.loads(received[0])["game"] == "nim 2 3 5", received
    assert stat_is_fifo(fifo)


def stat_is_fifo(path: Path) -> bool:
    import stat

    return stat.S_ISFIFO(path.lstat().st_mode)


def test_replay_of_a_fifo_with_no_writer_answers_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "game.fifo"
    os.mkfifo(fifo)
    started = time.monotonic()
    run = run_nimmax("replay", str(fifo), cwd=tmp_path, timeout=20)
    assert time.monotonic() - started < 15
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "not JSON" in run.stderr, (
        run.stderr
    )


def test_an_existing_record_in_a_folder_that_takes_no_new_file_is_refused_before_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record is written by a rename over the old one: a folder that takes no new file
    (read-only) failed only after the game. Made read-only both ways: its mode (for a user), and
    refused creation (root ignores the mode)."""
    folder = tmp_path / "records"
    folder.mkdir()
    old = folder / "game.json"
    old.write_text("the old record")
    real_open = os.open

    def read_only_folder(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & os.O_CREAT and Path(path).parent == folder:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only_folder)
    folder.chmod(0o555)
    try:
        with pytest.raises(BadInput, match="Permission denied"):
            files.check_writable(old, "the record")
        run = nimmax_in_process(*GAME, "--record", str(old))
    finally:
        folder.chmod(0o755)
    assert run.returncode == 2 and run.stdout == "" and "Permission denied" in run.stderr, (
        run.stderr
    )
    assert old.read_text() == "the old record"


# ---------------------------------------------------------------- plugins misbehaving in the
# process

ROGUE = """
import os, threading, time

print("printed at import")
# not a daemon: would hold the exit an hour
threading.Thread(target=time.sleep, args=(3600,)).start()
if os.environ.get("ROGUE_CHDIR"):
    os.chdir(os.environ["ROGUE_CHDIR"])


class Rogue:
    def __init__(self, **options):
        print("printed by the constructor")

    def choose(self, game, state):
        print("printed by choose")
        return game.actions(state)[0]
"""


def rogue(tmp_path: Path) -> Path:
    plugin = tmp_path / "rogue.py"
    plugin.write_text(ROGUE)
    return plugin


def test_a_plugins_prints_go_to_stderr_under_json_and_its_threads_do_not_hold_the_exit(
    tmp_path: Path,
) -> None:
    plugin = rogue(tmp_path)
    started = time.monotonic()
    run = run_nimmax(
        "duel",
        f"{plugin}:Rogue",
        "random",
        "--game",
        "nim 2 3",
        "--games",
        "2",
        "--json",
        cwd=tmp_path,
        timeout=30,
    )
    assert time.monotonic() - started < 25  # not the hour its thread sleeps
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["games"] == 2  # nothing but the JSON on stdout
    assert "printed at import" in run.stderr and "printed by choose" in run.stderr


def test_a_plugin_moving_the_current_folder_does_not_move_the_record(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    plugin = rogue(tmp_path)
    env_run = subprocess.run(
        [
            sys.executable,
            "-m",
            "nimmax",
            "play",
            "nim",
            "2",
            "3",
            "--first",
            f"{plugin}:Rogue",
            "--second",
            "random",
        ]
        + ["--record", "game.json"],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "PYTHONPATH": str(ROOT), **ENVIRONMENT, "ROGUE_CHDIR": str(elsewhere)},
        cwd=tmp_path,
    )
    assert env_run.returncode == 0, env_run.stderr
    assert (tmp_path / "game.json").is_file() and not (elsewhere / "game.json").exists()


SLOW = """
import sys, time
sys.path.insert(0, {examples!r})
from subtraction import Subtraction


class Slow(Subtraction):
    calls = 0

    def actions(self, state):
        Slow.calls += 1
        if Slow.calls == 12:  # within the first engine's search
            time.sleep(1.5)  # blocks past the move's limit of 0.2 s
        return super().actions(state)
"""


def test_a_plugin_member_that_blocks_past_the_time_limit_is_said_in_one_line(
    tmp_path: Path,
) -> None:
    """A member that blocks ignored --time in silence: a search checks its clock only between
    calls."""
    (tmp_path / "slow.py").write_text(SLOW.format(examples=str(ROOT / "examples")))
    run = run_nimmax(
        "play",
        "slow.py:Slow",
        "30",
        "--first",
        "alphabeta:time=0.2",
        "--second",
        "random:seed=1",
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert (
        len(lines) == 1 and "past its limit of 0.2 s: the plugin game's own code ran on" in lines[0]
    ), lines
