"""Every search and tree walk stays within the C stack: a recursion too deep for it is refused
with one line (exit 2), never a segmentation fault or a RecursionError traceback."""

from __future__ import annotations

import _thread
import gc
import os
import pickle
import resource
import subprocess
import sys
import threading
import time

import pytest

from nimmax import games
from nimmax.commands.solve import solve, solver
from nimmax.commands.tree import format_count, tree_size
from nimmax.players import parse_spec
from nimmax.search import Limits, TooDeep, deep, interpreter
from nimmax.search.stack import DeepThread, frames_room, refusing, stack_bytes

from .cli_helpers import ENVIRONMENT, ROOT
from .theory import simple_nim_mover_wins, simple_nim_tree_size


def through_c(levels: int) -> int:
    """A recursion that passes through C at every level, as `sum` over a generator does."""
    return 1 + sum(through_c(levels - 1) for _ in range(1)) if levels else 0


def python_only(levels: int) -> int:
    """A recursion of plain Python calls, which take no C stack."""
    return 1 + python_only(levels - 1) if levels else 0


MEASURE = """
import os, resource, subprocess, sys
def limit():
    if sys.argv[1] != "-":
        hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
        resource.setrlimit(resource.RLIMIT_STACK, (int(sys.argv[1]), hard))
code = subprocess.run(sys.argv[2:], preexec_fn=limit).returncode
sys.stderr.write(f"\\n{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}")
sys.exit(code)
"""
"""Runs a program and reports its peak memory. A process forked from pytest inherits pytest's
peak as its own, even after exec, so the program is started by this small process instead."""


