"""The JSON records of a duel and of a tournament."""

from __future__ import annotations

from typing import Any

from nimmax.duel.backend import FailedBlock
from nimmax.duel.event import Event, Pairing
from nimmax.duel.ranking import final_standings
from nimmax.duel.stats import wilson


def side_record(event: Event, pairing: Pairing, entrant: int) -> dict[str, Any]:
    """One entrant's statistics in one pairing, as JSON-ready values."""
    side = pairing.sides[entrant]
    games = pairing.games
    record: dict[str, Any] = {
        "wins": side.wins,
        "losses": side.losses,
        "draws": side.draws,
        "win_interval": list(wilson(side.wins, games)),
        "loss_interval": list(wilson(side.losses, games)),
        "draw_interval": list(wilson(side.draws, games)),
    }
    if event.players == 2:
        record |= {
            "games_first": side.games_first,
            "wins_first": side.wins_first,
            "games_second": side.games_second,
            "wins_second": side.wins_second,
        }
    else:
        record["mean_score"] = side.mean_score
        record["reached_goal"] = side.goal_share
    record |= {
        "moves": side.moves.count,
        "nodes": side.moves.nodes,
        "nodes_per_move": side.moves.nodes_per_move,
        "avg_move_seconds": side.moves.mean_seconds,
        "max_move_seconds": side.moves.max_seconds,
    }
    return record


def pairing_record(event: Event, pairing: Pairing) -> dict[str, Any]:
    """A duel's JSON object: game, players, games, wins and draws, per player statistics.

    Keys are the player names (specs, `spec#1`/`spec#2` when both are the same); every
    field except those ending in `seconds` repeats exactly for the same seed, on any backend.
    `failed_blocks` lists the blocks a cluster gave up on (empty but for a worker lost twice).
    """
    names = [event.plan.names[entrant] for entrant in pairing.entrants]
    return {
        "game": event.plan.game.spec,
        "players": names,
        "games": pairing.games,
        "planned_games": event.plan.games,
        "seed": event.plan.seed,
        "interrupted": event.interrupted,
        "wins": {name: side.wins for name, side in zip(names, pairing.sides, strict=True)},
        "draws": pairing.draws,
        "per_player": {
            name: side_record(event, pairing, entrant) for entrant, name in enumerate(names)
        },
        "failed_blocks": [
            failed_record(event, block)
            for block in sorted(event.failed)
            if event.pairings[block.pairing] is pairing
        ],
        "seconds": event.seconds,
    }


def failed_record(event: Event, block: FailedBlock) -> dict[str, Any]:
    """A block given up (its worker lost twice): its pairing's players, its games (numbered from 0),
    why."""
    first, second = event.pairings[block.pairing].entrants
    return {
        "players": [event.plan.names[first], event.plan.names[second]],
        "first_game": block.start,
        "games": block.count,
        "reason": block.reason,
    }


def tournament_record(event: Event) -> dict[str, Any]:
    """A tournament's JSON object: crosstable, points and Elo rating per player (left out where
    Ctrl-C cut the fit short), every pairing."""
    table = final_standings(event)
    names = table.names
    crosstable: dict[str, dict[str, dict[str, int]]] = {name: {} for name in names}
    for (entrant, opponent), side in table.sides.items():
        crosstable[names[entrant]][names[opponent]] = {
            "wins": side.wins,
            "draws": side.draws,
            "losses": side.losses,
        }
    record: dict[str, Any] = {
        "game": event.plan.game.spec,
        "players": list(names),
        "games_per_pairing": event.plan.games,
        "games": event.done,
        "seed": event.plan.seed,
        "interrupted": event.interrupted,
        "points": dict(zip(names, table.points, strict=True)),
    }
    if table.ratings:
        record["ratings"] = dict(zip(names, table.ratings, strict=True))
        record["rating_method"] = (
            "maximum-likelihood Elo (Bradley-Terry, draws count half, one virtual draw "
            "per player against a fixed anchor; mean 1500)"
        )
    return record | {
        "crosstable": crosstable,
        "pairings": [pairing_record(event, pairing) for pairing in event.pairings],
        "failed_blocks": [failed_record(event, block) for block in sorted(event.failed)],
        "seconds": event.seconds,
    }


def timeless(record: Any) -> Any:
    """A record without its clock readings (every key ending in `seconds`): what two runs of
    one seeded event share, whatever the backend or the number of jobs."""
    if isinstance(record, dict):
        return {
            key: timeless(value) for key, value in record.items() if not key.endswith("seconds")
        }
    if isinstance(record, list):
        return [timeless(value) for value in record]
    return record
