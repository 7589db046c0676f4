"""Expectimax: players maximise, chance nodes average their outcomes by probability.

Chance nodes are valued from seat 0's side, so a score crosses a chance node with the sign
its two neighbours call for; two-player games with chance are valued as soundly as 2048.

Under a clock, each deepening iteration goes a turn deeper, and the probability cut-off keeps
unlikely spawn sequences out: a board with few empty cells has few spawns, so the same time
searches it deeper (the depth grows as the board fills).

A probability cut-off treats a node as a horizon once the chance of reaching it from the
root falls below `cutoff` (unlikely spawn sequences are not worth their subtrees); such a
value is an estimate, counted as a horizon, so no cut value is ever reported as proven. A table
entry is read whatever the chance of the path that meets it again: a value stored where the
cut-off cut more serves where it would cut less (an estimate either way; `cache=off` values a
node exactly as the cut-off alone makes it).

Each search starts from an empty table. A position of a game with chance seldom comes back a
move later (2048's tiles sum to more after every spawn), so what an earlier move stored is
scarcely read again, while a table kept across moves grows until its trims and the dictionary's
rehashes, which no clock can interrupt, hold a timed move past its limit. Emptied at
the start, the table costs in proportion to the move before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nimmax.game import CHANCE, AnyGame, BadGameSpec, Capability, part
from nimmax.search.budget import Budget
from nimmax.search.deepening import Searcher, first_in
from nimmax.search.score import FULL_DEPTH, INFINITY, SCALE, older, rebase
from nimmax.search.table import EXACT, Table

DEFAULT_CUTOFF = 1e-4
"""The cut-off of a depth-, time- or node-limited search: spawn sequences rarer than 1 in 10,000."""


class Expectimax(Searcher):
    """Depth-limited expectimax with a table; a depth counts player moves and chance alike."""

    averages = True
    step = 2
    """Deepening adds a whole turn, a move and the chance after it, so that every iteration's
    horizon falls on the same kind of node (2048: the board after a slide, before its spawn): an
    iteration ending one ply short of a chance node costs nearly what the next does and sees no
    further."""

    def __init__(
        self,
        game: AnyGame,
        table: Table | None = None,
        budget: Budget | None = None,
        cutoff: float = 0.0,
    ) -> None:
        super().__init__(game, table, budget)
        self.cutoff = cutoff
        chancy = part(self.game, Capability.CHANCE)
        self.outcomes = chancy.chance_outcomes if chancy is not None else _certain
        """The game's `chance_outcomes` (a game declaring no chance meets no chance node)."""
        self.table.clear()  # what earlier moves stored goes (see the module docstring)

    def viewpoint(self, state: Any) -> int:
        """The seat a node's score is for: the mover, or seat 0 at a chance node."""
        mover = self.game.to_move(state)
        return 0 if mover == CHANCE else mover

    def root_score(self, me: int, child: Any, depth: int, alpha: float, beta: float) -> float:
        """A root move's score for `me`, one ply older: `child` searched `depth` plies (no
        window)."""
        score = self.node(child, depth, 1.0)
        return older(score if self.viewpoint(child) == me else -score)

    def node(self, state: Any, depth: int, probability: float) -> float:
        """`state`'s score for its viewpoint seat, `depth` plies deep, reached at `probability`."""
        game, budget, node = self.game, self.budget, self.node
        budget.nodes += 1  # Budget.count, inlined: this runs at every node
        if budget.nodes >= budget.next_check:
            budget.check()
        mover = game.to_move(state)
        me = 0 if mover == CHANCE else mover
        if game.is_terminal(state):
            return game.utility(state, me) * SCALE
        if depth <= 0 or probability < self.cutoff:
            known = self.from_book(state) if self.book is not None else None
            # a horizon reads every book hit as exact, at the most plies it allows
            if known is not None:
                score = known[0] if known[0] > 0 else known[1]
                return score if me == mover else -score
            self.horizon += 1
            return self.evaluate(state, me) * SCALE
        (key, shift), hint = self.filed(state), None
        entry = self.table.get(key)
        if entry is not None:
            searched, bound, score, move, seen = entry
            # read back shifted: a draw stored at another offset keeps no distance
            if self.keyed is not None:
                bound, score = rebase(bound, score, shift)
            if searched >= depth and bound == EXACT:
                # an estimate stored rests on a horizon of its own
                self.horizon += searched < FULL_DEPTH
                return score
            hint = move if seen == hash(state) else None
        horizon_in, best_move = self.horizon, None
        if mover == CHANCE:
            scores = []
            for chance, outcome in self.outcomes(state):
                child = game.result(state, outcome)
                score = node(child, depth - 1, probability * chance)
                scores.append(chance * older(score if self.viewpoint(child) == me else -score))
            best = sum(scores)
        else:
            best = -INFINITY
            moves = (
                self.near_moves(state, me, every=True) if self.narrowing else game.actions(state)
            )
            for move in first_in(moves, hint) if hint is not None else moves:
                child = game.result(state, move)
                score = node(child, depth - 1, probability)
                score = older(score if self.viewpoint(child) == me else -score)
                if score > best:
                    best, best_move = score, move
        proven = FULL_DEPTH if self.horizon == horizon_in else depth
        self.table.put(key, (proven, EXACT, best - shift, best_move, hash(state)))
        return best


def _certain(state: Any) -> Sequence[tuple[float, Any]]:
    raise BadGameSpec("a chance node in a game that declares no chance")
