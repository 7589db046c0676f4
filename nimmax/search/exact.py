"""The one exact solver: a memoized negamax over exact scores, with alpha-beta, for any positions a
caller describes by a narrow protocol (`Rules`: a key, the score of an end, the children), so that a
book, a proof or `check` drives it over positions of its own shape (states, bitboards, ranks).

Scores are as in `nimmax.search.score`: the payoff times a scale, moved one unit towards zero per
ply, so the quickest win and the slowest loss score best. The table keeps for each key a lower and
an upper bound, each true whatever the window that proved it (never a window-dependent value), so a
question asked again goes on from what the last one proved. A chance node's score is the mean of its
outcomes' exact scores. The solver imports nothing of nimmax: games and engines alike may use it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import Generic, Protocol, TypeVar

P = TypeVar("P")
INFINITY = math.inf


class Rules(Protocol[P]):
    """The positions a solver searches, as its caller describes them."""

    def key(self, position: P) -> Hashable:
        """The table key: equal keys mean equal scores for the side to move."""
        ...

    def end(self, position: P) -> float | None:
        """A finished position's score for its side to move; None where the game goes on."""
        ...

    def moves(self, position: P) -> Iterable[tuple[P, bool]]:
        """Each move's position, best first where known, and whether its side to move is this
        one's (an extra turn keeps the score's sign); none where the position ends (`end`)."""
        ...

    def chances(self, position: P) -> Iterable[tuple[float, P, bool]] | None:
        """At a chance node, each outcome's probability and position, and whether the side it is
        scored for is this node's; None at a node where a side moves."""
        ...


class OutOfNodes(Exception):
    """The solver met more new positions, or went deeper, than it was allowed: what it proved
    stays in its table."""


class Exact(Generic[P]):
    """A memoized negamax over the positions `rules` describes; `nodes` new positions at most a
    question (None: any number), none deeper than `plies` below the question's position."""

    def __init__(self, rules: Rules[P], nodes: int | None = None, plies: int | None = None) -> None:
        self.rules, self.most_nodes, self.most_plies = rules, nodes, plies
        self.table: dict[Hashable, tuple[float, float]] = {}
        """key -> (lower bound, upper bound) of its score."""
        self.left = INFINITY
        """New positions the current question may still meet."""
        self.nodes = 0
        """Positions visited since the solver was made, table hits included."""

    def value(self, position: P, alpha: float = -INFINITY, beta: float = INFINITY) -> float:
        """The score of `position` for its side to move, fail-soft in (alpha, beta): exact where
        it lies inside; OutOfNodes past the solver's budget."""
        self.left = INFINITY if self.most_nodes is None else self.most_nodes
        return self.score(position, alpha, beta, 0)

    def score(self, position: P, alpha: float, beta: float, plies: int) -> float:
        """`value` at `plies` below the question's position."""
        self.nodes += 1
        rules, table = self.rules, self.table
        key = rules.key(position)
        entry = table.get(key)
        if entry is not None:
            low, high = entry
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
        else:
            low, high = -INFINITY, INFINITY
            self.left -= 1
            if self.left < 0 or (self.most_plies is not None and plies > self.most_plies):
                raise OutOfNodes
        end = rules.end(position)
        if end is not None:
            table[key] = (end, end)
            return end
        chances = rules.chances(position)
        if chances is not None:
            found = math.fsum(
                chance * older(self.child(outcome, same, -INFINITY, INFINITY, plies))
                for chance, outcome, same in chances
            )
            table[key] = (found, found)
            return found
        alpha_in, alpha, beta = max(alpha, low), max(alpha, low), min(beta, high)
        best = -INFINITY
        for child, same in rules.moves(position):
            found = older(self.child(child, same, alpha, beta, plies))
            if found > best:
                best = found
                if found > alpha:
                    alpha = found
                    if alpha >= beta:
                        break
        if best == -INFINITY:
            raise ValueError("a position that has not ended has no moves")
        if best >= beta:
            low = best
        elif best <= alpha_in:
            high = best
        else:
            low = high = best
        table[key] = (low, high)
        return best

    def child(self, child: P, same: bool, alpha: float, beta: float, plies: int) -> float:
        """A child's score for the parent's side, before the ply between them (`older`), searched
        in the window that `older` maps onto (alpha, beta)."""
        low, high = younger(alpha, upper=False), younger(beta, upper=True)
        if same:
            return self.score(child, low, high, plies + 1)
        return -self.score(child, -high, -low, plies + 1)


def older(score: float) -> float:
    """The score one ply further from the end of the game: one unit closer to zero."""
    return score - 1 if score >= 1 else score + 1 if score <= -1 else 0.0


def younger(bound: float, upper: bool) -> float:
    """The child score that `older` maps onto `bound`, so windows survive the shift (flat at 0)."""
    if upper:
        return bound + 1 if bound > 0 else bound - 1
    return bound + 1 if bound >= 0 else bound - 1
