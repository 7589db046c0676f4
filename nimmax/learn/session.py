"""`nimmax train 2048`: TD self-play into the user's cache folder, in one process or several
sharing one table of weights, checkpointed atomically, resumable, and kept on Ctrl-C or SIGTERM.

With `jobs` > 1 each worker process steps its own batch of games and updates the shared weights
in place without locks (as Hogwild! does): two workers seldom touch one weight at once, and a
lost update costs one step of one weight. The main process draws the progress and writes the
checkpoints from a copy of the shared weights.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import signal
import statistics
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing import shared_memory
from pathlib import Path
from typing import Any

import numpy as np

from nimmax.errors import BadInput
from nimmax.games.ntuple import store
from nimmax.learn.train import MARKS, WINDOW, Trainer

CHECKPOINT_SECONDS = 300.0
"""How often the weights are written while training (and once more at the end)."""
REPORT_SECONDS = 0.5
"""How often a worker tells the main process its counts."""


@dataclass
class Progress:
    """Training so far: games and moves of this run, its seconds, the rolling reach rates and
    scores."""

    games: int = 0
    moves: int = 0
    seconds: float = 0.0
    total_games: int = 0
    reached: deque[int] = field(default_factory=lambda: deque(maxlen=WINDOW))
    scores: deque[int] = field(default_factory=lambda: deque(maxlen=WINDOW))

    @property
    def rates(self) -> list[float]:
        """The share of the last WINDOW games that made 2048, 4096 and 8192."""
        seen = len(self.reached) or 1
        return [sum(rank >= mark for rank in self.reached) / seen for mark in MARKS]

    @property
    def mean_score(self) -> float:
        """The mean score of the last WINDOW games."""
        return statistics.mean(self.scores) if self.scores else 0.0


def start(
    path: Path, tuples: Sequence[Sequence[int]], resume: bool, batch: int, seed: int
) -> Trainer:
    """The trainer: of the network at `path` when resuming (BadInput when there is none to read),
    else of a fresh one over `tuples`."""
    if not resume:
        return Trainer(tuple(tuple(cells) for cells in tuples), batch=batch, seed=seed)
    if not path.exists() and not path.is_symlink():
        raise BadInput(f"there is no network to resume at {path}; train without --resume first")
    return Trainer.resume(store.load(path), batch=batch, seed=seed)


def train(
    path: Path,
    tuples: Sequence[Sequence[int]],
    resume: bool,
    games: int,
    seconds: float,
    jobs: int = 1,
    report: Callable[[Progress], None] = lambda progress: None,
    batch: int = 1024,
    seed: int = 0,
    every: float = CHECKPOINT_SECONDS,
) -> Progress:
    """Train a network (`start`) for `games` more games or `seconds`, keeping it at `path` every
    `every` seconds and at the end; a KeyboardInterrupt keeps it too, notes what was kept, and goes
    on up."""
    trainer = start(path, tuples, resume, min(batch, games), seed)
    progress = Progress(total_games=trainer.games)
    began = time.monotonic()

    def keep(weights: Any) -> None:
        trainer.weights = weights
        store.save(path, trainer.network())

    try:
        if jobs <= 1:
            _alone(trainer, progress, games, seconds, report, every, keep)
        else:
            _together(trainer, progress, games, seconds, jobs, report, every, keep, seed)
    except KeyboardInterrupt as error:
        error.add_note(f"after {progress.games:,} games; the network is kept in {path}")
        raise
    finally:
        progress.seconds = time.monotonic() - began
    return progress


def _alone(
    trainer: Trainer,
    progress: Progress,
    games: int,
    seconds: float,
    report: Callable[[Progress], None],
    every: float,
    keep: Callable[[Any], None],
) -> None:
    began = last = time.monotonic()
    first_games, first_moves = trainer.games, trainer.moves
    try:
        while progress.games < games and time.monotonic() - began < seconds:
            trainer.step()
            progress.games, progress.moves = (
                trainer.games - first_games,
                trainer.moves - first_moves,
            )
            progress.total_games, progress.seconds = trainer.games, time.monotonic() - began
            progress.reached, progress.scores = trainer.reached, trainer.scores
            report(progress)
            if time.monotonic() - last >= every:
                keep(trainer.weights)
                last = time.monotonic()
    finally:
        keep(trainer.weights)


def _together(
    trainer: Trainer,
    progress: Progress,
    games: int,
    seconds: float,
    jobs: int,
    report: Callable[[Progress], None],
    every: float,
    keep: Callable[[Any], None],
    seed: int,
) -> None:
    weights = trainer.weights
    memory = shared_memory.SharedMemory(create=True, size=weights.nbytes)
    shared: Any = np.ndarray(weights.shape, np.float32, buffer=memory.buf)
    shared[:] = weights
    context = multiprocessing.get_context("spawn")
    counts: Any = context.Queue()
    stop = context.Event()
    shape = (memory.name, trainer.tuples, len(weights), trainer.batch)
    workers = [
        context.Process(
            target=_work, args=(*shape, seed + 1 + index, trainer.rate, counts, stop), daemon=True
        )
        for index in range(jobs)
    ]
    began = last = time.monotonic()
    first_games = trainer.games
    try:
        for worker in workers:
            worker.start()
        while progress.games < games and time.monotonic() - began < seconds:
            with contextlib.suppress(queue.Empty):
                _count(progress, counts.get(timeout=REPORT_SECONDS))
            if not any(worker.is_alive() for worker in workers):
                raise BadInput("every training worker stopped; train with --jobs 1 to see why")
            progress.total_games, progress.seconds = (
                first_games + progress.games,
                time.monotonic() - began,
            )
            report(progress)
            if time.monotonic() - last >= every:
                trainer.games = progress.total_games
                keep(shared.copy())
                last = time.monotonic()
    finally:
        stop.set()
        for worker in workers:
            worker.join(timeout=10)
            if worker.is_alive():
                worker.terminate()
                worker.join()
        trainer.games = first_games + progress.games
        keep(shared.copy())
        del shared
        memory.close()
        memory.unlink()


def _count(progress: Progress, told: tuple[int, int, list[int], list[int]]) -> None:
    """Add a worker's report (games, moves, their best tiles and scores) to the progress."""
    played, moves, reached, scores = told
    progress.games += played
    progress.moves += moves
    progress.reached.extend(reached)
    progress.scores.extend(scores)


def _work(
    name: str,
    tuples: tuple[tuple[int, ...], ...],
    size: int,
    batch: int,
    seed: int,
    rate: float,
    counts: Any,
    stop: Any,
) -> None:
    """A worker: steps its own games on the shared weights until told to stop, reporting its
    counts."""
    # the main process stops the workers and keeps the weights
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    memory = shared_memory.SharedMemory(name=name)
    try:
        weights = np.ndarray((size,), np.float32, buffer=memory.buf)
        trainer = Trainer(tuples, batch=batch, seed=seed, rate=rate, weights=weights)
        told, games, moves, reached = time.monotonic(), 0, 0, 0
        while not stop.is_set():
            trainer.step()
            if time.monotonic() - told >= REPORT_SECONDS:
                new = trainer.games - games
                counts.put(
                    (
                        new,
                        trainer.moves - moves,
                        list(trainer.reached)[-new:] if new else [],
                        list(trainer.scores)[-new:] if new else [],
                    )
                )
                told, games, moves, reached = (
                    time.monotonic(),
                    trainer.games,
                    trainer.moves,
                    reached,
                )
        del weights, trainer
    finally:
        memory.close()
