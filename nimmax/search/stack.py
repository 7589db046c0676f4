"""The interpreter policy a process enters once where it starts (`interpreter`: the recursion limit,
kept within the C stack, the collector paused), and (`deep`) a thread with a big stack for a search
to the end of a game, under the recursion limit that stack holds while it runs.

CPython 3.11 counts every frame against one recursion limit, yet only a call that passes
through C (a generator driven by `sum()`) takes room on the C stack; a limit past what the
stack holds turns the RecursionError meant to stop a recursion into a segmentation fault. A
search that meets the limit is refused with TooDeep, naming how deep it may go (`refusing`).
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

from nimmax.game import BadInput

try:
    import resource
except ImportError:  # not on Windows
    resource = None  # type: ignore[assignment]

T = TypeVar("T")

FRAMES_PER_PLY = 3
"""Frames one ply of an engine's recursion takes at most: the node, its child's score, and the
generator expectimax sums a chance node's outcomes through."""

LEAF_FRAMES = 100
"""Frames a node may still take below the deepest ply: the game's own calls, table and budget."""

BYTES_PER_FRAME = 512
"""C stack allowed a frame: twice what the engines' recursions take where they pass through C
(a generator driven by sum(), about 270 bytes a frame on x86-64); plain Python calls take none."""

RESERVE = 8
"""One part in RESERVE of a stack stays free for the frames below the search and the C calls
at its deepest node (the error raised at the limit, C functions with buffers of their own)."""

MOST_STACK = 256 << 20
"""The stack `deep` gives, and the one assumed where the stack is unlimited: room for some
150,000 plies. It is address space only: pages are used as a recursion reaches them."""

POLL_SECONDS = 0.05
"""How often a thread waiting on a deep search looks for a signal: only the main thread runs
Python's signal handlers."""


class TooDeep(BadInput):
    """A search that would recurse deeper than the stack allows; `plies` is how deep it may go."""

    def __init__(self, plies: int) -> None:
        super().__init__(plies)  # the one argument, so that a process pool can pickle it back
        self.plies = plies

    def __str__(self) -> str:
        return (
            f"the search goes deeper than {self.plies:,} plies, the most this machine's stack "
            "allows; "
            f"give it a depth limit of at most {self.plies:,} plies"
        )


class DeepThread(threading.Thread, Generic[T]):
    """A thread with a stack of `stack_bytes`, running one call; its answer or error is kept."""

    def __init__(self, function: Callable[[], T], stack_bytes: int) -> None:
        super().__init__(name="nimmax-deep-search", daemon=True)
        self.function, self.stack_bytes = function, stack_bytes
        self.answers: list[T] = []
        self.error: BaseException | None = None
        self.lock = threading.Lock()
        self.finished = False
        self.done = threading.Event()

    def run(self) -> None:
        try:
            try:
                self.answers.append(self.function())
            finally:
                with self.lock:  # an error forwarded from the waiting thread lands inside this try
                    self.finished = True
        except BaseException as error:
            self.error = error
        self.done.set()

    def forward(self, error: BaseException) -> bool:
        """Raise `error`'s type in this thread, as a signal would have in the thread that waits
        for it; False when the call is already over."""
        import ctypes  # only a stopped deep search needs it, and it costs start-up time

        with self.lock:
            if self.finished or self.ident is None:
                return False
            ctypes.pythonapi.PyThreadState_SetAsyncExc(
                ctypes.c_ulong(self.ident), ctypes.py_object(type(error))
            )
            return True


def stack_bytes() -> int | None:
    """The C stack of the calling thread: a DeepThread's, or the main thread's (the stack limit);
    None for another thread, whose stack nimmax does not know (then the limit is left as it is)."""
    thread = threading.current_thread()
    if isinstance(thread, DeepThread):
        return thread.stack_bytes
    if thread is not threading.main_thread():
        return None
    if resource is None:  # Windows: the main thread has 1 MiB
        return 1 << 20
    soft = resource.getrlimit(resource.RLIMIT_STACK)[0]
    return MOST_STACK if soft == resource.RLIM_INFINITY else min(soft, MOST_STACK)


