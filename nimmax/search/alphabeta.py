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

from nimmax.game import AnyGame, Capability, Known, part
from nimmax.search.budget import Budget
from nimmax.search.deepening import Searcher, first_in
from nimmax.search.score import (
    FULL_DEPTH,
    HALF,
    INFINITY,
    PAYOFF,
    SCALE,
    older,
    payoff_only,
    payoff_range,
    rebase,
    score_range,
    younger,
)
from nimmax.search.table import EXACT, LOWER, UPPER, Table


class AlphaBeta(Searcher):
    """Fail-soft alpha-beta; table entries hold a bound, never a window-dependent value."""

    def __init__(
        self, game: AnyGame, table: Table | None = None, budget: Budget | None = None
    ) -> None:
        super().__init__(game, table, budget)
        own = part(self.game, Capability.BOUNDS)
        self.bounds = (
            cast(Callable[[Any], tuple[float, float]], own.utility_bounds)
            if own is not None
            else None
        )
        """The game's `utility_bounds`, or None where it declares no BOUNDS (a call saved a
        node)."""

    def value(self, state: Any, depth: int, alpha: float, beta: float, me: int) -> float:
        """`state`'s score for `me` to move, `depth` plies deep, fail-soft in (alpha, beta)."""
        game, budget = self.game, self.budget  # the leaves and the table's answers need no more
        budget.nodes += 1  # Budget.count inlined, as are older and younger below
        if budget.nodes >= budget.next_check:
            budget.check()
        if game.is_terminal(state):
            return game.utility(state, me) * SCALE
        if (book := self.book) is not None and (known := book(state)) is not None:
            return self.booked(known, alpha, beta)
        if depth <= 0:
            self.horizon += 1
            return self.evaluate(state, me) * SCALE
        table, keyed, key, shift, hint = self.table, self.keyed, None, 0.0, None
        if caching := table.capacity > 0:  # with no table, no key
            key, shift = (game.key(state), 0) if keyed is None else keyed(state)  # less the offset
            if (entry := table.get(key)) is not None:
                searched, bound, score, move, hashed = entry
                if searched >= depth:
                    if keyed is not None or bound == PAYOFF:
                        bound, score = self.rebased(bound, score, shift * SCALE, beta)
                    if bound == EXACT or (score >= beta if bound == LOWER else score <= alpha):
                        self.horizon += searched < FULL_DEPTH  # an estimate rests on its horizon
                        return score
                hint = move if hashed == hash(state) else None
        if self.bounds is not None and (cut := self.outside(state, alpha, beta)) is not None:
            return cut  # the value lies outside the window whatever is searched
        search, deeper = self.value, depth - 1  # the game's methods called, not bound
        best, choice, alpha_in, horizon_in, rough_in = (
            -INFINITY,
            None,
            alpha,
            self.horizon,
            self.rough,
        )
        moves = self.near_moves(state, me) if self.narrowing else self.ordered(state)
        low, high = alpha + 1 if alpha >= 0 else alpha - 1, beta + 1 if beta > 0 else beta - 1
        for move in first_in(moves, hint) if hint is not None else moves:
            child = game.result(state, move)
            side = game.to_move(child)  # the same side again (an extra turn) keeps the sign
            score = (
                search(child, deeper, low, high, side)
                if side == me
                else -search(child, deeper, -high, -low, side)
            )
            score = score - 1 if score >= 1 else score + 1 if score <= -1 else 0.0
            if score > best:
                best, choice, alpha = score, move, score if score > alpha else alpha
                if alpha >= beta:
                    break
                low = alpha + 1 if alpha >= 0 else alpha - 1
        if caching:
            bound = LOWER if best >= beta else UPPER if best <= alpha_in else EXACT
            # plies a book bounded
            bound, score = payoff_only(bound, best) if self.rough != rough_in else (bound, best)
            proven = self.horizon == horizon_in  # no horizon met below: a value to the end
            table[key] = (
                FULL_DEPTH if proven else depth,
                bound,
                score - shift * SCALE,
                choice,
                hash(state),
            )
            if len(table) > table.capacity:  # Table.put, inlined while no entry need go
                table.trim()
        return best

    def outside(self, state: Any, alpha: float, beta: float) -> float | None:
        """The bound the game's `utility_bounds` put on the score of `state` outside (alpha, beta),
        or None."""
        assert self.bounds is not None
        low, high = self.bounds(state)
        # score_range's most >= high * SCALE, its least <= low * SCALE
        if high * SCALE > alpha and low * SCALE < beta:
            return None
        least, most = score_range(low, high)
        return most if most <= alpha else least if least >= beta else None

    def rebased(self, bound: int, stored: float, shift: float, beta: float) -> tuple[int, float]:
        """An entry's bound and score at this node: shifted by its key's offset where the game keys
        on part of the state (`rebase`), and a payoff alone read as the bound the window asks
        about."""
        if self.keyed is not None:
            bound, stored = rebase(bound, stored, shift)
        if bound != PAYOFF:
            return bound, stored
        low, high = payoff_range(round(stored / SCALE))
        return (LOWER, low) if low >= beta else (UPPER, high)

    def booked(self, known: Known, alpha: float, beta: float) -> float:
        """A book hit's score: exact where the book knows the plies or the window asks about the
        payoff alone; else the score at the most plies the book allows, counted in `rough`."""
        low, high = self.book_range(known)
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        self.rough += 1
        return low if low > 0 else high

    def windowed(self, me: int, child: Any, depth: int, alpha: float, beta: float) -> float:
        """A root move's score for `me`, one ply older: `child` searched in (alpha, beta), as
        `value` does."""
        low, high = younger(alpha, upper=False), younger(beta, upper=True)
        if (mover := self.game.to_move(child)) == me:
            return older(self.value(child, depth, low, high, mover))
        return older(-self.value(child, depth, -high, -low, mover))

    def root_score(self, me: int, child: Any, depth: int, alpha: float, beta: float) -> float:
        """A root move's score; where the game bounds its utility, by null windows over whole
        payoffs (MTD(f))."""
        # A test of the payoff against a whole number lets the bounds cut nearly every line that
        # cannot change the answer; one last window finds the distance to the end. The tests
        # start from the best score so far, or else from the game's `evaluate`.
        if self.bounds is None:
            return self.windowed(me, child, depth, alpha, beta)
        guess = alpha if alpha > -INFINITY else self.evaluate(child, me) * SCALE
        floor, ceiling = -INFINITY, INFINITY  # floor <= score <= ceiling
        while ceiling > alpha and floor < beta:
            lowest, highest = payoffs(floor, ceiling)
            least, most = payoffs(alpha, beta)
            hope = min(max(round(guess / SCALE), lowest, least), highest, most)
            test = boundary(hope - 1 if hope > lowest else hope)
            if lowest == highest or not floor <= test < ceiling:
                return self.windowed(
                    me, child, depth, max(alpha, floor - 1), min(beta, ceiling + 1)
                )
            score = self.windowed(me, child, depth, test, test + 1)
            if score <= test:
                ceiling = score
            else:
                floor = score
        return ceiling if ceiling <= alpha else floor


def payoffs(floor: float, ceiling: float) -> tuple[float, float]:
    """The least and the most whole payoff whose scores reach into [floor, ceiling]."""
    lowest = (
        floor
        if floor == -INFINITY
        else ceil(floor / SCALE)
        if floor > 0
        else (floor - HALF) // SCALE + 1
    )
    highest = (
        ceiling
        if ceiling == INFINITY
        else ceiling // SCALE
        if ceiling < 0
        else ceil(ceiling / SCALE + 0.5) - 1
    )
    return lowest, highest


def boundary(payoff: float) -> float:
    """A score between `payoff`'s scores and the next payoff's: a null window there tests the
    payoff."""
    # payoff's scores lie in (payoff * SCALE - HALF, payoff * SCALE] when payoff >= 0, in
    # [payoff * SCALE, payoff * SCALE + HALF) below
    return payoff * SCALE + (SCALE // 4 if payoff >= 0 else 3 * SCALE // 4)
