"""The process-pool backend: blocks played by worker processes, their games sent back as they finish, Ctrl-C drained."""

from __future__ import annotations

import itertools
import multiprocessing
import queue
import signal
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from nimmax.duel.backend import Count
from nimmax.duel.planning import Block
from nimmax.duel.play import block_games
from nimmax.game import BadInput

_worker: dict[str, Any] = {}
"""In a pool worker only: the parent's stop Event (set on Ctrl-C) and its result Queue."""


STOP_CHECK = 0.05
"""Seconds between a worker's looks at the stop event (each look takes a lock)."""


def _start_worker(stop: Any, results: Any) -> None:
    _worker.update(stop=stop, results=results, next_check=0.0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent owns Ctrl-C and tells workers by the event


def _stopped() -> bool:
    now = time.perf_counter()
    if now < _worker["next_check"]:
        return False
    _worker["next_check"] = now + STOP_CHECK
    return bool(_worker["stop"].is_set())


def play_block(block: Block, every: float = 0.1) -> int:
    """A pool worker's job: play a block, sending the finished games to the parent every
    `every` seconds (so progress moves and Ctrl-C keeps them); returns how many were sent."""
    sent, batch, last = 0, [], time.perf_counter()
    for result in block_games(block, _stopped):
        batch.append(result)
        if time.perf_counter() - last >= every:
            _worker["results"].put((block.pairing, batch))
            sent, batch, last = sent + len(batch), [], time.perf_counter()
    if batch:
        _worker["results"].put((block.pairing, batch))
    return sent + len(batch)


def check_jobs(jobs: int) -> None:
    """BadInput unless `jobs` is a usable number of processes."""
    if jobs < 1:
        raise BadInput(f"--jobs must be at least 1, not {jobs}")


@dataclass(frozen=True, slots=True)
class ProcessPool:
    """The backend of `jobs` processes on this machine (a `Backend`)."""

    jobs: int

    def __post_init__(self) -> None:
        check_jobs(self.jobs)

    def __call__(self, blocks: Sequence[Block], count: Count, /) -> None:
        """Play `blocks` on the pool's processes, counting each game as it arrives."""
        if blocks:  # a pool of no process cannot start
            _run_pool(blocks, self.jobs, count)


def _run_pool(blocks: Sequence[Block], jobs: int, count: Count) -> None:
    """Play the blocks in a process pool, a few at a time, counting each game as it arrives;
    on Ctrl-C tell the workers to stop, count what they finished, then raise KeyboardInterrupt again."""
    methods = multiprocessing.get_all_start_methods()
    # forkserver/spawn: forking a process whose progress display runs a thread can deadlock
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    stop, results = context.Event(), context.Queue()
    workers = min(jobs, len(blocks))
    waiting = iter(blocks)
    running: set[Future[int]] = set()
    sent = received = 0  # games the finished blocks sent; games counted here

    interrupted = False

    def on_interrupt(signum: int, frame: Any) -> None:
        # Only a flag: a KeyboardInterrupt raised inside `results.get` could lose a batch half
        # read from the pipe, and the drain below would then wait for it forever.
        nonlocal interrupted
        if interrupted:  # a second Ctrl-C: stop waiting for the workers at once
            raise KeyboardInterrupt
        interrupted = True

    def receive(timeout: float) -> None:
        nonlocal received
        try:
            pairing, batch = results.get(timeout=timeout)
        except queue.Empty:
            return
        received += len(batch)
        for result in batch:
            count(pairing, result)

    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, on_interrupt) if in_main_thread else None
    try:
        with ProcessPoolExecutor(
            workers, mp_context=context, initializer=_start_worker, initargs=(stop, results)
        ) as pool:
            while not interrupted:
                for future in [future for future in running if future.done()]:
                    running.remove(future)
                    sent += future.result()  # re-raises a worker's error
                # a short queue of blocks, so Ctrl-C has little to cancel; refilled after the
                # finished ones are taken out, so nothing running means nothing left to play
                for block in itertools.islice(waiting, 2 * workers - len(running)):
                    running.add(pool.submit(play_block, block))
                if not running and received == sent:
                    return
                receive(0.05)
            stop.set()
            for future in running:
                if not future.cancel():
                    sent += future.result()
            while received < sent:
                receive(1.0)
        raise KeyboardInterrupt
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
