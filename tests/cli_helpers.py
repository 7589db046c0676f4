"""Running `nimmax` from a test as a user would: in a subprocess, or in this process for speed.

Both runners take the same arguments and return the same `CompletedProcess` (exit code, stdout,
stderr), with the terminal width and colour fixed by the environment (COLUMNS, NO_COLOR).
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from nimmax.cli import main

ROOT = Path(__file__).resolve().parent.parent
ENVIRONMENT = {"COLUMNS": "120", "NO_COLOR": "1"}


def nimmax(*args: str, stdin: str = "", cwd: Path = ROOT, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run the CLI in a subprocess with the checkout importable; returns code and output."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **ENVIRONMENT}
    return subprocess.run(
        [sys.executable, "-m", "nimmax", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=cwd,
    )


def nimmax_started(*args: str, stdout: Any = subprocess.PIPE) -> subprocess.Popen[str]:
    """Start the CLI as `nimmax()` runs it, in a session (and process group) of its own, and return
    at once: for tests that signal it or give it an odd stdout. Stdout and stderr are text pipes."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **ENVIRONMENT}
    return subprocess.Popen(
        [sys.executable, "-m", "nimmax", *args],
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
        start_new_session=True,
    )


def nimmax_in_process(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run `nimmax.cli.main(args)` here, with stdin, stdout and stderr redirected to strings.

    The CLI's consoles have no file of their own: they write to whatever sys.stdout and
    sys.stderr are when they print, and take their width from COLUMNS. They chose their colour
    when made: tests/conftest.py imports nimmax.cli with no terminal attached, so it is none.
    """
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.dict(os.environ, ENVIRONMENT))
        stack.enter_context(reading(io.StringIO(stdin)))
        stack.enter_context(contextlib.redirect_stdout(stdout))
        stack.enter_context(contextlib.redirect_stderr(stderr))
        if cwd is not None:
            stack.enter_context(contextlib.chdir(cwd))
        code = main(list(args))
    return subprocess.CompletedProcess(["nimmax", *args], code, stdout.getvalue(), stderr.getvalue())


@contextlib.contextmanager
def reading(stream: io.StringIO) -> Iterator[None]:
    """sys.stdin is `stream` for the duration, as contextlib.redirect_stdout does for stdout."""
    previous, sys.stdin = sys.stdin, stream
    try:
        yield
    finally:
        sys.stdin = previous
