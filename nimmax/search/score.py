"""Scores inside a search: a payoff and a distance to the end kept apart in one number.

A node's score, for its side to move, is its payoff times SCALE plus a residue whose size is
the plies to the end: minus them for a win, plus them for a loss, none for a draw (draws are
equal whatever their length). So the quickest win and the slowest loss score best, each ply
between a node and the end moves a score one unit towards zero (`older`), and `split` takes
the payoff and the distance apart again. A table stores a score relative to its key's offset
(a payoff already banked, `Game.keyed`): shifting it by whole payoffs keeps both parts, and
where the shifted payoff changes sign, which turns the order of distances around, `rebase`
keeps only what stays true: the payoff.
"""

from __future__ import annotations

from typing import Any

from nimmax.game import AnyGame, evaluator

SCALE = 1 << 20
"""One payoff unit in internal score units; games must end within SCALE // 2 plies."""

HALF = SCALE // 2
"""The most plies a game lasts, so the farthest a score lies from its payoff times SCALE."""

INFINITY = float("inf")

FULL_DEPTH = 1 << 30
"""The depth recorded for a value proven to the end of the game."""

EXACT, LOWER, UPPER, PAYOFF = 0, 1, 2, 3
"""Bounds of a stored score: the value, at least the value, at most the value, or the payoff
alone (its distance unknown: a draw stored at another offset, or a book that knew no plies)."""


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


def score_of(payoff: float, plies: float) -> float:
    """The score of a node `plies` from an end worth `payoff`: the quickest win and the slowest loss
    score best."""
    return payoff * SCALE - plies if payoff > 0 else payoff * SCALE + plies if payoff < 0 else 0.0


def split(score: float) -> tuple[int, float]:
    """A score's payoff and its plies to the end (0 for a draw), taken apart."""
    payoff = round(score / SCALE)
    return payoff, abs(score - payoff * SCALE)


def payoff_range(payoff: float) -> tuple[float, float]:
    """The least and the most score of a node with this payoff, whatever its distance to the end."""
    if payoff > 0:
        return payoff * SCALE - HALF + 1, payoff * SCALE
    if payoff < 0:
        return payoff * SCALE, payoff * SCALE + HALF - 1
    return 0.0, 0.0


def rebase(bound: int, stored: float, shift: float) -> tuple[int, float]:
    """A stored entry's bound and score read back at a node `shift` (its key's offset times SCALE)
    away.

    Within an entry's subtree every payoff moves by the same shift, so the distances stay true while
    the node's payoff keeps its sign; where the sign changes (quickest win against slowest loss) the
    distance was chosen by the other order, and only the payoff stays true.
    """
    score = stored + shift
    # above HALF: proven as a win, below: as a loss, 0: as a draw or by its payoff alone
    residue = stored % SCALE
    if bound != PAYOFF and (score > 0 if residue > HALF else score < 0 if residue else score == 0):
        return bound, score
    return payoff_only(bound, score)


def payoff_only(bound: int, score: float) -> tuple[int, float]:
    """What a node's score says of its payoff alone (a value resting on distances a book only
    bounded)."""
    payoff = round(score / SCALE)
    low, high = payoff_range(payoff)
    if bound in (LOWER, UPPER):
        return (LOWER, low) if bound == LOWER else (UPPER, high)
    return (PAYOFF, payoff * SCALE) if payoff else (EXACT, 0.0)


def to_value(score: float, whole: bool) -> float:
    """A reported value in payoff units: the payoff when proven whole (the distance is internal),
    else the estimate."""
    if whole and abs(score) != INFINITY:
        return float(round(score / SCALE))
    return score / SCALE


def payoff(game: AnyGame, state: Any, seat: int, estimate: bool = False) -> float:
    """Terminal payoff (or heuristic estimate, at a horizon) for `seat`, in score units."""
    measure = evaluator(game) if estimate else game.utility
    return measure(state, seat) * SCALE


def score_range(low: float, high: float) -> tuple[float, float]:
    """The scores of a node whose payoff lies in [low, high]: within HALF of payoff * SCALE, never
    across zero."""
    return (
        low * SCALE if low <= 0 else max(0.0, low * SCALE - HALF + 1),
        high * SCALE if high >= 0 else min(0.0, high * SCALE + HALF - 1),
    )
