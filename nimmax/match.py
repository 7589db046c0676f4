"""The play loop (a generator of plies, no I/O), a match with take-backs, and game records.

The loop asks whichever seat the state names, so extra turns need nothing special; at a
chance node it draws an outcome from its own seeded generator. A person steers a match by
answering a command instead of a move (`TakeBack`, `Abandon`): values the match acts on.
"""

from __future__ import annotations

import os
import random
import shlex
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from nimmax import games
from nimmax.errors import quoted
from nimmax.game import CHANCE, AnyGame, BadInput, outcomes, seed_of, winner_of
from nimmax.numbers import parse_float, parse_int
from nimmax.player import Decision, Player, as_decision
from nimmax.search import SearchResult


class BadRecord(BadInput):
    """A game record that cannot be read or replayed."""


@dataclass(frozen=True)
class TakeBack:
    """A person's command: take back the last move one of `seats` made, and every ply after it."""

    seats: frozenset[int]


@dataclass(frozen=True)
class Abandon:
    """A person's command: end the match unfinished (they quit, or their input ended)."""


Command = TakeBack | Abandon
"""What a person may answer instead of a move (`HumanPlayer.choose`); a Match acts on it."""


@dataclass(frozen=True)
class Ply:
    """One move of a game: who made it, from which position to which, how long it took."""

    before: Any
    seat: int
    move: Any
    after: Any
    seconds: float
    search: SearchResult | None


@dataclass(frozen=True)
class TakenBack:
    """What a take-back took back, oldest first; none when the person had no move to take back
    yet."""

    plies: tuple[Ply, ...]


def draw_outcome(game: AnyGame, state: Any, rng: random.Random) -> Any:
    """An outcome of a chance node, drawn with its probability."""
    drawn = outcomes(game, state)
    weights = [probability for probability, _ in drawn]
    return rng.choices([outcome for _, outcome in drawn], weights)[0]


def turn(game: AnyGame, players: Sequence[Player], state: Any, rng: random.Random) -> Ply | Command:
    """The next ply from `state` (not a terminal one): chance's draw, or the move of the seat to
    move, or the command a person answered instead. A player's illegal move raises IllegalMove from
    `game.result`."""
    seat = game.to_move(state)
    started = time.perf_counter()
    if seat == CHANCE:
        decision = Decision(draw_outcome(game, state, rng))
    else:
        answer = players[seat % len(players)].choose(game, state)
        if isinstance(answer, TakeBack | Abandon):
            return answer
        decision = as_decision(answer)
    after = game.result(state, decision.move)
    return Ply(state, seat, decision.move, after, time.perf_counter() - started, decision.search)


def plies(
    game: AnyGame, players: Sequence[Player], state: Any = None, rng: random.Random | None = None
) -> Iterator[Ply]:
    """Play from `state` (the start by default) to the end, yielding each ply as it is made; players
    that only move (a duel's): a person's command ends it, since only a Match keeps the history to
    take back."""
    state = game.initial_state() if state is None else state
    rng = rng if rng is not None else random.Random(seed_of(game))
    while not game.is_terminal(state):
        ply = turn(game, players, state, rng)
        if not isinstance(ply, Ply):
            return
        yield ply
        state = ply.after


