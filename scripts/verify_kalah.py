"""Checks `nimmax solve kalah` against an independent solver written in C (scripts/kalah_oracle.c).

    python scripts/verify_kalah.py                   # Kalah(3,3) to (6,3) and (5,4), a few minutes
    python scripts/verify_kalah.py --boards 4,3 5,4

The oracle shares no code with nimmax: compiled here with the system's C compiler into a temporary
folder, it solves each board from the start and values every first move exactly. For each board
the CLI's `--json` answer must give the oracle's margin, a best move the oracle values at that
margin, and for every other move an exact value equal to the oracle's or a bound it respects.
Prints one line a board with both times; exits 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOARDS = ["3,3", "4,3", "6,2", "4,4", "5,3", "6,3", "5,4"]


def oracle(binary: Path, pits: int, seeds: int) -> tuple[int, dict[str, int], float]:
    """The oracle's margin for South, each first move's value (by pit), and its seconds."""
    started = time.perf_counter()
    bits = "26" if pits * seeds >= 18 else "22"
    run = subprocess.run(
        [str(binary), str(pits), str(seeds), bits], capture_output=True, text=True, check=True
    )
    seconds = time.perf_counter() - started
    margin = int(re.search(r"wins by (-?\d+)", run.stdout).group(1))  # type: ignore[union-attr]
    moves = {pit: int(value) for pit, value in re.findall(r"pit (\d+): ([+-]?\d+)", run.stdout)}
    return margin, moves, seconds


def nimmax(pits: int, seeds: int) -> tuple[dict[str, object], float]:
    """`nimmax solve kalah --pits P --seeds S --json` from this checkout, and its seconds."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable,
        "-m",
        "nimmax",
        "solve",
        "kalah",
        "--pits",
        str(pits),
        "--seeds",
        str(seeds),
        "--json",
    ]
    started = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True, check=True, env=environment)
    return json.loads(run.stdout), time.perf_counter() - started


def disagreements(answer: dict[str, object], margin: int, values: dict[str, int]) -> list[str]:
    """Where nimmax's answer and the oracle's values differ (empty when they agree)."""
    found = []
    if answer["value"] != margin:
        found.append(f"value {answer['value']} (oracle {margin})")
    if values.get(str(answer["best_move"])) != margin:
        found.append(
            f"best move {answer['best_move']} is worth {values.get(str(answer['best_move']))}"
        )
    for move in answer["moves"]:  # type: ignore[attr-defined]
        truth, value = values[move["move"]], move["value"]
        if move["exact"] and value != truth:
            found.append(f"move {move['move']}: {value} (oracle {truth})")
        if move["bound"] == "upper" and truth > value or move["bound"] == "lower" and truth < value:
            found.append(
                f"move {move['move']}: bound {move['bound']} {value} broken (oracle {truth})"
            )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--boards", nargs="+", default=BOARDS, help="PITS,SEEDS pairs (default: %(default)s)"
    )
    options = parser.parse_args()
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        sys.exit("verify_kalah: no C compiler (cc) on the PATH")
    failed = False
    with tempfile.TemporaryDirectory(prefix="kalah-oracle-") as folder:
        binary = Path(folder) / "kalah_oracle"
        subprocess.run(
            [compiler, "-O2", "-o", str(binary), str(ROOT / "scripts" / "kalah_oracle.c")],
            check=True,
        )
        for board in options.boards:
            pits, seeds = (int(part) for part in board.split(","))
            margin, values, theirs = oracle(binary, pits, seeds)
            answer, ours = nimmax(pits, seeds)
            found = disagreements(answer, margin, values)
            failed |= bool(found)
            verdict = "agree" if not found else "DISAGREE: " + "; ".join(found)
            print(
                f"Kalah({pits},{seeds}): {margin:+d}, best {answer['best_move']}, oracle "
                f"{theirs:.1f} s,"
                f" nimmax {ours:.1f} s: {verdict}",
                flush=True,
            )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
