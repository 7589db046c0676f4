"""Benchmark the foundation's targets on the Nim family; prints one line per measurement.

    python scripts/bench_nim.py

Targets (issue 2): misère Nim (1..7) value and best move < 0.02 s, every root move valued
< 0.3 s; Simple-Nim 5000 < 1 s; plain minimax node rate on Simple-Nim 20.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nimmax import games  # noqa: E402
from nimmax.search import SearchResult, search  # noqa: E402


def timed(run: Callable[[], SearchResult], repeats: int = 5) -> tuple[SearchResult, float]:
    """The result and the median wall time of `repeats` cold runs (each builds a fresh table)."""
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - started)
    assert result is not None
    return result, statistics.median(times)


def report(label: str, words: str, result: SearchResult, seconds: float, target: str) -> None:
    game = games.create(words)
    move = game.format_move(result.move) if result.move is not None else "-"
    print(
        f"{label:<34} {words:<22} value {result.value:+g} best {move:<6} nodes {result.nodes:>9,} "
        f"time {seconds:8.4f} s   target {target}"
    )


def main() -> None:
    for words in ("nim 3 4 5 6 7", "nim 1 2 3 4 5 6 7"):
        game = games.create(words)
        state = game.initial_state()
        result, seconds = timed(partial(search, game, state, "alphabeta"))
        report(
            "alphabeta value + best move",
            words,
            result,
            seconds,
            "< 0.02 s" if "1 2" in words else "-",
        )
        result, seconds = timed(partial(search, game, state, "alphabeta", every_move=True))
        report(
            "alphabeta every root move",
            words,
            result,
            seconds,
            "< 0.3 s" if "1 2" in words else "-",
        )
    game = games.create("simple-nim 5000")
    result, seconds = timed(lambda: search(game, game.initial_state(), "alphabeta"))
    report("alphabeta", "simple-nim 5000", result, seconds, "< 1 s")
    game = games.create("simple-nim 20")
    result, seconds = timed(lambda: search(game, game.initial_state(), "minimax"), repeats=3)
    report("minimax:cache=off", "simple-nim 20", result, seconds, "node rate")
    print(f"{'':34} minimax:cache=off node rate: {result.nodes / seconds:,.0f} nodes/s")


if __name__ == "__main__":
    main()
