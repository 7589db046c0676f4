"""Benchmark Kalah: exact values of the small boards, and the largest boards solved in 60 s.

    python scripts/bench_kalah.py            # both parts (several minutes)
    python scripts/bench_kalah.py --small    # Kalah(3, 1-3) and Kalah(4, 1-3) only

Targets (issue 8): exact values of Kalah with 3 and 4 pits for 1-3 seeds, each solved and timed with
alpha-beta; the largest board solved within 60 s reported. Each large board is searched straight to
the end under a 60 s deadline ("exact": proven in time). A straight search, not iterative deepening:
to prove a Kalah value the depth must reach the end of the longest line, so the shallower iterations
are wasted work (see --deepening). Times are wall-clock on whatever else the machine runs: treat
them as rough.

    python scripts/bench_kalah.py --deepening   # also time alphabeta:time=60 on the large boards

The endgame book (issue 32), side by side in one run:

    python scripts/bench_kalah.py --book                  # Kalah(4,3), (4,4), (5,3), (6,3)
    python scripts/bench_kalah.py --book --stretch [5,4] # (5,4) and (6,4) (or one), 30 minutes
    each, book on,
                                                          # deepening: the depth reached if not
                                                          proven
    python scripts/bench_kalah.py --book --widths 6,3 13,14 # Kalah(6,3) with books of 13 and 14
    seeds

First each book is built cold into a new cache folder as small as a timed search makes it, then
widened as a solve to the end does (seconds, then read back), then each board is proven with the
book (`alphabeta`) and without it (`alphabeta:book=off`), the two runs alternating over the rounds,
medians reported with the machine's load; the books are read before the clock starts, so the build
is counted once, in its own line. Targets: Kalah(4,3) under 0.5 s, (4,4) and (5,3) under 5 s, (6,3)
proven (+2) within 60 s.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nimmax import cache  # noqa: E402
from nimmax.games import kalah_book  # noqa: E402
from nimmax.games.kalah import Kalah  # noqa: E402
from nimmax.search import ENGINES, Limits, SearchResult, deep, run, search  # noqa: E402
from nimmax.search.engines import Settings  # noqa: E402

SMALL = [(pits, seeds) for pits in (3, 4) for seeds in (1, 2, 3)]
LARGE = [(5, 1), (6, 1), (5, 2), (3, 4), (3, 5), (6, 2), (3, 6), (4, 4), (5, 3), (6, 3), (4, 5)]
"""Bigger boards, roughly in order of difficulty."""
DEADLINE = 60.0


BOOKED = [(4, 3), (4, 4), (5, 3), (6, 3)]
STRETCH = [(5, 4), (6, 4)]
KALAH_VALUES = {(4, 3): 6, (4, 4): 2, (5, 3): 6, (6, 3): 2, (5, 4): 10, (6, 4): 8}
"""South's margins: (4,3) by tests/theory.py's literal solver, (5,4) by scripts/kalah_oracle.c (an
independent solver in C, scripts/verify_kalah.py), (6,4) as published for the standard rules
(Rawlings, 2015), the others from an independent solver (issue 13 and scripts/bench_peers.py)."""


def solve(
    pits: int,
    seeds: int,
    repeats: int = 1,
    deadline: float | None = None,
    deepening: bool = False,
    book: bool = True,
    endgame: int | None = None,
) -> tuple[SearchResult, float]:
    """Alpha-beta from the start, cold (a fresh table each run), with the book as wide as an exact
    solve's (or `endgame` seeds); the result and the median time."""
    game = Kalah(
        pits, seeds, endgame=endgame if endgame is not None else kalah_book.WIDE.get(pits, 0)
    )
    settings = Settings(book=book)
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        if deepening:
            result = search(game, game.initial_state(), "alphabeta", time=deadline, book=book)
        else:
            searcher = ENGINES["alphabeta"].searcher(game, settings, limits=Limits(time=deadline))
            result = deep(
                partial(run, searcher, game.initial_state(), Limits(time=deadline), deepen=False)
            )
            result = (
                result
                if result.exact
                else SearchResult(
                    result.value,
                    result.move,
                    result.pv,
                    searcher.budget.nodes,
                    0,
                    result.seconds,
                    False,
                )
            )
        times.append(time.perf_counter() - started)
    assert result is not None
    return result, statistics.median(times)


def report(pits: int, seeds: int, result: SearchResult, seconds: float) -> None:
    if not result.exact:
        print(
            f"Kalah({pits},{seeds})  NOT proven in time: {result.nodes:,} nodes in {seconds:.1f} s",
            flush=True,
        )
        return
    proven, value = "exact", f"{result.value:+.0f}"
    print(
        f"Kalah({pits},{seeds})  {proven:<6} value {value:>5} for South  best move {result.move}  "
        f"nodes {result.nodes:>11,}  time {seconds:8.3f} s  "
        f"({result.nodes / max(seconds, 1e-9):>9,.0f} nodes/s)",
        flush=True,
    )


def load() -> str:
    """The 1-minute load average; on 2 cores, above 1 means the figures share a core."""
    return f"load {os.getloadavg()[0]:.2f}"


