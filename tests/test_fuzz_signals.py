"""Signals at random points of the commands that keep work: SIGINT, SIGTERM and SIGHUP to `play`
(engines, with --record), `solve`, `duel --jobs 2` and `analyze`, and SIGKILL to one duel worker.

Each case asserts the contract of `nimmax.interrupt`: no traceback; the signal's exit code (130,
143, 129), or 0 when the work was already complete; what the command keeps is kept (the record,
the answer or games or moves so far as JSON, marked interrupted); no process of its group left.
A few seeded examples run in CI (some 30 s); `scripts/fuzz_signals.py` runs many and prints figures.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from .cli_helpers import nimmax, nimmax_started
from .test_signals import group, running_commands, until, workers

KILL_WORKER = -signal.SIGKILL
"""The case's "signal" that SIGKILLs one duel worker rather than signalling nimmax."""

CODES: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

RECORD = "record.json"
ANALYSED = "analysed.json"


def play_args(folder: Path) -> list[str]:
    """Kalah between engines at a tenth of a second a move: some 30 moves, a few seconds."""
    spec = "alphabeta:time=0.1"
    return [
        "play",
        "kalah",
        "--pits",
        "4",
        "--seeds",
        "3",
        "--first",
        spec,
        "--second",
        spec,
        "--record",
        str(folder / RECORD),
    ]


def solve_args(folder: Path) -> list[str]:
    return ["solve", "connect4", "--time", "30", "--json"]  # not proven in 30 s


def duel_args(folder: Path) -> list[str]:
    return [
        "duel",
        "alphabeta:depth=4",
        "random",
        "--game",
        "connect4",
        "--games",
        "20",
        "--jobs",
        "2",
        "--seed",
        "1",
        "--json",
    ]


def analyze_args(folder: Path) -> list[str]:
    return ["analyze", str(folder / ANALYSED), "--time", "0.3", "--json"]


COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "play": play_args,
    "solve": solve_args,
    "duel": duel_args,
    "analyze": analyze_args,
}


def recorded_game(folder: Path) -> Path:
    """A game of random moves on a 5x5 board (four in a row), for analyze: some 20 positions to
    value."""
    path = folder / ANALYSED
    if not path.exists():
        words = [
            "play",
            "tictactoe",
            "--size",
            "5",
            "--k",
            "4",
            "--first",
            "random:seed=1",
            "--second",
            "random:seed=2",
        ]
        done = nimmax(*words, "--record", str(path))
        assert done.returncode == 0, done.stderr
    return path


@dataclass(frozen=True)
class Outcome:
    """One case as it ended: its exit code, whether the work was complete, and its seconds."""

    command: str
    signum: int
    code: int
    complete: bool
    seconds: float


def run_case(command: str, signum: int, delay: float, folder: Path) -> Outcome:
    """Start the command, signal it `delay` seconds into its work, and check what it kept."""
    if command == "analyze":
        recorded_game(folder)
    (folder / RECORD).unlink(missing_ok=True)
    started = time.monotonic()
    process = nimmax_started(*COMMANDS[command](folder))
    try:
        until(
            lambda: running_commands(process) or process.poll() is not None, 30, "command running"
        )
        time.sleep(delay)
        if signum == KILL_WORKER:
            playing = workers(process)
            if playing:
                # it may have finished its block since
                with contextlib.suppress(ProcessLookupError):
                    os.kill(playing[0].pid, signal.SIGKILL)
        elif process.poll() is None:
            process.send_signal(signum)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert "Traceback" not in out + err, err
    complete = kept(command, process.returncode, out, err, folder)
    expected = 0 if signum == KILL_WORKER else CODES[signum]
    assert process.returncode == expected or (process.returncode == 0 and complete), (
        process.returncode,
        err,
    )
    if process.returncode != 0:
        assert err.splitlines()[-1].startswith("nimmax: "), err
    until(lambda: not group(process.pid), 10, "no process left")
    return Outcome(command, signum, process.returncode, complete, time.monotonic() - started)


def kept(command: str, code: int, out: str, err: str, folder: Path) -> bool:
    """Check what the command kept; whether its work was complete. Stopped in its set-up, before any
    work to keep, it keeps nothing and says only the signal's word."""
    if code != 0 and not out.strip() and not (folder / RECORD).exists():
        assert err.splitlines()[-1] in {
            "nimmax: interrupted",
            "nimmax: terminated",
            "nimmax: hung up",
        }, err
        return False
    if command == "play":
        record = json.loads((folder / RECORD).read_text())
        # engines play on to the end unless stopped
        assert record["result"]["finished"] is (code == 0)
        return bool(record["result"]["finished"])
    answer: dict[str, Any] = json.loads(out)
    if command == "solve":
        assert answer["interrupted"] is (code != 0) and answer["best_move"] in "abcdefg"
        return not answer["interrupted"]
    if command == "duel":
        assert answer["interrupted"] is (code != 0) and answer["failed_blocks"] == []
        assert answer["games"] <= answer["planned_games"] == 20
        assert answer["games"] == 20 or code != 0  # a killed worker's block is played again
        return bool(answer["games"] == 20)
    moves = json.loads((folder / ANALYSED).read_text())["moves"]
    assert len(answer["moves"]) <= len(moves)
    assert [move["move"] for move in answer["moves"]] == moves[: len(answer["moves"])]
    return len(answer["moves"]) == len(moves)


CASES = st.one_of(
    st.tuples(st.sampled_from(sorted(COMMANDS)), st.sampled_from(SIGNALS)),
    st.just(("duel", KILL_WORKER)),
)


@settings(max_examples=8, deadline=None, phases=[Phase.generate])
@given(case=CASES, delay=st.floats(0.1, 1.5))
def test_a_signal_at_any_point_keeps_the_work_and_leaves_no_process(
    case: tuple[str, int], delay: float, tmp_path_factory: Any
) -> None:
    command, signum = case
    run_case(command, signum, delay, tmp_path_factory.mktemp(command))
