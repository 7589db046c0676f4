"""The play loop (a generator of plies, no I/O), a match with take-backs, and game records.

The loop asks whichever seat the state names, so extra turns need nothing special; at a
chance node it draws an outcome from its own seeded generator. A player steers a match
from inside `choose` by raising `Rewind` (after `Match.take_back`) or `Abandon`.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from nimmax import games
from nimmax.game import CHANCE, AnyGame, BadInput
from nimmax.players import Player, decide
from nimmax.search import SearchResult


class BadRecord(BadInput):
    """A game record that cannot be read or replayed."""


class Rewind(Exception):
    """Raised from a player's `choose` after `Match.take_back`: the match goes on from its new position."""


class Abandon(Exception):
    """Raised from a player's `choose` to end the match unfinished (the person quit, or input ended)."""


@dataclass(frozen=True)
class Ply:
    """One move of a game: who made it, from which position to which, how long it took."""

    before: Any
    seat: int
    move: Any
    after: Any
    seconds: float
    search: SearchResult | None


def draw_outcome(game: AnyGame, state: Any, rng: random.Random) -> Any:
    """An outcome of a chance node, drawn with its probability."""
    outcomes = game.chance_outcomes(state)
    weights = [probability for probability, _ in outcomes]
    return rng.choices([outcome for _, outcome in outcomes], weights)[0]


def plies(
    game: AnyGame, players: Sequence[Player], state: Any = None, rng: random.Random | None = None
) -> Iterator[Ply]:
    """Play from `state` (the start by default) to the end, yielding each ply as it is made.

    A player's illegal move raises IllegalMove from `game.result`; nothing is skipped.
    """
    state = game.initial_state() if state is None else state
    rng = rng if rng is not None else random.Random(game.seed)
    while not game.is_terminal(state):
        seat = game.to_move(state)
        started = time.perf_counter()
        if seat == CHANCE:
            move, search = draw_outcome(game, state, rng), None
        else:
            decision = decide(players[seat % len(players)], game, state)
            move, search = decision.move, decision.search
        after = game.result(state, move)
        yield Ply(state, seat, move, after, time.perf_counter() - started, search)
        state = after


class Match:
    """A game being played: the plies so far, take-backs and the record; `run()` is the loop."""

    def __init__(self, game: AnyGame, players: Sequence[Player], rng: random.Random | None = None) -> None:
        self.game, self.players = game, list(players)
        self.rng = rng if rng is not None else random.Random(game.seed)
        self.history: list[Ply] = []

    @property
    def state(self) -> Any:
        """The current position."""
        return self.history[-1].after if self.history else self.game.initial_state()

    def run(self) -> Iterator[Ply]:
        """Play on to the end or until a player abandons, yielding each ply as it is made."""
        while True:
            try:
                for ply in plies(self.game, self.players, self.state, self.rng):
                    self.history.append(ply)
                    yield ply
                return
            except Rewind:
                continue  # the history was cut back: carry on from the position it now ends in
            except Abandon:
                return  # the history keeps every ply made; the record says the game is unfinished

    def take_back(self, seats: Collection[int]) -> list[Ply]:
        """Cut the history to just before the last ply one of `seats` made; returns the plies taken back.

        With `seats` the human seats, this undoes a person's last move together with the
        engine replies and chance draws after it; between two people it undoes one move.
        """
        for index in range(len(self.history) - 1, -1, -1):
            if self.history[index].seat in seats:
                taken = self.history[index:]
                del self.history[index:]
                return taken
        return []

    def record(self) -> GameRecord:
        """The record of the game so far."""
        return GameRecord.of(self.game, [player.spec for player in self.players], self.history)


@dataclass(frozen=True)
class GameRecord:
    """A finished (or abandoned) game: the game words, player specs and every move made."""

    game: str
    players: tuple[str, ...]
    moves: tuple[str, ...]
    winner: int | None
    utilities: tuple[float, ...]
    finished: bool = True

    @classmethod
    def of(cls, game: AnyGame, players: Sequence[str], history: Sequence[Ply]) -> GameRecord:
        """The record of the plies played so far."""
        final = history[-1].after if history else game.initial_state()
        finished = game.is_terminal(final)
        utilities = tuple(game.utility(final, seat) for seat in range(game.players)) if finished else ()
        return cls(
            game.spec,
            tuple(players),
            tuple(game.format_move(ply.move) for ply in history),
            game.winner(final) if finished else None,
            utilities,
            finished,
        )

    def to_json(self) -> str:
        return json.dumps(
            {
                "game": self.game,
                "players": list(self.players),
                "moves": list(self.moves),
                "result": {"winner": self.winner, "utilities": list(self.utilities), "finished": self.finished},
            },
            indent=2,
        )

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Read a record; BadRecord says what is wrong with a corrupt one."""
        try:
            data = json.loads(text)
            result = data["result"]
            if not (result["winner"] is None or type(result["winner"]) is int):
                raise TypeError(f"winner {result['winner']!r} is not a seat number")
            record = cls(
                str(data["game"]),
                tuple(str(spec) for spec in data["players"]),
                tuple(str(move) for move in data["moves"]),
                result["winner"],
                tuple(float(value) for value in result["utilities"]),
                bool(result.get("finished", True)),
            )
        except (ValueError, KeyError, TypeError) as error:
            raise BadRecord(f"not a nimmax game record: {error}") from None
        record.positions()
        return record

    def positions(self) -> list[Any]:
        """Every position of the game in order, replaying the moves; BadRecord if one is illegal."""
        game = games.create(self.game)
        state = game.initial_state()
        states = [state]
        for number, text in enumerate(self.moves, start=1):
            try:
                state = game.result(state, game.parse_move(text, state))
            except BadInput as error:
                raise BadRecord(f"move {number} ({text!r}) cannot be replayed: {error}") from None
            states.append(state)
        return states
