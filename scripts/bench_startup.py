"""Benchmark nimmax's start-up against the issue's target and print the figures.

The wall time of `python -m nimmax --help` and `python -m nimmax solve tictactoe` (target: under
0.15 s each on a quiet machine), beside the interpreter alone (`python -c pass`, the floor no
command goes below). The cases run alternately, round after round, and each figure is the
median of its rounds, so a drifting machine load falls on every case alike; the load average is
printed before and after. With `--against CHECKOUT` (another nimmax checkout, main's say) the
same commands of both checkouts alternate too, and the ratios are printed.
Run from the checkout: `python scripts/bench_startup.py [--rounds 21] [--against /work/main]`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.15
CASES = {
    "--help": ["-m", "nimmax", "--help"],
    "solve tictactoe": ["-m", "nimmax", "solve", "tictactoe"],
}
FLOOR = ("python -c pass", ["-c", "pass"])


def wall(arguments: list[str], checkout: Path) -> float:
    """Seconds one run of the interpreter with `arguments` takes, `checkout`'s nimmax first on the path."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, *arguments], cwd=checkout, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return time.perf_counter() - started


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21, help="runs of each case (default: %(default)s)")
    parser.add_argument("--against", type=Path, help="another checkout, measured alternately with this one")
    options = parser.parse_args()
    checkouts = [ROOT] + ([options.against.resolve()] if options.against else [])
    runs = [(name, arguments, checkout) for name, arguments in CASES.items() for checkout in checkouts]
    runs.append((FLOOR[0], FLOOR[1], ROOT))
    for _, arguments, checkout in runs:  # warm the file cache and the bytecode caches first
        wall(arguments, checkout)
    print(f"load before: {load()}")
    times: dict[tuple[str, Path], list[float]] = {(name, checkout): [] for name, _, checkout in runs}
    for _ in range(options.rounds):
        for name, arguments, checkout in runs:
            times[name, checkout].append(wall(arguments, checkout))
    print(f"load after:  {load()}  ({options.rounds} rounds, medians)")
    medians = {case: statistics.median(seconds) for case, seconds in times.items()}
    floor = medians[FLOOR[0], ROOT]
    print(f"{FLOOR[0]}: {floor:.3f} s (the interpreter alone)")
    for name in CASES:
        mine = medians[name, ROOT]
        line = f"nimmax {name} ({ROOT}): {mine:.3f} s, {mine - floor:.3f} s over the floor"
        print(f"{line} (target < {TARGET} s: {'met' if mine < TARGET else 'NOT met'})")
        if options.against:
            theirs = medians[name, checkouts[1]]
            print(
                f"nimmax {name} ({checkouts[1]}): {theirs:.3f} s, {theirs - floor:.3f} s over the floor; "
                f"ratio {mine / theirs:.2f} (over the floor {(mine - floor) / (theirs - floor):.2f})"
            )


if __name__ == "__main__":
    main()
