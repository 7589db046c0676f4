"""The process-pool backend: blocks handed to worker processes one at a time, their games sent back
as they finish.

Each worker is linked to the parent by its own pipe. The parent hands a worker a block (its number
in the plan), and the next when the worker says it is done; the worker's main thread plays it, and a
second thread sends the finished games every STOP_CHECK seconds, takes the parent's next order, and
ends the process at once — even mid-search — when the parent asks it to stop or is gone (its end of
the pipe reads as closed). A worker lost mid-block (killed, out of memory) is replaced and its block
played again from its start, once, as the Ray backend does (the same games: players and seeds are
the block's), the games already counted skipped; a block lost twice is given up and told to `lost`.
Workers ignore Ctrl-C, SIGTERM and SIGHUP: the parent holds them, stops the workers, counts what
they sent, kills any worker still there after GRACE seconds, then raises the KeyboardInterrupt (or
Terminated) it held. So no worker outlives the parent, however the parent ends.

The fork server, the resource tracker and spawned workers start as `python -c`, which would put the
current folder first on their import path: they start with PYTHONSAFEPATH (no current folder) and
PYTHONNOUSERSITE (no user site, unless nimmax itself lives there), so a `random.py` lying in the
folder a duel runs from is never imported.
"""

from __future__ import annotations

import contextlib
import errno
import multiprocessing
import multiprocessing.util
import os
import pickle
import queue
import signal
import site
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess

from nimmax.duel.backend import ATTEMPTS, Count, FailedBlock, Lost, check_jobs
from nimmax.duel.planning import Block
from nimmax.duel.play import GameResult, block_games
from nimmax.errors import quoted
from nimmax.game import BadInput
from nimmax.interrupt import SIGNALS, Held
from nimmax.search.stack import interpreter

STOP_CHECK = 0.05
"""Seconds between a worker's sends of its finished games and looks for the parent's orders."""

GRACE = 1.0
"""Seconds the parent waits for stopped workers to send their last games and end before killing
them."""

NO_MORE = -1
"""The parent's order when no block is left: the worker sends what it has and ends. (None: stop
now.)"""

Finished = deque[tuple[int, GameResult | None]]
"""A worker's finished games not yet sent, as (block number, result), and (block number, None) once
the block is done: its main thread appends, its sender takes."""

SOCKET_PATH = 107
"""Bytes an AF_UNIX socket's path may take on Linux (its 108 less the closing NUL)."""

SOCKET_NAME = len("/pymp-12345678/listener-12345678")
"""What multiprocessing adds to the temporary folder for the forkserver's socket."""

SHORT_TEMP = ("/tmp", "/var/tmp", "/dev/shm")
"""Folders tried for the pool's sockets when TMPDIR's path is too long for one."""


@dataclass(frozen=True, slots=True)
class ProcessPool:
    """The backend of `jobs` processes on this machine (a `Backend`)."""

    jobs: int
    stopping: Callable[[], None] | None = None
    """Called the moment Ctrl-C or SIGTERM is caught, before the workers' last games come in, so
    the person who pressed it hears at once that the duel is stopping."""
    lost: Lost | None = None
    """Told of each block given up after its second lost worker (without it, that is an error)."""

    def __post_init__(self) -> None:
        check_jobs(self.jobs)

    def __call__(self, blocks: Sequence[Block], count: Count, /) -> None:
        """Play `blocks` on the pool's processes, counting each game as it arrives."""
        if blocks:  # a pool of no process cannot start
            _run_pool(blocks, self.jobs, count, self.stopping, self.lost)


# --- in a worker process -----------------------------------------------------------------


def _work(blocks: Sequence[Block], link: Connection) -> None:
    """A worker: play the blocks the parent hands it, while a second thread sends the games and
    takes orders."""
    for signum in SIGNALS:
        signal.signal(signum, signal.SIG_IGN)  # the parent owns them and stops the workers itself
    finished: Finished = deque()
    orders: queue.SimpleQueue[int] = queue.SimpleQueue()
    played = threading.Event()
    sender = threading.Thread(target=_send, args=(link, finished, orders, played), daemon=True)
    sender.start()
    failure: Exception | None = None
    try:
        with interpreter():  # the policy a command enters, for this worker's span
            while (number := orders.get()) != NO_MORE:
                for result in block_games(blocks[number]):
                    finished.append((number, result))
                finished.append((number, None))
    except Exception as error:  # sent to the parent, which raises it
        failure = error
    finally:
        played.set()
        sender.join()
    if failure is not None:
        link.send(_picklable(failure))