def build_books(folder: Path) -> None:
    """Each book built cold into the new cache `folder` as wide as a timed search builds it, then
    widened from there as an exact solve does, then read back from it, timed."""
    for pits in sorted(kalah_book.BASE):
        for seeds in sorted({kalah_book.BASE[pits], kalah_book.WIDE[pits]}):
            started, used = time.perf_counter(), time.process_time()
            kalah_book.Shelf(pits).shelved(seeds)  # a new shelf: it reads, then builds or widens
            built, cpu = time.perf_counter() - started, time.process_time() - used
            started = time.perf_counter()
            kalah_book.Shelf(pits).shelved(seeds)
            read = time.perf_counter() - started
            size = (folder / f"kalah-{pits}.book").stat().st_size
            print(
                f"book {pits} pits <= {seeds:2} seeds: built {built:6.2f} s ({cpu:.2f} s cpu), "
                f"read back {read * 1000:5.1f} ms, {size:,} bytes   {load()}",
                flush=True,
            )


def widths(board: tuple[int, int], seeds: list[int], rounds: int) -> None:
    """One board proven with books of so many `seeds`, alternating, medians of `rounds` runs."""
    for width in seeds:
        kalah_book.Shelf(board[0]).shelved(width)  # built before any clock starts
    print(
        f"\n{'board':10} {'book':>5} {'value':>6} {'seconds':>9} {'nodes':>12}   ratio (to the "
        "first)"
    )
    runs: dict[int, list[tuple[SearchResult, float]]] = {width: [] for width in seeds}
    for _ in range(rounds):
        for width in seeds:
            runs[width].append(solve(*board, deadline=600.0, endgame=width))
    first = statistics.median(seconds for _, seconds in runs[seeds[0]])
    for width in seeds:
        median = statistics.median(seconds for _, seconds in runs[width])
        result = runs[width][-1][0]
        value = f"{result.value:+.0f}" if result.exact else "open"
        print(
            f"Kalah{board} {width:5} {value:>6} {median:9.2f} {result.nodes:12,}   "
            f"{median / first:5.2f}x  {load()}",
            flush=True,
        )


def with_and_without(
    boards: list[tuple[int, int]], deadline: float, rounds: int, both: bool, deepening: bool = False
) -> None:
    """Each board proven with the book and without, alternating, medians of `rounds` runs; with
    `deepening`, a board out of time shows the deepest depth done and its estimate."""
    print(f"\n{'board':10} {'book':5} {'value':>6} {'seconds':>9} {'nodes':>12}   ratio (off / on)")
    for pits, seeds in boards:
        figures: dict[bool, list[tuple[SearchResult, float]]] = {True: [], False: []}
        for _ in range(rounds):
            for book in (True, False) if both else (True,):
                figures[book].append(
                    solve(pits, seeds, deadline=deadline, deepening=deepening, book=book)
                )
            if not all(runs[-1][0].exact for runs in figures.values() if runs):
                break  # a run out of time: more rounds would only repeat the deadline
        seconds = {
            book: statistics.median(run[1] for run in runs)
            for book, runs in figures.items()
            if runs
        }
        for book, runs in figures.items():
            if not runs:
                continue
            result = runs[-1][0]
            expected = KALAH_VALUES.get((pits, seeds))
            value = f"{result.value:+.0f}" if result.exact else "open"
            if not result.exact and deepening:
                value += f" (depth {result.depth} done: {result.value:+.2f})"
            check = (
                ""
                if not result.exact or expected is None
                else " ok"
                if result.value == expected
                else " WRONG"
            )
            ratio = f"{seconds[False] / seconds[True]:6.2f}x" if book and False in seconds else ""
            print(
                f"Kalah({pits},{seeds}) {'on' if book else 'off':5} {value:>6}{check:3} "
                f"{seconds[book]:9.2f} "
                f"{result.nodes:12,}   {ratio:8} {load()}",
                flush=True,
            )


def main() -> None:
    if "--book" in sys.argv:
        print(f"Kalah's endgame book (alpha-beta, straight to the end), {load()}")
        with tempfile.TemporaryDirectory() as folder:
            os.environ[cache.ENVIRONMENT] = folder
            build_books(Path(folder))
            for pits, seeds in kalah_book.WIDE.items():  # read before any clock starts
                kalah_book.Shelf(pits).shelved(seeds)
            # e.g. --widths 6,3 11,13,14: Kalah(6,3) with books of 11, 13, 14 seeds
            if "--widths" in sys.argv:
                at = sys.argv.index("--widths")
                pits, seeds = map(int, sys.argv[at + 1].split(","))
                widths((pits, seeds), [int(width) for width in sys.argv[at + 2].split(",")], 3)
                return
        if "--stretch" in sys.argv:
            chosen = [board for board in STRETCH if f"{board[0]},{board[1]}" in sys.argv] or STRETCH
            with_and_without(chosen, 1800.0, 1, both=False, deepening=True)
        else:
            with_and_without(BOOKED, DEADLINE, 3, both=True)
        return
    print(
        "Exact values from the start, South to move (alpha-beta, straight to the end, median of "
        "runs):"
    )
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
        print(
            f"\nLargest board proven within {DEADLINE:.0f} s (most seeds): Kalah({pits},{seeds}) "
            f"in {seconds:.1f} s"
        )


if __name__ == "__main__":
    main()
