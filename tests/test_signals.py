"""Ctrl-C and SIGTERM: every command says in one line what was kept and exits 130 (143 for
SIGTERM); a pooled duel stops within a second or two and leaves no process behind, however
its parent ends.

Processes are found by scanning /proc: a process group's live members (zombies waiting for
init to reap them run nothing), their parents and the signals they catch or ignore.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from nimmax import duel, interrupt
from nimmax.game import BadInput
from nimmax.interrupt import Terminated

from .cli_helpers import nimmax_in_process, nimmax_started, read_specs
from .test_play_pty import shown, spawn
from .toys import TreeGame

SLOW = "alphabeta:depth=9,book=off"  # off: with the books Connect Four is proven at once
"""A player whose Connect Four moves take seconds: workers are caught deep in a search."""


@dataclass(frozen=True)
class Proc:
    """One live process as /proc shows it."""

    pid: int
    parent: int
    caught: int
    ignored: int

    def ignores(self, signum: int) -> bool:
        """Whether the process ignores `signum`."""
        return bool(self.ignored >> (signum - 1) & 1)


def group(pgid: int) -> list[Proc]:
    """The live (not zombie) processes of process group `pgid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            status = dict(
                line.split(":\t", 1)
                for line in (entry / "status").read_text().splitlines()
                if ":\t" in line
            )
        except OSError:  # ended while we looked
            continue
        state, parent, pgrp = stat[0], int(stat[1]), int(stat[2])
        if pgrp == pgid and state != "Z":
            found.append(
                Proc(int(entry.name), parent, int(status["SigCgt"], 16), int(status["SigIgn"], 16))
            )
    return found


def until(condition: Callable[[], bool], seconds: float, what: str) -> None:
    """Wait for `condition`, failing the test with `what` after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"no {what} within {seconds} s"
        time.sleep(0.05)


def running_commands(process: subprocess.Popen[str]) -> bool:
    """Whether nimmax's main() is running a command: it then catches SIGTERM."""
    return any(
        proc.pid == process.pid and proc.caught >> (signal.SIGTERM - 1) & 1
        for proc in group(process.pid)
    )


def workers(process: subprocess.Popen[str]) -> list[Proc]:
    """The duel workers of `process` that are playing: forked by the forkserver, ignoring Ctrl-C."""
    members = group(process.pid)
    # forkserver, resource tracker
    helpers = {proc.pid for proc in members if proc.parent == process.pid}
    return [proc for proc in members if proc.parent in helpers and proc.ignores(signal.SIGINT)]


def wait_empty(pgid: int, since: float) -> float:
    """Seconds from `since` until the group has no live process (at most 5 s after `since`)."""
    until(lambda: not group(pgid), 5 - (time.monotonic() - since), f"empty process group {pgid}")
    return time.monotonic() - since


def finish(process: subprocess.Popen[str]) -> tuple[str, str]:
    """Stdout and stderr once the process has ended (within 10 s)."""
    out, err = process.communicate(timeout=10)
    assert "Traceback" not in out + err
    return out, err


# --- a pooled duel -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("signum", "whole_group", "code", "word"),
    [(signal.SIGINT, True, 130, "interrupted"), (signal.SIGTERM, False, 143, "terminated")],
    ids=["ctrl-c", "sigterm"],
)
def test_a_pooled_duel_stops_at_once_and_leaves_no_process(
    signum: int, whole_group: bool, code: int, word: str
) -> None:
    """Ctrl-C reaches the whole process group, as a terminal sends it; SIGTERM only the parent, as
    `kill` sends it. Either way the workers, busy deep in a search, end with the parent."""
    process = nimmax_started(
        "duel", SLOW, "random", "--game", "connect4", "--games", "40", "--jobs", "2"
    )
    until(lambda: len(workers(process)) == 2, 20, "two playing workers")
    signalled = time.monotonic()
    if whole_group:
        os.killpg(process.pid, signum)
    else:
        os.kill(process.pid, signum)
    out, err = finish(process)
    assert process.returncode == code
    assert time.monotonic() - signalled < 5
    # Said at once (before the workers' last games are in), then the one line of the end.
    assert (
        err
        == f"stopping: 0 of 40 games finished so far; games in play are dropped\nnimmax: {word} "
        "before any game ended\n"
    )
    assert "connect4: interrupted after 0 of 40 games" in out
    wait_empty(process.pid, signalled)


def test_a_pooled_duel_whose_parent_is_killed_leaves_no_worker() -> None:
    """SIGKILL gives the parent no say: the workers see their link close and end themselves."""
    process = nimmax_started(
        "duel", SLOW, "random", "--game", "connect4", "--games", "40", "--jobs", "2"
    )
    until(lambda: len(workers(process)) == 2, 20, "two playing workers")
    killed = time.monotonic()
    process.kill()
    process.communicate(timeout=10)
    wait_empty(process.pid, killed)


QUICK = "alphabeta:depth=5"
"""A player whose Connect Four games take a few tenths of a second: a block of ten lasts seconds."""


def serial_record(games: int) -> dict[str, Any]:
    """The duel QUICK vs random as one process plays it: the games a pool must count, each once."""
    event = duel.run(duel.plan("connect4", read_specs(QUICK, "random"), games, seed=1), jobs=1)
    return duel.pairing_record(event, event.pairings[0])


def test_a_worker_killed_from_outside_has_its_block_played_again() -> None:
    """SIGKILL of one worker mid-block: a new worker plays that block again, its games counted once,
    so the duel ends as if nothing happened (the same wins and nodes as one process plays it)."""
    process = nimmax_started(
        "duel", QUICK, "random", "--game", "connect4", "--games", "20", "--jobs", "2"
    )
    until(lambda: len(workers(process)) == 2, 20, "two playing workers")
    os.kill(workers(process)[0].pid, signal.SIGKILL)
    out, err = finish(process)
    assert (process.returncode, err) == (0, "")
    assert "20 games" in out


def test_a_killed_worker_keeps_the_json_counts_of_one_process() -> None:
    process = nimmax_started(
        "duel",
        QUICK,
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
    )
    until(lambda: len(workers(process)) == 2, 20, "two playing workers")
    os.kill(workers(process)[0].pid, signal.SIGKILL)
    out, err = finish(process)
    assert (process.returncode, err) == (0, "")
    pooled, serial = json.loads(out), serial_record(20)
    assert pooled["games"] == serial["games"] == 20 and pooled["failed_blocks"] == []
    assert pooled["wins"] == serial["wins"] and pooled["draws"] == serial["draws"]
    for name in (QUICK, "random"):
        assert pooled["per_player"][name]["nodes"] == serial["per_player"][name]["nodes"]
    wait_empty(process.pid, time.monotonic())


def test_a_block_whose_worker_is_lost_twice_is_named_and_the_other_games_printed() -> None:
    process = nimmax_started(
        "duel",
        QUICK,
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
    )
    until(lambda: len(workers(process)) == 2, 20, "two playing workers")
    first = {proc.pid for proc in workers(process)}
    os.kill(min(first), signal.SIGKILL)
    until(lambda: {proc.pid for proc in workers(process)} - first != set(), 20, "a new worker")
    (replacement,) = {proc.pid for proc in workers(process)} - first
    os.kill(replacement, signal.SIGKILL)
    out, err = finish(process)
    assert process.returncode == 1
    assert (
        err == "nimmax: 1 block of 10 games lost their worker twice; the other games' results are "
        "printed\n"
    )
    pooled = json.loads(out)
    assert (
        pooled["games"] == 10
        and pooled["wins"][QUICK] + pooled["wins"]["random"] + pooled["draws"] == 10
    )
    (lost,) = pooled["failed_blocks"]
    assert (
        lost["games"] == 10 and lost["first_game"] in (0, 10) and "lost 2 times" in lost["reason"]
    )
    wait_empty(process.pid, time.monotonic())


def test_a_worker_error_reaches_the_parent_and_stops_the_pool() -> None:
    """An error inside a worker's game is raised by the pool as it was raised there."""
    plan = duel.plan(Brittle(), read_specs("random", "random"), 40, seed=1)
    with pytest.raises(BadInput, match="the brittle board broke"):
        duel.run(plan, jobs=2)


class Brittle(TreeGame):
    """A two-move game whose first move breaks it (importable by the pool's workers)."""

    def __init__(self) -> None:
        super().__init__((0, [1, -1]))

    def result(self, state: tuple[int, ...], action: int) -> tuple[int, ...]:
        raise BadInput("the brittle board broke")


# --- one process ----------------------------------------------------------------------------


def test_ctrl_c_on_a_one_process_duel_prints_the_games_played() -> None:
    process = nimmax_started(
        "duel", "alphabeta", "random", "--game", "nim 2 3 5", "--games", "1000000", "--seed", "1"
    )
    until(lambda: running_commands(process), 20, "command running")
    time.sleep(1)  # games are played
    process.send_signal(signal.SIGINT)
    out, err = finish(process)
    found = re.fullmatch(
        r"stopping: ([0-9,]+) of 1,000,000 games finished so far; games in play are dropped\n"
        r"nimmax: interrupted after ([0-9]+) games; their results are printed\n",
        err,
    )
    assert process.returncode == 130 and found is not None, err
    assert found.group(1).replace(",", "") == found.group(2)
    assert f"interrupted after {found.group(2)} of 1000000 games" in out and "wins as first" in out


@pytest.mark.parametrize(
    ("args", "signum", "code", "line"),
    [
        (
            ["bench", "tictactoe", "--sizes", "4", "--k", "4", "--time", "60"],
            signal.SIGTERM,
            143,
            "terminated",
        ),
        (
            ["solve", "connect4", "--algorithm", "alphabeta:book=off"],
            signal.SIGINT,
            130,
            "interrupted",
        ),
        (
            ["solve", "connect4", "--algorithm", "alphabeta:book=off", "--json"],
            signal.SIGTERM,
            143,
            "terminated",
        ),
    ],
)
def test_a_signalled_command_says_so_in_one_line(
    args: list[str], signum: int, code: int, line: str
) -> None:
    process = nimmax_started(*args)
    until(lambda: running_commands(process), 20, "command running")
    time.sleep(1)  # past its set-up, into the search
    process.send_signal(signum)
    out, err = finish(process)
    assert process.returncode == code
    assert err.startswith("nimmax: ") and line in err and err.count("\n") == 1, err
    if args[0] == "bench":
        assert err == "nimmax: terminated before any run ended\n" and "no run to chart" in out


def test_ctrl_c_on_an_unlimited_solve_shows_the_deepest_completed_answer() -> None:
    """`solve connect4` searches to the end, far beyond a session: Ctrl-C answered "interrupted
    before any move was searched" (issue 28). It deepens a few cheap plies before it leaps to the
    end, so the deepest of them is shown, marked not proven, best move first."""
    # the books prove it at once
    process = nimmax_started("solve", "connect4", "--algorithm", "alphabeta:book=off")
    until(lambda: running_commands(process), 20, "command running")
    time.sleep(3)  # past the cheap depths, into the proof
    process.send_signal(signal.SIGINT)
    out, err = finish(process)
    found = re.fullmatch(
        r"nimmax: interrupted past depth ([0-9]+); "
        r"the deepest completed answer, depth \1, is shown above, not proven\n",
        err,
    )
    assert process.returncode == 130 and found is not None, err
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert f"(estimate at depth {found.group(1)})" in out and "← best" in rows[0] and len(rows) == 7


# --- main() and the interrupt contract, in this process ---------------------------------------


def test_main_turns_each_interruption_into_its_code_and_one_line() -> None:
    kept = KeyboardInterrupt()
    kept.add_note("at depth 7; the best move so far is shown above")
    cases = [
        (KeyboardInterrupt(), 130, "nimmax: interrupted\n"),
        (Terminated(), 143, "nimmax: terminated\n"),
        (kept, 130, "nimmax: interrupted at depth 7; the best move so far is shown above\n"),
    ]
    for error, code, line in cases:
        with mock.patch("nimmax.commands.solve.solve", side_effect=error):
            run = nimmax_in_process("solve", "nim", "2", "3", "5")
        assert (run.returncode, run.stderr) == (code, line)


def test_sigterm_raises_terminated_only_while_a_command_runs() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Terminated), interrupt.raise_on_sigterm():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(1)  # the handler runs at once; this is never reached
    assert signal.getsignal(signal.SIGTERM) is before
    assert issubclass(Terminated, KeyboardInterrupt)
    assert (
        interrupt.exit_code(Terminated()) == 143 and interrupt.exit_code(KeyboardInterrupt()) == 130
    )


def test_held_signals_become_a_flag_and_an_ignored_signal_stays_ignored() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with interrupt.Held() as held:
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGINT)  # a second signal does not replace the first
        until(lambda: held.caught is not None, 5, "held signal")
    assert type(held.caught) is Terminated
    assert signal.getsignal(signal.SIGTERM) is before
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # as in a background job
    try:
        with interrupt.Held() as held:
            assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_memory_hint_names_only_the_options_the_command_has() -> None:
    with mock.patch("nimmax.commands.solve.solve", side_effect=MemoryError):
        solve = nimmax_in_process("solve", "nim", "2", "3", "5")
    with mock.patch("nimmax.commands.tree.explore", side_effect=RecursionError):
        tree = nimmax_in_process("tree", "nim", "2", "2")
    assert solve.returncode == tree.returncode == 1
    assert solve.stderr == (
        "nimmax: the search needs more memory than this machine allows; limit it with --depth or "
        "--time\n"
    )
    assert (
        tree.stderr
        == "nimmax: the search needs a deeper stack than this machine allows; limit it with "
        "--depth\n"
    )


# --- every stop signal keeps the same work ------------------------------------------------------

STOPS = [
    (signal.SIGINT, 130, "interrupted"),
    (signal.SIGTERM, 143, "terminated"),
    (signal.SIGHUP, 129, "hung up"),
]


@pytest.mark.parametrize(("signum", "code", "word"), STOPS, ids=["sigint", "sigterm", "sighup"])
def test_every_stop_signal_prints_solves_answer_so_far(signum: int, code: int, word: str) -> None:
    """As `timeout 3 nimmax solve connect4 --time 30 --json` sends it: the deepest answer is printed
    (Connect Four is not proven in seconds) and the exit code names the signal."""
    process = nimmax_started(
        "solve", "connect4", "--algorithm", "alphabeta:book=off", "--time", "30", "--json"
    )
    until(lambda: running_commands(process), 20, "command running")
    time.sleep(1.5)  # a few depths done
    process.send_signal(signum)
    out, err = finish(process)
    answer = json.loads(out)
    assert process.returncode == code, err
    assert answer["interrupted"] is True and answer["exact"] is False and answer["depth"] >= 1
    assert answer["best_move"] in "abcdefg"
    assert err.startswith(f"nimmax: {word} past depth ") and err.count("\n") == 1, err


@pytest.mark.parametrize(("signum", "code", "word"), STOPS, ids=["sigint", "sigterm", "sighup"])
def test_every_stop_signal_keeps_the_record_of_a_game_between_engines(
    signum: int, code: int, word: str, tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    # a Kalah game of some 40 moves: 20 s, far from its end when signalled
    spec = "alphabeta:time=0.5"
    process = nimmax_started(
        "play", "kalah", "--first", spec, "--second", spec, "--record", str(record)
    )
    until(lambda: running_commands(process), 20, "command running")
    time.sleep(1.5)  # some moves made, one being searched
    process.send_signal(signum)
    if signum == signal.SIGINT:  # once makes the engine move now; twice ends the game
        time.sleep(0.3)
        process.send_signal(signum)
    out, err = finish(process)
    assert process.returncode == code, err
    assert err.startswith(f"nimmax: {word} with the record written to ") and err.count("\n") == 1, (
        err
    )
    saved = json.loads(record.read_text())
    assert saved["result"]["finished"] is False and saved["moves"]
    assert f"plays {saved['moves'][-1]}" in out  # the last move shown is the last one kept


def test_a_closed_terminal_keeps_the_record(tmp_path: Path) -> None:
    """SIGHUP as a terminal sends it when its window closes: output to it is dropped, the record
    written."""
    record = tmp_path / "game.json"
    child = spawn(
        "play",
        "connect4",
        "--first",
        "alphabeta:time=0.3,book=off",
        "--second",
        "random",
        "--record",
        str(record),
    )
    child.expect(shown("plays"))
    time.sleep(0.5)
    child.ptyproc.fileobj.close()  # the terminal hangs up: SIGHUP to nimmax
    assert child.ptyproc.wait() == 129 and child.ptyproc.signalstatus is None
    saved = json.loads(record.read_text())
    assert saved["result"]["finished"] is False and saved["moves"]


def blocked(pid: int, signum: int) -> bool:
    """Whether process `pid` blocks `signum` (holds it pending)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    mask = next(line for line in status.splitlines() if line.startswith("SigBlk:"))
    return bool(int(mask.split()[1], 16) >> (signum - 1) & 1)


@pytest.mark.parametrize(("signum", "code", "word"), STOPS[:2], ids=["sigint", "sigterm"])
def test_a_signal_while_the_cli_is_imported_is_one_line(signum: int, code: int, word: str) -> None:
    """From the moment nimmax's own code runs (it then blocks the stop signals), a signal during the
    imports that follow (0.2 s and more) is its one line and exit code, never a traceback through
    them."""
    for delay in (0.0, 0.02, 0.05):
        process = nimmax_started("solve", "nim", "2", "3", "5")
        until(partial(blocked, process.pid, signal.SIGHUP), 10, "nimmax's imports")
        time.sleep(delay)
        process.send_signal(signum)
        out, err = finish(process)
        assert (process.returncode, err) == (code, f"nimmax: {word}\n"), err


@pytest.mark.parametrize(("signum", "code", "word"), STOPS[:2], ids=["sigint", "sigterm"])
def test_an_interrupted_check_prints_the_findings_so_far(signum: int, code: int, word: str) -> None:
    process = nimmax_started("check", "connect4", "--playouts", "1000000", "--json")
    until(lambda: running_commands(process), 20, "command running")
    time.sleep(1.5)  # some playouts done
    process.send_signal(signum)
    out, err = finish(process)
    report = json.loads(out)
    assert process.returncode == code, err
    assert report["interrupted"] is True and report["positions"] > 0
    assert report["passed"] is True  # nimmax's own Connect Four keeps every law
    assert all(law["checked"] <= report["positions"] for law in report["laws"])
    assert (
        err == f"nimmax: {word} after {report['positions']:,} positions; the findings so far are "
        "printed\n"
    )


def test_a_terminal_closed_at_the_prompt_keeps_the_record(tmp_path: Path) -> None:
    """The person's terminal closes while nimmax waits for their move: the record of the moves so
    far."""
    record = tmp_path / "game.json"
    child = spawn("play", "tictactoe", "--record", str(record))
    child.expect(shown("X ›"))
    child.send("b2\r")
    child.expect(shown("O (alphabeta) plays"))
    child.expect(shown("X ›"))
    child.ptyproc.fileobj.close()
    assert child.ptyproc.wait() == 129 and child.ptyproc.signalstatus is None
    moves = json.loads(record.read_text())["moves"]
    assert moves[0] == "b2" and len(moves) == 2


@pytest.mark.parametrize(
    "signum", [signal.SIGHUP, signal.SIGINT], ids=["nohup", "background shell"]
)
def test_a_signal_a_test_sends_is_felt_though_the_test_runs_ignoring_it(signum: int) -> None:
    """`nohup python -m pytest` failed the SIGHUP tests: their children inherited "ignore SIGHUP"
    (and a shell's background job ignores SIGINT); the child a test signals starts with the
    default."""
    previous = signal.signal(signum, signal.SIG_IGN)
    try:
        process = nimmax_started("check", "connect4", "--playouts", "1000000", "--json")
    finally:
        signal.signal(signum, previous)
    until(lambda: running_commands(process), 20, "command running")
    process.send_signal(signum)
    _, err = finish(process)
    code, word = {signal.SIGHUP: (129, "hung up"), signal.SIGINT: (130, "interrupted")}[
        signal.Signals(signum)
    ]
    # ignored, it would run on
    assert process.returncode == code and err.startswith(f"nimmax: {word}"), err
