"""The long run of the cache and paths fuzz (tests/test_fuzz_cache.py): many spoilt names and many
rounds of builders killed at random; prints one line per failing case and a table of cases by kind.

    python scripts/fuzz_cache.py [--cases 200] [--rounds 20] [--builders 4] [--seed 1]

Run with nimmax's Python from the checkout; exits 1 when a case failed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nimmax import cache  # noqa: E402 - the checkout is put on the path first
from tests.test_fuzz_cache import SPOILS, builders_case, spoil_case  # noqa: E402


def main() -> int:
    """Run the cases; print the failures and the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=200, help="spoilt names tried")
    parser.add_argument("--rounds", type=int, default=20, help="rounds of builders at once")
    parser.add_argument("--builders", type=int, default=4, help="builders a round")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    cases: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    started = time.monotonic()
    for _ in range(options.cases):
        spoil, seed = rng.choice(sorted(SPOILS)), rng.randrange(2**32)
        stderr = io.StringIO()

        def said(stream: io.StringIO = stderr) -> str:
            text = stream.getvalue()
            stream.seek(0)
            stream.truncate()
            return text

        with tempfile.TemporaryDirectory() as scratch, contextlib.redirect_stderr(stderr):
            folder = Path(scratch) / "cache"
            folder.mkdir()
            os.environ[cache.ENVIRONMENT] = str(folder)
            failures = spoil_case(folder, spoil, seed, said)
        cases[spoil] += 1
        if failures:
            failed[spoil] += 1
            print(f"FAILED {spoil} seed={seed}: {'; '.join(failures)}")
    for _ in range(options.rounds):
        seed = rng.randrange(2**32)
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch) / "cache"
            folder.mkdir()
            failures = builders_case(folder, options.builders, seed)
        cases["builders, random SIGKILL"] += 1
        if failures:
            failed["builders, random SIGKILL"] += 1
            print(f"FAILED builders seed={seed}: {'; '.join(failures)}")
    print(f"{'case':<26} {'runs':>5} {'failed':>6}")
    for kind in sorted(cases):
        print(f"{kind:<26} {cases[kind]:>5} {failed[kind]:>6}")
    print(f"{sum(cases.values())} cases in {time.monotonic() - started:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
