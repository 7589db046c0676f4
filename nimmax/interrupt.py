"""Ctrl-C and SIGTERM: SIGTERM raises `Terminated`, a KeyboardInterrupt, so one path keeps partial work for both.

The contract every command keeps: catch KeyboardInterrupt where something can be kept, keep
it (print the partial result, save the record), say what was kept with
`error.add_note("after 12 games; their results are printed")` — the note continues the
line after "interrupted" — and re-raise the same exception. `cli.main` prints
`nimmax: interrupted after 12 games; their results are printed` and exits with
`exit_code(error)`: 130 for Ctrl-C, 143 for SIGTERM.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C's KeyboardInterrupt would be, so every Ctrl-C path handles it too."""


def exit_code(error: KeyboardInterrupt) -> int:
    """128 plus the signal's number, as a shell reports a process the signal ended: 130 or 143."""
    return 128 + (signal.SIGTERM if isinstance(error, Terminated) else signal.SIGINT)


def summary(error: KeyboardInterrupt) -> str:
    """The one line for stderr: `interrupted` (or `terminated`), then the notes saying what was kept."""
    notes = getattr(error, "__notes__", [])
    verb = "terminated" if isinstance(error, Terminated) else "interrupted"
    return " ".join([verb, "; ".join(notes)]) if notes else verb


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise Terminated


def _install(handler: Any, signals: tuple[int, ...]) -> dict[int, Any]:
    """Set `handler` for `signals`; the handlers they had. A signal the process was told to ignore
    (a background job's Ctrl-C) stays ignored; outside the main thread nothing is set."""
    if threading.current_thread() is not threading.main_thread():
        return {}  # only the main thread receives signals or may set their handlers
    ignored = {signum for signum in signals if signal.getsignal(signum) == signal.SIG_IGN}
    return {signum: signal.signal(signum, handler) for signum in signals if signum not in ignored}


def _restore(previous: dict[int, Any]) -> None:
    for signum, handler in previous.items():
        signal.signal(signum, signal.SIG_DFL if handler is None else handler)  # None: set outside Python


@contextmanager
def raise_on_sigterm() -> Iterator[None]:
    """SIGTERM raises Terminated for the duration (Ctrl-C raises KeyboardInterrupt as ever); then the handler before."""
    previous = _install(_terminate, (signal.SIGTERM,))
    try:
        yield
    finally:
        _restore(previous)


class Held:
    """Ctrl-C and SIGTERM held as a flag for the duration, for work that must stop cleanly rather than
    mid-step (a message half read from a pipe): `caught` is the exception to raise once it has stopped."""

    def __init__(self) -> None:
        self.caught: KeyboardInterrupt | None = None
        self._previous: dict[int, Any] = {}

    def _catch(self, signum: int, frame: FrameType | None) -> None:
        if self.caught is None:  # the first signal names the stop; more only repeat it
            self.caught = Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

    def __enter__(self) -> Held:
        self._previous = _install(self._catch, SIGNALS)
        return self

    def __exit__(self, *exc_info: object) -> None:
        _restore(self._previous)
