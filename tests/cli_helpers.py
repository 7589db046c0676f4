"""Running `nimmax` from a test as a user would: in a subprocess, or in this process for speed.

Both runners take the same arguments and return the same `CompletedProcess` (exit code, stdout,
stderr), with the terminal width and colour fixed by the environment (COLUMNS, NO_COLOR).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, cast
from unittest import mock

from nimmax import games
from nimmax.cli import main
from nimmax.game import AnyGame
from nimmax.players import Spec, parse_spec

ROOT = Path(__file__).resolve().parent.parent
ENVIRONMENT = {"COLUMNS": "120", "NO_COLOR": "1"}


def nimmax(
    *args: str,
    stdin: str = "",
    cwd: Path = ROOT,
    timeout: float = 60,
    environment: Mapping[str, str] = {},  # noqa: B006
) -> subprocess.CompletedProcess[str]:
    """Run the CLI in a subprocess with the checkout importable (`environment` added); returns code
    and output."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **ENVIRONMENT, **environment}
    return subprocess.run(
        [sys.executable, "-m", "nimmax", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=cwd,
    )


SENT = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals tests send to the CLI they start."""


def signals_default() -> None:
    """In a child a test will signal (run between fork and exec): the signals tests send take their
    default course, whatever this process inherited (`nohup` ignores SIGHUP, a background shell
    SIGINT)."""
    for signum in SENT:
        signal.signal(signum, signal.SIG_DFL)


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
        preexec_fn=signals_default,
    )


def nimmax_in_process(
    *args: str, stdin: str | TextIO = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `nimmax.cli.main(args)` here, with stdin, stdout and stderr redirected to strings.

    The CLI's consoles have no file of their own: they write to whatever sys.stdout and
    sys.stderr are when they print, and take their width from COLUMNS. They chose their colour
    when made: tests/conftest.py imports nimmax.cli with no terminal attached, so it is none.
    `stdin` is the text piped in, or a stream that answers as it is read (`PipedPerson`). An
    exception that escapes `main` ends the run as it would end the process: its traceback on
    stderr, exit 1.
    """
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.dict(os.environ, ENVIRONMENT))
        stack.enter_context(reading(io.StringIO(stdin) if isinstance(stdin, str) else stdin))
        stack.enter_context(contextlib.redirect_stdout(stdout))
        stack.enter_context(contextlib.redirect_stderr(stderr))
        if cwd is not None:
            stack.enter_context(contextlib.chdir(cwd))
        try:
            code = main(list(args))
        except Exception:  # noqa: BLE001 - what the interpreter prints for an uncaught error, and its exit code
            stderr.write(traceback.format_exc())
            code = 1
    return subprocess.CompletedProcess(
        ["nimmax", *args], code, stdout.getvalue(), stderr.getvalue()
    )


def ran_clean(run: subprocess.CompletedProcess[str]) -> None:
    """Assert a run exited 0 with no traceback anywhere; a failure names the error and where it was
    raised."""
    output = run.stdout + run.stderr
    where = re.findall(r'^  File "(.*?)", line (\d+), in (\S+)$', output, re.MULTILINE)
    error = [line for line in output.splitlines() if line.strip()][-1:]
    traced = "Traceback" in output
    assert not traced, f"traceback: {error} raised at {':'.join(where[-1]) if where else '?'}"
    assert run.returncode == 0, f"exit {run.returncode}: {run.stderr.strip()[-500:]}"


@contextlib.contextmanager
def reading(stream: TextIO) -> Iterator[None]:
    """sys.stdin is `stream` for the duration, as contextlib.redirect_stdout does for stdout."""
    previous, sys.stdin = sys.stdin, stream
    try:
        yield
    finally:
        sys.stdin = previous


def best_listed_first(solved: str) -> str:
    """Assert solve's answer lists its best move first (issue 28: one rule orders moves everywhere),
    in its table (the first row marked best) or its JSON (`moves[0]` is `best_move`), and return
    that move."""
    if solved.lstrip().startswith("{"):
        answer = json.loads(solved)
        listed = [move["move"] for move in answer["moves"]]
        assert listed[:1] == [answer["best_move"]], (
            f"--json lists {listed[:3]} first, best_move {answer['best_move']}"
        )
        return str(answer["best_move"])
    rows = re.findall(r"^│ (\S+)\s+(← best)?\s*│", solved, re.MULTILINE)
    assert rows and rows[0][1] == "← best", f"the table's first row is not the best: {rows[:3]}"
    return str(rows[0][0])


