"""The key law's solver: exact values of small positions by the one exact solver
(`nimmax.search.exact`), keyed by the states themselves, since the engines trust the key it is
checking."""

from __future__ import annotations

import copy
from collections.abc import Hashable, Iterable
from typing import Any

from nimmax.game import CHANCE, AnyGame, outcomes
from nimmax.search.exact import Exact, OutOfNodes
from nimmax.search.score import SCALE, split

MAX_PLIES = 300
"""A playout stops after this many plies (2048 and big boards run long); its positions still
count."""

SOLVER_NODES = 5_000
"""Positions the key law's solver may visit to value one position; beyond them the pair is
skipped."""


class States:
    """A game's states as the exact solver reads them: keyed by themselves, scored for the side to
    move (seat 0 at chance), a payoff a SCALE of score."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.copies = False
        """Whether moves are made on copies (a game whose result() changes its input)."""

    def viewpoint(self, state: Any) -> int:
        mover = self.game.to_move(state)
        return 0 if mover == CHANCE else mover

    def key(self, state: Any) -> Hashable:
        return state  # type: ignore[no-any-return]

    def end(self, state: Any) -> float | None:
        if not self.game.is_terminal(state):
            return None
        return float(self.game.utility(state, self.viewpoint(state))) * SCALE

    def moves(self, state: Any) -> Iterable[tuple[Any, bool]]:
        me = self.viewpoint(state)
        for move in self.game.actions(state):
            child = self.game.result(copy.deepcopy(state) if self.copies else state, move)
            yield child, self.viewpoint(child) == me

    def chances(self, state: Any) -> Iterable[tuple[float, Any, bool]] | None:
        if self.game.to_move(state) != CHANCE:
            return None
        return [
            (chance, child := self.game.result(state, outcome), self.viewpoint(child) == 0)
            for chance, outcome in outcomes(self.game, state)
        ]


class Solver:
    """Exact values of small positions by expectiminimax over the states themselves (`Exact`): a
    score holds the payoff and the distance to the end (`nimmax.search.score`), for the side to move
    (seat 0 at chance)."""

    def __init__(self, game: AnyGame) -> None:
        self.states = States(game)
        self.exact: Exact[Any] = Exact(self.states, SOLVER_NODES, MAX_PLIES)

    @property
    def copies(self) -> bool:
        """Whether moves are made on copies (a game whose result() changes its input)."""
        return self.states.copies

    @copies.setter
    def copies(self, copies: bool) -> None:
        self.states.copies = copies

    def value(self, state: Any) -> float | None:
        """The state's score for its side to move, or None when it needs too many positions."""
        if len(self.exact.table) > 20 * SOLVER_NODES:
            self.exact.table.clear()
        try:
            return self.exact.value(state)
        except OutOfNodes:
            return None

    def split(self, score: float) -> tuple[float, float]:
        """A score's payoff and its plies to the end (0 for a draw), taken apart."""
        payoff, plies = split(score)
        return payoff, plies

    def describe(self, score: float) -> str:
        """A score in words: the payoff, and the plies to the end where they matter."""
        payoff, plies = self.split(score)
        return f"{payoff:+g}" + (f" in {plies:g} plies" if payoff and plies == int(plies) else "")
