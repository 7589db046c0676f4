"""The searcher every engine extends, the root search, and iterative deepening.

`iterate` is iterative deepening as a generator (one SearchResult per completed depth; the
caller owns the clock); `run` takes its last answer inside `interpreter_for`, which gives the
search the recursion depth it needs and pauses the cyclic garbage collector, then puts both
back as they were.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from nimmax.game import CHANCE, AnyGame
from nimmax.search.budget import Budget, OutOfBudget
from nimmax.search.result import MoveValue, SearchResult
from nimmax.search.score import FULL_DEPTH, INFINITY, SCALE, older, payoff, to_value, younger
from nimmax.search.stack import interpreter_for
from nimmax.search.table import Table, principal_variation


class Searcher:
    """One search's context: the game, its table, its budget and its horizon count.

    `value(state, depth, alpha, beta)` is the engine: the score of `state` for the side to
    move there, searched `depth` plies deep (fail-soft inside the window where it prunes).
    An engine whose recursion takes another shape (minimax's Max and Min, expectimax's
    probabilities) overrides `child_score` instead.
    `horizon` counts the leaves cut short by the depth limit, so a search that reached no
    horizon has proven its value.
    """

    averages = False
    """True for engines that average chance outcomes, whose values need not be whole payoffs."""

    def __init__(self, game: AnyGame, table: Table | None = None, budget: Budget | None = None) -> None:
        self.game = game
        self.table = table if table is not None else Table()
        self.budget = budget if budget is not None else Budget()
        self.horizon = 0

    def value(self, state: Any, depth: int, alpha: float, beta: float) -> float:
        """The engine: the score, for the side to move, of a node that is neither over nor at
        the horizon (`child_score` has tested that), searched `depth` plies deep."""
        raise NotImplementedError

    def viewpoint(self, state: Any) -> int:
        """The seat a node's score is for: the side to move."""
        return self.game.to_move(state)

    def leaf(self, state: Any, horizon: bool, seat: int) -> float | None:
        """Count a node reached; score it for `seat` if the search stops here (the game is
        over, or `horizon`: the depth limit, scored by `evaluate`); None to expand it."""
        self.budget.count()
        if self.game.is_terminal(state):
            return payoff(self.game, state, seat)
        if horizon:
            self.horizon += 1
            return payoff(self.game, state, seat, estimate=True)
        return None

    def moves(self, state: Any, first: Any = None, narrow: bool = True) -> list[Any]:
        """What may happen next, in search order: the outcomes at a chance node, else the moves
        (the game's `search_actions` when `narrow`, all `actions` otherwise) with `first` in front."""
        game = self.game
        if game.to_move(state) == CHANCE:
            return [outcome for _, outcome in game.chance_outcomes(state)]
        moves = list(game.search_actions(state) if narrow else game.actions(state))
        if first is not None and first in moves and moves[0] != first:
            moves.remove(first)
            moves.insert(0, first)
        return moves

    def child_score(self, me: int, child: Any, depth: int, alpha: float, beta: float) -> float:
        """A child's score for the parent's side `me`, one ply older, searched in (alpha, beta).

        The leaf test is made here, before the call, so a finished or horizon node costs no
        call of the engine's `value`.
        """
        mover = self.viewpoint(child)
        score = self.leaf(child, depth <= 0, mover)
        if mover == me:
            if score is None:
                score = self.value(child, depth, younger(alpha, upper=False), younger(beta, upper=True))
            return older(score)
        if score is None:
            score = self.value(child, depth, -younger(beta, upper=True), -younger(alpha, upper=False))
        return older(-score)


def search_root(
    searcher: Searcher, state: Any, depth: int, every_move: bool, first: Any = None
) -> tuple[float, Any, list[tuple[Any, float]]]:
    """Score every root move `depth` plies deep; the best score, its move, and the pairs.

    Without `every_move` later moves are searched only for a better score, so their
    scores are bounds; with it each gets the full window and an exact score.
    """
    game = searcher.game
    searcher.budget.count()
    if game.to_move(state) == CHANCE:
        raise ValueError("a chance node has no move to choose")
    me = searcher.viewpoint(state)
    best, best_move, scored = -INFINITY, None, []
    for move in searcher.moves(state, first, narrow=False):
        child = game.result(state, move)
        score = searcher.child_score(me, child, depth - 1, -INFINITY if every_move else best, INFINITY)
        scored.append((move, score))
        if score > best:
            best, best_move = score, move
    return best, best_move, scored


def iterate(
    searcher: Searcher, state: Any, depth: int | None = None, every_move: bool = False, deepen: bool = True
) -> Iterator[SearchResult]:
    """Iterative deepening: a SearchResult per completed depth, until proven or at `depth`.

    Callers own the clock: stop consuming whenever you like. The searcher's budget aborts
    an iteration that overruns it, and the generator then ends. `deepen=False` searches
    once, straight at `depth` (to the end of the game when depth is None).
    """
    game = searcher.game
    start = time.perf_counter()
    limit = depth if depth is not None else FULL_DEPTH
    current, first = (1 if deepen else limit), None
    nodes_before = searcher.budget.nodes
    while True:
        horizon_before = searcher.horizon
        if game.is_terminal(state):
            searcher.budget.count()
            score = payoff(game, state, searcher.viewpoint(state))
            yield SearchResult(to_value(score, True), None, (), 1, 0, time.perf_counter() - start, True)
            return
        try:
            best, move, scored = search_root(searcher, state, current, every_move, first)
        except OutOfBudget:
            return
        exact = searcher.horizon == horizon_before
        whole = exact and not (searcher.averages and game.has_chance)
        pv = principal_variation(game, searcher.table, state, move)
        yield SearchResult(
            value=to_value(best, whole),
            move=move,
            pv=pv,
            nodes=searcher.budget.nodes - nodes_before,
            depth=current if current < FULL_DEPTH else len(pv),
            seconds=time.perf_counter() - start,
            exact=exact,
            moves=tuple(MoveValue(m, to_value(s, whole)) for m, s in scored) if every_move else (),
        )
        if exact or current >= limit:
            return
        current, first = current + 1, move


def run(
    searcher: Searcher, state: Any, depth: int | None = None, every_move: bool = False, deepen: bool = False
) -> SearchResult:
    """The last result `iterate` completes; when the budget stops even the first depth,
    the first legal move, so a player under a deadline always has an answer."""
    start, last = time.perf_counter(), None
    with interpreter_for(min(depth if depth is not None else SCALE // 2, SCALE // 2)):
        for result in iterate(searcher, state, depth, every_move, deepen):
            last = result
    if last is not None:
        return last
    move = next(iter(searcher.game.actions(state)), None)
    pv = (move,) if move is not None else ()
    return SearchResult(0.0, move, pv, searcher.budget.nodes, 0, time.perf_counter() - start, False)
