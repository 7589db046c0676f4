"""Benchmark of m,n,k solving: the figures issue 3 asks for, printed as a table.

    python scripts/bench_mnk.py            # everything (5x4 k=4 takes about a minute)
    python scripts/bench_mnk.py --quick    # skip the 5x4 k=4 solves

Each row: the game words, what was measured, the value and best move, nodes, the best time
over `--repeat` runs, and the issue's target. Timings vary with the machine's load: the
"bare recursion" row is a yardstick of the machine's speed at the moment, and
scripts/peer_easyai.py solves the same boards with easyAI (run it from a scratch venv).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nimmax import games, players  # noqa: E402
from nimmax.game import AnyGame  # noqa: E402
from nimmax.player import decide
from nimmax.search import SearchResult, search  # noqa: E402


def best_of(repeat: int, run: Callable[[], SearchResult]) -> tuple[SearchResult, float]:
    """The result and the least wall time over `repeat` runs."""
    fastest, result = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        result = run()
        fastest = min(fastest, time.perf_counter() - started)
    assert result is not None
    return result, fastest


def walk(game: AnyGame, state: Any) -> int:
    """Every node of the tree through the protocol alone: the game's share of plain minimax."""
    nodes = 1
    if not game.is_terminal(state):
        for move in game.actions(state):
            nodes += walk(game, game.result(state, move))
    return nodes


LINES_THROUGH = [
    [
        sum(1 << cell for cell in line)
        for line in (
            (0, 1, 2),
            (3, 4, 5),
            (6, 7, 8),
            (0, 3, 6),
            (1, 4, 7),
            (2, 5, 8),
            (0, 4, 8),
            (2, 4, 6),
        )
        if cell in line
    ]
    for cell in range(9)
]


def yardstick(x: int = 0, o: int = 0, turn: int = 0) -> int:
    """The 3x3 tree walked by a bare bitboard recursion with no nimmax code: this machine's
    floor."""
    nodes, taken = 1, x | o
    for cell in range(9):
        stone = 1 << cell
        if taken & stone:
            continue
        mine = (o if turn else x) | stone
        if any(mine & line == line for line in LINES_THROUGH[cell]) or taken | stone == 511:
            nodes += 1
        else:
            nodes += yardstick(x, mine, 0) if turn else yardstick(mine, o, 1)
    return nodes


def row(
    words: str, what: str, result: SearchResult | None, seconds: float, nodes: int, target: str
) -> None:
    game = games.create(words)
    value = f"{result.value:+g}" if result is not None else "-"
    move = game.format_move(result.move) if result is not None and result.move is not None else "-"
    print(
        f"{words:38} {what:22} {value:>5} {move:>5} {nodes:>10,} {seconds:9.4f}s  {target}",
        flush=True,
    )


def solve_rows(words: str, repeat: int, target_best: str, target_table: str) -> None:
    game = games.create(words)
    state = game.initial_state()
    result, seconds = best_of(repeat, lambda: search(game, state, "alphabeta"))
    row(words, "value + best move", result, seconds, result.nodes, target_best)
    result, seconds = best_of(repeat, lambda: search(game, state, "alphabeta", every_move=True))
    row(words, "every root move", result, seconds, result.nodes, target_table)
    print(" " * 39 + "table: " + " ".join(f"{game.format_move(m)}={v:+g}" for m, v in result.moves))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="skip the 5x4 k=4 solves")
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per figure; the best time is shown"
    )
    options = parser.parse_args()
    print(
        f"{'game':38} {'measured':22} {'value':>5} {'move':>5} {'nodes':>10} {'seconds':>10}  "
        "target"
    )

    solve_rows("tictactoe", options.repeat * 3, "< 0.005 s", "reported")
    game = games.create("tictactoe")
    result, seconds = best_of(
        options.repeat, lambda: search(game, game.initial_state(), "minimax", cache=False)
    )
    row("tictactoe", "minimax:cache=off", result, seconds, result.nodes, "< 0.7 s, 549,946 nodes")
    started = time.perf_counter()
    nodes = walk(game, game.initial_state())
    row(
        "tictactoe",
        "tree walk, no engine",
        None,
        time.perf_counter() - started,
        nodes,
        "(the game's share)",
    )
    started = time.perf_counter()
    nodes = yardstick()
    row(
        "tictactoe",
        "bare recursion, no nimmax",
        None,
        time.perf_counter() - started,
        nodes,
        "(this machine's floor)",
    )

    solve_rows("tictactoe --rows 3 --cols 4 --k 3", options.repeat, "first player wins", "reported")
    solve_rows("tictactoe --size 4 --k 3", options.repeat, "first player wins", "reported")
    solve_rows("tictactoe --size 4", options.repeat, "< 1 s (draw)", "reported")
    if not options.quick:
        solve_rows("tictactoe --rows 4 --cols 5 --k 4", 1, "< 20 s (draw)", "reported")
    solve_rows("connect4 --rows 4 --cols 4", options.repeat, "draw", "reported")
    solve_rows("connect4 --rows 4 --cols 5", options.repeat, "draw", "reported")

    for words in ("tictactoe --size 15 --k 5", "tictactoe --size 7 --k 5", "connect4"):
        game = games.create(words)
        state = game.initial_state()
        player = players.create(players.parse_spec("alphabeta:time=0.2"))
        worst = 0.0
        last = None
        for _ in range(10):  # the first ten moves of a self-play game
            started = time.perf_counter()
            decision = decide(player, game, state)
            worst = max(worst, time.perf_counter() - started)
            state, last = game.result(state, decision.move), decision.search
        row(words, "time=0.2, worst of 10", last, worst, last.nodes if last else 0, "< 0.3 s")

    for words in ("nim 1 2 3 4 5 6 7", "nim 3 4 5 6 7"):
        solve_rows(words, options.repeat * 3, "Nim 1..7: < 0.02 s", "Nim 1..7: < 0.3 s")


if __name__ == "__main__":
    main()
