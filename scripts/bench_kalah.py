"""Benchmark Kalah: exact values of the small boards, and the largest boards solved in 60 s.

    python scripts/bench_kalah.py            # both parts (several minutes)
    python scripts/bench_kalah.py --small    # Kalah(3, 1-3) and Kalah(4, 1-3) only

Targets (issue 8): exact values of Kalah with 3 and 4 pits for 1-3 seeds, each solved and
timed with alpha-beta; the largest board solved within 60 s reported. Each large board is
tried with iterative deepening under a 60 s deadline; "exact" means it was proven in time.
Times are wall-clock on whatever else the machine runs: treat them as rough.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nimmax import games  # noqa: E402
from nimmax.search import SearchResult  # noqa: E402
from nimmax.search.alphabeta import alphabeta  # noqa: E402

SMALL = [(pits, seeds) for pits in (3, 4) for seeds in (1, 2, 3)]
LARGE = [(5, 1), (6, 1), (5, 2), (4, 4), (3, 4), (3, 5), (3, 6), (6, 2), (5, 3), (4, 5), (4, 6), (6, 3)]
"""Bigger boards, roughly in order of difficulty."""
DEADLINE = 60.0


def solve(pits: int, seeds: int, repeats: int, deadline: float | None = None) -> tuple[SearchResult, float]:
    """Alpha-beta from the start, cold (a fresh table each run); the result and the median time."""
    game = games.create(f"kalah --pits {pits} --seeds {seeds}")
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = alphabeta(game, game.initial_state(), time=deadline)
        times.append(time.perf_counter() - started)
    assert result is not None
    return result, statistics.median(times)


def report(pits: int, seeds: int, result: SearchResult, seconds: float) -> None:
    proven = "exact " if result.exact else "NOT proven in time, estimate"
    value = f"{result.value:+.0f}" if result.exact else f"{result.value:+.2f}"
    print(f"Kalah({pits},{seeds})  {proven:<6} value {value:>5} for South  best move {result.move}  "
          f"nodes {result.nodes:>11,}  time {seconds:8.3f} s  ({result.nodes / max(seconds, 1e-9):>9,.0f} nodes/s)",
          flush=True)


def main() -> None:
    print("Exact values from the start, South to move (alpha-beta, straight to the end, median of runs):")
    for pits, seeds in SMALL:
        quick = pits * seeds <= 8
        result, seconds = solve(pits, seeds, repeats=5 if quick else 1)
        report(pits, seeds, result, seconds)
    if "--small" in sys.argv:
        return
    print(f"\nLarger boards, iterative deepening under a {DEADLINE:.0f} s deadline:")
    largest = None
    for pits, seeds in LARGE:
        result, seconds = solve(pits, seeds, repeats=1, deadline=DEADLINE)
        report(pits, seeds, result, seconds)
        if result.exact:
            largest = (pits, seeds, seconds)
    if largest is not None:
        pits, seeds, seconds = largest
        print(f"\nLast board proven within {DEADLINE:.0f} s: Kalah({pits},{seeds}) in {seconds:.1f} s")


if __name__ == "__main__":
    main()
