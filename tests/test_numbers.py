"""The one number reader: ASCII digits only, bounds checked, at most 40 typed characters quoted."""

from __future__ import annotations

import math
import time

import pytest

from nimmax.game import BadGameSpec, BadInput, IllegalMove
from nimmax.numbers import QUOTE_LIMIT, parse_float, parse_int, quoted

# ---------------------------------------------------------------- parse_int


@pytest.mark.parametrize(("text", "number"), [("0", 0), ("7", 7), (" 12 ", 12), ("007", 7), ("-3", -3), ("10", 10)])
def test_whole_numbers_in_range_are_read(text: str, number: int) -> None:
    assert parse_int(text, "n", -5, 20) == number


@pytest.mark.parametrize(
    "text",
    [
        "²",
        "٣",
        "５",
        "1²",
        "+3",
        "1_000",
        "1e3",
        "0x10",
        "3.0",
        "",
        " ",
        "-",
        "--1",
        "-0-",
        "11",
        "-6",
        "seven",
        "1 2",
        "\x00",
    ],
)
def test_anything_else_is_refused_naming_the_field_and_range(text: str) -> None:
    with pytest.raises(BadInput) as refused:
        parse_int(text, "pile", -5, 10)
    assert str(refused.value) == f"pile must be a whole number from -5 to 10, not {quoted(text.strip())}"


def test_the_error_class_is_the_callers() -> None:
    with pytest.raises(IllegalMove):
        parse_int("x", "pit", 1, 6, IllegalMove)
    with pytest.raises(BadGameSpec):
        parse_int("x", "--pits", 1, 6, BadGameSpec)


def test_huge_numbers_are_refused_at_once_and_quoted_short() -> None:
    started = time.perf_counter()
    for text in ("9" * 1_000_000, "1" * 5000, "-" + "1" * 5000):
        with pytest.raises(BadInput) as refused:
            parse_int(text, "pile", 0, 10**9)
        assert len(str(refused.value)) < 100
    assert parse_int("0" * 5000 + "5", "pile", 0, 10**9) == 5  # leading zeros are no size
    assert time.perf_counter() - started < 1.0


# ---------------------------------------------------------------- parse_float


@pytest.mark.parametrize(
    ("text", "number"), [("0.5", 0.5), ("2", 2.0), (" 1e-3 ", 0.001), (".25", 0.25), ("inf", math.inf)]
)
def test_decimals_in_range_are_read(text: str, number: float) -> None:
    assert parse_float(text, "time", 0.001, math.inf) == number


@pytest.mark.parametrize("text", ["nan", "-1", "0", "½", "٣.٥", "1,5", "", "1e999999", "1" * 5000, "0x1p3", "inf!"])
def test_bad_decimals_are_refused_naming_the_field_and_range(text: str) -> None:
    with pytest.raises(BadInput) as refused:
        parse_float(text, "time", 0.001, math.inf)
    assert str(refused.value) == f"time must be a number from 0.001 to inf, not {quoted(text.strip())}"


def test_infinity_only_where_the_range_is_open() -> None:
    with pytest.raises(BadInput, match="cutoff must be a number from 0 to 1, not 'inf'"):
        parse_float("inf", "cutoff", 0, 1)


# ---------------------------------------------------------------- quoted


def test_short_text_is_quoted_whole() -> None:
    assert quoted("b2") == "'b2'"
    assert quoted("") == "''"
    assert quoted("x" * QUOTE_LIMIT) == "'" + "x" * QUOTE_LIMIT + "'"


def test_long_text_shows_forty_characters_and_an_ellipsis() -> None:
    assert quoted("x" * (QUOTE_LIMIT + 1)) == "'" + "x" * QUOTE_LIMIT + "…'"
    assert quoted("y" * 10_000_000) == "'" + "y" * QUOTE_LIMIT + "…'"
    assert quoted("abcdef", limit=3) == "'abc…'"


def test_unprintable_characters_are_escaped_within_the_limit() -> None:
    assert quoted("a\x1b[2Jb\n") == "'a\\x1b[2Jb\\n'"
    shown = quoted("\U000e0001" * 100)
    assert shown.startswith("'\\U000e0001") and shown.endswith("…'") and len(shown) <= QUOTE_LIMIT + 3