class Match:
    """A game being played: the plies so far, take-backs and the record; `run()` is the loop."""

    def __init__(
        self,
        game: AnyGame,
        players: Sequence[Player],
        rng: random.Random | None = None,
        history: Sequence[Ply] = (),
    ) -> None:
        self.game, self.players = game, list(players)
        self.rng = rng if rng is not None else random.Random(seed_of(game))
        self.history: list[Ply] = list(history)  # a resumed game's plies so far

    @property
    def state(self) -> Any:
        """The current position."""
        return self.history[-1].after if self.history else self.game.initial_state()

    def run(self) -> Iterator[Ply | TakenBack]:
        """Play on to the end or until a person abandons, yielding each ply as it is made and each
        take-back a person asks for as it is done (the loop goes on from the position it leaves)."""
        while not self.game.is_terminal(self.state):
            answer = turn(self.game, self.players, self.state, self.rng)
            if isinstance(answer, Abandon):
                return  # the history keeps every ply made; the record says the game is unfinished
            if isinstance(answer, TakeBack):
                yield TakenBack(tuple(self.take_back(answer.seats)))
                continue
            self.history.append(answer)
            yield answer

    def take_back(self, seats: Collection[int]) -> list[Ply]:
        """Cut the history to just before the last ply one of `seats` made; returns the plies taken
        back.

        With `seats` the human seats, this undoes a person's last move together with the engine
        replies and chance draws after it; between two people it undoes one move.
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


RECORD_FIELDS = MappingProxyType(
    {
        "game": 'the game words, e.g. "nim 2 3 5"',
        "players": "the player spec of each seat",
        "moves": "the moves as written",
        "result": "the winner, the payoffs and whether the game finished",
    }
)
"""A record's fields, with what each holds: a refusal names the missing ones in words."""


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
        utilities = (
            tuple(game.utility(final, seat) for seat in range(game.players)) if finished else ()
        )
        return cls(
            game.spec,
            tuple(players),
            tuple(game.format_move(ply.move) for ply in history),
            winner_of(game, final) if finished else None,
            utilities,
            finished,
        )

    def located(self, folder: Path) -> GameRecord:
        """The record as written into `folder`: a plugin file's path made relative to that folder
        (it was relative to where nimmax ran), so the record replays from any folder."""
        from nimmax import plugins  # loaded only for the words of a plugin game

        words = shlex.split(self.game)
        if not (words and plugins.is_reference(words[0])):
            return self
        where, name, _ = plugins.split_reference(words[0])
        if not plugins.is_file(where):
            return self
        path = os.path.relpath(Path(where).expanduser().resolve(), folder.resolve())
        return replace(self, game=shlex.join([f"{Path(path).as_posix()}:{name}", *words[1:]]))

    def to_json(self) -> str:
        import json  # loaded where a record is written or read: the play loop needs none

        return json.dumps(
            {
                "game": self.game,
                "players": list(self.players),
                "moves": list(self.moves),
                "result": {
                    "winner": self.winner,
                    "utilities": list(self.utilities),
                    "finished": self.finished,
                },
            },
            indent=2,
        )

    @classmethod
    def from_json(
        cls, text: str, folder: Path | None = None, plugin: str | None = None
    ) -> GameRecord:
        """Read a record, its shape and sizes checked and every move replayed before it is used;
        BadRecord says in one line what is wrong with a corrupt one. A record of a plugin game is
        played only with the plugin the person names (`plugin`), never with code the record names
        (`trusted`); `folder` is the record's own, which its plugin's path is relative to."""
        if len(text) > MAX_RECORD_BYTES:
            raise BadRecord(
                f"a record is at most {MAX_RECORD_BYTES:,} characters, not {len(text):,}"
            )
        import json

        try:
            data = json.loads(
                text, parse_int=_whole, parse_float=_decimal, parse_constant=_constant
            )
        except RecursionError:  # the decoder's own guard: a record nests three deep
            raise BadRecord(
                "not a nimmax game record: JSON nested far deeper than a record"
            ) from None
        except BadRecord:
            raise
        # json.JSONDecodeError: its message names a place, never the text
        except ValueError as error:
            raise BadRecord(f"not a nimmax game record: not JSON ({error})") from None
        record = cls._from_data(data, lambda words: trusted(words, folder, plugin))
        record.positions()
        return record

    @classmethod
    def _from_data(cls, data: object, trust: Callable[[str], str]) -> GameRecord:
        """The record a decoded JSON document holds, every field's type and size checked; `trust`
        gives the game words this process may build."""
        if not isinstance(data, dict):
            raise _not_a_record("it is not a JSON object")
        missing = [key for key in RECORD_FIELDS if key not in data]
        if missing:
            if len(missing) == 1:
                raise _not_a_record(f"it has no {missing[0]} field ({RECORD_FIELDS[missing[0]]})")
            raise _not_a_record(f"it has no {', '.join(missing[:-1])} or {missing[-1]} field")
        words = data["game"]
        if not (isinstance(words, str) and len(words) <= MAX_RECORD_TEXT):
            raise _not_a_record(
                f"game must be game words of at most {MAX_RECORD_TEXT:,} characters"
            )
        words = trust(words)
        try:
            game = games.create(words)
        except BadInput as error:
            raise BadRecord(f"the record's game cannot be played: {error}") from None
        players, moves = (
            _players(data["players"], game),
            _moves(data["moves"]),
        )  # the first bad field named
        return cls(words, players, moves, *_result(data["result"], game))

    def positions(self) -> list[Any]:
        """Every position of the game in order, replaying the moves; BadRecord names the first
        ply that is illegal where it stands."""
        try:
            game = games.create(self.game)
        except BadInput as error:
            raise BadRecord(f"the record's game cannot be played: {error}") from None
        state = game.initial_state()
        states = [state]
        for ply, text in enumerate(self.moves, start=1):
            try:
                state = game.result(state, game.parse_move(text, state))
            except BadInput as error:
                raise BadRecord(f"ply {ply} ({quoted(text)}) cannot be replayed: {error}") from None
            states.append(state)
        return states


