"""Plain minimax and negamax: the oracles the faster engines are tested against.

Both visit every node (no pruning); `cache=True` adds a memo keyed by the game's canonical
key. Minimax keeps Max and Min apart (Max is the side to move at the root), negamax keeps
one maximising recursion and flips the sign only between plies of different sides.
"""

from __future__ import annotations

from typing import Any

from nimmax.game import AnyGame
from nimmax.search.budget import Budget
from nimmax.search.deepening import Searcher
from nimmax.search.score import FULL_DEPTH, INFINITY, SCALE, older, rebase
from nimmax.search.table import EXACT, Table


class Memo(Searcher):
    """Memo lookups shared by minimax and negamax; with `cache` off nothing is stored."""

    def __init__(
        self,
        game: AnyGame,
        table: Table | None = None,
        budget: Budget | None = None,
        cache: bool = False,
    ) -> None:
        super().__init__(game, table, budget)
        self.cache = cache

    def recall(self, state: Any, depth: int) -> float | None:
        """A stored score for the side to move, when it was searched at least this deep (and holds
        its distance)."""
        if not self.cache:
            return None
        key, shift = self.filed(state)
        entry = self.table.get(key)
        if entry is None:
            return None
        searched, bound, score, _, _ = entry
        if searched < depth:
            return None
        if self.keyed is not None:  # read back shifted, keeping what stays true
            bound, score = rebase(bound, score, shift)
        if bound != EXACT:  # a draw stored at another offset: the payoff holds, not the distance
            return None
        if searched < FULL_DEPTH:
            self.horizon += 1
        return score

    def store(self, state: Any, depth: int, horizon_in: int, score: float, move: Any) -> None:
        """Remember a node's score for the side to move, proven when no horizon was met below it."""
        if self.cache:
            key, shift = self.filed(state)
            proven = self.horizon == horizon_in
            self.table.put(
                key, (FULL_DEPTH if proven else depth, EXACT, score - shift, move, hash(state))
            )


class Minimax(Memo):
    """Textbook minimax: Max picks the highest score, Min the lowest, both seen from Max."""

    def root_score(self, me: int, child: Any, depth: int, alpha: float, beta: float) -> float:
        """A root move's score for Max, `me`: every node below it searched."""
        return older(self.minimax(child, depth, me))

    def minimax(self, state: Any, depth: int, maximizer: int) -> float:
        """The score of `state` for `maximizer`, `depth` plies deep."""
        game, budget = self.game, self.budget
        # Budget.count, inlined (as is older below): this runs once per node of the whole tree
        budget.nodes += 1
        if budget.nodes >= budget.next_check:
            budget.check()
        if game.is_terminal(state):
            return game.utility(state, maximizer) * SCALE
        if self.book is not None:
            known = self.from_book(state)
            if known is not None and known[0] == known[1]:  # a bounded distance is searched on
                return known[0] if game.to_move(state) == maximizer else -known[0]
        if depth <= 0:
            self.horizon += 1
            return self.evaluate(state, maximizer) * SCALE
        maximizing = game.to_move(state) == maximizer
        # a call saved at every node without one
        stored = self.recall(state, depth) if self.cache else None
        if stored is not None:
            return stored if maximizing else -stored
        horizon_in, search, result = self.horizon, self.minimax, game.result
        best, best_move = (-INFINITY if maximizing else INFINITY), None
        # The game's own moves: an engine that cannot average chance sees no chance node.
        for move in game.actions(state):
            score = search(result(state, move), depth - 1, maximizer)
            score = score - 1 if score >= 1 else score + 1 if score <= -1 else 0.0
            if score > best if maximizing else score < best:
                best, best_move = score, move
        if self.cache:
            self.store(state, depth, horizon_in, best if maximizing else -best, best_move)
        return best


class Negamax(Memo):
    """Negamax: one maximising recursion; scores are for the side to move at each node."""

    def root_score(self, me: int, child: Any, depth: int, alpha: float, beta: float) -> float:
        """A root move's score for `me`: every node below it searched (no window)."""
        score = self.value(child, depth)
        return older(score if self.game.to_move(child) == me else -score)

    def value(self, state: Any, depth: int) -> float:
        """The score of `state` for its side to move, `depth` plies deep."""
        game, budget = self.game, self.budget
        budget.nodes += 1  # Budget.count, inlined: this runs once per node of the whole tree
        if budget.nodes >= budget.next_check:
            budget.check()
        me = game.to_move(state)
        if game.is_terminal(state):
            return game.utility(state, me) * SCALE
        known = self.from_book(state) if self.book is not None else None
        # a bounded distance is searched on
        if known is not None and (depth <= 0 or known[0] == known[1]):
            return known[0]
        if depth <= 0:
            self.horizon += 1
            return self.evaluate(state, me) * SCALE
        stored = self.recall(state, depth) if self.cache else None
        if stored is not None:
            return stored
        horizon_in = self.horizon
        best, best_move = -INFINITY, None
        for move in (
            self.near_moves(state, me, every=True) if self.narrowing else game.actions(state)
        ):
            child = game.result(state, move)
            score = (
                self.value(child, depth - 1)
                if game.to_move(child) == me
                else -self.value(child, depth - 1)
            )
            score = older(score)
            if score > best:
                best, best_move = score, move
        self.store(state, depth, horizon_in, best, best_move)
        return best
