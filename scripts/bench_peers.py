"""nimmax side by side with its peers, in one run: the per-node targets of issue 13 (item 5).

    python scripts/bench_peers.py                     # every case (about five minutes)
    python scripts/bench_peers.py --quick             # skip the 60 s Kalah proofs
    python scripts/bench_peers.py --only mnk44 --repeat 5

Run it with nimmax's own Python (the venv nimmax is installed in): `startup` times that
Python's `nimmax` (`--nimmax-python` to time another). The peers (OpenSpiel, easyAI) live
in a scratch environment, never a nimmax dependency:
their side runs in a subprocess, `scripts/peer_cases.py` under `--peer-python` (default
/work/peer/bin/python, or $NIMMAX_PEER_PYTHON); nimmax never imports them. Each figure is
the median of `--repeat` timed runs after a warm-up, with the machine's load average beside
it: wall time on a shared machine drifts, so compare figures of the same run only.

Every ratio reads "nimmax's speed over the peer's": above 1 nimmax is faster (for seconds,
peer time / nimmax time; for nodes per second, nimmax rate / peer rate). Cases:

  ttt-minimax  plain minimax over the whole 3x3 tree (minimax:cache=off, 549,946 nodes) vs
               OpenSpiel's Python expectiminimax over its C++ tic_tac_toe; and a bare
               15-line bitboard recursion for the machine's floor
  mnk44        alpha-beta nodes per second solving 4x4 k=4 vs easyAI (iterative deepening,
               transposition table; nimmax searches straight to the end)
  kalah64      Kalah(6,4) alpha-beta 10 plies deep vs OpenSpiel's mancala (same rules and
               capture; OpenSpiel scores an end +1/0/-1 and the horizon by the seed margin);
               its floor rows, like ttt's, pair the engine without a table with the floor
               without one, and the engine with its table with the floor with a dict memo
  nim          misère Nim 1..7 alpha-beta nodes per second against the issue's 286k
  ttt          3x3 alpha-beta nodes per second, without a table and with one
               (every rate case also prints the protocol floor: `protocol_floor`, the
               least any game-agnostic alpha-beta pays a node of that game in Python,
               run in turn with the engine; the ratio is the median of the rounds')
  kalah        Kalah(4,3) proven (target < 1 s); (6,3), (4,4), (5,3) each within 60 s,
               values checked against an independent solver's +2, +2, +6 for South
  startup      `nimmax --help` and `nimmax solve tictactoe` wall time (target < 0.2 s)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_mnk import yardstick  # noqa: E402

from nimmax import games  # noqa: E402
from nimmax.game import evaluator, ordered  # noqa: E402
from nimmax.search import ENGINES, Limits, SearchResult, Settings, deep, interpreter  # noqa: E402
from nimmax.search.score import FULL_DEPTH, INFINITY  # noqa: E402

PEER_PYTHON = os.environ.get("NIMMAX_PEER_PYTHON", "/work/peer/bin/python")
NIM_TODAY = 286_000
"""misère Nim 1..7 alpha-beta nodes per second when issue 13 was written."""
NIM_NODES_BEFORE = 14_875
"""The nodes of that search then (before the winning take came first)."""
KALAH_VALUES = {(6, 3): 2, (4, 4): 2, (5, 3): 6}
"""South's perfect-play margins from an independent solver (issue 13)."""


def load() -> str:
    """The 1-minute load average; on 2 cores, above 1 means the figures share a core."""
    return f"load {os.getloadavg()[0]:.2f}"


def row(case: str, figure: str, ours: str, theirs: str, ratio: float | None, target: str) -> None:
    """One line of the table, with the load at the time it is printed."""
    shown = f"{ratio:6.2f}x" if ratio is not None else "      -"
    print(
        f"{case:34} {figure:12} {ours:>14} {theirs:>14} {shown}  {target:16} {load()}", flush=True
    )


def median_of(repeat: int, measure: Callable[[], Any]) -> tuple[Any, float]:
    """The last answer and the median wall time of `repeat` runs, after one untimed warm-up."""
    answer, times = measure(), []
    for _ in range(repeat):
        started = time.perf_counter()
        answer = measure()
        times.append(time.perf_counter() - started)
    return answer, statistics.median(times)


