"""The engine's cost a node beside the protocol floor's, in machine instructions (issue 32's node
rate).

    python scripts/bench_node_cost.py                  # every case (about five minutes)
    python scripts/bench_node_cost.py --only kalah64

`bench_peers.py` times the same pairs in CPU seconds, which drift with this shared machine's load
and its other tenants' use of the caches. Counted instructions do not drift: each side runs under
valgrind's cachegrind (no cache simulation) once with no search and once with `--runs` searches, and
the difference over the nodes visited is its instructions a node. The ratio floor / engine is the
engine's node rate as a share of the floor's on an ideal machine (the target: at least 0.85). Needs
`valgrind` on the PATH; the pairs are `bench_peers.py`'s.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = {
    "mnk44": ("4x4 k=4 solve, table / dict memo", "tictactoe --size 4 --k 4", 0, True, 2),
    "ttt-plain": ("3x3 solve, no table", "tictactoe", 0, False, 40),
    "ttt-table": ("3x3 solve, table / dict memo", "tictactoe", 0, True, 200),
    "kalah64-plain": ("Kalah(6,4) depth 10, no table", "kalah --pits 6 --seeds 4", 10, False, 3),
    "kalah64": ("Kalah(6,4) depth 10, table / dict memo", "kalah --pits 6 --seeds 4", 10, True, 3),
    "nim": ("misère Nim 1..7 solve, table / dict memo", "nim 1 2 3 4 5 6 7", 0, True, 10),
}
"""Name: (what it is, game words, depth (0: to the end), with a table, searches counted)."""

CHILD = """
import sys
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/scripts"]
import bench_peers
from nimmax.search.score import FULL_DEPTH
side, words, depth = sys.argv[2], sys.argv[3], int(sys.argv[4])
table, runs = sys.argv[5] == "1", int(sys.argv[6])
nodes = 0
for _ in range(runs):
    if side == "engine":
        nodes = bench_peers.solve(words, "alphabeta", depth=depth or None, cache=table).nodes
    else:
        nodes = bench_peers.protocol_floor(words, depth or FULL_DEPTH, table)
print("nodes", nodes)
"""


def instructions(side: str, words: str, depth: int, table: bool, runs: int) -> tuple[int, int]:
    """Instructions of `runs` searches of one side (less the process's own start and end), and the
    nodes of one."""
    counted, nodes = [], 0
    for times in (0, runs):
        command = [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
        ]
        command += [
            sys.executable,
            "-c",
            CHILD,
            str(ROOT),
            side,
            words,
            str(depth),
            str(int(table)),
            str(times),
        ]
        finished = subprocess.run(command, capture_output=True, text=True, check=True)
        found = re.search(r"I\s+refs:\s+([\d,]+)", finished.stderr)
        assert found is not None, finished.stderr[-500:]
        counted.append(int(found.group(1).replace(",", "")))
        nodes = int(finished.stdout.split()[-1])
    return counted[1] - counted[0], nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only", action="append", choices=sorted(CASES), help="one case (repeatable)"
    )
    options = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("bench_node_cost: valgrind is not installed (apt install valgrind)")
    print(
        f"{'case':42} {'engine ir/node':>15} {'floor ir/node':>14} {'floor/engine':>13}  (target "
        ">= 0.85)"
    )
    for name in options.only or CASES:
        what, words, depth, table, runs = CASES[name]
        costs = []
        for side in ("engine", "floor"):
            spent, nodes = instructions(side, words, depth, table, runs)
            costs.append((spent / (runs * nodes), nodes))
        (engine, engine_nodes), (floor, floor_nodes) = costs
        visited = f"({engine_nodes:,} vs {floor_nodes:,} nodes)"
        print(
            f"{what:42} {engine:15,.0f} {floor:14,.0f} {floor / engine:12.2f}x  {visited}",
            flush=True,
        )


if __name__ == "__main__":
    main()
