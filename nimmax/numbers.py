"""The one reader of numbers people type, with bounds.

Game words, positions, moves, player specs, records and options all read their numbers here,
so every refusal looks alike: one line naming the field and the range it accepts, quoting what
was typed (`errors.quoted`). Only ASCII digits count: `str.isdigit` also
accepts `²` (which `int` refuses) and `٣` (which `int` reads), and neither is a number anyone
meant. The length is checked before `int` runs, so a megabyte of digits is refused at once
instead of tripping Python's 4,300-digit limit.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

from nimmax.errors import BadInput, quoted

MAX_SEED = 2**64 - 1
"""The largest seed a seed field takes: 64 bits are as many as a seed needs."""

MAX_GAMES = 10**6
"""Games per pairing at most (duel, tournament, ladder): a million games measure any difference
worth measuring."""

MAX_JOBS = 64
"""Processes at most: more than a pairing has blocks, or the machine cores, only wait."""

MAX_OPENING = 1000
"""Random opening plies at most (ladder --openings): longer than any game worth laddering."""

MAX_DELAY = 60.0
"""The longest pause `--delay` takes between moves, in seconds: a minute is slower than anyone
watches."""

_DECIMAL = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_FLOAT_LENGTH = 64
"""A decimal longer than this is refused unread: no sensible setting is written so long."""


def parse_int(text: str, field: str, low: int, high: int, error: type[BadInput] = BadInput) -> int:
    """A whole number from `low` to `high` written in ASCII digits (a leading `-` allowed);
    otherwise `error` saying "FIELD must be a whole number from LOW to HIGH, not '...'"."""
    stripped = text.strip()
    negative = stripped.startswith("-")
    digits = stripped[1:] if negative else stripped
    if digits.isascii() and digits.isdigit():
        # int() counts leading zeros against its digit limit
        significant = digits.lstrip("0") or "0"
        if len(significant) <= max(len(str(abs(low))), len(str(abs(high)))):
            number = -int(significant) if negative else int(significant)
            if low <= number <= high:
                return number
    raise error(f"{field} must be a whole number from {low} to {high}, not {quoted(stripped)}")


def parse_float(
    text: str,
    field: str,
    low: float,
    high: float,
    error: type[BadInput] = BadInput,
    *,
    or_inf: bool = False,
) -> float:
    """A decimal number (`0.5`, `2`, `1e-3`) from `low` to `high`, or `inf` where `high` is infinite
    or `or_inf` lifts the limit; otherwise `error` saying "FIELD must be a number from LOW to HIGH,
    not '...'"."""
    stripped = text.strip()
    number = math.nan  # refused by every range check below
    if stripped.lower() in ("inf", "infinity"):
        number = math.inf
    elif len(stripped) <= _FLOAT_LENGTH and _DECIMAL.fullmatch(stripped):
        number = float(stripped)
        if math.isinf(number):  # 1e999 overflows: infinity is written `inf`
            number = math.nan
    if low <= number <= high or (or_inf and number == math.inf):
        return number
    also = " or inf" if or_inf and high < math.inf else ""
    raise error(
        f"{field} must be a number from {_shown(low)} to {_shown(high)}{also}, not "
        f"{quoted(stripped)}"
    )


def _shown(bound: float) -> str:
    """A bound as a person writes it: `1000000`, `0.001`, `inf` (not `1e+06`)."""
    return str(int(bound)) if float(bound).is_integer() else f"{bound:g}"


def float_option(
    field: str, low: float, high: float, *, or_inf: bool = False
) -> Callable[[str | None], float | None]:
    """A reader of a command-line option's text (None when the option is not given) through
    `parse_float`, for the CLI to hand its options to instead of parsing them itself."""

    def read(text: str | None) -> float | None:
        return None if text is None else parse_float(text, field, low, high, or_inf=or_inf)

    return read


def int_option(field: str, low: int, high: int) -> Callable[[str | None], int | None]:
    """A reader of a command-line option's text (None when the option is not given) through
    `parse_int`, as `float_option` is for decimals."""

    def read(text: str | None) -> int | None:
        return None if text is None else parse_int(text, field, low, high)

    return read


Value = int | float | bool | str | None
"""What an option holds once read: a number, a switch, a word, or None (not set)."""

SWITCHES = MappingProxyType(
    {
        "on": True,
        "true": True,
        "yes": True,
        "1": True,
        "off": False,
        "false": False,
        "no": False,
        "0": False,
    }
)
"""The words a switch takes."""


@dataclass(frozen=True)
class Option:
    """One option people set, a game's (`--size N`) or a player's (`depth=4`): its type (int, float,
    str, or bool: a switch, a game's flag), its default (None: not set, or chosen by the code), the
    metavar a usage line shows, and what it accepts: a number's range (`unlimited`: `inf` too),
    a word's `choices`; `help` says what it means, `chosen` what a default of None chooses."""

    name: str
    kind: type = bool
    default: Value = None
    metavar: str = ""
    low: float = 0
    high: float = 0
    help: str = ""
    choices: tuple[str, ...] = ()
    unlimited: bool = False
    chosen: str = ""

    @property
    def field(self) -> str:
        """The option's name in the parsed words: `--max-take` is `max_take`."""
        return self.name.lstrip("-").replace("-", "_")

    @property
    def usage(self) -> str:
        """The option as the usage line shows it: `--k K`, or `--normal` for a flag."""
        return self.name if self.kind is bool else f"{self.name} {self.metavar}"

    def read(self, text: str, field: str, error: type[BadInput] = BadInput) -> Value:
        """The value `text` gives this option, within its range or choices; `error` names `field`
        and what it takes (a word without choices is taken as typed)."""
        if self.kind is bool:
            if text.lower() not in SWITCHES:
                raise error(f"{field} is on or off, not {quoted(text)}")
            return SWITCHES[text.lower()]
        if self.kind is int:
            return parse_int(text, field, int(self.low), int(self.high), error)
        if self.kind is float:
            return parse_float(text, field, self.low, self.high, error, or_inf=self.unlimited)
        if self.choices and text.lower() not in self.choices:
            raise error(f"{field} is {' or '.join(self.choices)}, not {quoted(text)}")
        return text.lower() if self.choices else text