def solve(
    words: str, engine: str, depth: int | None = None, seconds: float | None = None, **options: Any
) -> SearchResult:
    """One straight search from the start (no deepening), with a fresh table and no default
    limit."""
    game = games.create(words)
    limits, settings = Limits(depth, seconds), Settings.of(options)
    with interpreter():  # the policy the CLI enters once, as a command's search runs under it
        return deep(
            lambda: ENGINES[engine].search(
                game, game.initial_state(), limits, deepen=False, settings=settings
            )
        )


def peer(case: str, repeat: int) -> dict[str, Any] | None:
    """The peer's figures for `case` (peer_cases.py in a subprocess), or None if it cannot run."""
    command = [PEER_PYTHON, str(ROOT / "scripts" / "peer_cases.py"), case, "--repeat", str(repeat)]
    try:
        finished = subprocess.run(command, capture_output=True, text=True, check=True, timeout=900)
    except (OSError, subprocess.SubprocessError) as error:
        print(f"  peer {case} did not run ({error}); set --peer-python", flush=True)
        return None
    figures: dict[str, Any] = json.loads(finished.stdout.strip().splitlines()[-1])
    figures["median"] = statistics.median(figures["seconds"])
    return figures


def ttt_minimax(repeat: int) -> None:
    result, ours = median_of(repeat, lambda: solve("tictactoe", "minimax", cache=False))
    assert result.nodes == 549_946 and result.value == 0, result
    theirs = peer("ttt-minimax", repeat)
    case = "3x3 plain minimax, whole tree"
    if theirs is not None:
        assert theirs["nodes"] == 549_946, theirs
        row(
            case,
            "seconds",
            f"{ours:.3f} s",
            f"{theirs['median']:.3f} s",
            theirs["median"] / ours,
            ">= 1 (OpenSpiel)",
        )
    nodes, bare = median_of(repeat, yardstick)
    row(
        "  bare 15-line recursion",
        "seconds",
        f"{ours:.3f} s",
        f"{bare:.3f} s",
        bare / ours,
        f"({nodes:,} nodes)",
    )


def mnk44(repeat: int) -> None:
    result, ours = median_of(repeat, lambda: solve("tictactoe --size 4 --k 4", "alphabeta"))
    side_by_side("4x4 k=4 alpha-beta solve", result, ours, peer("mnk44", repeat), "easyAI")
    floor_row(
        "tictactoe --size 4 --k 4",
        lambda: solve("tictactoe --size 4 --k 4", "alphabeta"),
        FULL_DEPTH,
        True,
        repeat,
    )


def ttt(repeat: int) -> None:
    """3x3 alpha-beta to the end without a table beside the floor without one: the same tree,
    so the ratio is the engine's cost a node and nothing else; and with them (the table's
    answers and the dict's, window-dependent, are different trees)."""
    for cache, memo in ((False, False), (True, True)):

        def engine(cache: bool = cache) -> SearchResult:
            return solve("tictactoe", "alphabeta", cache=cache)

        result, ours = median_of(max(repeat, 5), engine)
        what = "with a table" if cache else "no table"
        row(
            f"3x3 alpha-beta ({what})",
            "nodes/s",
            f"{result.nodes / ours:,.0f}",
            "-",
            None,
            f"({result.nodes:,} nodes)",
        )
        floor_row("tictactoe", engine, FULL_DEPTH, memo, repeat)


def side_by_side(
    case: str, result: SearchResult, ours: float, theirs: dict[str, Any] | None, name: str
) -> None:
    """Nodes, seconds and nodes per second of a search, nimmax's beside the peer's."""
    rate = result.nodes / ours
    if theirs is None:
        row(case, "nodes/s", f"{rate:,.0f}", "-", None, f"({result.nodes:,} nodes in {ours:.3f} s)")
        return
    their_rate = theirs["nodes"] / theirs["median"]
    row(
        case,
        "nodes",
        f"{result.nodes:,}",
        f"{theirs['nodes']:,}",
        theirs["nodes"] / result.nodes,
        "(fewer is better)",
    )
    row(
        case,
        "seconds",
        f"{ours:.3f} s",
        f"{theirs['median']:.3f} s",
        theirs["median"] / ours,
        "(time to answer)",
    )
    row(case, "nodes/s", f"{rate:,.0f}", f"{their_rate:,.0f}", rate / their_rate, f">= 1 ({name})")


