"""Ctrl-C, SIGTERM and SIGHUP: each raises a KeyboardInterrupt (`Terminated`, `HungUp`), so one path
keeps partial work for all three.

The contract every command keeps: catch KeyboardInterrupt where something can be kept, keep it
(print the partial result, save the record), say what was kept with `error.add_note("after 12 games;
their results are printed")` — the note continues the line after "interrupted" — and re-raise the
same exception. `cli.main` prints `nimmax: interrupted after 12 games; their results are printed`
and exits with `exit_code(error)`: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP.

A search being watched (`answering`) takes a first Ctrl-C as "answer now"; SIGTERM and SIGHUP do the
same there, so the answer is kept as Ctrl-C keeps it, and the signal is remembered (`pending`): the
command raises it once the answer is shown, and `exit_code` reports it whichever KeyboardInterrupt
carries the notes.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C's KeyboardInterrupt would be, so every Ctrl-C path handles it
    too."""

    signum = signal.SIGTERM
    verb = "terminated"


class HungUp(Terminated):
    """SIGHUP (the terminal closed), kept and reported as SIGTERM is, with its own exit code."""

    signum = signal.SIGHUP
    verb = "hung up"


_pending: list[KeyboardInterrupt] = []
"""The SIGTERM or SIGHUP a watched search answered, not yet raised (at most one)."""

_answer_now: list[Callable[[], None]] = []
"""The watched search's "answer now", innermost last."""


def stop_for(signum: int) -> KeyboardInterrupt:
    """The exception a stop signal raises: KeyboardInterrupt, Terminated or HungUp."""
    if signum == signal.SIGHUP:
        return HungUp()
    return Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def _signal_of(error: KeyboardInterrupt) -> KeyboardInterrupt:
    """The signal `error` stands for: a plain KeyboardInterrupt raised after a pending SIGTERM
    stands for it."""
    return _pending[0] if _pending and not isinstance(error, Terminated) else error


def exit_code(error: KeyboardInterrupt) -> int:
    """128 plus the signal's number, as a shell reports a process the signal ended: 130, 143 or
    129."""
    return 128 + int(getattr(_signal_of(error), "signum", signal.SIGINT))


def summary(error: KeyboardInterrupt) -> str:
    """The one line for stderr: `interrupted` (`terminated`, `hung up`), then the notes saying what
    was kept."""
    notes = getattr(error, "__notes__", [])
    verb = str(getattr(_signal_of(error), "verb", "interrupted"))
    return " ".join([verb, "; ".join(notes)]) if notes else verb


def pending() -> KeyboardInterrupt | None:
    """The SIGTERM or SIGHUP a watched search has answered, still to be raised."""
    return _pending[0] if _pending else None


def raise_pending() -> None:
    """Raise the SIGTERM or SIGHUP a watched search answered, once its answer is kept."""
    if _pending:
        raise _pending[0]


def _silence_terminal() -> None:
    """After SIGHUP: the terminal is gone, so output to it goes to devnull rather than failing. (A
    hung-up terminal no longer answers `isatty`: any character device is taken for it; a file or
    pipe is kept.)"""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for descriptor in (1, 2):
            with contextlib.suppress(OSError):
                if stat.S_ISCHR(os.fstat(descriptor).st_mode):
                    os.dup2(devnull, descriptor)
    finally:
        os.close(devnull)


def _stop(signum: int, frame: FrameType | None) -> None:
    """SIGTERM and SIGHUP: a watched search answers now (the signal raised once the answer is kept);
    else raise."""
    error = stop_for(signum)
    if signum == signal.SIGHUP:
        _silence_terminal()
    if _answer_now and not _pending:
        _pending.append(error)
        _answer_now[-1]()
        return
    raise error


@contextmanager
def answering(answer_now: Callable[[], None]) -> Iterator[None]:
    """While a search is watched: SIGTERM and SIGHUP call `answer_now`, as the watcher's first
    Ctrl-C does."""
    _answer_now.append(answer_now)
    try:
        yield
    finally:
        _answer_now.remove(answer_now)


def _install(handler: Any, signals: tuple[int, ...]) -> dict[int, Any]:
    """Set `handler` for `signals`; the handlers they had. A signal the process was told to ignore
    (a background job's Ctrl-C, `nohup`'s SIGHUP) stays ignored; outside the main thread nothing is
    set."""
    if threading.current_thread() is not threading.main_thread():
        return {}  # only the main thread receives signals or may set their handlers
    ignored = {signum for signum in signals if signal.getsignal(signum) == signal.SIG_IGN}
    return {signum: signal.signal(signum, handler) for signum in signals if signum not in ignored}


def _restore(previous: dict[int, Any]) -> None:
    for signum, handler in previous.items():
        # None: set outside Python
        signal.signal(signum, signal.SIG_DFL if handler is None else handler)


@contextmanager
def raise_on_sigterm() -> Iterator[None]:
    """For a command's run: SIGTERM raises Terminated and SIGHUP HungUp (Ctrl-C raises
    KeyboardInterrupt as ever), or a watched search answers first; then the handlers before. What is
    pending stays for `exit_code` to read, until the next command."""
    _pending.clear()
    previous = _install(_stop, (signal.SIGTERM, signal.SIGHUP))
    try:
        yield
    finally:
        _restore(previous)


class Held:
    """Ctrl-C, SIGTERM and SIGHUP held as a flag for the duration, for work that must stop cleanly
    rather than mid-step (a message half read from a pipe, a module half imported): `caught` is the
    exception to raise once it has stopped."""

    def __init__(self) -> None:
        self.caught: KeyboardInterrupt | None = None
        self._previous: dict[int, Any] = {}

    def _catch(self, signum: int, frame: FrameType | None) -> None:
        if signum == signal.SIGHUP:
            _silence_terminal()
        if self.caught is None:  # the first signal names the stop; more only repeat it
            self.caught = stop_for(signum)

    def __enter__(self) -> Held:
        self._previous = _install(self._catch, SIGNALS)
        return self

    def __exit__(self, *exc_info: object) -> None:
        _restore(self._previous)
