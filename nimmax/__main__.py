"""`python -m nimmax` and the `nimmax` command: a signal is one line and its exit code from the first
instant, even while the CLI's modules are still being imported."""

from __future__ import annotations

import contextlib
import signal
import sys

from nimmax.interrupt import SIGNALS, exit_code, stop_for, summary


def run() -> None:
    """Console-script entry point: import the CLI with Ctrl-C, SIGTERM and SIGHUP blocked, then run it."""
    arrived = _imported_unless_signalled()
    try:
        if arrived is not None:
            raise arrived
        from nimmax.cli import main

        code = main()
    except KeyboardInterrupt as error:  # before a command runs (main() reports those during one)
        with contextlib.suppress(OSError):
            sys.stderr.write(f"nimmax: {summary(error)}\n")
        code = exit_code(error)
    for signum in SIGNALS:  # the outcome is decided: a signal during the exit itself changes nothing
        signal.signal(signum, signal.SIG_IGN)
    sys.exit(code)


def _imported_unless_signalled() -> KeyboardInterrupt | None:
    """Import the CLI with the stop signals blocked, since an import cut in half can fail in any way;
    the stop a signal sent meanwhile asks for, that signal then dropped, or None."""
    stops = set(SIGNALS)
    signal.pthread_sigmask(signal.SIG_BLOCK, stops)
    try:
        import nimmax.cli  # noqa: F401 - imported here, run by run()
    finally:
        arrived = signal.sigpending() & stops
        if arrived:
            for signum in arrived:
                signal.signal(signum, signal.SIG_IGN)  # a pending signal that is ignored is discarded
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
    return stop_for(min(arrived)) if arrived else None


if __name__ == "__main__":
    run()
