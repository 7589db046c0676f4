"""OpenSpiel's sequential perfect-information games as nimmax games (`openspiel:NAME(params)`,
with the `nimmax[openspiel]` extra).

A state wraps a pyspiel state that is never mutated once made (`result` applies a move to a
clone); its key is the action history, exact in every game (a game's string may miss how a
position was reached: a repetition rule, a merge flag), or where a game's drawing fixes all that
follows (`BOARD_KEYED`), the drawing and the seat to move. Every call into pyspiel goes through
`_spiel`, which turns OpenSpiel's exceptions into one line naming the game; the game reaches
nimmax behind the plugin guard, which checks what it returns.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

from nimmax.errors import BadGameSpec, IllegalMove, quoted
from nimmax.game import CHANCE, AnyGame, Capability, Game, legal_text, outcomes
from nimmax.plugins.guard import PluginFailed, one_line

PREFIX = "openspiel:"
BOARD_KEYED = frozenset({"tic_tac_toe", "connect_four", "mnk", "hex"})
"""Games whose drawing and the seat to move fix everything ahead (stones placed, never moved or
taken): keyed by those, so transposed move orders share a table entry. Any other is keyed by its
history; Hex with its swap rule too (whether the swap is still open is not drawn)."""
INSTALL = "pip install 'nimmax[openspiel]'"


def pyspiel() -> Any:
    """The pyspiel module; BadGameSpec saying how to install it when it is missing."""
    try:
        import pyspiel as module
    except ImportError:
        raise BadGameSpec(f"OpenSpiel is not installed: {INSTALL}") from None
    return module


def names(text: str) -> bool:
    """Whether game words' first word names an OpenSpiel game."""
    return text.lower().startswith(PREFIX)


@contextmanager
def _spiel(game: str) -> Iterator[None]:
    """OpenSpiel's exceptions (SpielError, and any other its Python raises) as one line naming the
    game."""
    try:
        yield
    except (IllegalMove, BadGameSpec, KeyboardInterrupt, PluginFailed, RecursionError, MemoryError):
        raise
    except Exception as error:
        raise PluginFailed(one_line(f"{game}: OpenSpiel: {error}")) from None


@contextmanager
def _quiet() -> Iterator[None]:
    """Standard error closed to OpenSpiel's C++, which prints an error it is about to raise."""
    sys.stderr.flush()
    kept = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(kept, 2)
        os.close(kept)


class Move:
    """One action at one state: equal by its action number, written as OpenSpiel writes it there."""

    __slots__ = ("_state", "_text", "action")

    def __init__(self, action: int, state: Any, text: str | None = None) -> None:
        self.action, self._state, self._text = action, state, text

    @property
    def text(self) -> str:
        """`action_to_string` at the state the move is made from (read once)."""
        if self._text is None:
            self._text = self._state.action_to_string(self._state.current_player(), self.action)
        return self._text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and other.action == self.action

    def __hash__(self) -> int:
        return hash(self.action)

    def __repr__(self) -> str:
        return f"Move({self.action}, {self.text!r})"


class Position:
    """An immutable position: the action history from the start, the pyspiel state it made, and
    the seat to move (at the end, the seat after the last mover: pyspiel's own is no seat)."""

    __slots__ = ("_moves", "history", "seat", "spiel")

    def __init__(self, history: tuple[int, ...], spiel: Any, seat: int) -> None:
        self.history, self.spiel, self.seat = history, spiel, seat
        self._moves: list[Move] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and other.history == self.history

    def __hash__(self) -> int:
        return hash(self.history)

    def __repr__(self) -> str:
        return f"Position{self.history}"


