"""A duel or tournament being played: each pairing's tallies, the clock, and `run`, which plays the
plan.

An event a person watches is played through `commands.events`, which hands its view this `Event`
after every game (`on_game`) and when Ctrl-C stops it (`on_stop`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from nimmax.duel.backend import Backend, FailedBlock, check_jobs, serial
from nimmax.duel.planning import Plan
from nimmax.duel.play import GameResult, Moves
from nimmax.duel.stats import mean
from nimmax.game import BadInput

BACKENDS = ("local", "ray")
"""Where an event's blocks are played: this machine's processes, or a Ray cluster."""


@dataclass(slots=True)
class Side:
    """One entrant's results and moves in a pairing's games so far, each game added as it ends."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    games_first: int = 0
    wins_first: int = 0
    wins_second: int = 0
    total_score: float = 0.0
    goals: int = 0
    moves: Moves = Moves()

    def add(self, result: GameResult, entrant: int) -> None:
        """Count a finished game as entrant 0 or 1 of its pairing saw it."""
        first = result.first == entrant
        won = result.winner == entrant
        self.games += 1
        self.wins += won
        self.losses += result.winner == 1 - entrant
        self.draws += result.winner is None
        self.games_first += first
        self.wins_first += won and first
        self.wins_second += won and not first
        self.total_score += result.scores[entrant]
        self.goals += result.goals[entrant]
        self.moves += result.moves[entrant]

    @property
    def games_second(self) -> int:
        """Games in which this entrant moved second."""
        return self.games - self.games_first

    @property
    def mean_score(self) -> float:
        """Score per game: what ranks the players of a one-player game."""
        return mean(self.total_score, self.games)

    @property
    def goal_share(self) -> float:
        """The share of games won by the game's own rule."""
        return mean(self.goals, self.games)


@dataclass
class Pairing:
    """Two entrants' games so far: a duel, or one cell pair of a tournament's crosstable."""

    entrants: tuple[int, int]
    sides: tuple[Side, Side] = field(default_factory=lambda: (Side(), Side()))

    @property
    def games(self) -> int:
        """Games finished."""
        return self.sides[0].games

    @property
    def draws(self) -> int:
        """Games drawn."""
        return self.sides[0].draws

    def add(self, result: GameResult) -> None:
        """Count a finished game."""
        for entrant, side in enumerate(self.sides):
            side.add(result, entrant)


@dataclass
class Event:
    """A duel or tournament as played so far: the plan, each pairing's statistics, the clock."""

    plan: Plan
    players: int
    pairings: list[Pairing]
    seconds: float = 0.0
    interruption: KeyboardInterrupt | None = None
    """What cut the event short: Ctrl-C's KeyboardInterrupt or SIGTERM's `interrupt.Terminated`."""
    failed: list[FailedBlock] = field(default_factory=list)
    """Blocks the backend gave up on (a worker lost twice): their games are not counted."""
    finished: int = 0
    """Games counted by `add`: read after every game, so kept rather than summed over the
    pairings."""

    @property
    def interrupted(self) -> bool:
        """Whether Ctrl-C or SIGTERM cut the event short."""
        return self.interruption is not None

    @property
    def done(self) -> int:
        """Games finished in the whole event."""
        return self.finished

    def add(self, pairing: int, result: GameResult) -> None:
        """Count a finished game of one pairing."""
        self.pairings[pairing].add(result)
        self.finished += 1


def run(
    plan: Plan,
    jobs: int | None = None,
    on_game: Callable[[Event], None] | None = None,
    backend: Backend | str | None = None,
    on_stop: Callable[[Event], None] | None = None,
    address: str | None = None,
) -> Event:
    """Play the event and count its games; `on_game(event)` after every finished game.

    The blocks are played by `backend`: by default ("local") this process alone (`jobs` None
    or 1) or a pool of `jobs` processes; "ray" the Ray cluster at `address` (None: a Ray
    started on this machine for the event; "auto": the one running here), whose CPUs decide
    how many blocks are played at once. Any other `Backend` is called as it is.

    Ctrl-C or SIGTERM stops the event: `on_stop(event)` is told at once
    (the pool's workers still send their last games after it), the finished games are kept and
    `interruption` holds the KeyboardInterrupt, so the caller can report them, then re-raise it.
    """
    if jobs is not None:
        check_jobs(jobs)
    event = Event(plan, plan.game.players, [Pairing(pair) for pair in plan.pairings])
    started = time.perf_counter()

    def count(pairing: int, result: GameResult) -> None:
        event.add(pairing, result)
        event.seconds = time.perf_counter() - started
        if on_game is not None:
            on_game(event)

    told = False

    def stopping() -> None:
        nonlocal told
        if on_stop is not None and not told:
            told = True
            on_stop(event)

    played = _backend(backend or "local", jobs, address, stopping, event)
    try:
        played(tuple(plan.blocks()), count)
    except KeyboardInterrupt as error:
        stopping()  # the serial backend stops where the signal fell: nothing more will come
        event.interruption = error
    event.seconds = time.perf_counter() - started
    return event


def _backend(
    backend: Backend | str,
    jobs: int | None,
    address: str | None,
    stopping: Callable[[], None],
    event: Event,
) -> Backend:
    """The backend `run` was asked for, by name or as it is; BadInput for a name or option it cannot
    honour."""
    if not isinstance(backend, str):
        return backend
    if backend not in BACKENDS:
        raise BadInput(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if backend == "local":
        if address is not None:
            raise BadInput("--address names a Ray cluster: it goes with --backend ray")
        if jobs in (None, 1):
            return serial
        from nimmax.duel.pool import ProcessPool  # multiprocessing loads only for a pool

        return ProcessPool(jobs, stopping, event.failed.append)
    if jobs not in (None, 1):
        raise BadInput(
            "--jobs sizes the local pool; with --backend ray the cluster's CPUs play the blocks"
        )
    # Ray is an optional extra, imported only when asked for
    from nimmax.duel.ray_backend import RayBackend

    return RayBackend(address, stopping, event.failed.append)