def trusted(words: str, folder: Path | None, plugin: str | None) -> str:
    """A record's game words as this process may build them. A record is data from anyone: a
    plugin game in it is built only from the plugin the person names (`plugin`: a file, module or
    installed name), a file's path resolved from where they are; else BadRecord says how to name
    it, with the path the record's own (relative to `folder`, the record's folder) resolves to."""
    from nimmax import plugins  # only the names are read: nothing is loaded here

    try:
        parts = shlex.split(words)
    except ValueError as error:
        raise BadRecord(
            f"the record's game cannot be played: cannot read game words: {error}"
        ) from None
    if not parts or not games.names_plugin(parts[0]):
        if plugin is not None:
            raise BadRecord(
                f"the record's game is {quoted(words)}, not a plugin: --plugin is for a plugin's "
                "record"
            )
        return words
    where, name, _ = (
        plugins.split_reference(parts[0]) if plugins.is_reference(parts[0]) else (parts[0], "", "")
    )
    if not plugins.is_file(where) or folder is None or Path(where).is_absolute():
        recorded = where
    else:
        recorded = os.path.normpath(folder / where)
    if plugin is None:
        missing = (
            "" if not plugins.is_file(where) or Path(recorded).is_file() else "; no such file there"
        )
        # the record's text: unprintable characters escaped
        shown = quoted(recorded, MAX_SHOWN_PATH)
        found = f"{quoted(name)} in {shown}" if name else shown
        hint = (
            shlex.quote(recorded)
            if recorded.isprintable() and len(recorded) <= MAX_SHOWN_PATH
            else "FILE"
        )
        raise BadRecord(
            f"the record's game is a plugin ({found}{missing}); a record never runs code on its "
            "own: "
            f"name the plugin to run it, --plugin {hint}"
        )
    named, _, named_class = plugin.partition(":")
    if not plugins.is_file(where):
        if named != where:
            raise BadRecord(
                f"the record's game is the plugin {quoted(where)}, not {quoted(plugin)}"
            )
        return words
    path = Path(named).expanduser()
    if not path.is_file():
        shown = quoted(recorded, MAX_SHOWN_PATH)
        raise BadRecord(
            f"--plugin {quoted(named, MAX_SHOWN_PATH)}: no such file (the record's own path gives "
            f"{shown})"
        )
    return shlex.join([f"{path.resolve()}:{named_class or name}", *parts[1:]])


MAX_SHOWN_PATH = 200
"""The most characters of a plugin's path a message about a record shows."""

