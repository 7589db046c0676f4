"""The explored game tree as data: every node minimax or alpha-beta visits, and what it cut.

`explore(game, state, algorithm)` repeats the engines' search with a small traced recursion
of its own (the engines keep no hooks), so `nimmax tree` can draw each node with its
position, the side to move, its value and, under alpha-beta, the branches that were pruned.
The recursion follows the engines' rules exactly, so its node totals are theirs: plain
minimax visits every node; alpha-beta without a table searches a node's children in the
engine's order (`search_order`, the one place that mirrors its move ordering) and stops at
a cutoff.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from nimmax.game import CHANCE, AnyGame, BadInput
from nimmax.search import (
    INFINITY,
    SCALE,
    Budget,
    Table,
    choices,
    deep_enough,
    older,
    payoff,
    run,
    side,
    to_value,
    younger,
)
from nimmax.search.alphabeta import AlphaBeta

MINIMAX, ALPHABETA = "minimax", "alphabeta"
ALGORITHMS = (MINIMAX, ALPHABETA)

SEARCHED, PRUNED, LEFT_OUT = "searched", "pruned", "left out"
"""A node's status: visited; cut off by alpha-beta; left out by the game's search order (no
better than the moves searched)."""

EXACT, AT_LEAST, AT_MOST = "exact", "at least", "at most"
"""What a value is for Max: the minimax value, or a bound where alpha-beta stopped early."""

COUNT_STATES = 200_000
"""Most distinct positions `tree_size` looks at before calling a tree too big to count."""


class TreeTooBig(BadInput):
    """The tree has more nodes than the caller agreed to draw."""


@dataclass(frozen=True)
class Node:
    """One node of the explored tree; values are in payoff units for Max, the root's mover."""

    move: Any
    """The move that led here; None at the root."""
    state: Any
    maximizing: bool
    """Max (the side to move at the root) is to move here; else Min."""
    terminal: bool
    status: str
    value: float | None = None
    """None where the node was not searched (pruned or left out)."""
    bound: str = EXACT
    children: tuple[Node, ...] = ()
    best: int | None = None
    """Index of the child whose score gave this node its value (the first, among equal ones)."""

    def walk(self) -> Iterator[Node]:
        """This node and every node below it, depth first."""
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass(frozen=True)
class GameTree:
    """An explored tree and the node counts with and without pruning, for comparison."""

    root: Node
    algorithm: str
    nodes: int
    """Nodes the algorithm visited, counted as the engines count them (root included)."""
    minimax_nodes: int | None
    """Nodes of the whole tree (what minimax visits); None when too many to count."""
    alphabeta_nodes: int
    """Nodes alpha-beta without a table visits."""

    def count(self, status: str) -> int:
        """How many nodes have `status`: PRUNED counts the branches alpha-beta cut off."""
        return sum(node.status == status for node in self.root.walk())


class Step(NamedTuple):
    """A child in search order: `status` SEARCHED (to be searched) or LEFT_OUT."""

    move: Any
    child: Any
    status: str


def search_order(game: AnyGame, state: Any, narrowed: bool) -> list[Step]:
    """The children in the order alpha-beta with an empty table searches them: this mirrors
    `AlphaBeta.moves`, so keep it in step with `nimmax/search/alphabeta.py`.

    Without `narrowed` (minimax everywhere, and alpha-beta's root, as `search_root`) every
    move in the game's order. With it, the engine's rule below the root: the game's
    `search_actions` first, the rest of the moves left out (LEFT_OUT); chance outcomes all.
    """
    moves = choices(game, state)
    if not narrowed:
        return [Step(move, game.result(state, move), SEARCHED) for move in moves]
    kept = moves if game.to_move(state) == CHANCE else list(game.search_actions(state))
    moves = kept + [move for move in moves if move not in kept]
    return [Step(move, game.result(state, move), SEARCHED if move in kept else LEFT_OUT) for move in moves]


