"""Expectimax: players maximise, chance nodes average their outcomes by probability.

Chance nodes are valued from seat 0's side (the only seat of a one-player game such as
2048), so a score crosses a chance node with the sign its two neighbours call for.
"""

from __future__ import annotations

from typing import Any

from nimmax.game import CHANCE, AnyGame
from nimmax.search import (
    EXACT,
    FULL_DEPTH,
    INFINITY,
    Budget,
    Entry,
    Searcher,
    SearchResult,
    Table,
    older,
    ordered,
    payoff,
    run,
)


def viewpoint(game: AnyGame, state: Any) -> int:
    """The seat a node's score is for: the mover, or seat 0 at a chance node."""
    mover = game.to_move(state)
    return 0 if mover == CHANCE else mover


class Expectimax(Searcher):
    """Depth-limited expectimax with a table; a depth counts player moves and chance alike."""

    averages = True

    def child_score(self, me: int, child: Any, depth: int, alpha: float, beta: float) -> float:
        score = self.value(child, depth, -INFINITY, INFINITY)
        return older(score if viewpoint(self.game, child) == me else -score)

    def value(self, state: Any, depth: int, alpha: float, beta: float) -> float:
        self.budget.count()
        game = self.game
        me = viewpoint(game, state)
        if game.is_terminal(state):
            return payoff(game, state, me)
        if depth <= 0:
            self.horizon += 1
            return payoff(game, state, me, estimate=True)
        key = game.key(state)
        entry = self.table.get(key)
        if entry is not None and entry.depth >= depth:
            if entry.depth < FULL_DEPTH:
                self.horizon += 1
            return entry.score
        horizon_in = self.horizon
        best_move = None
        if game.to_move(state) == CHANCE:
            best = sum(
                probability * self.child_score(me, game.result(state, outcome), depth - 1, -INFINITY, INFINITY)
                for probability, outcome in game.chance_outcomes(state)
            )
        else:
            best = -INFINITY
            hint = entry.move if entry is not None and entry.state == state else None
            for move in ordered(game.actions(state), hint):
                score = self.child_score(me, game.result(state, move), depth - 1, -INFINITY, INFINITY)
                if score > best:
                    best, best_move = score, move
        proven = self.horizon == horizon_in
        self.table.put(key, Entry(FULL_DEPTH if proven else depth, EXACT, best, best_move, state))
        return best


def expectimax(
    game: AnyGame,
    state: Any,
    depth: int | None = None,
    time: float | None = None,
    nodes: int | None = None,
    table: Table | None = None,
    every_move: bool = False,
) -> SearchResult:
    """Expectimax, deepening under a time or node limit; unlimited, it searches to the end."""
    searcher = Expectimax(game, table, Budget.of(time, nodes))
    return run(searcher, state, depth, every_move, deepen=time is not None or nodes is not None)
