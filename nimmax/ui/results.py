"""What a finished game and a searched value mean, in each game's own terms.

Won, drawn and lost games say win, draw or loss. Scoring games say the score and the margin
as their players count them: Kalah in seeds ("South wins 26–22"), the plates game in the note
A keeps against the best A could make sure of ("A keeps 20; best possible 20"), 2048 in
points and its best tile. One function per scoring game, keyed by the registry's name; a game
without one reads as won, drawn or lost (by so many points where its payoffs are larger).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from nimmax.game import AnyGame

Outcome = tuple[str, int | None]
"""A finished game in words, and the seat it went well for (None: neither, or a draw)."""


def kalah_outcome(game: AnyGame, state: Any, labels: Sequence[str]) -> Outcome:
    """Seeds each side ends with (store plus the pits it sweeps): "South wins 26–22", "Draw 24–24"."""
    totals = [state.store(seat) + sum(state.row(seat)) for seat in range(2)]
    if totals[0] == totals[1]:
        return f"Draw {totals[0]}–{totals[1]}", None
    winner = int(totals[1] > totals[0])
    return f"{labels[winner]} wins {totals[winner]}–{totals[1 - winner]}", winner


@cache
def plates_best(game: AnyGame) -> float:
    """The note A can make sure of from the start, whatever B does: the game's value (a tree of a few hundred nodes)."""
    from nimmax.search import INFINITY, search

    return search(game, game.initial_state(), "alphabeta", time=INFINITY).value


def plates_outcome(game: AnyGame, state: Any, labels: Sequence[str]) -> Outcome:
    """The note A keeps, beside the best A can make sure of: "A keeps 20; best possible 20"."""
    kept, best = game.utility(state, 0), plates_best(game)
    went_well = 0 if kept > best else 1 if kept < best else None  # above the value: B erred; below: A did
    return f"{labels[0]} keeps {kept:,g}; best possible {best:,g}", went_well


def twenty48_outcome(game: AnyGame, state: Any, labels: Sequence[str]) -> Outcome:
    """The score and the best tile, and whether the goal tile was made."""
    from nimmax.games.twenty48 import Twenty48

    assert isinstance(game, Twenty48)
    best = 1 << game.best_rank(state.board)
    made = game.winner(state) == 0
    goal = f"{game.goal} made" if made else f"{game.goal} not made"
    return f"Game over: {labels[0]} scores {state.score:,}, best tile {best} ({goal})", 0 if made else None


OUTCOMES: Mapping[str, Callable[[AnyGame, Any, Sequence[str]], Outcome]] = {
    "kalah": kalah_outcome,
    "plates": plates_outcome,
    "2048": twenty48_outcome,
}
"""Game name to how a finished game of it reads; others read as won, drawn or lost."""


def outcome(game: AnyGame, state: Any, labels: Sequence[str]) -> Outcome:
    """A finished game in one line, in the game's own terms, and the seat it went well for."""
    own = OUTCOMES.get(game.name) if not game.words else None
    if own is not None:
        return own(game, state, labels)
    winner = game.winner(state)
    payoffs = [game.utility(state, seat) for seat in range(game.players)]
    if game.players == 1:
        if abs(payoffs[0]) > 1:
            return f"Game over: {labels[0]} scores {payoffs[0]:,g}", winner
        return f"Game over: {labels[0]} " + {1: "wins", 0: "draws", -1: "loses"}[int(payoffs[0])], winner
    if winner is None:
        return "Draw", None
    margin = payoffs[winner]
    return f"{labels[winner]} wins" + (f" by {margin:,g} points" if abs(margin) > 1 else ""), winner


def kalah_value(game: AnyGame, value: float, mover: int | None) -> str:
    """A Kalah value is the mover's final margin in seeds: "win by 4 seeds"."""
    seeds = abs(value)
    unit = "seed" if seeds == 1 else "seeds"
    return "draw" if value == 0 else f"{'win' if value > 0 else 'loss'} by {seeds:,g} {unit}"


def plates_value(game: AnyGame, value: float, mover: int | None) -> str:
    """A plates value is the note A ends with, signed for the mover: "A keeps 20"."""
    if mover is None:
        return "ahead" if value > 0 else "behind" if value < 0 else "even"
    return f"{game.player_names[0]} keeps {value if mover == 0 else -value:,g}"


