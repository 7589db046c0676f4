"""`python -m nimmax` and the `nimmax` command: a signal is one line and its exit code from the first
instant, even while the CLI's modules are still being imported."""

from __future__ import annotations

import contextlib
import signal
import sys

from nimmax.interrupt import SIGNALS, Held, exit_code, summary


def run() -> None:
    """Console-script entry point: import the CLI with Ctrl-C, SIGTERM and SIGHUP held, then run it."""
    with Held() as held:  # an import cut in half can fail in any way: the signal waits until it is done
        from nimmax.cli import main
    try:
        if held.caught is not None:
            raise held.caught
        code = main()
    except KeyboardInterrupt as error:  # before a command runs (main() reports those during one)
        with contextlib.suppress(OSError):
            sys.stderr.write(f"nimmax: {summary(error)}\n")
        code = exit_code(error)
    for signum in SIGNALS:  # the outcome is decided: a signal during the exit itself changes nothing
        signal.signal(signum, signal.SIG_IGN)
    sys.exit(code)


if __name__ == "__main__":
    run()
