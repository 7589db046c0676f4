"""Expectimax: players maximise, chance nodes average their outcomes by probability.

Chance nodes are valued from seat 0's side, so a score crosses a chance node with the sign
its two neighbours call for; two-player games with chance are valued as soundly as 2048.

A probability cut-off treats a node as a horizon once the chance of reaching it from the
root falls below `cutoff` (unlikely spawn sequences are not worth their subtrees); such a
value is an estimate, counted as a horizon, so no cut value is ever reported as proven.
"""

from __future__ import annotations

from typing import Any

from nimmax.game import CHANCE, AnyGame
from nimmax.search.budget import Budget
from nimmax.search.deepening import Searcher
from nimmax.search.score import FULL_DEPTH, INFINITY, older
from nimmax.search.table import EXACT, Table

DEFAULT_CUTOFF = 1e-4
"""The cut-off of a depth-, time- or node-limited search: spawn sequences rarer than 1 in 10,000."""


class Expectimax(Searcher):
    """Depth-limited expectimax with a table; a depth counts player moves and chance alike."""

    averages = True

    def __init__(
        self, game: AnyGame, table: Table | None = None, budget: Budget | None = None, cutoff: float = 0.0
    ) -> None:
        super().__init__(game, table, budget)
        self.cutoff = cutoff

    def viewpoint(self, state: Any) -> int:
        """The seat a node's score is for: the mover, or seat 0 at a chance node."""
        mover = self.game.to_move(state)
        return 0 if mover == CHANCE else mover

    def child_score(self, me: int, child: Any, depth: int, alpha: float, beta: float) -> float:
        return self.expected(me, child, depth, 1.0)

    def expected(self, me: int, child: Any, depth: int, probability: float) -> float:
        """A child's score for the parent's side `me`, one ply older; `probability` of reaching it."""
        score = self.node(child, depth, probability)
        return older(score if self.viewpoint(child) == me else -score)

    def node(self, state: Any, depth: int, probability: float) -> float:
        """The score of `state` for its viewpoint seat, `depth` plies deep."""
        game = self.game
        me = self.viewpoint(state)
        leaf = self.leaf(state, depth <= 0 or probability < self.cutoff, me)
        if leaf is not None:
            return leaf
        key = game.key(state)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            searched, _, score, move, seen = entry
            if searched >= depth:
                if searched < FULL_DEPTH:
                    self.horizon += 1
                return score
            if seen == hash(state):
                hint = move
        horizon_in = self.horizon
        best_move = None
        if game.to_move(state) == CHANCE:
            best = sum(
                chance * self.expected(me, game.result(state, outcome), depth - 1, probability * chance)
                for chance, outcome in game.chance_outcomes(state)
            )
        else:
            best = -INFINITY
            for move in self.moves(state, hint, narrow=False):
                score = self.expected(me, game.result(state, move), depth - 1, probability)
                if score > best:
                    best, best_move = score, move
        proven = self.horizon == horizon_in
        self.table.put(key, (FULL_DEPTH if proven else depth, EXACT, best, best_move, hash(state)))
        return best
