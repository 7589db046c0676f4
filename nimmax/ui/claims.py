"""The words for a claim (`nimmax.claim.Claim`), one module for every view: "+1 (win, proven)",
"+0.12 (estimate at depth 7)", "no better than d" (a bound is a comparison with the best move)."""

from __future__ import annotations

from nimmax.claim import Claim
from nimmax.game import AnyGame, has_chance
from nimmax.ui.results import value_words


def number(value: float) -> str:
    """A value as the views print it: "0", "+1", "-8", "+0.12"."""
    return "0" if value == 0 else f"{value:+,.0f}" if value == int(value) else f"{value:+,.2f}"


def meaning(game: AnyGame, value: float, mover: int | None = None) -> str:
    """What a proven value means for the side to move, in the game's terms."""
    if has_chance(game) and game.players == 2:
        return "expected"
    return value_words(game, value, mover)


def claim_text(
    game: AnyGame,
    claim: Claim,
    mover: int | None = None,
    best: str | None = None,
    short: bool = False,
) -> str:
    """A claim in words: a proof with its meaning ("proven" said unless `short`: a table of moves, a
    tree, where an estimate is the marked exception), an estimate with its depth, a bound compared
    with the best move (`best`, its name)."""
    shown = number(claim.value)
    if claim.kind == "exact":
        word = meaning(game, claim.value, mover)
        if short:
            return f"{shown} ({word})"
        return f"{shown} ({word}, proven)" if word not in ("proven", "") else f"{shown} (proven)"
    if claim.kind == "bound":
        return f"no better than {best}" if best else f"at most {shown}"
    return f"{shown} (estimate at depth {claim.depth})" if claim.depth else f"{shown} (estimate)"
