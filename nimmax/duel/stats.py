"""Statistics of an event, free of its types: the Wilson interval of a share and maximum-likelihood Elo."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


def mean(total: float, count: int) -> float:
    """`total / count`, and 0 where nothing is counted yet (a pairing before its first game)."""
    return total / count if count else 0.0


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: honest near 0 and 1, unlike the normal approximation
    (`successes` may count draws as halves: a score)."""
    if trials == 0:
        return (0.0, 1.0)
    share = successes / trials
    spread = z * z / trials
    centre = (share + spread / 2) / (1 + spread)
    half = z * math.sqrt(share * (1 - share) / trials + spread / (4 * trials)) / (1 + spread)
    # at 0 and at every trial the bound is exactly 0 or 1; rounding must not move it
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def elo_ratings(
    scores: Sequence[Sequence[float]], games: Sequence[Sequence[int]], prior: float = 1.0, mean: float = 1500.0
) -> list[float]:
    """Maximum-likelihood Elo ratings (Bradley-Terry) from a round robin, draws counting half.

    `scores[i][j]` is what i scored against j in `games[i][j]` games. Each player also gets
    `prior` virtual games scored half against an anchor of the mean rating, so a perfect or
    a zero score stays finite. Solved by the minorise-maximise iteration (Hunter 2004);
    ratings are shifted so that their average is `mean`.
    """
    count = len(scores)
    strength = [1.0] * count
    for _ in range(100_000):
        updated = []
        for i in range(count):
            won = prior / 2 + sum(scores[i][j] for j in range(count) if j != i)
            weight = prior / (strength[i] + 1) + sum(
                games[i][j] / (strength[i] + strength[j]) for j in range(count) if j != i
            )
            updated.append(won / weight if weight > 0 else 1.0)
        change = max(abs(math.log(new / old)) for new, old in zip(updated, strength, strict=True)) if count else 0
        strength = updated
        if change < 1e-12:
            break
    ratings = [400 * math.log10(value) for value in strength]
    shift = mean - sum(ratings) / count if count else 0.0
    return [rating + shift for rating in ratings]
