"""Scores inside a search: payoffs times SCALE, seen from the side to move at the node.

Each ply between a node and the end of the game moves a score one unit towards zero
(`older`), so among equal payoffs the quickest win and the slowest loss score best, and a
stored score stays true wherever the node is met again (it is relative to the node).
"""

from __future__ import annotations

from typing import Any

from nimmax.game import AnyGame

SCALE = 1 << 20
"""One payoff unit in internal score units; games must end within SCALE // 2 plies."""

HALF = SCALE // 2
"""The most plies a game lasts, so the farthest a score lies from its payoff times SCALE."""

INFINITY = float("inf")

FULL_DEPTH = 1 << 30
"""The depth recorded for a value proven to the end of the game."""


def older(score: float) -> float:
    """The score one ply further from the end of the game: one unit closer to zero."""
    return score - 1 if score >= 1 else score + 1 if score <= -1 else 0.0


def younger(bound: float, upper: bool) -> float:
    """The child score that `older` maps onto `bound`, so windows survive the shift."""
    # A lower bound: the largest s with older(s) <= bound; an upper bound: the smallest s with
    # older(s) >= bound. They differ only at 0, where older is flat.
    if upper:
        return bound + 1 if bound > 0 else bound - 1
    return bound + 1 if bound >= 0 else bound - 1


def to_value(score: float, whole: bool) -> float:
    """A reported value in payoff units: the payoff when proven whole (the distance is internal), else the estimate."""
    if whole and abs(score) != INFINITY:
        return float(round(score / SCALE))
    return score / SCALE


def payoff(game: AnyGame, state: Any, seat: int, estimate: bool = False) -> float:
    """Terminal payoff (or heuristic estimate, at a horizon) for `seat`, in score units."""
    measure = game.evaluate if estimate else game.utility
    return measure(state, seat) * SCALE


def score_range(low: float, high: float) -> tuple[float, float]:
    """The scores of a node whose payoff lies in [low, high]: within HALF of payoff * SCALE, never across zero."""
    return (
        low * SCALE if low <= 0 else max(0.0, low * SCALE - HALF),
        high * SCALE if high >= 0 else min(0.0, high * SCALE + HALF),
    )
