"""`python -m nimmax` and the `nimmax` command: a signal is one line and its exit code from the
first instant, even while the CLI's modules are still being imported."""

from __future__ import annotations

import contextlib
import os
import signal
import sys

STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def run() -> None:
    """Console-script entry point: the stop signals blocked first, the CLI imported, then run."""
    # first of all: an import cut in half can fail in any way
    signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    from nimmax.interrupt import exit_code, raise_on_sigterm, summary

    try:
        with raise_on_sigterm():
            try:
                try:
                    from nimmax.cli import main
                finally:
                    # one sent meanwhile is raised here
                    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
                code = main()
            finally:  # the outcome is decided: a signal during the exit itself changes nothing
                signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    except KeyboardInterrupt as error:  # before a command runs (main() reports those during one)
        with contextlib.suppress(OSError):  # stderr gone with the terminal
            sys.stderr.write(f"nimmax: {summary(error)}\n")
        code = exit_code(error)
    leave(code)


def leave(code: int) -> None:
    """Exit with `code` once the work is done, whatever threads a plugin left running: the streams
    flushed, then the process ended at once where a non-daemon thread would keep it alive."""
    import threading

    main = threading.main_thread()
    if any(
        thread is not main and not thread.daemon and thread.is_alive()
        for thread in threading.enumerate()
    ):
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    run()
