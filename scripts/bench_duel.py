"""Benchmark `nimmax duel` against the issue's speed targets and print the figures.

1. `nimmax duel alphabeta random --games 1000` on the default game (3x3 tic-tac-toe):
   target under 10 s.
2. A duel lasting over 20 s on one process, then the same on two: target `--jobs 2` at
   least 1.6x as fast, and the very same games (the JSON without its clock readings).

Each figure is the wall time of the real command, Python start-up included. On a shared
machine the wall times say little, so the CPU seconds of every process of each run are read
from /proc too, with the speed-up they predict on two idle cores. Run from the checkout:
`python scripts/bench_duel.py [--game "GAME ARGS"] [--seconds 20]`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nimmax import duel  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_times() -> dict[int, tuple[int, float]]:
    """Every process's parent and CPU seconds so far, from /proc (empty where there is none)."""
    times = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        times[int(entry.parent.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS)
    return times


def descendants(root: int, times: dict[int, tuple[int, float]]) -> set[int]:
    """`root` and every process below it."""
    found, grown = {root}, True
    while grown:
        more = {pid for pid, (parent, _) in times.items() if parent in found} - found
        found |= more
        grown = bool(more)
    return found


def run_duel(game: str, games: int, jobs: int, seed: int = 1) -> tuple[float, dict[str, Any], dict[int, float]]:
    """Wall seconds, JSON record and CPU seconds per process (the last /proc reading before
    each ended) of one `nimmax duel alphabeta random` run."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable,
        "-m",
        "nimmax",
        "duel",
        "alphabeta",
        "random",
        "--game",
        game,
        "--games",
        str(games),
        "--jobs",
        str(jobs),
        "--seed",
        str(seed),
        "--json",
    ]
    started = time.perf_counter()
    cpu: dict[int, float] = {}
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env) as child:
        while child.poll() is None:
            times = process_times()
            for pid in descendants(child.pid, times):
                cpu[pid] = times[pid][1] if pid in times else cpu.get(pid, 0.0)
            time.sleep(0.2)
        output = child.stdout.read() if child.stdout else ""
    if child.returncode:
        raise SystemExit(f"duel failed with exit code {child.returncode}")
    return time.perf_counter() - started, json.loads(output), cpu


def idle_estimate(alone_cpu: dict[int, float], pooled_cpu: dict[int, float], cores: int = 2) -> float:
    """The speed-up the CPU seconds predict for `cores` idle cores: one process's work against
    the pool's busiest process, or all its processes' work shared by the cores."""
    if not alone_cpu or not pooled_cpu:
        return math.nan
    busiest = max(pooled_cpu.values())
    return sum(alone_cpu.values()) / max(busiest, sum(pooled_cpu.values()) / cores)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=duel.DEFAULT_GAME, help="game words (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=22.0, help="length of the one-process duel")
    options = parser.parse_args()
    print(f"cores available: {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}")

    elapsed, record, _ = run_duel(options.game, 1000, 1)
    verdict = "met" if elapsed < 10 else "NOT met"
    print(
        f"duel alphabeta random --games 1000 --game {options.game!r}: {elapsed:.2f} s "
        f"(target < 10 s: {verdict}); wins {record['wins']}, draws {record['draws']}"
    )

    games = max(1000, math.ceil(1000 * options.seconds / elapsed))
    alone, alone_record, alone_cpu = run_duel(options.game, games, 1)
    while alone < options.seconds:  # the first estimate counted start-up; grow until the duel is long enough
        games = math.ceil(games * options.seconds * 1.1 / alone)
        alone, alone_record, alone_cpu = run_duel(options.game, games, 1)
    pooled, pooled_record, pooled_cpu = run_duel(options.game, games, 2)
    speedup = alone / pooled
    print(
        f"duel alphabeta random --games {games} --game {options.game!r}: --jobs 1 {alone:.2f} s, "
        f"--jobs 2 {pooled:.2f} s, speed-up {speedup:.2f}x (target >= 1.6x over a 20 s duel: "
        f"{'met' if speedup >= 1.6 and alone > 20 else 'NOT met'})"
    )
    shown = ", ".join(f"{seconds:.1f}" for seconds in sorted(pooled_cpu.values(), reverse=True) if seconds >= 0.05)
    print(
        f"CPU seconds: --jobs 1 {sum(alone_cpu.values()):.1f}; --jobs 2 {sum(pooled_cpu.values()):.1f} "
        f"(per process: {shown}); speed-up these predict on 2 idle cores: "
        f"{idle_estimate(alone_cpu, pooled_cpu):.2f}x"
    )
    if os.getloadavg()[0] > 2:
        print(f"note: load average {os.getloadavg()[0]:.1f} on this machine: wall-clock figures are noisy")
    same = duel.timeless(alone_record) == duel.timeless(pooled_record)
    print(f"--jobs 1 and --jobs 2 played the same games: {same}")


if __name__ == "__main__":
    main()
