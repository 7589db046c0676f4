"""A duel, tournament or ladder played for a person to watch: the one home of an event's progress.

`run_event` plays the plan (`duel.run`: blocks on this process, a pool or Ray) and tells its
`EventView` the `Event` so far after every finished game, and once more the moment Ctrl-C or
SIGTERM stops it; `run_ladder` tells its `LadderView` the leader after every game. The views
(`ui/duel.py`, `ui/ladder.py`) draw what they are told; the `Event` is `duel/event.py`'s tallies.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol

from nimmax.commands.ladder import Rung, ladder
from nimmax.duel import Backend, Event, Plan, check_jobs, run


class EventView(Protocol):
    """What draws a duel or tournament as it is played."""

    def watching(self, plan: Plan) -> AbstractContextManager[object]:
        """Open while the event is played (a progress bar, or nothing)."""
        ...

    def game_ended(self, event: Event) -> None:
        """A game ended: `event` holds every game finished so far."""
        ...

    def stopping(self, event: Event) -> None:
        """Ctrl-C or SIGTERM stops the event: the games in play are dropped, `event` holds the
        rest."""
        ...


class LadderView(Protocol):
    """What draws a ladder as it is played."""

    def watching(self, plan: Plan) -> AbstractContextManager[object]:
        """Open while the ladder is played."""
        ...

    def leading(self, event: Event, leader: Rung) -> None:
        """A game ended: `event` holds the games finished so far, `leader` is the best player by
        them."""
        ...


def run_event(
    plan: Plan,
    jobs: int | None,
    view: EventView,
    backend: Backend | str | None = None,
    address: str | None = None,
) -> Event:
    """Play the event (see `duel.run`: `jobs`, `backend`, `address`), its progress told to `view`;
    an event Ctrl-C or SIGTERM stopped comes back with its finished games and the interruption."""
    if jobs is not None:
        check_jobs(jobs)
    with view.watching(plan):
        return run(plan, jobs, view.game_ended, backend, view.stopping, address)


def run_ladder(plan: Plan, jobs: int, view: LadderView | None = None) -> Event:
    """Play the ladder's round robin on `jobs` processes, its leader told to `view` after every game
    (none: nothing told, no standings worked out on the way)."""
    check_jobs(jobs)
    if view is None:
        return run(plan, jobs)
    with view.watching(plan):
        return run(plan, jobs, lambda event: view.leading(event, ladder(event)[0]))
