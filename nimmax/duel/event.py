"""A duel or tournament being played: each pairing's tallies, the clock, and `run`, which plays the plan."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from nimmax.duel.plan import Plan
from nimmax.duel.play import GameResult, block_games
from nimmax.duel.pool import _run_pool, check_jobs


@dataclass
class Side:
    """One entrant's running statistics within a pairing."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    games_first: int = 0
    wins_first: int = 0
    wins_second: int = 0
    moves: int = 0
    seconds: float = 0.0
    max_seconds: float = 0.0
    nodes: int = 0
    total_score: float = 0.0
    goals: int = 0


@dataclass
class Pairing:
    """Two entrants' games so far: a duel, or one cell pair of a tournament's crosstable."""

    entrants: tuple[int, int]
    games: int = 0
    draws: int = 0
    sides: tuple[Side, Side] = field(default_factory=lambda: (Side(), Side()))

    def add(self, result: GameResult) -> None:
        """Count a finished game."""
        self.games += 1
        self.draws += result.winner is None
        for entrant, side in enumerate(self.sides):
            first = result.first == entrant
            won = result.winner == entrant
            side.wins += won
            side.draws += result.winner is None
            side.losses += result.winner == 1 - entrant
            side.games_first += first
            side.wins_first += won and first
            side.wins_second += won and not first
            side.moves += result.moves[entrant]
            side.seconds += result.seconds[entrant]
            side.max_seconds = max(side.max_seconds, result.max_seconds[entrant])
            side.nodes += result.nodes[entrant]
            side.total_score += result.scores[entrant]
            side.goals += result.goals[entrant]


@dataclass
class Event:
    """A duel or tournament as played so far: the plan, each pairing's statistics, the clock."""

    plan: Plan
    players: int
    pairings: list[Pairing]
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def done(self) -> int:
        """Games finished in the whole event."""
        return sum(pairing.games for pairing in self.pairings)

    def add(self, pairing: int, result: GameResult) -> None:
        """Count a finished game of one pairing."""
        self.pairings[pairing].add(result)


def run(plan: Plan, jobs: int = 1, on_game: Callable[[Event], None] | None = None) -> Event:
    """Play the event on `jobs` processes; `on_game(event)` after every finished game.

    Ctrl-C stops the event: the finished games are kept and `interrupted` is set, so the
    caller can still report them.
    """
    check_jobs(jobs)
    event = Event(plan, plan.game.players, [Pairing(pair) for pair in plan.pairings])
    started = time.perf_counter()

    def count(pairing: int, result: GameResult) -> None:
        event.add(pairing, result)
        event.seconds = time.perf_counter() - started
        if on_game is not None:
            on_game(event)

    try:
        if jobs == 1:
            for block in plan.blocks():
                for result in block_games(block):
                    count(block.pairing, result)
        else:
            _run_pool(plan, jobs, count)
    except KeyboardInterrupt:
        event.interrupted = True
    event.seconds = time.perf_counter() - started
    return event
