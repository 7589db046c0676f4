"""Benchmark nimmax's start-up against the issue's target and print the figures.

The wall time of `python -m nimmax --help` and `python -m nimmax solve tictactoe` (target: under
0.15 s each on a quiet machine), beside the interpreter alone (`python -c pass`, the floor no
command goes below). The cases run alternately, round after round, and each figure is the
median of its rounds, so a drifting machine load falls on every case alike; the load average is
printed before and after. The CPU seconds of the same runs are printed too: a busy machine
stretches wall time far more than CPU time, which stays near what a quiet machine's wall time
would be. With `--against CHECKOUT` (another nimmax checkout, main's say) the
same commands of both checkouts alternate too, and the ratios are printed. Run it with the Python
of an environment where nimmax is installed as a user installs it (`pip install .`): an editable
install's import finder, which site loads at every start, adds some 15 ms that no user pays (the
script says when it finds one).
Run from the checkout: `python scripts/bench_startup.py [--rounds 21] [--against /work/main]`.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.15
CASES = {
    "--help": ["-m", "nimmax", "--help"],
    "solve tictactoe": ["-m", "nimmax", "solve", "tictactoe"],
}
FLOOR = ("python -c pass", ["-c", "pass"])
BYTECODE = Path(tempfile.mkdtemp(prefix="nimmax-bytecode-"))


def installed(checkout: Path) -> dict[str, str]:
    """The environment of a run as an installed nimmax starts: `checkout`'s nimmax first on the
    path, its bytecode cached (as an install's is compiled) in BYTECODE, so no checkout is written
    to and a machine that sets PYTHONDONTWRITEBYTECODE does not compile nimmax at every start."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return env | {"PYTHONPATH": str(checkout), "PYTHONPYCACHEPREFIX": str(BYTECODE)}


def run(arguments: list[str], checkout: Path) -> tuple[float, float]:
    """Wall and CPU seconds (user and system) of one run of the interpreter with `arguments`, as
    an installed nimmax from `checkout` runs (`installed`)."""
    env = installed(checkout)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, *arguments],
        cwd=checkout,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rounds", type=int, default=21, help="runs of each case (default: %(default)s)"
    )
    parser.add_argument(
        "--against", type=Path, help="another checkout, measured alternately with this one"
    )
    options = parser.parse_args()
    checkouts = [ROOT] + ([options.against.resolve()] if options.against else [])
    runs = [
        (name, arguments, checkout) for name, arguments in CASES.items() for checkout in checkouts
    ]
    runs.append((FLOOR[0], FLOOR[1], ROOT))
    for _, arguments, checkout in runs:  # warm the file cache and compile the bytecode first
        run(arguments, checkout)
    if editable := sorted(Path(sys.prefix).glob("lib/python*/site-packages/__editable__*nimmax*")):
        print(
            f"note: this nimmax is an editable install ({editable[0].name}): its finder loads at "
            "every start"
        )
    print(f"load before: {load()}")
    times: dict[tuple[str, Path], list[tuple[float, float]]] = {
        (name, checkout): [] for name, _, checkout in runs
    }
    for _ in range(options.rounds):
        for name, arguments, checkout in runs:
            times[name, checkout].append(run(arguments, checkout))
    print(f"load after:  {load()}  ({options.rounds} rounds, medians; wall s / CPU s)")
    medians = {
        case: tuple(statistics.median(figures) for figures in zip(*seconds, strict=True))
        for case, seconds in times.items()
    }
    floor = medians[FLOOR[0], ROOT]
    print(f"{FLOOR[0]}: {floor[0]:.3f} / {floor[1]:.3f} (the interpreter alone)")
    for name in CASES:
        mine = medians[name, ROOT]
        verdict = "met" if mine[0] < TARGET else "NOT met"
        print(f"nimmax {name} ({ROOT}): {shown(mine, floor)} (target < {TARGET} s wall: {verdict})")
        if options.against:
            theirs = medians[name, checkouts[1]]
            ratios = " / ".join(
                f"{ours / them:.2f}" for ours, them in zip(mine, theirs, strict=True)
            )
            print(f"nimmax {name} ({checkouts[1]}): {shown(theirs, floor)}; ratio {ratios}")


def shown(figures: tuple[float, ...], floor: tuple[float, ...]) -> str:
    """Wall and CPU seconds, and how far above the floor's each is."""
    over = " / ".join(f"{figure - least:.3f}" for figure, least in zip(figures, floor, strict=True))
    return f"{figures[0]:.3f} / {figures[1]:.3f}, {over} over the floor"


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(BYTECODE, ignore_errors=True)
