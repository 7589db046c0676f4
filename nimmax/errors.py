"""The errors a person's input raises: one line each, exit 2 (the CLI shows the message), quoting
what was typed the one way (`quoted`)."""

from __future__ import annotations

QUOTE_LIMIT = 40
"""At most this many characters of typed text appear in a message."""


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` in quotes for a message: at most `limit` characters, then `…` if any were left out.

    Unprintable characters are escaped (`\\x1b`, `\\u200b`), so the message stays one harmless
    line, and escapes count towards the limit.
    """
    shown: list[str] = []
    length = 0
    for character in text[: limit + 1]:  # only the head is read: typed text may be megabytes
        piece = (
            character
            if character.isprintable()
            else character.encode("unicode_escape").decode("ascii")
        )
        if length + len(piece) > limit:
            break
        shown.append(piece)
        length += len(piece)
    else:
        return f"'{''.join(shown)}'"
    return f"'{''.join(shown)}…'"


class BadInput(ValueError):
    """Anything a user typed that nimmax cannot use; the CLI shows the message and exits 2."""


class IllegalMove(BadInput):
    """A move that is not legal in the position, or text that names no move."""


class BadGameSpec(BadInput):
    """Game words that build no game: unknown name, bad option, impossible position."""