class Tracer:
    """One traced search: the game, whether it prunes, and the counts so far."""

    def __init__(self, game: AnyGame, prune: bool, every_move: bool, limit: float) -> None:
        self.game, self.prune, self.every_move, self.limit = game, prune, every_move, limit
        self.visited = self.drawn = 0
        self.max_side = 0

    def draw(self) -> None:
        """Count one drawn node; past the limit the tree is refused."""
        self.drawn += 1
        if self.drawn > self.limit:
            raise TreeTooBig("tree too big")

    def root(self, state: Any) -> Node:
        """Trace the search from `state`, whose mover is Max."""
        self.max_side = side(self.game, state)
        node, _ = self.node(None, state, -INFINITY, INFINITY, root=True)
        return node

    def node(self, move: Any, state: Any, alpha: float, beta: float, root: bool = False) -> tuple[Node, float]:
        """The node reached by `move` and its score for its own mover, searched in (alpha, beta)."""
        game = self.game
        self.visited += 1
        self.draw()
        me = side(game, state)
        maximizing = me == self.max_side
        if game.is_terminal(state):
            score = payoff(game, state, me)
            return Node(move, state, maximizing, True, SEARCHED, self.for_max(score, maximizing)), score
        alpha_in, best, best_index, cut = alpha, -INFINITY, None, False
        # The root is searched over the game's plain moves, the way search_root does.
        children: list[Node] = []
        for child_move, child, status in search_order(game, state, narrowed=self.prune and not root):
            if status != SEARCHED or cut:
                self.draw()
                children.append(
                    Node(
                        child_move,
                        child,
                        side(game, child) == self.max_side,
                        game.is_terminal(child),
                        status if status != SEARCHED else PRUNED,
                    )
                )
                continue
            node, score = self.child(me, child_move, child, alpha, beta)
            children.append(node)
            if score > best:
                best, best_index = score, len(children) - 1
                # every_move: each root move gets the full window, so its value is exact.
                if self.prune and score > alpha and not (root and self.every_move):
                    alpha = score
                    cut = alpha >= beta
        bound = EXACT
        if self.prune:
            mine = AT_LEAST if best >= beta else AT_MOST if best <= alpha_in else EXACT
            bound = mine if maximizing or mine == EXACT else AT_MOST if mine == AT_LEAST else AT_LEAST
        value = self.for_max(best, maximizing)
        return Node(move, state, maximizing, False, SEARCHED, value, bound, tuple(children), best=best_index), best

    def child(self, me: int, move: Any, child: Any, alpha: float, beta: float) -> tuple[Node, float]:
        """A child's node and its score for the parent's side `me`, one ply older (Searcher.child_score)."""
        low, high = younger(alpha, upper=False), younger(beta, upper=True)
        if side(self.game, child) == me:
            node, score = self.node(move, child, low, high)
            return node, older(score)
        node, score = self.node(move, child, -high, -low)
        return node, older(-score)

    def for_max(self, score: float, maximizing: bool) -> float:
        """A node's score for its mover as a payoff for Max."""
        return to_value(score if maximizing else -score, True)


def trace(
    game: AnyGame, state: Any, algorithm: str = MINIMAX, every_move: bool = False, limit: float = INFINITY
) -> tuple[Node, int]:
    """The explored tree's root and the nodes visited; TreeTooBig past `limit` drawn nodes.

    `every_move` is the engines' flag: alpha-beta then searches every root move with the
    full window (as `solve` does), else later root moves only for a better value.
    """
    if algorithm not in ALGORITHMS:
        raise BadInput(f"the tree is drawn for {' or '.join(ALGORITHMS)}, not {algorithm!r}")
    tracer = Tracer(game, algorithm == ALPHABETA, every_move, limit)
    deep_enough(int(min(limit, SCALE // 2)))
    return tracer.root(state), tracer.visited


def tree_size(game: AnyGame, state: Any, most_states: int = COUNT_STATES) -> int | None:
    """Nodes of the whole game tree below `state` (what plain minimax visits), counted over
    distinct positions; None when there are more than `most_states` of them."""
    sizes: dict[Any, int] = {}

    def size(position: Any) -> int:
        known = sizes.get(position)
        if known is not None:
            return known
        if len(sizes) >= most_states:
            raise TreeTooBig("too many positions to count")
        total = 1
        if not game.is_terminal(position):
            total += sum(size(game.result(position, move)) for move in choices(game, position))
        sizes[position] = total
        return total

    deep_enough(most_states)
    try:
        return size(state)
    except TreeTooBig:
        return None


def alphabeta_size(game: AnyGame, state: Any, seconds: float = 3.0) -> int | None:
    """Nodes the alpha-beta engine without a table visits from `state`; None past `seconds`."""
    result = run(AlphaBeta(game, Table(0), Budget.of(seconds)), state)
    return result.nodes if result.exact else None


def explore(game: AnyGame, state: Any, algorithm: str = MINIMAX, max_nodes: int = 2_000) -> GameTree:
    """The tree `algorithm` explores from `state`, with node counts with and without pruning.

    Refuses (TreeTooBig, saying how big the tree is) when it would draw over `max_nodes` nodes.
    """
    try:
        root, visited = trace(game, state, algorithm, limit=max_nodes)
    except TreeTooBig:
        raise TreeTooBig(too_big(game, state, algorithm, max_nodes)) from None
    if algorithm == MINIMAX:
        _, pruned_visits = trace(game, state, ALPHABETA)
        return GameTree(root, algorithm, visited, visited, pruned_visits)
    return GameTree(root, algorithm, visited, tree_size(game, state), visited)


def too_big(game: AnyGame, state: Any, algorithm: str, max_nodes: int) -> str:
    """The refusal: how big the tree is, and the limit."""
    whole = tree_size(game, state)
    sizes = [
        f"the whole tree has {whole:,} nodes"
        if whole is not None
        else f"the whole tree has over {COUNT_STATES:,} distinct positions"
    ]
    if algorithm == ALPHABETA:
        visits = alphabeta_size(game, state)
        sizes.insert(
            0,
            f"alpha-beta visits {visits:,} nodes"
            if visits is not None
            else "alpha-beta visits too many nodes to count quickly",
        )
    return f"{game.spec}: {' and '.join(sizes)}; the tree view draws at most {max_nodes:,} (see --max-nodes)"