def protocol_floor(words: str, depth: int, memo: bool) -> int:
    """A bare alpha-beta over nimmax's game through the Game protocol alone: no budget, no
    ordering beyond the game's, no score shifting, and a plain dict of values when `memo`.
    Its nodes per second bound what any game-agnostic engine reaches on that game in
    Python: the game's own calls cost this much. It searches the game's search copy (`for_search`,
    as every engine does) and runs as `solve` runs an engine (`deep`: the same thread and
    interpreter policy). Returns the nodes it visited."""
    game = games.create(words).for_search()
    evaluate, search_actions = evaluator(game), ordered(game)  # the game's own, bound once
    seen: dict[Any, float] = {}
    nodes = 0

    def value(state: Any, depth: int, alpha: float, beta: float) -> float:
        nonlocal nodes
        nodes += 1
        me = game.to_move(state)
        if game.is_terminal(state):
            return game.utility(state, me)
        if depth == 0:
            return evaluate(state, me)
        key = game.key(state) if memo else None
        if memo and key in seen:
            return seen[key]
        best = -INFINITY
        for move in search_actions(state):
            child = game.result(state, move)
            if game.to_move(child) == me:
                score = value(child, depth - 1, alpha, beta)
            else:
                score = -value(child, depth - 1, -beta, -alpha)
            if score > best:
                best = alpha = max(alpha, score)
                if alpha >= beta:
                    break
        if memo:
            seen[key] = best  # window-dependent: a floor for speed, not a sound table
        return best

    with interpreter():
        deep(lambda: value(game.initial_state(), depth, -INFINITY, INFINITY))
    return nodes


def floor_row(
    words: str, engine: Callable[[], SearchResult], depth: int, memo: bool, repeat: int
) -> None:
    """The engine's nodes per CPU second over the protocol floor's, the two run in turn `repeat`
    times (after a warm-up each): the median of the rounds' ratios, so a drifting load hits both
    alike. Each side of a round repeats its search for BATCH CPU seconds: a 3x3 search lasts a
    few milliseconds, which one stall on a shared machine would swamp."""
    result, nodes = engine(), protocol_floor(words, depth, memo)
    ours, floors, ratios = [], [], []
    for _ in range(max(repeat, 5)):
        ours.append(batched(lambda: engine().nodes))
        floors.append(batched(lambda: protocol_floor(words, depth, memo)))
        ratios.append(ours[-1] / floors[-1])
    rate, floor, ratio = (
        statistics.median(ours),
        statistics.median(floors),
        statistics.median(ratios),
    )
    what = "no table" if not memo else "a dict memo"
    target = f"({result.nodes:,} vs {nodes:,} nodes; >= 0.85)"
    row(f"  protocol floor ({what})", "nodes/cpu s", f"{rate:,.0f}", f"{floor:,.0f}", ratio, target)


BATCH = 0.25
"""CPU seconds each side of a floor round spends, at the least, repeating its search."""


def batched(search: Callable[[], int]) -> float:
    """Nodes per CPU second (this process's, every thread's) of `search` repeated for BATCH
    seconds."""
    nodes, started = 0, time.process_time()
    while (spent := time.process_time() - started) < BATCH:
        nodes += search()
    return nodes / spent


def kalah64(repeat: int) -> None:
    """Kalah(6,4) 10 plies deep beside OpenSpiel; then, as for 3x3, the engine without its table
    beside the floor without one, and with it beside the floor with a dict memo."""
    words = "kalah --pits 6 --seeds 4"
    result, ours = median_of(repeat, lambda: solve(words, "alphabeta", depth=10))
    side_by_side(
        "Kalah(6,4) alpha-beta depth 10", result, ours, peer("kalah64-depth10", repeat), "OpenSpiel"
    )
    for cache in (False, True):

        def engine(cache: bool = cache) -> SearchResult:
            return solve(words, "alphabeta", depth=10, cache=cache)

        floor_row(words, engine, 10, cache, repeat)