class OpenSpielGame(Game[Position, Move]):
    """A game from OpenSpiel's registry, its rules and drawing OpenSpiel's own."""

    def __init__(self, text: str, spiel_game: Any) -> None:
        self.text, self.spiel_game = text, spiel_game
        kind = spiel_game.get_type()
        self.name = PREFIX + text
        self.players = spiel_game.num_players()
        self.player_names = ("Player",) if self.players == 1 else ("First", "Second")
        self.low, self.high = float(spiel_game.min_utility()), float(spiel_game.max_utility())
        chance = kind.chance_mode != pyspiel().GameType.ChanceMode.DETERMINISTIC
        self.capabilities = frozenset(
            {Capability.BOUNDS} | ({Capability.CHANCE} if chance else set())
        )
        self.summary = kind.long_name
        self.board_keyed = kind.short_name in BOARD_KEYED and not spiel_game.get_parameters().get(
            "swap"
        )

    @property
    def spec(self) -> str:
        """The one word that rebuilds the game, quoted where OpenSpiel's parameters need it."""
        return shlex.quote(self.name)

    def initial_state(self) -> Position:
        with _spiel(self.name):
            spiel = self.spiel_game.new_initial_state()
            return Position((), spiel, self._seat(spiel, 0))

    def _seat(self, spiel: Any, before: int) -> int:
        """The seat to move in `spiel` (pyspiel's chance player is -1, as nimmax's CHANCE); at
        the end, the seat after `before`, the last to move."""
        player: int = spiel.current_player()
        if player >= 0 or player == CHANCE:
            return player
        return (before + 1) % self.players if before >= 0 else 0

    def to_move(self, state: Position) -> int:
        return state.seat

    def actions(self, state: Position) -> list[Move]:
        if state._moves is None:
            with _spiel(self.name):
                spiel = state.spiel
                state._moves = [Move(action, spiel) for action in spiel.legal_actions()]
        return state._moves

    def result(self, state: Position, action: Move) -> Position:
        if action not in self.actions(state):
            raise IllegalMove(f"{action!r} is not a legal move; legal: {legal_text(self, state)}")
        with _spiel(self.name):
            after = state.spiel.clone()
            after.apply_action(action.action)
            return Position((*state.history, action.action), after, self._seat(after, state.seat))

    def is_terminal(self, state: Position) -> bool:
        return bool(state.spiel.is_terminal())

    def utility(self, state: Position, player: int) -> float:
        with _spiel(self.name):
            return float(state.spiel.returns()[player])

    def utility_bounds(self, state: Position) -> tuple[float, float]:
        return self.low, self.high

    def key(self, state: Position) -> Hashable:
        """The history, exact in every game; the seat and the drawing where they fix the rest."""
        if self.board_keyed:
            with _spiel(self.name):
                return state.seat, str(state.spiel)
        return state.history

    def parse_move(self, text: str, state: Position) -> Move:
        """The move written `text` here: exactly as OpenSpiel writes it, else ignoring case where
        that names one move (chess's `e4` and `E4` may differ)."""
        wanted = text.strip()
        chance = self.to_move(state) == CHANCE
        moves = [move for _, move in outcomes(self, state)] if chance else self.actions(state)
        for move in moves:
            if move.text == wanted:
                return move
        folded = [move for move in moves if move.text.lower() == wanted.lower()]
        if len(folded) == 1:
            return folded[0]
        raise IllegalMove(f"{quoted(wanted)} is not a legal move; legal: {legal_text(self, state)}")

    def format_move(self, action: Move) -> str:
        return action.text

    def format_position(self, state: Position) -> str:
        """The moves from the start, as action numbers (a position is its history)."""
        return " ".join(map(str, state.history)) or "start"

    def render(self, state: Position, last_move: Any = None) -> str:
        """OpenSpiel's own drawing of the position."""
        with _spiel(self.name):
            return str(state.spiel).rstrip("\n")

    def __reduce__(self) -> tuple[Callable[[str], AnyGame], tuple[str]]:
        return create_bare, (self.text,)


class OpenSpielChanceGame(OpenSpielGame):
    """An OpenSpiel game with chance nodes, whose outcomes OpenSpiel lists with their
    probabilities."""

    def chance_outcomes(self, state: Position) -> list[tuple[float, Move]]:
        with _spiel(self.name):
            spiel = state.spiel
            return [
                (float(chance), Move(action, spiel)) for action, chance in spiel.chance_outcomes()
            ]


@dataclass(frozen=True)
class Listed:
    """An OpenSpiel game that qualifies: its name, its long name and its parameters with their
    defaults."""

    name: str
    long_name: str
    parameters: dict[str, object]


