"""Alpha-beta in negamax form, with a transposition table, table-move ordering, the game's
own search order (`Game.search_actions`: forced moves, centre first) and a depth limit
scored by the game's `evaluate`.

The side to move comes from each state, so a player who moves twice in a row (Kalah) keeps
the sign. Children are made one at a time as the loop reaches them, so a cutoff by the first
move costs one child.

Where the game bounds its final utility (`Game.utility_bounds`, Kalah's stores and seeds in
play), a node whose bounds lie outside the window returns at once, and the root moves are
valued by null-window tests against whole payoffs, which those bounds cut far more often
than a wide window (Irving, Donkers and Uiterwijk, "Solving Kalah").
"""

from __future__ import annotations

from collections.abc import Callable
from math import ceil
from typing import Any, cast

from nimmax.game import AnyGame, Capability
from nimmax.search.budget import Budget
from nimmax.search.deepening import Searcher
from nimmax.search.score import FULL_DEPTH, HALF, INFINITY, SCALE, score_range
from nimmax.search.table import EXACT, LOWER, UPPER, Table


class AlphaBeta(Searcher):
    """Fail-soft alpha-beta; table entries hold a bound, never a window-dependent value."""

    def __init__(self, game: AnyGame, table: Table | None = None, budget: Budget | None = None) -> None:
        super().__init__(game, table, budget)
        own = Capability.BOUNDS in game.capabilities
        self.bounds = cast(Callable[[Any], tuple[float, float]], game.utility_bounds) if own else None
        """The game's `utility_bounds`, or None where it keeps the default (a call saved a node)."""

    def value(self, state: Any, depth: int, alpha: float, beta: float) -> float:
        game = self.game
        if self.book is not None:
            known = self.from_book(state)
            if known is not None:
                score, bound = known
                if bound == EXACT or (bound == LOWER and score >= beta) or (bound == UPPER and score <= alpha):
                    return score
        key = game.key(state)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            searched, bound, stored, move, seen = entry
            if searched >= depth and (
                bound == EXACT or (bound == LOWER and stored >= beta) or (bound == UPPER and stored <= alpha)
            ):
                if searched < FULL_DEPTH:
                    self.horizon += 1  # the stored score rests on a horizon of its own
                return stored
            if seen == hash(state):
                hint = move
        bounds = self.bounds
        if bounds is not None:
            low, high = score_range(*bounds(state))
            if high <= alpha or low >= beta:  # the value lies outside the window whatever is searched
                return high if high <= alpha else low
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
        entry = (FULL_DEPTH if proven else depth, bound, best, best_move, hash(state))
        table = self.table
        if len(table) < table.capacity or key in table:  # Table.put, inlined while no entry need go
            table[key] = entry
        else:
            table.put(key, entry)
        return best

    def root_score(self, me: int, child: Any, depth: int, alpha: float, beta: float) -> float:
        """A root move's score by null windows (MTD(f) over whole payoffs), where the game bounds
        its utility: a test of the payoff against a whole number lets the bounds cut nearly
        every line that cannot change the answer; one last window finds the distance to the end.
        The tests start from the best score so far, or else from the game's `evaluate`.
        """
        if self.bounds is None:
            return self.child_score(me, child, depth, alpha, beta)
        guess = alpha if alpha > -INFINITY else self.game.evaluate(child, me) * SCALE
        floor, ceiling = -INFINITY, INFINITY  # floor <= score <= ceiling
        while ceiling > alpha and floor < beta:
            lowest, highest = payoffs(floor, ceiling)
            least, most = payoffs(alpha, beta)
            hope = min(max(round(guess / SCALE), lowest, least), highest, most)
            test = boundary(hope - 1 if hope > lowest else hope)
            if lowest == highest or not floor <= test < ceiling:
                return self.child_score(me, child, depth, max(alpha, floor - 1), min(beta, ceiling + 1))
            score = self.child_score(me, child, depth, test, test + 1)
            if score <= test:
                ceiling = score
            else:
                floor = score
        return ceiling if ceiling <= alpha else floor


def payoffs(floor: float, ceiling: float) -> tuple[float, float]:
    """The least and the most whole payoff whose scores reach into [floor, ceiling]."""
    lowest = floor if floor == -INFINITY else ceil(floor / SCALE) if floor > 0 else (floor - HALF) // SCALE + 1
    highest = ceiling if ceiling == INFINITY else ceiling // SCALE if ceiling < 0 else ceil(ceiling / SCALE + 0.5) - 1
    return lowest, highest


def boundary(payoff: float) -> float:
    """A score between payoff's scores and the next payoff's: the former lie in
    (payoff * SCALE - HALF, payoff * SCALE] when payoff >= 0, in [payoff * SCALE, payoff * SCALE + HALF) below."""
    return payoff * SCALE + (SCALE // 4 if payoff >= 0 else 3 * SCALE // 4)
