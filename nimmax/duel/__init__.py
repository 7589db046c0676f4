"""AI-vs-AI duels and round-robin tournaments at scale: seeded game by game, with statistics.

This package face only re-exports; each module says what it holds. From the bottom up: stats
(Wilson, Elo, means), planning (the plan and its blocks), play (a block's games and their tallies),
backend (the seam where blocks are played; the serial backend), pool (the process-pool backend),
ray_backend (the Ray backend, imported only when asked for: Ray is an optional extra), event (`run`
and the running tallies), ranking (standings), records (JSON). The pool's names load with
multiprocessing, when first asked for: a duel of one process needs neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nimmax.duel.backend import Backend, Count, FailedBlock, Lost, check_jobs, serial
from nimmax.duel.event import BACKENDS, Event, Pairing, Side, run
from nimmax.duel.planning import BLOCKS, DEFAULT_GAME, MIN_BLOCK, Block, Plan, labels, plan
from nimmax.duel.play import GameResult, Moves, block_games
from nimmax.duel.ranking import Standings, final_standings, points, standings
from nimmax.duel.records import pairing_record, side_record, timeless, tournament_record
from nimmax.duel.stats import Z95, elo_ratings, wilson
from nimmax.numbers import MAX_GAMES, MAX_JOBS

if TYPE_CHECKING:
    from nimmax.duel.pool import STOP_CHECK, ProcessPool

POOL = ("STOP_CHECK", "ProcessPool")
"""The names this face takes from `pool`, imported when first asked for."""


def __getattr__(name: str) -> object:
    """One of POOL's names, from the pool module."""
    if name not in POOL:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from nimmax.duel import pool

    return getattr(pool, name)


__all__ = [
    "BACKENDS",
    "BLOCKS",
    "DEFAULT_GAME",
    "MAX_GAMES",
    "MAX_JOBS",
    "MIN_BLOCK",
    "STOP_CHECK",
    "Z95",
    "Backend",
    "Block",
    "Count",
    "Event",
    "FailedBlock",
    "GameResult",
    "Lost",
    "Moves",
    "Pairing",
    "Plan",
    "ProcessPool",
    "Side",
    "Standings",
    "block_games",
    "check_jobs",
    "elo_ratings",
    "final_standings",
    "labels",
    "pairing_record",
    "plan",
    "points",
    "run",
    "serial",
    "side_record",
    "standings",
    "timeless",
    "tournament_record",
    "wilson",
]
