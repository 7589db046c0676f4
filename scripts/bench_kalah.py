"""Benchmark Kalah: exact values of the small boards, and the largest boards solved in 60 s.

    python scripts/bench_kalah.py            # both parts (several minutes)
    python scripts/bench_kalah.py --small    # Kalah(3, 1-3) and Kalah(4, 1-3) only

Targets (issue 8): exact values of Kalah with 3 and 4 pits for 1-3 seeds, each solved and
timed with alpha-beta; the largest board solved within 60 s reported. Each large board is
searched straight to the end under a 60 s deadline ("exact": proven in time). A straight
search, not iterative deepening: to prove a Kalah value the depth must reach the end of
the longest line, so the shallower iterations are wasted work (see --deepening).
Times are wall-clock on whatever else the machine runs: treat them as rough.

    python scripts/bench_kalah.py --deepening   # also time alphabeta:time=60 on the large boards
"""

from __future__ import annotations

import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nimmax import games  # noqa: E402
from nimmax.search import ENGINES, Limits, SearchResult, deep, run, search  # noqa: E402

SMALL = [(pits, seeds) for pits in (3, 4) for seeds in (1, 2, 3)]
LARGE = [(5, 1), (6, 1), (5, 2), (3, 4), (3, 5), (6, 2), (3, 6), (4, 4), (5, 3), (6, 3), (4, 5)]
"""Bigger boards, roughly in order of difficulty."""
DEADLINE = 60.0


def solve(
    pits: int, seeds: int, repeats: int = 1, deadline: float | None = None, deepening: bool = False
) -> tuple[SearchResult, float]:
    """Alpha-beta from the start, cold (a fresh table each run); the result and the median time."""
    game = games.create(f"kalah --pits {pits} --seeds {seeds}")
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        if deepening:
            result = search(game, game.initial_state(), "alphabeta", time=deadline)
        else:
            searcher = ENGINES["alphabeta"].searcher(game, limits=Limits(time=deadline))
            result = deep(partial(run, searcher, game.initial_state(), Limits(time=deadline), deepen=False))
            result = (
                result
                if result.exact
                else SearchResult(result.value, result.move, result.pv, searcher.budget.nodes, 0, result.seconds, False)
            )
        times.append(time.perf_counter() - started)
    assert result is not None
    return result, statistics.median(times)


def report(pits: int, seeds: int, result: SearchResult, seconds: float) -> None:
    if not result.exact:
        print(f"Kalah({pits},{seeds})  NOT proven in time: {result.nodes:,} nodes in {seconds:.1f} s", flush=True)
        return
    proven, value = "exact", f"{result.value:+.0f}"
    print(
        f"Kalah({pits},{seeds})  {proven:<6} value {value:>5} for South  best move {result.move}  "
        f"nodes {result.nodes:>11,}  time {seconds:8.3f} s  ({result.nodes / max(seconds, 1e-9):>9,.0f} nodes/s)",
        flush=True,
    )


def main() -> None:
    print("Exact values from the start, South to move (alpha-beta, straight to the end, median of runs):")
    for pits, seeds in SMALL:
        quick = pits * seeds <= 8
        result, seconds = solve(pits, seeds, repeats=5 if quick else 1)
        report(pits, seeds, result, seconds)
    if "--small" in sys.argv:
        return
    deepening = "--deepening" in sys.argv
    how = "iterative deepening (alphabeta:time=60)" if deepening else "straight to the end"
    print(f"\nLarger boards, {how}, {DEADLINE:.0f} s deadline each:")
    proven = []
    for pits, seeds in LARGE:
        result, seconds = solve(pits, seeds, deadline=DEADLINE, deepening=deepening)
        report(pits, seeds, result, seconds)
        if result.exact:
            proven.append((2 * pits * seeds, pits, seeds, seconds))
    if proven:
        _, pits, seeds, seconds = max(proven)
        print(f"\nLargest board proven within {DEADLINE:.0f} s (most seeds): Kalah({pits},{seeds}) in {seconds:.1f} s")


if __name__ == "__main__":
    main()
