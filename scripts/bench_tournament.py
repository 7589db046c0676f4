"""`nimmax tournament` at 25 to 300 players, `--game 'nim 1' --games 1` (issue 39, item 5).

    python scripts/bench_tournament.py                  # 25, 50, 100, 300 players
    python scripts/bench_tournament.py --players 100 1000
    python scripts/bench_tournament.py --no-cli         # the parts in this process only

For each size, in this process: the games (`duel.run`), the Elo fit (`elo_ratings` on the
standings' points), the crosstable drawn at 120 columns, and the JSON record built and encoded
as `--json` prints it, each timed apart; then the whole command as a user types it (a
subprocess, the table on stdout, thrown away). The targets: 100 players under 10 s and 300
under 60 s end to end. The load average is printed with each row: compare figures of one run only.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402

from nimmax import duel  # noqa: E402
from nimmax.duel.stats import elo_ratings  # noqa: E402
from nimmax.players import parse_spec  # noqa: E402
from nimmax.ui.duel import tournament_summary  # noqa: E402

GAME = "nim 1"
T = TypeVar("T")


def specs(count: int) -> list[str]:
    """`count` distinct players, each a random mover of its own seed."""
    return [f"random:seed={seed}" for seed in range(count)]


def timed(work: Callable[[], T]) -> tuple[T, float]:
    """What `work()` returns and the seconds it took."""
    started = time.perf_counter()
    result = work()
    return result, time.perf_counter() - started


def measure(count: int, cli: bool) -> dict[str, float]:
    """The seconds of each part of one tournament of `count` players."""
    plan = duel.plan(GAME, [parse_spec(spec) for spec in specs(count)], 1, seed=1)
    event, games = timed(lambda: duel.run(plan))
    scores, played = duel.points(event)
    _, rating = timed(lambda: elo_ratings(scores, played))
    console = Console(file=io.StringIO(), width=120, color_system=None)
    _, table = timed(lambda: console.print(tournament_summary(event, duel.final_standings(event))))
    _, record = timed(lambda: json.dumps(duel.tournament_record(event), indent=2))
    row = {"games": games, "rating": rating, "table": table, "json": record}
    if cli:
        command = [
            sys.executable,
            "-m",
            "nimmax",
            "tournament",
            *specs(count),
            "--game",
            GAME,
            "--games",
            "1",
        ]
        environment = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
        _, row["cli"] = timed(
            lambda: subprocess.run(
                command, check=True, stdout=subprocess.DEVNULL, env=environment, cwd=ROOT
            )
        )
    return row


def main() -> None:
    """Print one row per size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[25, 50, 100, 300])
    parser.add_argument("--no-cli", action="store_true", help="skip the end-to-end subprocess run")
    options = parser.parse_args()
    print(f"tournament --game '{GAME}' --games 1, seconds (load average at each row's end)")
    print(
        f"{'players':>7} {'pairs':>6} {'games':>7} {'rating':>7} {'table':>7} {'json':>7} "
        f"{'cli':>7}  load"
    )
    for count in options.players:
        row = measure(count, not options.no_cli)
        cli = f"{row['cli']:7.2f}" if "cli" in row else f"{'-':>7}"
        print(
            f"{count:7} {count * (count - 1) // 2:6} {row['games']:7.2f} {row['rating']:7.2f} "
            f"{row['table']:7.2f} {row['json']:7.2f} {cli}  {os.getloadavg()[0]:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
