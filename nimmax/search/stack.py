"""How deep a search may recurse: the interpreter's recursion limit, kept within the C stack.

CPython 3.11 counts every frame against one recursion limit, yet only a call that passes
through C (a generator driven by `sum()`, a key function called by `max()`, an `__eq__`
called by a dict) takes room on the thread's C stack; a plain Python call takes none. A
limit raised past what the stack holds turns the RecursionError meant to stop a runaway
recursion into a segmentation fault. So `interpreter_for` raises the limit only as far as
the calling thread's stack holds at BYTES_PER_FRAME a frame, and `deep` runs a search that
needs more on a thread of its own, with a stack sized for it. A search that still meets the
limit is refused with TooDeep, naming how deep it may go.
"""

from __future__ import annotations

import ctypes
import gc
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

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
"""The largest stack `deep` asks for, and the one assumed where the stack is unlimited: room for
some 150,000 plies, whose frames and table entries take about as many kilobytes of memory.
It is address space only: pages are used as a recursion reaches them."""

POLL_SECONDS = 0.05
"""How often a thread waiting on a deep search looks for a signal: a signal may be delivered
to the searching thread, and only the main thread runs Python's signal handlers."""


class TooDeep(BadInput):
    """A search that would recurse deeper than the stack allows; `plies` is how deep it may go."""

    def __init__(self, plies: int) -> None:
        super().__init__(plies)  # the one argument, so that a process pool can pickle it back
        self.plies = plies

    def __str__(self) -> str:
        return (
            f"the search goes deeper than {self.plies:,} plies, the most this machine's stack allows; "
            f"give it a depth limit of at most {self.plies:,} plies"
        )


class DeepThread(threading.Thread):
    """A thread with a stack of `stack_bytes`, running one call; its answer or error is kept."""

    def __init__(self, function: Callable[[], Any], stack_bytes: int) -> None:
        super().__init__(name="nimmax-deep-search", daemon=True)
        self.function, self.stack_bytes = function, stack_bytes
        self.answer: Any = None
        self.error: BaseException | None = None
        self.lock = threading.Lock()
        self.finished = False
        self.done = threading.Event()

    def run(self) -> None:
        try:
            try:
                self.answer = self.function()
            finally:
                with self.lock:  # an error forwarded from the waiting thread lands inside this try
                    self.finished = True
        except BaseException as error:
            self.error = error
        self.done.set()

    def forward(self, error: BaseException) -> bool:
        """Raise `error`'s type in this thread, as a signal would have in the thread that waits
        for it; False when the call is already over."""
        with self.lock:
            if self.finished or self.ident is None:
                return False
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.ident), ctypes.py_object(type(error)))
            return True


GLIBC_UNLIMITED_THREAD_STACK = 2 << 20
"""The stack glibc gives a thread when the stack limit is unlimited (else the limit itself)."""


def stack_bytes() -> int | None:
    """The C stack of the calling thread; None for a thread whose stack nimmax cannot know."""
    thread = threading.current_thread()
    if isinstance(thread, DeepThread):
        return thread.stack_bytes
    if resource is None:  # Windows: the main thread has 1 MiB
        return 1 << 20 if thread is threading.main_thread() else None
    soft, _ = resource.getrlimit(resource.RLIMIT_STACK)
    unlimited = soft == resource.RLIM_INFINITY
    if thread is threading.main_thread():
        return MOST_STACK if unlimited else min(soft, MOST_STACK)
    if threading.stack_size():
        return threading.stack_size()
    if not glibc():
        return None
    return GLIBC_UNLIMITED_THREAD_STACK if unlimited else min(soft, MOST_STACK)


def glibc() -> bool:
    """Whether the C library is glibc, whose threads get the stack limit's size by default."""
    try:
        return os.confstr("CS_GNU_LIBC_VERSION") is not None
    except (ValueError, OSError, AttributeError):
        return False


def frames_room(stack: int | None) -> int:
    """The recursion limit a stack of `stack` bytes holds; for an unknown stack, the limit as it is."""
    if stack is None:
        return sys.getrecursionlimit()
    return (stack - stack // RESERVE) // BYTES_PER_FRAME


def frames_below() -> int:
    """How many frames the calling thread already has on its stack."""
    count, frame = 0, sys._getframe(1)
    while frame.f_back is not None:
        count, frame = count + 1, frame.f_back
    return count + 1


def frames_for(plies: int) -> int:
    """The recursion limit a search `plies` deep needs, beyond the frames below it."""
    return plies * FRAMES_PER_PLY + LEAF_FRAMES


def stack_for(frames: int) -> int:
    """A stack, in whole pages, that holds a recursion limit of `frames`."""
    wanted = frames * BYTES_PER_FRAME * RESERVE // (RESERVE - 1)
    return min(-(-wanted // 65536) * 65536, MOST_STACK)


@contextmanager
def interpreter_for(plies: int) -> Iterator[int]:
    """Give a search up to `plies` of recursion and no cyclic garbage collection, then put the
    recursion limit and the collector back as they were; yields how many plies it may go.

    The limit is raised only as far as this thread's stack holds (`deep` finds a bigger one);
    a RecursionError inside becomes TooDeep. The collector is paused because a full
    collection over a large table costs a sizeable share of a timed move; table entries hold
    no reference cycles, so reference counting still frees every entry a table drops.
    """
    below = frames_below()
    limit, collecting = sys.getrecursionlimit(), gc.isenabled()
    raised = max(limit, min(below + frames_for(plies), frames_room(stack_bytes())))
    room = max(0, min(plies, (raised - below - LEAF_FRAMES) // FRAMES_PER_PLY))
    sys.setrecursionlimit(raised)
    gc.disable()
    try:
        yield room
    except RecursionError:
        raise TooDeep(room) from None
    finally:
        sys.setrecursionlimit(limit)
        if collecting:
            gc.enable()


def deep(plies: int, function: Callable[[], T]) -> T:
    """`function()` inside `interpreter_for(plies)`, on a thread with a stack big enough for it.

    This thread serves when its own stack has the room; otherwise a DeepThread does, while
    this one waits. A signal's exception raised here while it waits (Ctrl-C) is raised in the
    search too, and the search's answer or error is this call's.
    """

    def call() -> T:
        with interpreter_for(plies):
            return function()

    frames, own = frames_below() + frames_for(plies), stack_bytes()
    if frames <= frames_room(own) or (own is not None and stack_for(frames) <= own):
        return call()  # room enough here, or no bigger stack to be had (a deep search inside another)
    worker = DeepThread(call, stack_for(frames))
    try:
        previous = threading.stack_size(worker.stack_bytes)
    except (ValueError, RuntimeError):  # the platform sets no thread stack size: this thread's room
        return call()
    try:
        worker.start()
        started = True
    except (RuntimeError, MemoryError):  # no address space for such a stack: this thread's room
        started = False
    finally:
        threading.stack_size(previous)
    return wait_for(worker) if started else call()


def wait_for(worker: DeepThread) -> Any:
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
    return worker.answer
