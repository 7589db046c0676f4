"""The thin Typer layer: each command parses, makes one library call, renders.

One module per command group (explore: games, solve, tree; bench; matches: play, replay, analyze;
check; events: duel, tournament, ladder; learn: train), the options they share declared once in
`options`, the app and its consoles in `root`, and `main()` in `errors`, which turns every outcome
into its exit code. Game words after a command are the registry's own (`nim 2 3 5 --normal`):
options the command does not know are passed on to the game.
"""

from __future__ import annotations

# isort: off
# Imported for their commands, in the order `nimmax --help` lists them.
from nimmax.cli import explore, bench, matches, check, events, engine, learn  # noqa: F401

# isort: on
from nimmax.cli.errors import main
from nimmax.cli.root import app, err, out
from nimmax.cli.streams import ASCII_MARKS

__all__ = ["ASCII_MARKS", "app", "err", "main", "out"]