def _send(
    link: Connection, finished: Finished, orders: queue.SimpleQueue[int], played: threading.Event
) -> None:
    """A worker's sender: every STOP_CHECK seconds, the finished games to the parent and its orders
    to the main thread; on a stop from the parent, or the parent gone, the last games and the end of
    the process, even mid-search."""
    while True:
        done = played.wait(STOP_CHECK)
        stop = False
        try:
            while not stop and link.poll():
                order = link.recv()
                stop = order is None
                if not stop:
                    orders.put(order)
        except (EOFError, OSError):  # the parent is gone
            stop = True
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


def _run_pool(
    blocks: Sequence[Block],
    jobs: int,
    count: Count,
    stopping: Callable[[], None] | None,
    lost: Lost | None,
) -> None:
    """Play the blocks on `jobs` worker processes, counting each game as it arrives. On Ctrl-C or
    SIGTERM (`stopping()` told at once), or a worker's error, stop every worker, count what they
    sent, then raise."""
    _short_temp_dir()
    with Held() as held, _Workers(blocks, jobs, lost) as workers:
        failure = workers.gather(count, held, stopping)
    if failure is not None:
        raise failure
    if held.caught is not None:
        raise held.caught


def _short_temp_dir() -> None:
    """Make the folder of the pool's sockets one whose path an AF_UNIX socket can take: TMPDIR's
    when it is short enough, else the first of SHORT_TEMP this process can write; BadInput saying
    what to do if none."""
    default = tempfile.gettempdir()
    if len(os.fsencode(default)) + SOCKET_NAME <= SOCKET_PATH:
        return
    for folder in SHORT_TEMP:
        if os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK):
            saved, tempfile.tempdir = tempfile.tempdir, folder
            try:
                # made once, then kept for the process's sockets
                multiprocessing.util.get_temp_dir()
            finally:
                tempfile.tempdir = saved
            return
    most = SOCKET_PATH - SOCKET_NAME
    raise BadInput(
        f"--jobs needs a temporary folder of at most {most} characters for its sockets; TMPDIR "
        f"{quoted(default)} "
        f"is longer: set TMPDIR to a shorter folder, or use --jobs 1"
    )


FILES_PER_WORKER = 3
"""Descriptors a worker holds open in the parent and the fork server (its link, its sentinel, the
fork server's passing of them)."""

FILES_SPARE = 5
"""Descriptors the pool needs besides: the fork server's socket and alive pipe, the resource
tracker's."""


def _room_for(jobs: int, asked: int) -> None:
    """CannotStart when the limit on open files leaves no room for `jobs` workers: found before the
    first worker starts, since the fork server, short of descriptors, dies with a traceback of its
    own."""
    import resource

    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    try:
        used = len(os.listdir("/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd"))
    except OSError:  # no way to count them here: the start itself says it
        return
    if soft != resource.RLIM_INFINITY and used + FILES_PER_WORKER * jobs + FILES_SPARE > soft:
        raise CannotStart(asked, 0, OSError(errno.EMFILE, os.strerror(errno.EMFILE)))


class CannotStart(OSError):
    """The system refused a worker process (a limit on open files or processes): an error naming the
    limit and --jobs, which the CLI says in one line with exit 1."""

    def __init__(self, jobs: int, started: int, failure: OSError | EOFError) -> None:
        import resource

        files = isinstance(failure, OSError) and failure.errno in (errno.EMFILE, errno.ENFILE)
        kind, option, limit = (
            ("open files", "-n", resource.RLIMIT_NOFILE)
            if files
            else ("processes", "-u", resource.RLIMIT_NPROC)
        )
        soft = resource.getrlimit(limit)[0]
        shown = "unlimited" if soft == resource.RLIM_INFINITY else str(soft)
        reason = (
            failure.strerror
            if isinstance(failure, OSError) and failure.strerror
            else "the fork server failed"
        )
        super().__init__(
            failure.errno if isinstance(failure, OSError) else errno.EAGAIN,
            f"cannot start the worker processes of --jobs {jobs} ({started} started): {reason}; "
            "the limit on "
            f"{kind} is {shown} (ulimit {option}): use a smaller --jobs, or raise the limit",
        )


