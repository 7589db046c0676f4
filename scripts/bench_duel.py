"""Benchmark `nimmax duel` against the issue's speed targets and print the figures.

1. `nimmax duel alphabeta random --games 1000` on the default game (3x3 tic-tac-toe once
   it is registered, else Nim 2 3 5): target under 10 s.
2. A duel lasting over 20 s on one process, then the same on two: target `--jobs 2` at
   least 1.6x as fast, and the very same games (the JSON without its clock readings).

Each figure is the wall time of the real command, Python start-up included. Run from the
checkout: `python scripts/bench_duel.py [--game "GAME ARGS"] [--seconds 20]`.
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


def run_duel(game: str, games: int, jobs: int, seed: int = 1) -> tuple[float, dict[str, Any]]:
    """Wall seconds and JSON record of one `nimmax duel alphabeta random` run."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "nimmax", "duel", "alphabeta", "random", "--game", game,
               "--games", str(games), "--jobs", str(jobs), "--seed", str(seed), "--json"]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    return time.perf_counter() - started, json.loads(done.stdout)


def timeless(record: Any) -> Any:
    """The record without clock readings (every key ending in `seconds`)."""
    if isinstance(record, dict):
        return {key: timeless(value) for key, value in record.items() if not key.endswith("seconds")}
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=duel.default_game(), help="game words (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=22.0, help="length of the one-process duel")
    options = parser.parse_args()
    print(f"cores available: {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}")

    elapsed, record = run_duel(options.game, 1000, 1)
    verdict = "met" if elapsed < 10 else "NOT met"
    print(f"duel alphabeta random --games 1000 --game {options.game!r}: {elapsed:.2f} s "
          f"(target < 10 s: {verdict}); wins {record['wins']}, draws {record['draws']}")

    games = max(1000, math.ceil(1000 * options.seconds / elapsed))
    alone, alone_record = run_duel(options.game, games, 1)
    while alone < options.seconds:  # the first estimate counted start-up; grow until the duel is long enough
        games = math.ceil(games * options.seconds * 1.1 / alone)
        alone, alone_record = run_duel(options.game, games, 1)
    pooled, pooled_record = run_duel(options.game, games, 2)
    speedup = alone / pooled
    print(f"duel alphabeta random --games {games} --game {options.game!r}: --jobs 1 {alone:.2f} s, "
          f"--jobs 2 {pooled:.2f} s, speed-up {speedup:.2f}x (target >= 1.6x over a 20 s duel: "
          f"{'met' if speedup >= 1.6 and alone > 20 else 'NOT met'})")
    same = timeless(alone_record) == timeless(pooled_record)
    print(f"--jobs 1 and --jobs 2 played the same games: {same}")


if __name__ == "__main__":
    main()
