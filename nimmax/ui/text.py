"""Small text helpers every view shares: counts with their nouns, signed values, a game's words cut
short."""

from __future__ import annotations

from nimmax.game import AnyGame


def counted(count: int, noun: str) -> str:
    """A count with its noun, plural but for one: "1 move", "2 more moves", "1,000 moves"."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def signed(value: float) -> str:
    """A value with its sign (none for zero), whole numbers without decimals, thousands grouped."""
    if not value:
        return "0"
    return f"{value:+,.0f}" if value == int(value) else f"{value:+,.3f}"


WORDS_SHOWN = 60
"""Characters of a game's words a title shows: the words of thousands of piles are cut."""


def words_shown(game: AnyGame) -> str:
    """The game's words for a title, cut after WORDS_SHOWN characters."""
    spec = game.spec
    return spec if len(spec) <= WORDS_SHOWN else spec[: WORDS_SHOWN - 1] + "…"
