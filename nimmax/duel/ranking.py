"""A round robin's standings: points and Elo ratings fitted to the games, and the crosstable of
sides."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from nimmax.duel.event import Event, Side
from nimmax.duel.stats import elo_ratings


@dataclass(frozen=True, slots=True)
class Standings:
    """Each entrant's points and Elo rating, and every entrant's side against every other."""

    names: tuple[str, ...]
    points: tuple[float, ...]
    """A win 1, a draw 1/2, over all the entrant's games."""
    ratings: tuple[float, ...]
    """Maximum-likelihood Elo, mean 1500, to a tenth of a point (further digits are the fit's
    noise); empty where Ctrl-C or SIGTERM cut the fit short (`final_standings`)."""
    sides: Mapping[tuple[int, int], Side]
    """`sides[entrant, opponent]`: the entrant's side of the games against the opponent."""

    @property
    def order(self) -> tuple[int, ...]:
        """The entrants best first, by rating (by points where the ratings are left out); equal ones
        keep the order of entry."""
        ranks = self.ratings or self.points
        return tuple(sorted(range(len(self.names)), key=lambda entrant: -ranks[entrant]))


def points(event: Event) -> tuple[list[list[float]], list[list[int]]]:
    """Each entrant's score (wins + half the draws) and games against each other entrant."""
    count = len(event.plan.specs)
    scores = [[0.0] * count for _ in range(count)]
    played = [[0] * count for _ in range(count)]
    for pairing in event.pairings:
        first, second = pairing.entrants
        scores[first][second] = pairing.sides[0].wins + pairing.draws / 2
        scores[second][first] = pairing.sides[1].wins + pairing.draws / 2
        played[first][second] = played[second][first] = pairing.games
    return scores, played


def standings(event: Event, rated: bool = True) -> Standings:
    """The standings after the games played so far (without ratings unless `rated`)."""
    scores, played = points(event)
    sides: dict[tuple[int, int], Side] = {}
    for pairing in event.pairings:
        first, second = pairing.entrants
        # copies: the event's sides go on counting while these standings stand
        sides[first, second], sides[second, first] = (replace(side) for side in pairing.sides)
    return Standings(
        event.plan.names,
        tuple(sum(row) for row in scores),
        tuple(round(rating, 1) for rating in elo_ratings(scores, played)) if rated else (),
        sides,
    )


def final_standings(event: Event) -> Standings:
    """The standings of an event that is over; Ctrl-C or SIGTERM during the rating fit leaves the
    ratings out and becomes the event's interruption (unless one came first), so the games still
    stand."""
    try:
        return standings(event)
    except KeyboardInterrupt as error:
        if event.interruption is None:
            event.interruption = error
        return standings(event, rated=False)
