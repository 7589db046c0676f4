"""Benchmark `--backend ray` against the local backends and print the figures.

1. The same seeded 2,000-game duel (`alphabeta:depth=2` against `random` on 3x3 tic-tac-toe) on
   `--jobs 1`, `--jobs 2` and `--backend ray`: the wall time of each real command, and a check that
   all three played the very same games (the JSON without its clock readings).
2. Ray's fixed cost: a one-game duel on `--backend ray` less the same on `--jobs 1` (starting a Ray
   on this machine, shipping the job, the first worker, the shutdown).

Wall times on a shared machine are noisy: the load average is printed with them, and each command
runs `--repeat` times (the best is shown). Needs Ray (`pip install '.[ray]'`). Run from the
checkout: `python scripts/bench_ray.py [--games 2000] [--repeat 1] [--duel "PLAYERS --game G"]`
(e.g. `--duel "alphabeta:depth=4 random --game connect4" --games 400` for games slow enough that two
processes pay).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nimmax.duel import timeless  # noqa: E402

DUEL = ("alphabeta:depth=2", "random", "--game", "tictactoe")
"""The issue's duel: fast players, so the figures show each backend's own cost."""
WHERE = {
    "--jobs 1": ("--jobs", "1"),
    "--jobs 2": ("--jobs", "2"),
    "--backend ray": ("--backend", "ray"),
}


def timed(duel: tuple[str, ...], games: int, where: tuple[str, ...]) -> tuple[float, Any]:
    """Wall seconds and JSON record (clock fields removed) of one duel command, Python start-up
    included."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "nimmax",
            "duel",
            *duel,
            "--seed",
            "1",
            "--json",
            "--games",
            str(games),
            *where,
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"nimmax {' '.join(where)} failed: {done.stderr.strip()}")
    return seconds, timeless(json.loads(done.stdout))


def load() -> str:
    """The load averages of the last 1, 5 and 15 minutes."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--duel", default=" ".join(DUEL), help="the players and --game, as `nimmax duel` takes them"
    )
    options = parser.parse_args()
    duel = tuple(shlex.split(options.duel))
    print(f"{os.cpu_count()} CPUs, load average {load()}")
    print(f"nimmax duel {shlex.join(duel)} --seed 1 --games {options.games} ...")
    records = {}
    for name, where in WHERE.items():
        runs = [timed(duel, options.games, where) for _ in range(options.repeat)]
        best = min(seconds for seconds, _ in runs)
        records[name] = runs[0][1]
        print(f"  {name:<14} {best:7.2f} s wall   (load {load()})")
    same = all(record == records["--jobs 1"] for record in records.values())
    print(f"  the same games on all three: {'yes' if same else 'NO'}")
    local = min(timed(duel, 1, WHERE["--jobs 1"])[0] for _ in range(options.repeat))
    ray = min(timed(duel, 1, WHERE["--backend ray"])[0] for _ in range(options.repeat))
    print(
        f"Ray's fixed cost (one game on ray less one on --jobs 1): {ray - local:.2f} s ({ray:.2f} "
        f"- {local:.2f})"
    )
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
