"""The process-pool backend: blocks played by worker processes, their games sent back as they finish.

Each worker is linked to the parent by its own pipe. Its main thread plays blocks (taken in
turn from a shared counter); a second thread sends the finished games every STOP_CHECK
seconds and ends the process at once — even mid-search — when the parent asks it to stop or
is gone (its end of the pipe reads as closed). Workers ignore Ctrl-C and SIGTERM: the
parent holds both, stops the workers, counts what they sent, kills any worker still there
after GRACE seconds, then raises the KeyboardInterrupt (or Terminated) it held. So no
worker outlives the parent, however the parent ends.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from nimmax.duel.backend import Count
from nimmax.duel.planning import Block
from nimmax.duel.play import GameResult, block_games
from nimmax.game import BadInput
from nimmax.interrupt import Held

STOP_CHECK = 0.05
"""Seconds between a worker's sends of its finished games and looks for the parent's stop."""

GRACE = 1.0
"""Seconds the parent waits for stopped workers to send their last games and end before killing them."""

Finished = deque[tuple[int, GameResult]]
"""A worker's finished games not yet sent, as (pairing, result): its main thread appends, its sender takes."""


def check_jobs(jobs: int) -> None:
    """BadInput unless `jobs` is a usable number of processes."""
    if jobs < 1:
        raise BadInput(f"--jobs must be at least 1, not {jobs}")


@dataclass(frozen=True, slots=True)
class ProcessPool:
    """The backend of `jobs` processes on this machine (a `Backend`)."""

    jobs: int
    stopping: Callable[[], None] | None = None
    """Called the moment Ctrl-C or SIGTERM is caught, before the workers' last games come in, so
    the person who pressed it hears at once that the duel is stopping."""

    def __post_init__(self) -> None:
        check_jobs(self.jobs)

    def __call__(self, blocks: Sequence[Block], count: Count, /) -> None:
        """Play `blocks` on the pool's processes, counting each game as it arrives."""
        if blocks:  # a pool of no process cannot start
            _run_pool(blocks, self.jobs, count, self.stopping)


# --- in a worker process -----------------------------------------------------------------


def _work(blocks: Sequence[Block], taken: Any, link: Connection) -> None:
    """A worker: play blocks until none is left, while a second thread sends the games and obeys a stop."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)  # the parent owns both and stops the workers itself
    finished: Finished = deque()
    played = threading.Event()
    sender = threading.Thread(target=_send, args=(link, finished, played), daemon=True)
    sender.start()
    failure: Exception | None = None
    try:
        while (block := _take(blocks, taken)) is not None:
            for result in block_games(block):
                finished.append((block.pairing, result))
    except Exception as error:  # sent to the parent, which raises it
        failure = error
    finally:
        played.set()
        sender.join()
    if failure is not None:
        link.send(_picklable(failure))


def _take(blocks: Sequence[Block], taken: Any) -> Block | None:
    """The next block no worker has taken, or None when all are taken."""
    with taken.get_lock():
        index = taken.value
        taken.value += 1
    return blocks[index] if index < len(blocks) else None


def _send(link: Connection, finished: Finished, played: threading.Event) -> None:
    """A worker's sender: every STOP_CHECK seconds, the finished games to the parent; on a stop from
    the parent, or the parent gone, the last games and the end of the process, even mid-search."""
    while True:
        done = played.wait(STOP_CHECK)
        stop = link.poll()  # a message is only ever a stop; a closed end means the parent is gone
        batch = [finished.popleft() for _ in range(len(finished))]
        try:
            if batch:
                link.send(batch)
        except OSError:  # the parent is gone: nobody to send to
            os._exit(1)
        if stop:
            os._exit(0)
        if done:
            return


def _picklable(error: Exception) -> Exception:
    """`error` if it crosses the pipe intact, else a RuntimeError with its text."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


# --- in the parent -----------------------------------------------------------------------


def _run_pool(blocks: Sequence[Block], jobs: int, count: Count, stopping: Callable[[], None] | None = None) -> None:
    """Play the blocks on `jobs` worker processes, counting each game as it arrives. On Ctrl-C or
    SIGTERM (`stopping()` told at once), or a worker's error, stop every worker, count what they
    sent, then raise."""
    with Held() as held, _Workers(blocks, jobs) as workers:
        failure = workers.gather(count, held, stopping)
    if failure is not None:
        raise failure
    if held.caught is not None:
        raise held.caught


class _Workers:
    """The worker processes of one run, each with its link; used as a context, none outlives it."""

    def __init__(self, blocks: Sequence[Block], jobs: int) -> None:
        # forkserver/spawn: forking a process whose progress display runs a thread can deadlock
        forkserver = "forkserver" in multiprocessing.get_all_start_methods()
        self.context = multiprocessing.get_context("forkserver") if forkserver else multiprocessing.get_context("spawn")
        self.blocks, self.jobs = blocks, min(jobs, len(blocks))
        self.taken = self.context.Value("i", 0)  # blocks taken so far; kept here while workers may read it
        self.processes: dict[Connection, BaseProcess] = {}
        self.stopped_at: float | None = None

    def __enter__(self) -> _Workers:
        try:
            for _ in range(self.jobs):
                ours, theirs = self.context.Pipe()
                process = self.context.Process(
                    target=_work, args=(self.blocks, self.taken, theirs), name="nimmax worker"
                )
                self.processes[ours] = process
                process.start()
                theirs.close()  # the worker holds the only other end: it reads as closed once the worker ends
        except BaseException:
            self.__exit__()
            raise
        return self

    def gather(self, count: Count, held: Held, stopping: Callable[[], None] | None = None) -> Exception | None:
        """Count the games the workers send until every worker has ended (or GRACE seconds after a
        stop, for a held signal or a worker's error); the first worker error, if any."""
        running = list(self.processes)
        failure: Exception | None = None
        while running:
            if self.stopped_at is None and (held.caught is not None or failure is not None):
                self.stop()
                if held.caught is not None and stopping is not None:
                    stopping()
            if self.stopped_at is not None and time.monotonic() - self.stopped_at > GRACE:
                break
            for ready in wait(running, STOP_CHECK):
                assert isinstance(ready, Connection)
                try:
                    message = ready.recv()
                except (EOFError, ConnectionResetError):  # the worker has ended (reset: with our stop unread)
                    running.remove(ready)
                    if self.stopped_at is None and held.caught is None:  # not a stop, maybe a kill from outside
                        failure = failure or self._lost(self.processes[ready])
                    continue
                if isinstance(message, Exception):
                    failure = failure or message
                    continue
                for pairing, result in message:
                    count(pairing, result)
        return failure

    @staticmethod
    def _lost(process: BaseProcess) -> Exception | None:
        """An error unless `process`, which has closed its link, ends with success."""
        process.join(GRACE)
        if process.exitcode == 0:
            return None
        return ChildProcessError(f"a duel worker ended unexpectedly (exit code {process.exitcode})")

    def stop(self) -> None:
        """Ask every worker to send its last games and end."""
        self.stopped_at = time.monotonic()
        for link in self.processes:
            with contextlib.suppress(OSError):  # a worker that has just ended
                link.send(None)

    def __exit__(self, *exc_info: object) -> None:
        """Leave no worker running: close the links (a stop to any worker still there), wait out the
        GRACE that followed the first stop, then kill what is left."""
        for link in self.processes:
            link.close()
        deadline = (self.stopped_at or time.monotonic()) + GRACE
        for process in self.processes.values():
            if process.pid is not None:  # started
                process.join(max(0.0, deadline - time.monotonic()))
        for process in self.processes.values():
            if process.is_alive():
                process.kill()
                process.join()
