"""Alpha-beta in negamax form, with a transposition table, table-move ordering, a depth limit
scored by the game's `evaluate`, and iterative deepening under a deadline and node limit.

The side to move comes from each state, so a player who moves twice in a row (Kalah) keeps
the sign; in a one-player game with chance (2048) chance is the adversary that picks the
worst outcome, the model of the classic minimax 2048 player.
"""

from __future__ import annotations

from typing import Any

from nimmax.game import AnyGame
from nimmax.search import (
    EXACT,
    FULL_DEPTH,
    INFINITY,
    LOWER,
    UPPER,
    Budget,
    Entry,
    Searcher,
    SearchResult,
    Table,
    choices,
    payoff,
    run,
    side,
)


class AlphaBeta(Searcher):
    """Fail-soft alpha-beta; table entries hold a bound, never a window-dependent value."""

    def value(self, state: Any, depth: int, alpha: float, beta: float) -> float:
        self.budget.count()
        game = self.game
        me = side(game, state)
        if game.is_terminal(state):
            return payoff(game, state, me)
        if depth <= 0:
            self.horizon += 1
            return payoff(game, state, me, estimate=True)
        key = game.key(state)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            if entry.depth >= depth and (
                entry.bound == EXACT
                or (entry.bound == LOWER and entry.score >= beta)
                or (entry.bound == UPPER and entry.score <= alpha)
            ):
                if entry.depth < FULL_DEPTH:
                    self.horizon += 1  # the stored score rests on a horizon of its own
                return entry.score
            if entry.state == state:
                hint = entry.move
        alpha_in, horizon_in = alpha, self.horizon
        best, best_move = -INFINITY, None
        for move, child in self.children(state, me, hint):
            score = self.child_score(me, child, depth - 1, alpha, beta)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        bound = LOWER if best >= beta else UPPER if best <= alpha_in else EXACT
        proven = self.horizon == horizon_in
        self.table.put(key, Entry(FULL_DEPTH if proven else depth, bound, best, best_move, state))
        return best


    def children(self, state: Any, me: int, hint: Any) -> list[tuple[Any, Any]]:
        """The distinct next positions, most promising first: the table's move, then children
        the table already rates well for `me`, then the game's own order.

        Two moves reaching one key have one value, so only the first is searched.
        """
        game, table = self.game, self.table
        rated: dict[Any, tuple[float, Any, Any]] = {}
        for move in choices(game, state):
            child = game.result(state, move)
            key = game.key(child)
            if key in rated:
                continue
            entry = table.get(key)
            if move == hint:
                promise = INFINITY
            elif entry is None:
                promise = 0.0
            else:
                promise = entry.score if side(game, child) == me else -entry.score
            rated[key] = (promise, move, child)
        ranked = sorted(rated.values(), key=lambda item: item[0], reverse=True)
        return [(move, child) for _, move, child in ranked]


def alphabeta(
    game: AnyGame,
    state: Any,
    depth: int | None = None,
    time: float | None = None,
    nodes: int | None = None,
    table: Table | None = None,
    every_move: bool = False,
) -> SearchResult:
    """Search `state`: straight to the end when unlimited, else deepening until a limit stops it."""
    searcher = AlphaBeta(game, table, Budget.of(time, nodes))
    return run(searcher, state, depth, every_move, deepen=time is not None or nodes is not None)
