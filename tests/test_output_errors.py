"""Output that cannot be written: a full disk is one line and exit 1; a broken pipe (the reader
left, as `| head` does) is silent with exit 1. Never a traceback, now or at the interpreter's
exit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from .cli_helpers import ENVIRONMENT, ROOT, nimmax_in_process, nimmax_started

COMMANDS = [
    ["games"],
    ["games", "--json"],
    ["solve", "nim", "2", "3", "5"],
    ["solve", "nim", "2", "3", "5", "--json"],
    [
        "duel",
        "alphabeta",
        "random",
        "--game",
        "nim 2 3 5",
        "--games",
        "40",
        "--jobs",
        "2",
        "--json",
    ],
    ["solve", "--help"],
]


def ended(process: subprocess.Popen[str]) -> tuple[int, str]:
    """Exit code and stderr once `process` has ended."""
    _, err = process.communicate(timeout=60)
    return process.returncode, err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_full_disk_is_one_line_and_exit_1(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        code, err = ended(nimmax_started(*args, stdout=full))
    assert (code, err) == (1, "nimmax: No space left on device\n")


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_broken_pipe_is_silent_with_exit_1(args: list[str]) -> None:
    reader, writer = os.pipe()
    os.close(reader)  # the reader has left before the first write
    try:
        code, err = ended(nimmax_started(*args, stdout=writer))
    finally:
        os.close(writer)
    assert (code, err) == (1, "")


def test_any_other_system_error_is_one_line_and_exit_1() -> None:
    with mock.patch(
        "nimmax.commands.solve.solve",
        side_effect=PermissionError(13, "Permission denied", "table.bin"),
    ):
        run = nimmax_in_process("solve", "nim", "2", "3", "5")
    assert (run.returncode, run.stderr) == (1, "nimmax: Permission denied: table.bin\n")


def test_a_closed_stdout_is_no_error() -> None:
    """Started with stdout closed (`>&-`), the output goes nowhere, as Rich's own does."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **ENVIRONMENT}
    run = subprocess.run(
        [sys.executable, "-m", "nimmax", "games", "--json"],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: os.close(1),
        timeout=60,
    )
    assert (run.returncode, run.stderr) == (0, "")
