"""Why a move: each root move's value with the line that shows it, the best move's and each
other move's refutation ("c3 loses: O b1, X a1, O b3 wins").

A line is the engine's principal variation after the move, searched again from where the
table's line stops, so a proven line runs to the end of the game and ends where its value says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nimmax.game import CHANCE, AnyGame
from nimmax.players import SearchPlayer
from nimmax.search import EXACT, SearchResult

LINE_PLIES = 40
"""The most plies a line shows: enough for any small game, a glance on a big one."""

ANY_SPAWN = "any spawn"
"""A chance node in a line: the engine averages its outcomes rather than expecting one."""


@dataclass(frozen=True)
class MoveLine:
    """A root move, its value for the side to move, and the line after it (the move first)."""

    move: Any
    value: float
    exact: bool
    line: tuple[Any, ...]
    """The moves of the line; ANY_SPAWN where chance moves (the line stops there)."""
    finished: bool
    """Whether the line reaches the end of the game."""


def lines(game: AnyGame, state: Any, player: SearchPlayer, result: SearchResult | None = None) -> tuple[MoveLine, ...]:
    """Every move of `state` with its value and line, best first; `result` is a search of
    `state` with every move valued, when the caller has one."""
    if result is None or not result.moves:
        result = player.search(game, state, every_move=True)
    exact = result.exact and result.moves_proven
    found = []
    for move, value in sorted(result.moves, key=lambda pair: -pair[1]):
        line, finished = follow(game, player, game.result(state, move), exact)
        found.append(MoveLine(move, value, exact, (move, *line), finished))
    return tuple(found)


def follow(game: AnyGame, player: SearchPlayer, state: Any, proven: bool) -> tuple[tuple[Any, ...], bool]:
    """The best line from `state`, up to LINE_PLIES, and whether it reaches the end of the game.

    An estimate's line is the one the engine saw, read from its table; a proven line is
    searched again wherever the table's stops short, so it runs to the end.
    """
    table = player.table_for(game)
    line: list[Any] = []
    while len(line) < LINE_PLIES:
        if game.is_terminal(state):
            return tuple(line), True
        if game.to_move(state) == CHANCE:
            line.append(ANY_SPAWN)
            break
        entry = table.get(game.key(state))
        if entry is not None and entry.bound == EXACT and entry.move is not None and entry.state == state:
            line.append(entry.move)
            state = game.result(state, entry.move)
        elif proven and (pv := player.search(game, state).pv):
            line.append(pv[0])
            state = game.result(state, pv[0])
        else:
            break
    return tuple(line), game.is_terminal(state)


def line_text(game: AnyGame, state: Any, line: tuple[Any, ...]) -> str:
    """The line in the game's notation, each move after the first named by its mover: "b1 (O), a1 (X)"."""
    parts = []
    for move in line:
        if move == ANY_SPAWN:
            parts.append(ANY_SPAWN)
            break
        mover = game.to_move(state)
        name = game.player_names[mover] if mover >= 0 else "chance"
        parts.append(f"{name} {game.format_move(move)}")
        state = game.result(state, move)
    return ", ".join(parts)


def outcome_word(game: AnyGame, value: float, exact: bool) -> str:
    """What a value means for the side to move: "wins", "draws", "loses" when proven, with the
    margin where the game scores points, or the score of a one-player game; an estimate as a
    signed number."""
    if not exact:
        return f"estimate {value:+.2f}"
    if game.players == 1:
        return f"scores {value:g}"
    if value == 0:
        return "draws"
    word = "wins" if value > 0 else "loses"
    return word if abs(value) == 1 else f"{word} by {abs(value):g}"


def explanation(game: AnyGame, state: Any, found: MoveLine) -> str:
    """One sentence for a root move: "c3 loses: O b1, X a1, O b3" (the line after the move)."""
    head = f"{game.format_move(found.move)} {outcome_word(game, found.value, found.exact)}"
    rest = found.line[1:]
    if not rest:
        return head
    after = game.result(state, found.move)
    tail = "" if found.finished or rest[-1] == ANY_SPAWN else ", …"
    return f"{head}: {line_text(game, after, rest)}{tail}"