MOVE_SHOWN = re.compile(r"^(?:\d+\. )?\S.*? plays (\S+)|^chance: (.+?)\s*$")
"""A move as play and replay show it: "X (you) plays b2", "3. South plays 4", "chance: 2@b3" (a
chance outcome may hold spaces: OpenSpiel's `Roll 3`)."""


def moves_shown(screen: str) -> list[str]:
    """The moves of a game in the order the screen shows them, chance's draws included."""
    found = (MOVE_SHOWN.match(line) for line in screen.splitlines())
    return [match.group(1) or match.group(2) for match in found if match]


def replayed(game: AnyGame, moves: Sequence[str]) -> list[Any]:
    """Every position of a game, from the start through `moves` in notation, by the game's own
    rules."""
    states = [game.initial_state()]
    for text in moves:
        states.append(game.result(states[-1], game.parse_move(text, states[-1])))
    return states


class PipedPerson(io.StringIO):
    """Stdin with a person behind it who reads the screen: at each prompt a random legal move
    (seeded), of the position the moves shown so far lead to; at the prompts `asks` names (counted
    from 0), those commands first. `asked` keeps each command typed with the position it was typed
    at."""

    def __init__(
        self,
        words: str | Sequence[str],
        seed: int,
        asks: Mapping[int, Sequence[str]] | None = None,
        screen: Callable[[], str] = lambda: cast(io.StringIO, sys.stdout).getvalue(),
    ) -> None:
        super().__init__()
        self.game, self.rng, self.screen = games.create(words), random.Random(seed), screen
        self.asks = {prompt: list(commands) for prompt, commands in (asks or {}).items()}
        self.prompts = 0
        self.asked: list[tuple[str, Any]] = []

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]  # as typeshed's TextIOWrapper
        """The person's next answer: a command still to ask at this prompt, else a move."""
        state = replayed(self.game, moves_shown(self.screen()))[-1]
        waiting = self.asks.get(self.prompts)
        if waiting:
            command = waiting.pop(0)
            self.asked.append((command, state))
            return command + "\n"
        self.prompts += 1
        return self.game.format_move(self.rng.choice(list(self.game.actions(state)))) + "\n"


README = ROOT / "README.md"


@dataclass(frozen=True)
class Example:
    """A `nimmax ...` command of the README's code blocks: its arguments, the text a `printf '...'
    |` before it pipes in, and the README's line number."""

    line: int
    args: tuple[str, ...]
    stdin: str = ""


def readme_examples() -> list[Example]:
    """Every `nimmax` command in the README's code blocks (indented or fenced), in order: the one
    extraction of the README's examples the tests share."""
    return [example for number, line, _ in _code_lines() for example in _commands(number, line)]


def readme_session(heading: str) -> list[list[str]]:
    """The shell lines of the README's code under the heading that starts with `heading`, as words
    (`# comments` dropped): a session of other programs' commands beside nimmax's (`ray start`)."""
    lines = [_words(line) for _, line, under in _code_lines() if under.startswith(heading)]
    return [words for words in lines if words]


def _code_lines() -> Iterator[tuple[int, str, str]]:
    """Each line of the README's code blocks (fenced, or indented after a blank line): its number,
    its text and the heading it stands under."""
    fenced, previous, heading = False, "", ""
    for number, line in enumerate(README.read_text().splitlines(), start=1):
        if line.startswith("```"):
            fenced = not fenced
        elif fenced or (
            line.startswith("    ") and (not previous.strip() or previous.startswith("    "))
        ):
            yield number, line, heading
        elif line.startswith("#"):
            heading = line.lstrip("#").strip()
        previous = line if not line.startswith("```") else ""


def _words(line: str) -> list[str]:
    """A shell line's words as the shell splits them, `&&`, `|` and `;` words of their own, `#
    comments` dropped."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split, lexer.commenters = True, "#"
    return list(lexer)


def _commands(number: int, line: str) -> list[Example]:
    """The nimmax commands of one shell line: `a && nimmax ...`, `printf '...' | nimmax ...`."""
    words = _words(line)
    commands, piped = [], ""
    start = 0
    for end in [*(at for at, word in enumerate(words) if word in ("&&", "|", ";")), len(words)]:
        part = words[start:end]
        if part[:1] == ["nimmax"]:
            commands.append(Example(number, tuple(part[1:]), piped))
        piped = (
            part[1].replace("\\n", "\n")
            if part[:1] == ["printf"] and end < len(words) and words[end] == "|"
            else ""
        )
        start = end + 1
    return commands


def read_specs(*words: str) -> list[Spec]:
    """Player specs read from their words, as the CLI reads them before any library call."""
    return [parse_spec(text) for text in words]
