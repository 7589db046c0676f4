"""The key law's own solver: exact values of small positions, keyed by the states themselves,
since the engines trust the key it is checking."""

from __future__ import annotations

import copy
import math
from typing import Any

from nimmax.game import CHANCE, AnyGame, outcomes

MAX_PLIES = 300
"""A playout stops after this many plies (2048 and big boards run long); its positions still count."""

SOLVER_NODES = 5_000
"""Positions the key law's solver may visit to value one position; beyond them the pair is skipped."""


class Solver:
    """Exact values of small positions by plain expectiminimax over the states themselves.

    A score is the payoff times SCALE, moved one unit towards zero per ply, so it holds both
    the value and the distance to the end; it is for the side to move (seat 0 at chance).
    """

    SCALE = 1 << 20

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.memo: dict[Any, float] = {}
        self.copies = False
        """Whether moves are made on copies (a game whose result() changes its input)."""

    def value(self, state: Any) -> float | None:
        """The state's score for its side to move, or None when it needs too many positions."""
        if len(self.memo) > 20 * SOLVER_NODES:
            self.memo.clear()
        self.left = SOLVER_NODES
        try:
            return self.score(state, 0)
        except _TooBig:
            return None

    def viewpoint(self, state: Any) -> int:
        mover = self.game.to_move(state)
        return 0 if mover == CHANCE else mover

    def score(self, state: Any, plies: int) -> float:
        known = self.memo.get(state)
        if known is not None:
            return known
        self.left -= 1
        if self.left < 0 or plies > MAX_PLIES:
            raise _TooBig
        game, me = self.game, self.viewpoint(state)
        if game.is_terminal(state):
            found = float(game.utility(state, me)) * self.SCALE
        elif game.to_move(state) == CHANCE:
            found = math.fsum(p * self.child(me, game.result(state, o), plies) for p, o in outcomes(game, state))
        else:
            found = max(self.child(me, self.made(state, move), plies) for move in game.actions(state))
        self.memo[state] = found
        return found

    def made(self, state: Any, move: Any) -> Any:
        return self.game.result(copy.deepcopy(state) if self.copies else state, move)

    def child(self, me: int, state: Any, plies: int) -> float:
        """A child's score for the parent's side `me`, one ply further from the end."""
        score = self.score(state, plies + 1)
        score = score if self.viewpoint(state) == me else -score
        return score - 1 if score >= 1 else score + 1 if score <= -1 else 0.0

    def split(self, score: float) -> tuple[float, float]:
        """A score's payoff and its plies to the end (0 for a draw), taken apart."""
        payoff = round(score / self.SCALE)
        return payoff, abs(payoff * self.SCALE - score)

    def describe(self, score: float) -> str:
        """A score in words: the payoff, and the plies to the end where they matter."""
        payoff, plies = self.split(score)
        return f"{payoff:+g}" + (f" in {plies:g} plies" if payoff and plies == int(plies) else "")


class _TooBig(Exception):
    """The solver's budget ran out."""