def nim(repeat: int) -> None:
    result, ours = median_of(max(repeat, 5), lambda: solve("nim 1 2 3 4 5 6 7", "alphabeta"))
    rate = result.nodes / ours
    case = "misère Nim 1..7 alpha-beta"
    before = NIM_NODES_BEFORE / NIM_TODAY
    row(
        case,
        "nodes",
        f"{result.nodes:,}",
        f"{NIM_NODES_BEFORE:,}",
        NIM_NODES_BEFORE / result.nodes,
        "(issue: before)",
    )
    row(case, "seconds", f"{ours:.4f} s", f"{before:.4f} s", before / ours, "(issue: before)")
    row(case, "nodes/s", f"{rate:,.0f}", f"{NIM_TODAY:,}", rate / NIM_TODAY, ">= 2 (issue)")
    floor_row(
        "nim 1 2 3 4 5 6 7",
        lambda: solve("nim 1 2 3 4 5 6 7", "alphabeta"),
        FULL_DEPTH,
        True,
        max(repeat, 7),
    )


def kalah(deadline: float, large: bool) -> None:
    boards = [(4, 3), *(KALAH_VALUES if large else ())]
    for pits, seeds in boards:
        started = time.perf_counter()
        result = solve(f"kalah --pits {pits} --seeds {seeds}", "alphabeta", seconds=deadline)
        seconds = time.perf_counter() - started
        expected = KALAH_VALUES.get((pits, seeds))
        if not result.exact:
            verdict = "NOT proven"
        elif expected is None:
            verdict = f"value {result.value:+.0f}"
        else:
            verdict = f"{result.value:+.0f} " + (
                "ok" if result.value == expected else f"WRONG, want {expected:+d}"
            )
        target = "< 1 s" if (pits, seeds) == (4, 3) else f"< {deadline:.0f} s"
        row(f"Kalah({pits},{seeds}) proven", "seconds", f"{seconds:.2f} s", verdict, None, target)
        row(
            f"Kalah({pits},{seeds}) proven",
            "nodes",
            f"{result.nodes:,}",
            "",
            None,
            f"{result.nodes / seconds:,.0f}/s",
        )


def startup(repeat: int, python: str) -> None:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    for words in (["--help"], ["solve", "tictactoe"]):
        command = [python, "-m", "nimmax", *words]

        def start(command: list[str] = command) -> None:
            subprocess.run(command, capture_output=True, check=True, env=environment)

        _, seconds = median_of(max(repeat, 5), start)
        row(f"nimmax {' '.join(words)}", "wall time", f"{seconds:.3f} s", "", None, "< 0.2 s")


def main() -> None:
    global PEER_PYTHON
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="timed runs per figure (the median is shown)"
    )
    parser.add_argument("--only", action="append", help="run only these cases (repeatable)")
    parser.add_argument("--quick", action="store_true", help="skip the 60 s Kalah proofs")
    parser.add_argument(
        "--deadline", type=float, default=60.0, help="seconds for each large Kalah proof"
    )
    parser.add_argument(
        "--peer-python", default=PEER_PYTHON, help="a Python with open_spiel and easyAI"
    )
    parser.add_argument(
        "--nimmax-python",
        default=sys.executable,
        help="the Python whose nimmax command is timed at startup",
    )
    args = parser.parse_args()
    PEER_PYTHON = args.peer_python
    cases: dict[str, Callable[[], None]] = {
        "ttt-minimax": lambda: ttt_minimax(args.repeat),
        "mnk44": lambda: mnk44(args.repeat),
        "ttt": lambda: ttt(args.repeat),
        "kalah64": lambda: kalah64(args.repeat),
        "nim": lambda: nim(args.repeat),
        "kalah": lambda: kalah(args.deadline, large=not args.quick),
        "startup": lambda: startup(args.repeat, args.nimmax_python),
    }
    unknown = set(args.only or ()) - set(cases)
    if unknown:
        parser.error(f"unknown case {', '.join(sorted(unknown))}; cases: {', '.join(cases)}")
    when = time.strftime("%Y-%m-%d %H:%M")
    print(
        f"nimmax vs peers, {when}, {os.cpu_count()} cores, {load()}, median of {args.repeat} runs"
    )
    print(f"{'case':34} {'figure':12} {'nimmax':>14} {'peer':>14} {'ratio':>7}  {'target':16} load")
    for name, measure in cases.items():
        if args.only is None or name in args.only:
            measure()


if __name__ == "__main__":
    main()
