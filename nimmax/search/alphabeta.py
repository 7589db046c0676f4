"""Alpha-beta in negamax form, with a transposition table, table-move ordering, the game's
own search order (`Game.search_actions`: forced moves, centre first) and a depth limit
scored by the game's `evaluate`.

The side to move comes from each state, so a player who moves twice in a row (Kalah) keeps
the sign. Children are made one at a time as the loop reaches them, so a cutoff by the first
move costs one child.
"""

from __future__ import annotations

from typing import Any

from nimmax.search.deepening import Searcher
from nimmax.search.score import FULL_DEPTH, INFINITY
from nimmax.search.table import EXACT, LOWER, UPPER, Entry, new_entry


class AlphaBeta(Searcher):
    """Fail-soft alpha-beta; table entries hold a bound, never a window-dependent value."""

    def value(self, state: Any, depth: int, alpha: float, beta: float) -> float:
        game = self.game
        key = game.key(state)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            searched, bound, stored, move, position = entry
            if searched >= depth and (
                bound == EXACT or (bound == LOWER and stored >= beta) or (bound == UPPER and stored <= alpha)
            ):
                if searched < FULL_DEPTH:
                    self.horizon += 1  # the stored score rests on a horizon of its own
                return stored
            if position == state:
                hint = move
        me, alpha_in, horizon_in = game.to_move(state), alpha, self.horizon
        best, best_move = -INFINITY, None
        for move in self.moves(state, hint):
            score = self.child_score(me, game.result(state, move), depth - 1, alpha, beta)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        bound = LOWER if best >= beta else UPPER if best <= alpha_in else EXACT
        proven = self.horizon == horizon_in
        entry = new_entry(Entry, (FULL_DEPTH if proven else depth, bound, best, best_move, state))
        table = self.table
        if len(table) < table.capacity or key in table:  # Table.put, inlined while no entry need go
            table[key] = entry
        else:
            table.put(key, entry)
        return best
