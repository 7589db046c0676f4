"""What a finished game and a searched value mean, in each game's own terms.

Won, drawn and lost games say win, draw or loss. Scoring games say the score and the margin
as their players count them, through their presentation (`ui.games`): Kalah in seeds ("South
wins 26–22"), the plates game in the note A keeps against the best A could make sure of ("A
keeps 20; best possible 20"), 2048 in points and its best tile. A game without its own
wording reads as won, drawn or lost (by so many points where its payoffs are larger).
Views take values: a result read against the game's value is given that value by the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nimmax.game import AnyGame, has_chance, winner_of
from nimmax.ui.games import presentation
from nimmax.ui.presentation import Outcome


def outcome(
    game: AnyGame, state: Any, labels: Sequence[str], value: float | None = None
) -> Outcome:
    """A finished game in one line, in the game's own terms, and the seat it went well for; `value`
    is the game's value from its start, for a game whose result is read against it
    (`Presentation.valued`)."""
    own = presentation(game).outcome
    if own is not None:
        return own(game, state, labels, value)
    winner = winner_of(game, state)
    payoffs = [game.utility(state, seat) for seat in range(game.players)]
    if game.players == 1:
        if abs(payoffs[0]) > 1:
            return f"Game over: {labels[0]} scores {payoffs[0]:,g}", winner
        return f"Game over: {labels[0]} " + {1: "wins", 0: "draws", -1: "loses"}[
            int(payoffs[0])
        ], winner
    if winner is None:
        return "Draw", None
    margin = payoffs[winner]
    return f"{labels[winner]} wins" + (f" by {margin:,g} points" if abs(margin) > 1 else ""), winner


def value_words(game: AnyGame, value: float, mover: int | None = None) -> str:
    """A proven value for the side to move (`mover`, where known) in the game's terms:
    win/draw/loss, "win by 4 seeds", "A keeps 20", or ahead/behind by so many points for games
    scoring otherwise."""
    own = presentation(game).value
    if own is not None:
        return own(game, value, mover)
    if has_chance(game):
        return "expected"
    if game.players == 1:
        return "proven"
    if value in (-1, 0, 1):
        return {1: "win", 0: "draw", -1: "loss"}[int(value)]
    return f"{'ahead' if value > 0 else 'behind'} by {abs(value):,g} points"


def ending(game: AnyGame, state: Any, labels: Sequence[str], last: int | None = None) -> str:
    """Why a finished game ended, in words; `last` is the seat that made the last move."""
    own = presentation(game).ending
    if own is not None:
        return own(game, state, labels, last)
    try:
        stuck = len(game.actions(state)) == 0
    except Exception:  # noqa: BLE001 - a game need not list moves at its end (the protocol asks none there)
        stuck = False
    return "no legal move is left" if stuck else "game over"
