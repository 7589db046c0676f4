"""The standard streams as a command finds them: closed ones opened on devnull, and ones that speak
only ASCII writing nimmax's marks as ASCII characters rather than failing."""

from __future__ import annotations

import codecs
import io
import os
import sys
from types import MappingProxyType

ASCII_MARKS = MappingProxyType(
    {
        "·": "-",
        "…": ".",
        "—": "-",
        "–": "-",
        "›": ">",
        "←": "<",
        "→": ">",
        "↑": "^",
        "≤": "<",
        "≥": ">",
        "●": "o",
        "○": ".",
        "◀": "<",
        "▶": ">",
        "✂": "x",
        "█": "#",
        **dict.fromkeys("▏▎▍▌▋▊▉", "+"),  # a bar's last part
        "è": "e",
        "×": "x",
        "²": "2",
    }
)
"""What nimmax's own marks become on a stream that speaks only ASCII (anything else: `?`): one
character for one, so what Rich lined up stays lined up. Rich draws its boxes in ASCII there by
itself."""


def ascii_marks(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler behind ASCII_MARKS."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    return "".join(ASCII_MARKS.get(character, "?") for character in text), error.end


def plain_streams() -> None:
    """Stdout and stderr whose encoding cannot write nimmax's marks (`PYTHONIOENCODING=ascii`, a C
    locale) write them as ASCII_MARKS rather than fail."""
    codecs.register_error("nimmax-ascii", ascii_marks)
    for stream in (sys.stdout, sys.stderr):
        try:
            "".join(ASCII_MARKS).encode(stream.encoding or "ascii")
        except (UnicodeError, LookupError):
            if isinstance(stream, io.TextIOWrapper):
                stream.reconfigure(errors="nimmax-ascii")


def open_closed_streams() -> None:
    """Started with stdin, stdout or stderr closed (`<&-`): it reads as ended, and output goes
    nowhere, as Rich's does. Opened in order, each takes its own descriptor (0, 1, 2), so no file
    opened later does."""
    if sys.stdin is None:
        sys.stdin = open(os.devnull)  # noqa: SIM115 - it is stdin until the process ends
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - likewise
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - likewise