@contextlib.contextmanager
def safe_imports() -> Iterator[None]:
    """Within this block, Python processes started from this one put no current folder on their
    import path, and no user site unless nimmax was imported from it."""
    wanted = {"PYTHONSAFEPATH": "1"}
    user_site = site.getusersitepackages()
    if not os.path.abspath(__file__).startswith(os.path.join(os.path.abspath(user_site), "")):
        wanted["PYTHONNOUSERSITE"] = "1"
    saved = {name: os.environ.get(name) for name in wanted}
    os.environ.update(wanted)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class _Workers:
    """The worker processes of one run, each with its link; used as a context, none outlives it."""

    def __init__(self, blocks: Sequence[Block], jobs: int, lost: Lost | None) -> None:
        # forkserver/spawn: forking a process whose progress display runs a thread can deadlock
        forkserver = "forkserver" in multiprocessing.get_all_start_methods()
        self.context = (
            multiprocessing.get_context("forkserver")
            if forkserver
            else multiprocessing.get_context("spawn")
        )
        # the server imports what a worker runs once, and every worker forked from it has it
        if forkserver:
            self.context.set_forkserver_preload([__name__])
        self.blocks, self.jobs, self.asked, self.lost = blocks, min(jobs, len(blocks)), jobs, lost
        self.waiting = deque(range(len(blocks)))  # blocks not handed out yet, a lost one first
        self.attempts = [0] * len(blocks)
        self.counted = [0] * len(blocks)  # games of each block counted, so a replay skips them
        self.processes: dict[Connection, BaseProcess] = {}
        self.playing: dict[Connection, int] = {}  # a worker's link -> the block it plays
        self.stopped_at: float | None = None

    def __enter__(self) -> _Workers:
        _room_for(self.jobs, self.asked)
        try:
            for _ in range(self.jobs):
                self._start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def _start(self) -> Connection:
        """A new worker, handed the next block; CannotStart where the system refuses it."""
        try:
            ours, theirs = self.context.Pipe()
            process = self.context.Process(
                target=_work, args=(self.blocks, theirs), name="nimmax worker"
            )
            self.processes[ours] = process
            with safe_imports():  # the fork server and resource tracker start with the first worker
                process.start()
        except (OSError, EOFError) as error:  # EOFError: the fork server could not fork
            started = sum(process.pid is not None for process in self.processes.values())
            raise CannotStart(self.asked, started, error) from None
        # the worker holds the only other end: it reads as closed once the worker ends
        theirs.close()
        self._hand(ours)
        return ours

    def _hand(self, link: Connection) -> None:
        """Give a worker the next block waiting, or tell it none is left."""
        self.playing.pop(link, None)
        number = self.waiting.popleft() if self.waiting else NO_MORE
        if number != NO_MORE:
            self.playing[link] = number
            self.attempts[number] += 1
        # a worker that has just ended: its end is seen in gather
        with contextlib.suppress(OSError):
            link.send(number)

    def gather(
        self, count: Count, held: Held, stopping: Callable[[], None] | None = None
    ) -> Exception | None:
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
                # the worker has ended (reset: with our stop unread)
                except (EOFError, ConnectionResetError):
                    running.remove(ready)
                    # not a stop: maybe a kill from outside
                    if self.stopped_at is None and held.caught is None:
                        replaced, error = self._lost(ready)
                        running.extend(replaced)
                        failure = failure or error
                    continue
                if isinstance(message, Exception):
                    failure = failure or message
                    continue
                self._take(ready, message, count)
        return failure

    def _take(
        self, link: Connection, batch: list[tuple[int, GameResult | None]], count: Count
    ) -> None:
        """Count a batch's games (those of a replayed block not counted before), and hand on after a
        block's end."""
        for number, result in batch:
            block = self.blocks[number]
            if result is None:
                self._hand(link)
            elif result.index >= block.start + self.counted[number]:
                self.counted[number] += 1
                count(block.pairing, result)

    def _lost(self, link: Connection) -> tuple[list[Connection], Exception | None]:
        """After a worker's end not asked for: its block again on a new worker, unless it was its
        second try (then given up, told to `lost`, an error without it); the new worker, and the
        error if any."""
        process = self.processes[link]
        process.join(GRACE)
        number = self.playing.pop(link, None)
        if number is None:  # it had played its last block
            return [], None
        if self.attempts[number] < ATTEMPTS:
            self.waiting.appendleft(number)
        else:
            block = self.blocks[number]
            reason = f"its worker was lost {ATTEMPTS} times (exit code {process.exitcode})"
            if self.lost is None:
                return [], ChildProcessError(
                    f"a duel worker ended unexpectedly (exit code {process.exitcode})"
                )
            self.lost(FailedBlock(block.pairing, block.start, block.count, reason))
        return ([self._start()] if self.waiting else []), None

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