VALUES: Mapping[str, Callable[[AnyGame, float, int | None], str]] = {"kalah": kalah_value, "plates": plates_value}
"""Game name to how a proven value of it reads for the side to move."""


def value_words(game: AnyGame, value: float, mover: int | None = None) -> str:
    """A proven value for the side to move (`mover`, where known) in the game's terms: win/draw/loss,
    "win by 4 seeds", "A keeps 20", or ahead/behind by so many points for games scoring otherwise."""
    own = VALUES.get(game.name) if not game.words else None
    if own is not None:
        return own(game, value, mover)
    if game.has_chance:
        return f"expected score {value:,.0f}" if game.name == "2048" else "expected"
    if game.players == 1:
        return "proven"
    if value in (-1, 0, 1):
        return {1: "win", 0: "draw", -1: "loss"}[int(value)]
    return f"{'ahead' if value > 0 else 'behind'} by {abs(value):,g} points"


MARGINS: Mapping[str, str] = {
    "kalah": "seeds ahead per game",
    "plates": "note per game (as B, minus A's)",
}
"""Game name to the label of a duel's mean payoff per game, for two-player games that score."""


def line_ending(game: AnyGame, state: Any, labels: Sequence[str], last: int | None) -> str:
    """An m,n,k game: the line that was made, its cells named by the game, or a full board."""
    from nimmax.games.mnk import MNK

    assert isinstance(game, MNK)
    winner = game.winner(state)
    if winner is None:
        return "the board is full with no line made"
    return f"{labels[winner]} made {game.k} in a row: {', '.join(game.winning_cells(state))}"


def counter_ending(game: AnyGame, state: Any, labels: Sequence[str], last: int | None) -> str:
    """Nim and Simple-Nim: who took the last counter, and what that means in this play."""
    if last is None:
        return "no counters to take"
    misere = getattr(game, "misere", True)
    return f"{labels[last]} took the last counter, and " + ("loses (misère play)" if misere else "wins (normal play)")


def split_ending(game: AnyGame, state: Any, labels: Sequence[str], last: int | None) -> str:
    """Split-Nim: the side to move has no pile it can split into two unequal piles."""
    return f"{labels[game.to_move(state)]} cannot split any pile into two unequal piles"


def kalah_ending(game: AnyGame, state: Any, labels: Sequence[str], last: int | None) -> str:
    """Kalah: a row ran empty and the seeds left went to their owner's store."""
    empty = [labels[seat] for seat in range(2) if not any(state.row(seat))]
    side = empty[0] if empty else "a side"
    return f"{side}'s pits are empty, so each side keeps the seeds left on its own row"


def plates_ending(game: AnyGame, state: Any, labels: Sequence[str], last: int | None) -> str:
    """The plates game: A kept one of the two notes B handed over."""
    return f"{labels[0]} kept one of the two notes {labels[1]} handed over"


def twenty48_ending(game: AnyGame, state: Any, labels: Sequence[str], last: int | None) -> str:
    """2048: no slide changes the board."""
    return "no slide changes the board"


ENDINGS: Mapping[str, Callable[[AnyGame, Any, Sequence[str], int | None], str]] = {
    "tictactoe": line_ending,
    "connect4": line_ending,
    "simple-nim": counter_ending,
    "nim": counter_ending,
    "split-nim": split_ending,
    "kalah": kalah_ending,
    "plates": plates_ending,
    "2048": twenty48_ending,
}
"""Game name to why a finished game of it ended; others end with "no legal move" or "game over"."""


def ending(game: AnyGame, state: Any, labels: Sequence[str], last: int | None = None) -> str:
    """Why a finished game ended, in words; `last` is the seat that made the last move."""
    own = ENDINGS.get(game.name) if not game.words else None  # a plugin may reuse a built-in name
    if own is not None:
        return own(game, state, labels, last)
    try:
        stuck = len(game.actions(state)) == 0
    except Exception:  # noqa: BLE001 - a game need not list moves at its end (the protocol asks none there)
        stuck = False
    return "no legal move is left" if stuck else "game over"