def refusal(kind: Any, players: int) -> str | None:
    """Why an OpenSpiel game type does not fit nimmax's protocol, or None when it does."""
    spiel_type = pyspiel().GameType
    if kind.dynamics != spiel_type.Dynamics.SEQUENTIAL:
        return "its moves are simultaneous"
    if kind.information != spiel_type.Information.PERFECT_INFORMATION:
        return "it has imperfect information"
    if kind.chance_mode == spiel_type.ChanceMode.SAMPLED_STOCHASTIC:
        return "its chance is sampled, not listed"
    if players > 2:
        return f"it has {players} players (nimmax plays one or two)"
    if players == 2 and kind.utility != spiel_type.Utility.ZERO_SUM:
        return (
            f"it is not zero-sum ({str(kind.utility).rpartition('.')[2].lower().replace('_', '-')})"
        )
    return None


def catalog() -> tuple[Listed, ...]:
    """The registered OpenSpiel games that qualify at their default parameters; none without
    OpenSpiel."""
    try:
        module = pyspiel()
    except BadGameSpec:
        return ()
    found = []
    for kind in module.registered_games():
        parameters = dict(kind.parameter_specification)
        players = parameters.get("players", kind.min_num_players)
        if refusal(kind, int(players)) is None and kind.short_name not in KNOWN_CRASHING:
            found.append(Listed(kind.short_name, kind.long_name, parameters))
    return tuple(sorted(found, key=lambda listed: listed.name))


KNOWN_CRASHING = frozenset({"morpion_solitaire"})
"""Games whose states the probe (`clones`) finds crashing OpenSpiel 2.0: `nimmax games` leaves them
out without starting a probe for each game it lists (loading one still probes it)."""


_PROBE = """
import random, sys, pyspiel
state = pyspiel.load_game(sys.argv[1]).new_initial_state()
chooser = random.Random(0)
for _ in range(30):
    if state.is_terminal():
        break
    copy = state.clone()
    chance = state.is_chance_node()
    moves = [a for a, _ in state.chance_outcomes()] if chance else state.legal_actions()
    copy.apply_action(chooser.choice(moves))
    state = copy
"""


@cache
def clones(text: str) -> bool:
    """Whether a game's states clone and play without crashing, tried in a subprocess (a crash in
    OpenSpiel's C++ would end nimmax itself)."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _PROBE, text], capture_output=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 or done.returncode == 1 and b"SpielError" in done.stderr


def create_bare(text: str) -> OpenSpielGame:
    """The adapter for `NAME(params)`, unguarded (what pool workers rebuild from pickles, and
    `check` tries)."""
    module = pyspiel()
    name = text.partition("(")[0].strip()
    if name not in module.registered_names():
        raise BadGameSpec(
            f"no OpenSpiel game {quoted(name)}; `nimmax games` lists those nimmax plays"
        )
    try:
        with _quiet():
            spiel_game = module.load_game(text)
    except Exception as error:  # noqa: BLE001 - OpenSpiel's parameter errors, in one line
        raise BadGameSpec(one_line(f"{PREFIX}{text}: {error}")) from None
    why = refusal(spiel_game.get_type(), spiel_game.num_players())
    if why is None and not clones(text):
        why = "its states crash OpenSpiel when cloned"
    if why is not None:
        raise BadGameSpec(f"{PREFIX}{text} is not a game nimmax plays: {why}")
    chance = spiel_game.get_type().chance_mode != module.GameType.ChanceMode.DETERMINISTIC
    return (OpenSpielChanceGame if chance else OpenSpielGame)(text, spiel_game)


def create(words: Sequence[str]) -> AnyGame:
    """The game `openspiel:NAME(params)` names, behind the plugin guard."""
    from nimmax.plugins.guard import guard_game

    head, *rest = words
    if rest:
        raise BadGameSpec(
            f"{head} takes its parameters in parentheses, e.g. 'openspiel:hex(board_size=5)'"
        )
    text = head[len(PREFIX) :].strip()
    game = create_bare(text)
    guarded = guard_game(game)
    guarded.words = (game.name,)
    return guarded
