"""`main()`: run one command and turn every outcome into its exit code and at most one line on
stderr.

Exit codes: 0 done, 1 failure (an output that cannot be written: one line; a broken pipe: silent), 2
bad usage or input (one line on stderr), 130 interrupted by Ctrl-C, 143 by SIGTERM, 129 by SIGHUP
(one line saying what was kept; see `nimmax.interrupt` for how a command keeps its partial work).
"""

from __future__ import annotations

import errno
import os
import sys
from typing import TYPE_CHECKING

import typer
from typer.core import TyperGroup

from nimmax import interrupt
from nimmax.cli.group import command_group
from nimmax.cli.root import app, say
from nimmax.cli.streams import open_closed_streams, plain_streams
from nimmax.errors import BadInput
from nimmax.search.stack import interpreter

if TYPE_CHECKING:
    from typer._click import Command, Context

TRACEBACK_HINT = " (nimmax --traceback ... shows the whole traceback)"

LIMITS = ("--depth", "--time")
"""The options that bound a search, named in the hint when the running command has them."""


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and turn every outcome into its exit code and at most one line on stderr, never a
    traceback."""
    open_closed_streams()
    plain_streams()
    code = 0
    try:
        code = invoke(sys.argv[1:] if argv is None else argv)
        sys.stdout.flush()  # output still buffered fails here, not at the interpreter's exit
    except OSError as error:
        system_error(error)
        return code or 1
    return code


def invoke(args: list[str]) -> int:
    """Run one command; its exit code, with the line that explains a failure said on stderr."""
    # Invoked directly rather than through app(): typer's standalone handling would turn
    # Ctrl-C into a bare exit 130 before anything could say what was kept.
    group = command_group(app)
    context: Context | None = None
    try:
        with (
            interrupt.raise_on_sigterm(),
            interpreter(),
            group.make_context("nimmax", list(args)) as context,
        ):
            group.invoke(context)
    except typer.Exit as stop:
        return stop.exit_code
    except SystemExit as stop:  # Rich's answer to a broken pipe: stdout already points to devnull
        return stop.code if isinstance(stop.code, int) else 1
    except typer.TyperException as error:
        return usage_error(error)
    except BadInput as error:
        say(f"nimmax: {error}")
        return 2
    except plugin_failures() as error:
        if asked_for_traceback(args):
            raise
        say(f"nimmax: a plugin failed: {error}{TRACEBACK_HINT}")
        return 2
    except KeyboardInterrupt as error:
        say(f"nimmax: {interrupt.summary(error)}")
        return interrupt.exit_code(error)
    except (typer.Abort, EOFError):
        say("nimmax: interrupted")
        return 130
    except (RecursionError, MemoryError) as error:
        return 2 if plugin_failed(error, args) else out_of_room(error, group, context)
    except Exception as error:
        if plugin_failed(error, args):
            return 2
        raise
    return 0


def plugin_failures() -> tuple[type[Exception], ...]:
    """`guard.PluginFailed` where a plugin was loaded (the guard loads with it), else nothing to
    catch."""
    guard = sys.modules.get("nimmax.plugins.guard")
    return () if guard is None else (guard.PluginFailed,)


def usage_error(error: typer.TyperException) -> int:
    """Bad usage: typer's message (with the command's usage line where it has one); exit 2."""
    show = getattr(error, "show", None)  # usage errors also print the command's usage line
    if show is not None:
        show()
    else:
        say(f"nimmax: {error.format_message()}")
    return 2 if error.exit_code == 2 else error.exit_code


def out_of_room(
    error: RecursionError | MemoryError, group: Command, context: Context | None
) -> int:
    """A search too deep or too large for the machine: one line naming the command's limits; exit
    1."""
    what = "a deeper stack" if isinstance(error, RecursionError) else "more memory"
    limits = limits_of(group, context)
    hint = f"the search needs {what} than this machine allows; limit it with {' or '.join(limits)}"
    say(f"nimmax: {hint}" if limits else f"nimmax: this needs {what} than this machine allows")
    return 1


def asked_for_traceback(args: list[str]) -> bool:
    """Whether `--traceback`, nimmax's own option, comes before the command."""
    for arg in args:
        if arg == "--traceback":
            return True
        if not arg.startswith("-"):
            return False
    return False


def plugin_failed(error: BaseException, args: list[str]) -> bool:
    """Say in one line where a plugin's own code failed (file, line, message), unless asked for the
    traceback; False when the error did not come from a plugin (nimmax's own bug: a traceback)."""
    guard = sys.modules.get("nimmax.plugins.guard")  # loaded with any plugin
    where = guard.blame(error) if guard is not None else None
    if where is None or asked_for_traceback(args):
        return False
    say(f"nimmax: a plugin failed: {where}{TRACEBACK_HINT}")
    return True


def limits_of(group: Command, context: Context | None) -> list[str]:
    """The LIMITS options of the command `context` ran (none when it did not get that far)."""
    name = None if context is None else context.invoked_subcommand
    command = (
        None
        if context is None or name is None or not isinstance(group, TyperGroup)
        else group.get_command(context, name)
    )
    options = (
        set() if command is None else {option for param in command.params for option in param.opts}
    )
    return [option for option in LIMITS if option in options]


def system_error(error: OSError) -> None:
    """An output (or other system) error: one line; none for a broken pipe, whose reader left on
    purpose.

    Stdout that still fails to flush is pointed at devnull, so the interpreter's own flush at exit
    has nothing left to fail on (the way the Python docs handle SIGPIPE).
    """
    try:
        sys.stdout.flush()
    except OSError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    if error.errno != errno.EPIPE:
        # what was kept, and where
        notes = "".join(f"; {note}" for note in getattr(error, "__notes__", []))
        say(
            f"nimmax: {error.strerror or error}"
            + (f": {error.filename}" if error.filename else "")
            + notes
        )
