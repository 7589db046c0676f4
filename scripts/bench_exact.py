"""Connect Four's proof beside the one generic exact solver (`nimmax.search.exact`), on the same
positions and the same question (who wins with best play), side by side in one run.

    python scripts/bench_exact.py                 # 8 positions of 20 stones
    python scripts/bench_exact.py --stones 18 --positions 4

The generic solver gets the rules through its `Rules` protocol over the proof's own bitboards: a
key, the end, and the moves the proof would try (a four at once alone, the forced block, never
under the opponent's four; centre first). What the proof adds beyond (threat ordering, the best move
kept in its table, enhanced transposition cut-offs, the follow-up rules) is node logic `Rules` has
no place for. Prints each position's nodes and seconds
for both, and the ratios.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Hashable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nimmax.games.mnk.fours import aligning, completing  # noqa: E402
from nimmax.games.mnk.proof import Proof  # noqa: E402
from nimmax.search.exact import Exact, OutOfNodes  # noqa: E402
from nimmax.search.score import SCALE  # noqa: E402

ROWS, COLUMNS = 6, 7
STRIDE = ROWS + 1
Position = tuple[int, int]
"""The mover's stones and the taken cells, as the proof lays them out."""


class Plain:
    """Connect Four's rules as the generic solver asks for them."""

    def __init__(self) -> None:
        shape = Proof(ROWS, COLUMNS)  # the same bitboards, the same columns centre first
        self.bottom, self.board, self.columns = shape.bottom, shape.board, shape.columns
        self.four, self.winning = aligning(STRIDE), completing(STRIDE)

    def key(self, position: Position) -> Hashable:
        return position[0] + position[1]

    def end(self, position: Position) -> float | None:
        mine, taken = position
        if self.four(mine ^ taken):  # the last mover made four
            return -float(SCALE)
        return 0.0 if taken == self.board else None

    def moves(self, position: Position) -> Iterator[tuple[Position, bool]]:
        mine, taken = position
        theirs, empty = mine ^ taken, self.board ^ taken
        possible = (taken + self.bottom) & self.board
        wins = self.winning(mine, empty) & possible
        threats = self.winning(theirs, empty)
        if wins:  # a four at once: the one move worth trying
            possible = wins & -wins
        elif possible & threats:  # the block, or one move against two threats (lost either way)
            forced = possible & threats
            possible = forced & -forced
        elif possible & ~(threats >> 1):  # never under a cell the opponent would complete
            possible &= ~(threats >> 1)
        for column in self.columns:
            move = possible & column
            if move:
                yield (theirs, taken | move), False

    def chances(self, position: Position) -> None:
        return None


def positions(stones: int, count: int, seed: int) -> list[Position]:
    """Positions of `stones` stones from seeded random play, no four on the board and none the
    mover can make at once (the proof's question's condition)."""
    rules, rng = Plain(), random.Random(seed)
    found: list[Position] = []
    winning = completing(STRIDE)
    while len(found) < count:
        mine = taken = 0
        for _ in range(stones):
            possible = (taken + rules.bottom) & rules.board
            moves = [column & possible for column in rules.columns if column & possible]
            move = rng.choice(moves)
            mine, taken = mine ^ taken, taken | move
            if rules.four(mine ^ taken):
                break
        else:
            possible = (taken + rules.bottom) & rules.board
            if not winning(mine, possible) & possible:
                found.append((mine, taken))
    return found


def by_proof(position: Position) -> tuple[int, int, float]:
    """The proof's sign of the mover's score, its nodes and seconds (no budget)."""
    proof = Proof(ROWS, COLUMNS)
    proof.stop = proof.limit = 1 << 62
    mine, taken = position
    start = time.perf_counter()
    low, high = -proof.cells, proof.cells
    for alpha in proof.tests(taken):
        score = proof.negamax(mine, taken, alpha, alpha + 1)
        low, high = (max(low, score), high) if score > alpha else (low, min(high, score))
        if low > 0 or high < 0:
            break
    sign = 1 if low > 0 else -1 if high < 0 else 0
    return sign, proof.nodes, time.perf_counter() - start


def by_exact(position: Position, most: int) -> tuple[int | None, int, float]:
    """The generic solver's sign of the mover's score (None past `most` nodes), nodes, seconds."""
    solver = Exact(Plain(), nodes=most)
    start = time.perf_counter()
    try:
        score = solver.value(position, -1.0, 1.0)
    except OutOfNodes:
        return None, solver.nodes, time.perf_counter() - start
    sign = 1 if score >= 1 else -1 if score <= -1 else 0
    return sign, solver.nodes, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stones", type=int, default=20)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--most", type=int, default=3_000_000, help="generic solver's node cap")
    options = parser.parse_args()
    print(f"{'position':>8} {'sign':>4} {'proof nodes':>12} {'s':>7} {'exact nodes':>12} {'s':>7}")
    nodes = more = 0
    seconds = longer = 0.0
    for number, position in enumerate(positions(options.stones, options.positions, options.seed)):
        sign, own, own_seconds = by_proof(position)
        other, its, its_seconds = by_exact(position, options.most)
        agree = "over" if other is None else "ok" if other == sign else "DIFFERS"
        print(
            f"{number:>8} {sign:>4} {own:>12,} {own_seconds:>7.2f} {its:>12,} {its_seconds:>7.2f} "
            f"{agree}"
        )
        nodes, seconds, more, longer = (
            nodes + own,
            seconds + own_seconds,
            more + its,
            longer + its_seconds,
        )
    print(
        f"in all: proof {nodes:,} nodes in {seconds:.2f} s ({nodes / seconds:,.0f}/s); "
        f"generic {more:,} nodes in {longer:.2f} s ({more / longer:,.0f}/s): "
        f"{more / nodes:.1f}x the nodes, {longer / seconds:.1f}x the time"
    )


if __name__ == "__main__":
    main()
