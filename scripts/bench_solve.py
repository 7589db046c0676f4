"""`nimmax solve` as a user types it beside the engine's own value + best move (issue 32, item 1).

    python scripts/bench_solve.py                  # every row (a few minutes on a quiet machine)
    python scripts/bench_solve.py --quick          # 4x4 k=4 and Kalah(4,3) only
    python scripts/bench_solve.py --repeat 5

For each row of the issue's table: the CLI (`python -m nimmax solve WORDS`, a subprocess, its
output thrown away) beside the engine alone in this process (`ENGINES["alphabeta"].search(game,
state, Limits())`: the value and best move, no every_move), each the median of `--repeat` runs
taken in turn (CLI, engine, CLI, engine, ...) after a warm-up of each, so drift on a shared
machine falls on both. Start-up (`nimmax solve nim 1`: the imports, a search of three nodes) is
timed apart, so the ratio is also given without it. Beside them the engine in a fresh process of
its own (`cold`: the interpreter, the engine's imports, the endgame book read from the cache, the
same search), which pays every fixed cost the CLI pays except the CLI's own: the ratio to it is
what the CLI adds. The target: the CLI within 1.2x of the engine. The machine's load average is
printed with each row: compare figures of one run only.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_startup import BYTECODE, installed  # noqa: E402

from nimmax import games  # noqa: E402
from nimmax.search import ENGINES, Limits, deep  # noqa: E402

ROWS = (
    ("4x4 k=4", "tictactoe --size 4 --k 4"),
    ("5x4 k=4", "tictactoe --rows 4 --cols 5 --k 4"),
    ("Kalah(4,3)", "kalah --pits 4 --seeds 3"),
    ("Kalah(4,4)", "kalah --pits 4 --seeds 4"),
    ("Kalah(5,3)", "kalah --pits 5 --seeds 3"),
)
"""The issue's table: its name, and the game words `solve` takes."""

QUICK = ("4x4 k=4", "Kalah(4,3)")

TARGET = 1.2
"""The CLI's time over the engine's, at most."""

ENVIRONMENT = installed(ROOT) | {"NO_COLOR": "1", "COLUMNS": "100"}
"""The subprocesses run this checkout's nimmax as an install runs it (bytecode kept,
`bench_startup.installed`)."""


def load() -> str:
    """The 1-minute load average; on 2 cores, above 1 means the figures share a core."""
    return f"{os.getloadavg()[0]:.2f}"


def cli(words: str, *extra: str) -> float:
    """Wall time of `nimmax solve WORDS` in a subprocess, as a user runs it."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "nimmax", "solve", *words.split(), *extra],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=ENVIRONMENT,
    )
    return time.perf_counter() - started


def engine(words: str) -> tuple[float, int, float, str]:
    """Wall time, nodes, value and best move of the engine's own search, in this process."""
    game = games.create(words.split())
    state = game.initial_state()
    started = time.perf_counter()
    result = deep(lambda: ENGINES["alphabeta"].search(game, state, Limits()))
    seconds = time.perf_counter() - started
    return seconds, result.nodes, result.value, game.format_move(result.move)


COLD = """
import sys
from nimmax import games
from nimmax.search import ENGINES, Limits, deep
game = games.create(sys.argv[1].split())
deep(lambda: ENGINES["alphabeta"].search(game, game.initial_state(), Limits()))
"""


def cold(words: str) -> float:
    """Wall time of the engine's value + best move in a fresh process: all the CLI does but the
    CLI."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", COLD, words], check=True, env=ENVIRONMENT)
    return time.perf_counter() - started


def agrees(words: str, value: float, move: str) -> str:
    """The CLI's answer (--json) checked against the engine's: the same value and best move."""
    run = subprocess.run(
        [sys.executable, "-m", "nimmax", "solve", *words.split(), "--json"],
        check=True,
        capture_output=True,
        text=True,
        env=ENVIRONMENT,
    )
    answer = json.loads(run.stdout)
    same = answer["value"] == value and answer["best_move"] == move
    return (
        f"{answer['nodes']:,} nodes, same answer"
        if same
        else f"DIFFERENT: {answer['value']} {answer['best_move']}"
    )


def startup(repeat: int) -> float:
    """Median wall time of `nimmax solve nim 1`: the start-up every CLI run pays."""
    cli("nim 1")
    return statistics.median(cli("nim 1") for _ in range(max(repeat, 5)))


def measure(name: str, words: str, repeat: int, start: float) -> None:
    """One row: the CLI and the engine taken in turn, medians, ratios, the load."""
    cli(words)
    engine(words)
    clis, engines, colds = [], [], []
    for _ in range(repeat):
        clis.append(cli(words))
        seconds, nodes, value, move = engine(words)
        engines.append(seconds)
        colds.append(cold(words))
    ours, alone, fresh = (
        statistics.median(clis),
        statistics.median(engines),
        statistics.median(colds),
    )
    ratio, net, own = ours / alone, max(ours - start, 0.0) / alone, ours / fresh
    verdict = "ok" if own <= TARGET else "over"
    print(
        f"{name:12} {ours:8.3f} s {alone:8.3f} s {fresh:8.3f} s {nodes:>11,} {ratio:6.2f}x "
        f"{net:6.2f}x {own:6.2f}x"
        f"  {verdict:5} {load():>5}"
        f"  ({agrees(words, value, move)})",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="timed runs of each side per row (the median is shown)",
    )
    parser.add_argument("--quick", action="store_true", help=f"only {' and '.join(QUICK)}")
    args = parser.parse_args()
    print(
        f"nimmax solve (CLI) vs the engine's value + best move, {time.strftime('%Y-%m-%d %H:%M')}, "
        f"{os.cpu_count()} cores, load {load()}, median of {args.repeat} alternating runs"
    )
    start = startup(args.repeat)
    print(f"start-up (nimmax solve nim 1): {start:.3f} s, load {load()}")
    print(
        f"{'case':12} {'CLI':>10} {'engine':>10} {'cold':>10} {'nodes':>11} {'ratio':>7} "
        f"{'-start':>7} {'/cold':>7}"
        f"  {'<1.2x':5} {'load':>5}"
    )
    try:
        for name, words in ROWS:
            if not args.quick or name in QUICK:
                measure(name, words, args.repeat, start)
    finally:
        shutil.rmtree(BYTECODE, ignore_errors=True)


if __name__ == "__main__":
    main()
