"""The long run of tests/test_fuzz_signals.py: many signals at random points of play, solve, duel
--jobs 2 and analyze, each case checked as the test checks it, then the figures printed.

Run from the checkout: `python scripts/fuzz_signals.py [--cases 200] [--seed 1] [--longest 1.5]`.
Prints one line per failing case (command, signal, delay, what failed) and a table of outcomes:
per command and signal, the cases, their exit codes and how many were already complete.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_fuzz_signals import COMMANDS, KILL_WORKER, SIGNALS, Outcome, run_case  # noqa: E402


def name(signum: int) -> str:
    """A case's signal by name: SIGINT, SIGTERM, SIGHUP, or worker SIGKILL."""
    return "worker SIGKILL" if signum == KILL_WORKER else signal.Signals(signum).name


def main() -> int:
    """Run the cases; exit 1 if any failed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--longest", type=float, default=1.5, help="the latest a signal falls, in seconds"
    )
    options = parser.parse_args()
    rng = random.Random(options.seed)
    kinds = [(command, signum) for command in sorted(COMMANDS) for signum in SIGNALS] + [
        ("duel", KILL_WORKER)
    ]
    outcomes: list[Outcome] = []
    failures: Counter[tuple[str, str]] = Counter()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as scratch:
        for number in range(options.cases):
            command, signum = rng.choice(kinds)
            delay = rng.uniform(0.05, options.longest)
            folder = Path(scratch) / str(number)
            folder.mkdir()
            try:
                outcomes.append(run_case(command, signum, delay, folder))
            except Exception as error:  # noqa: BLE001 - every failure is counted and shown, the run goes on
                failures[(command, name(signum))] += 1
                print(
                    f"FAILED {command} {name(signum)} at {delay:.2f} s: {type(error).__name__}: "
                    f"{str(error)[-1200:]}"
                )
    elapsed, failed = time.monotonic() - started, sum(failures.values())
    print(f"{options.cases} cases in {elapsed:.0f} s (seed {options.seed}), {failed} failed")
    print(f"{'command':<8} {'signal':<15} {'cases':>5} {'failed':>6} {'complete':>8}  exit codes")
    for command, signum in kinds:
        mine = [
            outcome
            for outcome in outcomes
            if (outcome.command, outcome.signum) == (command, signum)
        ]
        failed = failures[(command, name(signum))]
        codes = Counter(outcome.code for outcome in mine)
        shown = ", ".join(f"{code}: {count}" for code, count in sorted(codes.items()))
        complete = sum(outcome.complete for outcome in mine)
        print(
            f"{command:<8} {name(signum):<15} {len(mine) + failed:>5} {failed:>6} {complete:>8}  "
            f"{shown}"
        )
    if outcomes:
        seconds = sorted(outcome.seconds for outcome in outcomes)
        print(f"seconds a case: median {seconds[len(seconds) // 2]:.1f}, longest {seconds[-1]:.1f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
