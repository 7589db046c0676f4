"""The tournament's Elo fit: the same ratings as the minorise-maximise fit it replaced, the closed
form of two players, the maximum-likelihood condition on sparse round robins, few steps at any size,
and Ctrl-C in the fit printing the games without ratings."""

from __future__ import annotations

import json
import math
import random
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimmax import duel
from nimmax.duel import stats

from .cli_helpers import nimmax_in_process, read_specs

Table = tuple[list[list[float]], list[list[int]]]


def minorise_maximise(
    scores: list[list[float]], games: list[list[int]], prior: float
) -> list[float]:
    """The fit nimmax used before (Hunter 2004's iteration over every pair), kept as the oracle."""
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
        change = max(abs(math.log(new / old)) for new, old in zip(updated, strength, strict=True))
        strength = updated
        if change < 1e-12:
            break
    ratings = [400 * math.log10(value) for value in strength]
    return [rating + 1500 - sum(ratings) / count for rating in ratings]


@st.composite
def round_robins(draw: st.DrawFn, most: int = 6, games: int = 4) -> Table:
    """A round robin's scores and games, some pairs unplayed, draws counting half."""
    count = draw(st.integers(2, most))
    scores = [[0.0] * count for _ in range(count)]
    played = [[0] * count for _ in range(count)]
    for i in range(count):
        for j in range(i + 1, count):
            wins = draw(st.integers(0, games))
            draws = draw(st.integers(0, games - wins))
            losses = draw(st.integers(0, games - wins - draws))
            played[i][j] = played[j][i] = wins + draws + losses
            scores[i][j], scores[j][i] = wins + draws / 2, losses + draws / 2
    return scores, played


@settings(max_examples=40, deadline=None)
@given(round_robins(), st.sampled_from([1.0, 0.5, 2.0]))
def test_the_fit_gives_the_ratings_of_the_old_one(table: Table, prior: float) -> None:
    scores, played = table
    assert stats.elo_ratings(scores, played, prior) == pytest.approx(
        minorise_maximise(scores, played, prior), abs=1e-5
    )


@given(
    st.integers(2, 1000).flatmap(lambda games: st.tuples(st.integers(1, games - 1), st.just(games)))
)
def test_two_players_are_the_closed_form_apart(case: tuple[int, int]) -> None:
    # Without a prior the fit is exact: p = w/n = 1 / (1 + 10^(-gap/400)), so gap = 400·log10(w / (n
    # - w)).
    wins, games = case
    strong, weak = stats.elo_ratings(
        [[0, wins], [games - wins, 0]], [[0, games], [games, 0]], prior=0
    )
    assert strong - weak == pytest.approx(400 * math.log10(wins / (games - wins)), abs=1e-6)
    assert (strong + weak) / 2 == pytest.approx(1500)


@settings(max_examples=30, deadline=None)
@given(round_robins(most=10, games=3))
def test_each_player_is_expected_to_score_what_it_scored(table: Table) -> None:
    # The maximum of the likelihood: every player's expected score, the virtual game against the
    # anchor included, equals its actual score (the anchor's draw a half); unplayed pairs count
    # for nothing. The mean of 1500 hides the anchor: the first player's equation places it.
    scores, played = table
    ratings = stats.elo_ratings(scores, played, prior=1.0)
    count = len(scores)

    def expected(rating: float, other: float) -> float:
        return 1 / (1 + 10 ** ((other - rating) / 400))

    def against_players(i: int) -> float:
        return sum(played[i][j] * expected(ratings[i], ratings[j]) for j in range(count) if j != i)

    share = sum(scores[0]) + 0.5 - against_players(0)
    assert 0 < share < 1
    anchor = ratings[0] + 400 * math.log10(1 / share - 1)
    for i in range(count):
        assert against_players(i) + expected(ratings[i], anchor) == pytest.approx(
            sum(scores[i]) + 0.5, abs=1e-6
        )


