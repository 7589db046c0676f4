"""The long run of the plugin fuzz (tests/test_fuzz_plugins.py): every fault of every member, at
several points of the game, and every faulty player, through every command; prints its figures.

    python scripts/fuzz_plugins.py [--after 0,2,5] [--jobs]

Run with nimmax's Python from the checkout. Each case is one temporary folder; a case that ends
other than as documented (a traceback, an undocumented exit code, more than one line) is printed
with its stderr, and the script exits 1 when there is one.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_fuzz_plugins import (  # noqa: E402 - the checkout is put on the path first
    CONSTANTS,
    PLAYER_FAULTS,
    RAISES,
    WRONG,
    Fault,
    run_everywhere,
    write_game,
    write_player,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--after", default="0,2,5", help="counters left when a fault starts, comma-separated"
    )
    parser.add_argument(
        "--jobs", action="store_true", help="also run each duel with --jobs 2 (slow)"
    )
    options = parser.parse_args()
    points = [int(part) for part in options.after.split(",")]
    cases: list[tuple[Fault | None, str | None]] = []
    for member, sources in WRONG.items():
        for source in sources + ([] if member in CONSTANTS else RAISES):
            cases.extend(
                (Fault(member, source, after), None)
                for after in (points if member not in CONSTANTS else [0])
            )
    cases.extend((Fault("name", "'takeaway'", 0), body) for body in PLAYER_FAULTS)
    failed, started = 0, time.perf_counter()
    for number, (fault, body) in enumerate(cases, start=1):
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            try:
                game = write_game(folder, fault) if fault is not None else "nim 2 3"
                player = write_player(folder, body) if body is not None else None
                run_everywhere(game, player, folder, jobs=options.jobs)
            except AssertionError as error:
                failed += 1
                print(f"case {number}: {fault} {body or ''}\n{error}\n", flush=True)
    seconds = time.perf_counter() - started
    print(
        f"{len(cases)} cases ({len(cases) - failed} as documented, {failed} not) in {seconds:.0f} s"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
