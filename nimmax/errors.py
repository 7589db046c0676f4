"""The errors a person's input raises: one line each, exit 2 (the CLI shows the message)."""

from __future__ import annotations


class BadInput(ValueError):
    """Anything a user typed that nimmax cannot use; the CLI shows the message and exits 2."""


class IllegalMove(BadInput):
    """A move that is not legal in the position, or text that names no move."""


class BadGameSpec(BadInput):
    """Game words that build no game: unknown name, bad option, impossible position."""
