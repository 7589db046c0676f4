"""Train the network nimmax ships for 2048 (nimmax/games/ntuple/data/2048.ntuple) and print its
figures.

    nice python scripts/train_2048.py --minutes 40 --checkpoint /tmp/2048.float.ntuple

TD(0) self-play over `nimmax.games.ntuple.network.SHIPPED`'s tuples, 1,024 games stepped together,
one process. A float checkpoint is written every minute (and on Ctrl-C); `--resume` goes on from it.
At the end the network is written compact (int16 with a scale, compressed) to `--out`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nimmax.games.ntuple import network as ntuple  # noqa: E402
from nimmax.games.ntuple import store  # noqa: E402
from nimmax.learn.train import Trainer, run  # noqa: E402

SHIPPED = Path(__file__).resolve().parent.parent / "nimmax" / "learn" / "data" / "2048.ntuple"


def main() -> None:
    """Parse the options, train, write the shipped file, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--games", type=int, default=10**9)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--rate", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tuples", choices=("shipped", "small", "large"), default="shipped")
    parser.add_argument("--checkpoint", type=Path, default=Path("/tmp/nimmax-2048.float.ntuple"))
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--out", type=Path, default=SHIPPED)
    options = parser.parse_args()
    shapes = {"shipped": ntuple.SHIPPED, "small": ntuple.SMALL, "large": ntuple.LARGE}[
        options.tuples
    ]
    settings = {"batch": options.batch, "rate": options.rate, "seed": options.seed}
    if options.resume:
        trainer = Trainer.resume(store.load(options.checkpoint), **settings)
    else:
        trainer = Trainer(shapes, **settings)
    started, moves_before, games_before = time.monotonic(), trainer.moves, trainer.games
    shown = [started]

    def report(trainer: Trainer) -> None:
        now = time.monotonic()
        if now - shown[0] >= 30:
            shown[0] = now
            rates = " ".join(
                f"{1 << mark}:{rate:.0%}"
                for mark, rate in zip((11, 12, 13), trainer.rates(), strict=True)
            )
            elapsed = now - started
            print(
                f"{elapsed / 60:5.1f} min  games {trainer.games:,}"
                f"  moves/s {(trainer.moves - moves_before) / elapsed:,.0f}"
                f"  mean score {statistics.mean(trainer.scores or [0]):,.0f}  {rates}",
                flush=True,
            )

    try:
        network = run(
            trainer,
            lambda network: store.save(options.checkpoint, network),
            options.games,
            options.minutes * 60,
            report,
        )
    except KeyboardInterrupt:
        network = store.load(options.checkpoint)
    elapsed = time.monotonic() - started
    store.save(options.out, network, compact=True)
    games = trainer.games - games_before
    print(
        f"trained {games:,} games ({network.games:,} in all) in {elapsed / 60:.1f} min: "
        f"{elapsed / max(games, 1) * 100_000 / 3600:.1f} h per 100k games; "
        f"{options.out} is {options.out.stat().st_size:,} bytes"
    )


if __name__ == "__main__":
    main()
