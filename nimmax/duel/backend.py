"""Where blocks are played: the `Backend` seam, and the serial backend that plays them in this
process.

A backend is any callable `backend(blocks, count)`. The process pool (`pool.ProcessPool`) is a
second one, a Ray cluster (`ray_backend.RayBackend`) a third; each plugs in by the same contract,
and `run(plan, backend=...)` takes it without any other change.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from nimmax.duel.planning import Block
from nimmax.duel.play import GameResult, block_games
from nimmax.game import BadInput

ATTEMPTS = 2
"""Times a block is played before it is given up: once, and once more if its worker was lost."""

Count = Callable[[int, GameResult], None]
"""Counts one finished game: `count(pairing, result)`, the pairing by its number in the plan."""


@dataclass(frozen=True, slots=True, order=True)
class FailedBlock:
    """A block a backend gave up on (its worker lost twice): which games were never counted, and
    why; ordered as the plan's blocks are."""

    pairing: int
    start: int
    count: int
    reason: str


Lost = Callable[[FailedBlock], None]
"""Told of each block a backend gives up on; the backend goes on with the other blocks."""


class Backend(Protocol):
    """Plays the blocks of an event and hands every finished game to `count`.

    The contract every backend keeps:
    - each block is played by `block_games(block)` (fresh players, the block's seeds), so the
      games played never depend on the backend, only how fast they are;
    - `count` is called in the caller's thread, one game at a time, in any order (the
      tallies do not depend on it), and the backend returns once every game is counted;
    - on Ctrl-C or SIGTERM (`interrupt.Terminated`, a KeyboardInterrupt) it stops playing within
      about a second, counts the games already finished that it can still reach, leaves no
      worker running, and raises the same kind of KeyboardInterrupt;
    - no worker outlives the process that called it, however that process ends;
    - a backend that can lose a worker (a cluster's, or a pool process killed from outside) plays
      a lost block again once, and a block lost twice is told to its `Lost` hook, never waited for.
    """

    def __call__(self, blocks: Sequence[Block], count: Count, /) -> None:
        """Play `blocks`, calling `count(block.pairing, result)` for each finished game."""


def check_jobs(jobs: int) -> None:
    """BadInput unless `jobs` is a usable number of processes."""
    if jobs < 1:
        raise BadInput(f"--jobs must be at least 1, not {jobs}")


def serial(blocks: Sequence[Block], count: Count) -> None:
    """The backend of one process: the blocks one after the other, here (Ctrl-C simply
    propagates)."""
    for block in blocks:
        for result in block_games(block):
            count(block.pairing, result)