def run_measured(
    args: list[str], limit_stack: int | None = None
) -> tuple[int, str, str, float, int]:
    """Run `args` (a Python program) alone: exit code, stdout, stderr, seconds and peak memory in
    MB."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **ENVIRONMENT}
    stack = "-" if limit_stack is None else str(limit_stack)
    started = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-c", MEASURE, stack, sys.executable, *args],
        capture_output=True,
        text=True,
        env=env,
    )
    seconds = time.perf_counter() - started
    err, _, peak = run.stderr.rpartition("\n")
    return run.returncode, run.stdout, err, seconds, int(peak) // 1024


def test_the_limit_stays_within_this_threads_stack_and_is_put_back() -> None:
    before = (sys.getrecursionlimit(), gc.isenabled())
    with interpreter(), refusing() as plies:
        assert sys.getrecursionlimit() <= max(before[0], frames_room(stack_bytes()))
        assert 0 < plies < 10**9
    assert (sys.getrecursionlimit(), gc.isenabled()) == before


def test_a_recursion_past_the_room_is_too_deep_and_names_the_room() -> None:
    with pytest.raises(TooDeep, match="plies") as refused, interpreter(), refusing() as plies:
        python_only(10**9)
    assert refused.value.plies == plies
    back = pickle.loads(pickle.dumps(refused.value))  # as a duel worker sends it home
    assert isinstance(back, TooDeep) and str(back) == str(refused.value)


@pytest.mark.parametrize("stack", [None, 1 << 20, resource.RLIM_INFINITY])
@pytest.mark.parametrize("where", ["main()", "threading.Thread(target=main).start()"])
def test_a_recursion_through_c_is_refused_before_the_stack_overflows(
    stack: int | None, where: str
) -> None:
    """On the stack the process has, a small one and an unlimited one, in the main thread and
    in another, a recursion through C at every level."""
    code = (
        "import threading\n"
        "from nimmax.search import TooDeep, interpreter\n"
        "from nimmax.search.stack import refusing\n"
        "def through_c(levels):\n"
        "    return 1 + sum(through_c(levels - 1) for _ in range(1)) if levels else 0\n"
        "def main():\n"
        "    try:\n"
        "        with interpreter(), refusing():\n"
        "            through_c(10**7)\n"
        "    except TooDeep as error:\n"
        "        print('refused at', error.plies)\n"
        f"{where}\n"
    )
    exit_code, out, err, _, _ = run_measured(["-c", code], limit_stack=stack)
    assert exit_code == 0 and out.startswith("refused at"), err


def test_deep_runs_what_this_stack_cannot_hold_on_a_thread_of_its_own() -> None:
    levels = 30_000  # about 16 MB of C stack: past the 8 MB a main thread usually has
    assert deep(lambda: through_c(levels)) == levels


def test_deep_raises_what_the_search_raises() -> None:
    def fails() -> None:
        raise ValueError("from the search")

    with pytest.raises(ValueError, match="from the search"):
        deep(fails)
    with pytest.raises(TooDeep):
        deep(lambda: python_only(10**9))


def interrupt_soon() -> None:
    """Ctrl-C in a moment, as the terminal would send it."""
    threading.Timer(0.3, _thread.interrupt_main).start()


def spin() -> str:
    while True:
        time.sleep(0)


def test_ctrl_c_while_a_deep_search_runs_stops_it() -> None:
    interrupt_soon()
    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        deep(spin)
    assert time.perf_counter() - started < 5
    time.sleep(0.1)
    assert not any(isinstance(thread, DeepThread) for thread in threading.enumerate())


def test_a_search_that_answers_ctrl_c_answers_through_deep() -> None:
    """A search that catches KeyboardInterrupt (to move now) gives its answer, as it would on this
    thread."""

    def moves_now() -> str:
        try:
            return spin()
        except KeyboardInterrupt:
            return "best so far"

    interrupt_soon()
    assert deep(moves_now) == "best so far"


def nimmax_measured(*args: str) -> tuple[int, str, str, float, int]:
    return run_measured(["-m", "nimmax", *args])


@pytest.mark.parametrize(
    ("words", "says"),
    [
        # about 10^13,233 nodes, or too big to count in a second
        ("simple-nim 50000", "the whole tree"),
        ("simple-nim 100000", "the whole tree"),
        ("simple-nim 20000", "the whole tree"),
        ("split-nim 1000", "too big to count"),
    ],
)
def test_tree_refuses_a_huge_tree_quickly_in_little_memory(words: str, says: str) -> None:
    code, out, err, seconds, megabytes = nimmax_measured("tree", *words.split())
    assert code == 2 and out == "" and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1 and says in err and "2,000" in err
    assert seconds < 20 and megabytes < 300


def test_a_count_too_long_to_print_is_shown_by_its_order_of_magnitude() -> None:
    game = games.create(["simple-nim", "20000"])
    whole = tree_size(game, game.initial_state(), seconds=60)
    assert whole is not None and whole.plies == 20_000
    assert format_count(whole.nodes) == "about 10^5,293"
    assert format_count(simple_nim_tree_size(20)) == "266,079"


def test_tree_draws_a_tree_deeper_than_the_interpreters_default_limit() -> None:
    """A chain of 1,500 plies: the trace, the tree and the picture never recurse past the stack."""
    code, out, err, _, _ = nimmax_measured(
        "tree", "simple-nim", "1500", "--max-take", "1", "--max-nodes", "2000"
    )
    assert code == 0, err
    assert "minimax visited 1,501 nodes" in out


@pytest.mark.parametrize(
    ("counters", "normal"), [(10_000, False), (10_001, False), (10_000, True), (100_000, False)]
)
def test_solve_simple_nim_with_a_long_game_is_proven_or_refused(
    counters: int, normal: bool
) -> None:
    args = ["solve", "simple-nim", str(counters), "--json", *(["--normal"] if normal else [])]
    code, out, err, _, _ = nimmax_measured(*args)
    assert "Traceback" not in err, err
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and "plies" in err and "depth" in err
        return
    assert code == 0, err
    mover_wins = simple_nim_mover_wins(counters, 3, misere=not normal)
    assert f'"value": {1.0 if mover_wins else -1.0}' in out and '"exact": true' in out


def test_solve_of_a_game_longer_than_any_stack_is_refused_in_one_line() -> None:
    """The search alone (no book) cannot reach the end; the book (the period) answers at once."""
    code, out, err, seconds, megabytes = nimmax_measured(
        "solve", "simple-nim", "1000000000", "--algorithm", "alphabeta:book=off"
    )
    assert code == 2 and out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "plies" in err and "depth" in err
    assert seconds < 30 and megabytes < 600
    code, out, err, seconds, _ = nimmax_measured("solve", "simple-nim", "1000000000", "--json")
    assert code == 0 and '"exact": true' in out, err
    assert f'"value": {1.0 if simple_nim_mover_wins(10**9, 3, misere=True) else -1.0}' in out


def test_a_depth_limited_search_of_a_long_game_needs_only_its_depth() -> None:
    game = games.create(["simple-nim", "1000000000"])
    result = solve(
        game, game.initial_state(), player=solver(parse_spec("alphabeta:book=off"), Limits(depth=8))
    )
    assert result.move is not None and not result.exact
    code, _, err, _, _ = nimmax_measured(
        "solve", "kalah", "--pits", "32", "--seeds", "1000", "--depth", "2"
    )
    assert code == 0, err


def test_solve_inside_deep_reaches_past_the_main_threads_room() -> None:
    """Searches that need more than the main thread's stack run under `deep`, and are proven."""
    game = games.create(["simple-nim", "60000"])  # some 20,000 plies deep
    result = deep(lambda: solve(game, game.initial_state()))
    assert result.exact and result.value == (
        1.0 if simple_nim_mover_wins(60_000, 3, misere=True) else -1.0
    )


def test_the_search_package_leaves_the_interpreter_as_it_found_it() -> None:
    before = (sys.getrecursionlimit(), gc.isenabled(), threading.stack_size())
    deep(lambda: through_c(100))
    deep(lambda: None)
    assert (sys.getrecursionlimit(), gc.isenabled(), threading.stack_size()) == before
