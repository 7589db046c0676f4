"""One game at the console, without the console: the players made from their specs, their moves
(the core `Match`), a person's take-back, a hint, why an engine moved, and the value of the game
from its start that the closing banner reads; and what `play` plays (a new game or a resumed one).

The view (`ui/play.py`) draws what this hands it and reads the keys; people answer through the
`ask` it gives, and every search shows through the `watcher` it gives.
"""

from __future__ import annotations

import contextlib
import os
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nimmax import games, recorded, saves
from nimmax.claim import Claim, Proofs
from nimmax.commands.analyze import game_value
from nimmax.commands.explain import MoveLine, lines
from nimmax.files import read_text
from nimmax.game import CHANCE, AnyGame, BadInput, seed_of
from nimmax.match import (
    MAX_RECORD_BYTES,
    BadRecord,
    Command,
    GameRecord,
    Match,
    Ply,
    TakeBack,
    TakenBack,
)
from nimmax.player import Player
from nimmax.players import HumanPlayer, SearchPlayer, Spec, check_fit, create, limited, suggested
from nimmax.recorded import plies
from nimmax.search.limits import override
from nimmax.search.result import SearchResult, Watcher

Ask = Callable[[AnyGame, Any], Any | Command]
"""How a person is asked for a move: the answer is a move or a command the match acts on."""


@dataclass(frozen=True)
class Why:
    """Why an engine played a move: its search again of the position before it, every move valued
    (its table still warm), and each move's line (the best one's, the others' refutations)."""

    result: SearchResult
    lines: tuple[MoveLine, ...]


class GameSession:
    """One game between players given by spec: their moves, take-backs, hints and `why`; people
    answer through `ask`, and `watcher` (a live line) sees every search."""

    def __init__(
        self,
        game: AnyGame,
        specs: Sequence[Spec],
        ask: Ask,
        watcher: Watcher | None = None,
        seed: int | None = None,
        time_limit: float | None = None,
        history: Sequence[Ply] = (),
    ) -> None:
        self.game, self.watcher = game, watcher
        limits = override(time=time_limit)
        chosen = [limited(spec, limits) for spec in specs]
        for spec in chosen:
            check_fit(spec, game)
        self.players: list[Player] = [
            create(spec, seed=None if seed is None else seed + seat, ask=ask, watcher=watcher)
            for seat, spec in enumerate(chosen)
        ]
        hint = suggested(game)
        self.hint_spec = hint.limited(limits) if limits is not None else hint
        self.humans = {
            seat for seat, player in enumerate(self.players) if isinstance(player, HumanPlayer)
        }
        rng = random.Random(own if (own := seed_of(game)) is not None else seed)
        self.match = Match(game, self.players, rng, history)
        self.engines = any(isinstance(player, SearchPlayer) for player in self.players)
        """Whether an engine plays: `why` is offered only then."""
        self.hinter: SearchPlayer | None = None
        self.proofs = Proofs()
        """What this game's searches proved: every later view of a position shows its proof."""

    @property
    def specs(self) -> list[str]:
        """Each seat's player spec, as its player words it."""
        return [player.spec for player in self.players]

    def run(self) -> Iterator[Ply | TakenBack]:
        """The game played on: each ply as it is made, each take-back as it is done."""
        return self.match.run()

    def searching(self) -> int | None:
        """The seat whose engine searches for the next move; None where a person or chance moves, or
        the game is over."""
        state = self.match.state
        seat = CHANCE if self.game.is_terminal(state) else self.game.to_move(state)
        return seat if seat != CHANCE and isinstance(self.players[seat], SearchPlayer) else None

    def take_back(self) -> TakeBack:
        """A person's undo: their last move, with the replies and chance draws after it."""
        return TakeBack(frozenset(self.humans))

    def hint(self, state: Any) -> SearchResult:
        """The best move by the opponent's engine (or, where none plays, the game's own engine)."""
        if self.hinter is None:
            engines = [player for player in self.players if isinstance(player, SearchPlayer)]
            self.hinter = engines[0] if engines else SearchPlayer(self.hint_spec, self.watcher)
        return self.hinter.search(self.game, state)

    def claim(self, state: Any, search: SearchResult) -> Claim:
        """What a search of `state` claims, the session's proof where one was made: the one value
        every view of the position shows."""
        return self.proofs.claimed(self.game, state, search)

    def end_value(self, valued: bool) -> float | None:
        """The game's value from its start, searched for where the game has ended and its result is
        read against it (`valued`); None elsewhere."""
        return start_value(self.game, self.match.state, valued)

    def last_searched(self) -> Ply | None:
        """The last ply an engine chose, the one `why` explains; None before any."""
        return next((ply for ply in reversed(self.match.history) if ply.search is not None), None)

    def why(self, ply: Ply) -> Why:
        """Why the engine of `ply` played it, searched again by that engine."""
        player = self.players[ply.seat]
        assert isinstance(player, SearchPlayer)
        result = player.search(self.game, ply.before, every_move=True)
        return Why(result, lines(self.game, ply.before, player, self.proofs, result))


def start_value(game: AnyGame, state: Any, valued: bool) -> float | None:
    """The game's value from its start, searched for where `state` ends a game whose result is read
    against it (`valued`: the plates game's); None elsewhere."""
    return game_value(game) if game.is_terminal(state) and valued else None


def setup(
    words: Sequence[str],
    first: Spec | None,
    second: Spec | None,
    resume: bool,
    record: Path | None,
    plugin: str | None,
) -> tuple[AnyGame, list[Spec], Path | None, list[Ply]]:
    """What `play` plays: the game, each seat's spec, where the record goes, and the plies already
    made (a resumed game's, its players unless `first`/`second` name others)."""
    history: list[Ply] = []
    if resume:
        started, record, history = resumed(words, record, plugin)
        game = games.create(started.game)
        kept = recorded.players(started)
        first, second = first or kept[0], second or kept[-1]
    elif not words:
        raise BadInput("name a game to play (nimmax play nim 2 3 5), or --resume to go on with one")
    else:
        game = games.create(words)
        if game.players == 1 and second is not None:
            raise BadInput(f"{game.name} is a one-player game: give only --first")
    specs = (
        [first or Spec("human")]
        if game.players == 1
        else [first or Spec("human"), second or suggested(game)]
    )
    return game, specs, record, history


def resumed(
    words: Sequence[str], record: Path | None, plugin: str | None
) -> tuple[GameRecord, Path | None, list[Ply]]:
    """What `play --resume [FILE]` goes on with: the unfinished record, where the game is written
    (`record`, else the file itself; an autosave is replaced by a new one on quitting), its
    plies."""
    if len(words) > 1:
        raise BadInput("--resume takes one record (or none: the latest autosave), not game words")
    target = record
    if words:
        path = Path(words[0])
        started = saves.resumable(read_record(path, plugin), path)
        target = record if record is not None else path
    else:
        started, autosave = saves.latest()
        # its moves go on in this game, kept anew if it is left again
        with contextlib.suppress(OSError):
            os.unlink(autosave)
    return started, target, plies(started)


def read_record(path: Path, plugin: str | None = None) -> GameRecord:
    """Load a record file, at most MAX_RECORD_BYTES of it; BadRecord says why it cannot be used.
    A plugin game's record needs the plugin named (`plugin`, `--plugin`): a record runs no code."""
    return GameRecord.from_json(
        read_text(path, MAX_RECORD_BYTES, "a record", BadRecord), path.parent, plugin
    )
