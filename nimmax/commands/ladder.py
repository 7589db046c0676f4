"""The ladder: a seeded round robin at a fixed time a move, ranked with intervals and Elo.

It answers "which engine plays this board best" with data: every pair of players meets in
the same number of games, colours alternating, each engine thinking the same time a move,
each colour-swapped pair of games from the same random opening (so deterministic engines do
not replay one game).
The games are the duel package's (`duel.plan`, `duel.run`); this module adds the time a
move, the standings (score with its 95% Wilson interval, Elo relative to the field's mean)
and each engine's speed, nodes (or simulations) a second of its own thinking.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from nimmax import duel
from nimmax.duel import Event, Plan
from nimmax.duel.stats import mean
from nimmax.game import AnyGame
from nimmax.players import BadPlayerSpec, Spec, limited
from nimmax.search.limits import override

DEFAULT_GAMES = 10
"""Games per pairing unless told: at a second a move a Connect Four game takes half a minute."""

DEFAULT_OPENINGS = 4
"""Random plies each pair of games starts from unless told: few enough to leave a game to
play, enough that ten games a pairing start from five different positions."""

RATING_METHOD = (
    "maximum-likelihood Elo (Bradley-Terry, draws count half, one virtual draw per player "
    "against the mean), relative: the players' mean is 0"
)


def split_players(text: str) -> tuple[str, ...]:
    """Player specs from `--players`: separated by commas, where a piece `name=value` (no colon)
    is one more option of the spec before it: `alphabeta:depth=2,time=1,random` is two players."""
    specs: list[str] = []
    for piece in (piece.strip() for piece in text.split(",")):
        if not piece:
            raise BadPlayerSpec(
                f"--players has an empty spec in {text[:40]!r}; separate specs by single commas"
            )
        if "=" in piece and ":" not in piece:
            if not specs or ":" not in specs[-1]:
                raise BadPlayerSpec(
                    f"--players: option {piece!r} follows no spec with options (spec:name=value)"
                )
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return tuple(specs)


def plan(
    game: str | AnyGame,
    specs: Sequence[Spec],
    seconds: float | None = None,
    games: int = DEFAULT_GAMES,
    seed: int | None = None,
    openings: int = DEFAULT_OPENINGS,
) -> Plan:
    """The round robin: `seconds` a move for every engine spec that sets no limit of its own
    (None: the engines' own default), `games` per pairing, each pair of colour-swapped games
    from an opening of `openings` random plies; BadInput for what cannot be played."""
    return duel.plan(
        game, [limited(spec, override(time=seconds)) for spec in specs], games, seed, openings
    )


def opening_lines(plan: Plan) -> list[str]:
    """Each opening of the event in notation, opening j starting games 2j and 2j + 1."""
    format_move = plan.game.format_move
    return [" ".join(map(format_move, plan.opening(index))) for index in range(0, plan.games, 2)]


@dataclass(frozen=True, slots=True)
class Rung:
    """One player's line of the ladder."""

    name: str
    games: int
    wins: int
    draws: int
    losses: int
    points: float
    """A win 1, a draw 1/2."""
    interval: tuple[float, float]
    """The 95% Wilson interval of the score (points per game)."""
    elo: float
    """Maximum-likelihood Elo, relative: the players' mean is 0."""
    moves: int
    seconds: float
    """Seconds of the player's own moves."""
    nodes: int
    """Nodes (simulations, for Monte Carlo engines) its searches counted."""

    @property
    def score(self) -> float:
        """Points per game."""
        return mean(self.points, self.games)

    @property
    def nodes_per_second(self) -> float:
        """Nodes a second of its own thinking (0 for a player that does not search)."""
        return self.nodes / self.seconds if self.seconds else 0.0


def ladder(event: Event) -> tuple[Rung, ...]:
    """The standings of the games played so far, best first (by Elo)."""
    table = duel.standings(event)
    centre = sum(table.ratings) / len(table.ratings)
    rungs = []
    for entrant in table.order:
        sides = [side for (player, _), side in table.sides.items() if player == entrant]
        games = sum(side.games for side in sides)
        moves = sum((side.moves for side in sides), duel.Moves())
        rungs.append(
            Rung(
                table.names[entrant],
                games,
                sum(side.wins for side in sides),
                sum(side.draws for side in sides),
                sum(side.losses for side in sides),
                table.points[entrant],
                duel.wilson(table.points[entrant], games),
                round(table.ratings[entrant] - centre, 1),
                moves.count,
                moves.seconds,
                moves.nodes,
            )
        )
    return tuple(rungs)


def ladder_record(event: Event, seconds: float | None) -> dict[str, Any]:
    """`ladder --json`: the event, the standings best first, the crosstable."""
    tournament = duel.tournament_record(event)
    return {
        "game": tournament["game"],
        "players": tournament["players"],
        "time": seconds,
        "games_per_pairing": tournament["games_per_pairing"],
        "games": tournament["games"],
        "seed": tournament["seed"],
        "opening_plies": event.plan.openings,
        "openings": opening_lines(event.plan),
        "interrupted": tournament["interrupted"],
        "rating_method": RATING_METHOD,
        "standings": [
            {
                "player": rung.name,
                "games": rung.games,
                "wins": rung.wins,
                "draws": rung.draws,
                "losses": rung.losses,
                "points": rung.points,
                "score": rung.score,
                "score_interval": list(rung.interval),
                "elo": rung.elo,
                "moves": rung.moves,
                "nodes": rung.nodes,
                "move_seconds": rung.seconds,
                "nodes_per_second": rung.nodes_per_second,
            }
            for rung in ladder(event)
        ],
        "crosstable": tournament["crosstable"],
        "seconds": event.seconds,
    }