MAX_RECORD_BYTES = 4 * 2**20
"""The largest record read, in bytes: MAX_MOVES moves fit in it several times over."""

MAX_MOVES = 100_000
"""The most moves (plies, chance draws included) a record holds: 2048 played to its top tile
takes about 30,000, and anything longer is refused before a move of it is replayed."""

MAX_MOVE_TEXT = 100
"""The longest move a record holds, in characters (the longest notation, a Nim move on a
billion-counter pile, is 21)."""

MAX_RECORD_TEXT = 10_000
"""The longest game words or player spec a record holds, in characters."""

MAX_RECORD_NUMBER = 10**12
"""No number in a record is larger than this (payoffs are at most points: a 2048 score, a Kalah
margin)."""


def _not_a_record(why: str) -> BadRecord:
    return BadRecord(f"not a nimmax game record: {why}")


def _players(players: object, game: AnyGame) -> tuple[str, ...]:
    """A record's player specs, one a seat, each checked printable and short."""
    if not (
        isinstance(players, list)
        and len(players) == game.players
        and all(
            isinstance(spec, str) and len(spec) <= MAX_RECORD_TEXT and spec.isprintable()
            for spec in players
        )
    ):
        seats = (
            "one player spec" if game.players == 1 else f"{game.players} player specs (one a seat)"
        )
        raise _not_a_record(f"players must be a list of {seats} for {game.name}")
    return tuple(players)


def _moves(moves: object) -> tuple[str, ...]:
    """A record's moves as written, at most MAX_MOVES of them, each at most MAX_MOVE_TEXT
    characters."""
    if not isinstance(moves, list):
        raise _not_a_record('moves must be a list of moves as written, e.g. ["3:4", "1:1"]')
    if len(moves) > MAX_MOVES:
        raise _not_a_record(f"it has {len(moves):,} moves; a record holds at most {MAX_MOVES:,}")
    for ply, move in enumerate(moves, start=1):
        if not (isinstance(move, str) and len(move) <= MAX_MOVE_TEXT):
            raise _not_a_record(
                f"ply {ply} is not a move as written (a string of at most {MAX_MOVE_TEXT} "
                "characters)"
            )
    return tuple(moves)


def _result(result: object, game: AnyGame) -> tuple[int | None, tuple[float, ...], bool]:
    """A record's result: the winner (a seat or None), the payoffs (one a seat, or none) and whether
    it finished."""
    if not isinstance(result, dict):
        raise _not_a_record("result must be an object with winner, utilities and finished")
    winner, utilities, finished = (
        result.get("winner"),
        result.get("utilities", []),
        result.get("finished", True),
    )
    if not (winner is None or (type(winner) is int and 0 <= winner < game.players)):
        raise _not_a_record(f"the winner must be null or a seat from 0 to {game.players - 1}")
    if not (
        isinstance(utilities, list)
        and len(utilities) in (0, game.players)
        and all(type(value) in (int, float) for value in utilities)
    ):
        raise _not_a_record(f"utilities must be a list of {game.players} payoffs, or empty")
    if not isinstance(finished, bool):
        raise _not_a_record("finished must be true or false")
    return winner, tuple(float(value) for value in utilities), finished


def _whole(text: str) -> int:
    """A JSON whole number of a record, read by `numbers` before the decoder can call int() on 5,000
    digits."""
    return parse_int(
        text, "a number in the record", -MAX_RECORD_NUMBER, MAX_RECORD_NUMBER, BadRecord
    )


def _decimal(text: str) -> float:
    """A JSON decimal of a record, read by `numbers`."""
    return parse_float(
        text, "a number in the record", -MAX_RECORD_NUMBER, MAX_RECORD_NUMBER, BadRecord
    )


def _constant(text: str) -> float:
    """NaN and Infinity, which Python's JSON reader takes and no record holds."""
    raise BadRecord(f"a number in the record must be finite, not {text}")