def perfect_order(count: int) -> Table:
    """Every player beats every later one: the ratings rest on the prior alone, the fit's hardest
    case."""
    scores = [[float(i < j) for j in range(count)] for i in range(count)]
    played = [[int(i != j) for j in range(count)] for i in range(count)]
    return scores, played


@pytest.mark.parametrize("table", [perfect_order(60), perfect_order(2)])
def test_the_fit_takes_few_steps_at_any_size(table: Table) -> None:
    steps = []
    original = stats._Fit.step

    def counted(fit: stats._Fit, strength: list[float]) -> list[float] | None:
        steps.append(strength)
        return original(fit, strength)

    with mock.patch.object(stats._Fit, "step", counted):
        ratings = stats.elo_ratings(*table)
    assert len(steps) <= 25
    assert ratings == sorted(ratings, reverse=True) and len(set(ratings)) == len(ratings)


def test_a_round_robin_of_single_games_gets_the_ratings_of_the_old_fit() -> None:
    rng = random.Random(5)
    count = 15
    scores = [[0.0] * count for _ in range(count)]
    played = [[0] * count for _ in range(count)]
    for i in range(count):
        for j in range(i + 1, count):
            won = rng.random() < 0.5 + (j - i) / (2 * count)
            scores[i][j], scores[j][i] = float(won), float(not won)
            played[i][j] = played[j][i] = 1
    assert stats.elo_ratings(scores, played) == pytest.approx(
        minorise_maximise(scores, played, 1.0), abs=1e-4
    )


def interrupted_fit(*args: object, **keywords: object) -> list[float]:
    raise KeyboardInterrupt


PLAYERS = ("alphabeta", "random:seed=1", "random:seed=2")


def test_ctrl_c_in_the_ratings_prints_the_games_without_them() -> None:
    with mock.patch("nimmax.duel.ranking.elo_ratings", interrupted_fit):
        run = nimmax_in_process(
            "tournament", *PLAYERS, "--game", "nim 2 3", "--games", "4", "--seed", "1"
        )
    assert run.returncode == 130, run.stderr
    assert "interrupted after 12 of 12 games" in run.stdout and "Elo: left out" in run.stdout
    assert "1500" not in run.stdout
    assert run.stderr.strip() == "nimmax: interrupted after 12 games; their results are printed"
    rows = [
        line for line in run.stdout.splitlines() if "alphabeta" in line or "random:seed" in line
    ]
    assert len(rows) == 3


def test_ctrl_c_in_the_ratings_leaves_them_out_of_the_json() -> None:
    with mock.patch("nimmax.duel.ranking.elo_ratings", interrupted_fit):
        run = nimmax_in_process(
            "tournament", *PLAYERS, "--game", "nim 2 3", "--games", "4", "--seed", "1", "--json"
        )
    assert run.returncode == 130
    record = json.loads(run.stdout)
    assert record["interrupted"] and record["games"] == 12 and "ratings" not in record
    assert sum(record["points"].values()) == 12
    event = duel.run(duel.plan("nim 2 3", read_specs(*PLAYERS), 4, seed=1))
    assert record["points"] == duel.tournament_record(event)["points"]


def test_a_crosstable_too_wide_for_the_screen_keeps_the_standings() -> None:
    specs = [f"random:seed={seed}" for seed in range(20)]
    run = nimmax_in_process("tournament", *specs, "--game", "nim 1", "--games", "1", "--seed", "1")
    assert run.returncode == 0, run.stderr
    assert "cells left out" in run.stdout and "--json has them" in run.stdout
    assert max(map(len, run.stdout.splitlines())) <= 120
    # misère nim 1 is lost by its first mover, a pairing's first entrant: the last entrant beats all
    rows = [line.split() for line in run.stdout.splitlines() if "random:seed=" in line]
    assert [(row[3], row[5]) for row in rows] == [
        (f"random:seed={seed}", str(seed)) for seed in range(19, -1, -1)
    ]