def frames_room(stack: int | None) -> int:
    """The recursion limit a stack of `stack` bytes holds; for an unknown stack, the limit as it
    is."""
    if stack is None:
        return sys.getrecursionlimit()
    return (stack - stack // RESERVE) // BYTES_PER_FRAME


def frames_below() -> int:
    """How many frames the calling thread already has on its stack."""
    count, frame = 0, sys._getframe(1)
    while frame.f_back is not None:
        count, frame = count + 1, frame.f_back
    return count + 1


def room() -> int:
    """The plies a search started here may recurse under the recursion limit as it stands."""
    return max(0, (sys.getrecursionlimit() - frames_below() - LEAF_FRAMES) // FRAMES_PER_PLY)


@contextmanager
def refusing() -> Iterator[int]:
    """Yield `room()`; a RecursionError inside becomes TooDeep, naming it."""
    plies = room()
    try:
        yield plies
    except RecursionError:
        raise TooDeep(plies) from None


@contextmanager
def interpreter() -> Iterator[None]:
    """The interpreter policy, entered once per process where it starts (the CLI, each pool worker
    and Ray task): the recursion limit raised as far as this thread's stack holds and the cyclic
    garbage collector paused, then both put back as they were.

    The collector is paused because a full collection over a large table costs a sizeable share
    of a timed move; table entries hold no reference cycles, so reference counting still frees
    every entry a table drops.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        with recursing():
            yield
    finally:
        if collecting:
            gc.enable()


@contextmanager
def recursing() -> Iterator[None]:
    """The recursion limit raised as far as this thread's stack holds, then put back.

    CPython 3.11 has one limit for every thread: a limit sized for a DeepThread's stack would let a
    recursion through C on the main thread's smaller one overflow it (a segmentation fault, not
    TooDeep). So the deep thread's limit holds only while it runs (`deep`); the rest of the policy
    (the collector) is the entry point's alone."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, frames_room(stack_bytes())))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def deep(function: Callable[[], T]) -> T:
    """`function()` on a thread with a stack of MOST_STACK, under a recursion limit that stack holds
    (`recursing`), for a command that searches to the end of a game; TooDeep when it recurses
    deeper than even that holds. The collector is left as the entry point set it (`interpreter`).

    This thread serves when its own stack is as big; otherwise a DeepThread does, while this one
    waits. A signal's exception raised here while it waits (Ctrl-C) is raised in the search too,
    and the search's answer or error is this call's.
    """

    def call() -> T:
        with recursing(), refusing():
            return function()

    own = stack_bytes()
    if own is not None and own >= MOST_STACK:
        return call()
    worker = DeepThread(call, MOST_STACK)
    try:
        previous = threading.stack_size(worker.stack_bytes)
    except (ValueError, RuntimeError):  # the platform sets no thread stack size: this thread's room
        return call()
    try:
        worker.start()
    except (RuntimeError, MemoryError):  # no address space for such a stack: this thread's room
        return call()
    finally:
        threading.stack_size(previous)
    return wait_for(worker)


def wait_for(worker: DeepThread[T]) -> T:
    """The worker's answer, or its error raised here; an exception raised here while waiting
    is forwarded to the worker, and a second one stops the wait.

    The wait is on an event of the worker's own: Thread.join, interrupted, takes the thread
    for finished.
    """
    interrupted: BaseException | None = None
    while not worker.done.is_set():
        try:
            worker.done.wait(POLL_SECONDS)
        except BaseException as error:
            if interrupted is not None or not worker.forward(error):
                raise
            interrupted = error
    if worker.error is not None:
        if interrupted is not None and type(worker.error) is type(interrupted):
            raise interrupted
        raise worker.error
    return worker.answers[0]
