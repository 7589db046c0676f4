"""Statistics of an event, free of its types: the Wilson interval of a share and maximum-likelihood
Elo."""

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
    scores: Sequence[Sequence[float]],
    games: Sequence[Sequence[int]],
    prior: float = 1.0,
    mean: float = 1500.0,
) -> list[float]:
    """Maximum-likelihood Elo ratings (Bradley-Terry) from a round robin, draws counting half.

    `scores[i][j]` is what i scored against j in `games[i][j]` games. Each player also gets
    `prior` virtual games scored half against an anchor of the mean rating, so a perfect or
    a zero score stays finite. Solved by Newton's method on the log-likelihood (concave), each
    step by conjugate gradients over the pairs that played, so a step costs about the games'
    pairings, not the square of the players; ratings are shifted so that their average is `mean`.
    """
    count = len(scores)
    if not count:
        return []
    fit = _Fit(
        [(i, j, games[i][j]) for i in range(count) for j in range(i + 1, count) if games[i][j]],
        [prior / 2 + sum(scores[i][j] for j in range(count) if j != i) for i in range(count)],
        prior,
    )
    strength = [0.0] * count
    for _ in range(MAX_STEPS):
        step = fit.step(strength)
        if step is None:
            break
        strength = fit.along(strength, step)
    ratings = [ELO * value for value in strength]
    shift = mean - sum(ratings) / count
    return [rating + shift for rating in ratings]


ELO = 400 / math.log(10)
"""Elo points per unit of natural-log strength."""

MAX_STEPS = 200
"""Newton steps at most (a fit with a maximum takes a handful; one without, prior 0 and a perfect
score, stops here)."""

TOLERANCE = 1e-10
"""The fit stops when no player's slope, over its own curvature, would move its log-strength more
than this (well under 1e-6 Elo)."""

FORCING = 1e-4
"""Each step's linear solve stops when its residual is this share of the slope: an inexact Newton
step, still converging fast, since the fit's end is judged by the slope itself."""

RIDGE = 1e-12
"""Added to the curvature, relative to its largest entry: without a prior the likelihood is flat
along a shift of every rating, and rounding must not send the step along it."""


class _Fit:
    """The Bradley-Terry log-likelihood of a set of games, its slope and its curvature, over played
    pairs only."""

    def __init__(self, pairs: list[tuple[int, int, int]], won: list[float], prior: float) -> None:
        self.pairs, self.won, self.prior = pairs, won, prior

    def likelihood(self, strength: Sequence[float]) -> float:
        """The log-likelihood of the games (and the virtual ones) at these natural-log strengths."""
        total = sum(won * value for won, value in zip(self.won, strength, strict=True))
        total -= sum(games * _log_sum(strength[i], strength[j]) for i, j, games in self.pairs)
        return total - self.prior * sum(_log_sum(value, 0.0) for value in strength)

    def step(self, strength: Sequence[float]) -> list[float] | None:
        """Newton's step from `strength` (the curvature solved for the slope by preconditioned
        conjugate gradients), or None at the top: where no player's own step would exceed
        TOLERANCE."""
        slope = [
            won - self.prior * _logistic(value)
            for won, value in zip(self.won, strength, strict=True)
        ]
        diagonal = [self.prior * _logistic(value) * _logistic(-value) for value in strength]
        weights = []
        for i, j, games in self.pairs:
            share = _logistic(strength[i] - strength[j])
            slope[i] -= games * share
            slope[j] -= games * (1 - share)
            weight = games * share * (1 - share)
            diagonal[i] += weight
            diagonal[j] += weight
            weights.append((i, j, weight))
        ridge = RIDGE * max(*diagonal, 1.0)
        diagonal = [value + ridge for value in diagonal]
        if all(
            abs(value) <= TOLERANCE * weight for value, weight in zip(slope, diagonal, strict=True)
        ):
            return None
        return _conjugate_gradients(weights, diagonal, slope)

    def along(self, strength: list[float], step: list[float]) -> list[float]:
        """`strength` moved along `step`, halved until the likelihood does not fall (the full step
        near the top)."""
        before, scale = self.likelihood(strength), 1.0
        while True:
            moved = [value + scale * change for value, change in zip(strength, step, strict=True)]
            if scale < 1e-6 or self.likelihood(moved) >= before - 1e-12 * abs(before):
                return moved
            scale /= 2


def _conjugate_gradients(
    weights: list[tuple[int, int, float]], diagonal: list[float], right: list[float]
) -> list[float]:
    """Solve `A x = right` for A = diag(diagonal) minus each pair's weight off the diagonal (the
    negated Hessian, positive definite given a prior), preconditioned by its diagonal."""
    count = len(right)

    def product(vector: list[float]) -> list[float]:
        result = [weight * value for weight, value in zip(diagonal, vector, strict=True)]
        for i, j, weight in weights:
            result[i] -= weight * vector[j]
            result[j] -= weight * vector[i]
        return result

    solution = [0.0] * count
    residual = list(right)
    goal = FORCING * max(map(abs, right), default=0.0)
    scaled = [value / weight for value, weight in zip(residual, diagonal, strict=True)]
    direction = list(scaled)
    agreement = _dot(residual, scaled)
    for _ in range(2 * count + 10):
        if max(map(abs, residual)) <= goal or agreement <= 0:
            break
        pushed = product(direction)
        curvature = _dot(direction, pushed)
        if curvature <= 0:
            break
        length = agreement / curvature
        solution = [
            value + length * change for value, change in zip(solution, direction, strict=True)
        ]
        residual = [value - length * change for value, change in zip(residual, pushed, strict=True)]
        scaled = [value / weight for value, weight in zip(residual, diagonal, strict=True)]
        updated = _dot(residual, scaled)
        direction = [
            value + updated / agreement * change
            for value, change in zip(scaled, direction, strict=True)
        ]
        agreement = updated
    return solution


def _dot(first: Sequence[float], second: Sequence[float]) -> float:
    return math.fsum(a * b for a, b in zip(first, second, strict=True))


def _logistic(value: float) -> float:
    """1 / (1 + e^-value), without overflow at either end."""
    if value >= 0:
        return 1 / (1 + math.exp(-value))
    tail = math.exp(value)
    return tail / (1 + tail)


def _log_sum(first: float, second: float) -> float:
    """log(e^first + e^second), without overflow."""
    high, low = max(first, second), min(first, second)
    return high + math.log1p(math.exp(low - high))
