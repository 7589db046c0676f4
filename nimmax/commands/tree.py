"""The explored game tree as data: every node minimax or alpha-beta visits, and what it cut.

`explore(game, state, algorithm)` runs the real engine under a traced subclass that records
each node as the engine enters and leaves it, so `nimmax tree` draws exactly what the engine
searched: each node with its position, the side to move, its value and, under alpha-beta,
the branches that were pruned. The engines are written once; the trace only watches them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from nimmax.commands.tree_size import TreeSize, format_count, tree_size
from nimmax.errors import quoted
from nimmax.game import AnyGame, BadInput, ordered
from nimmax.search import (
    ENGINES,
    INFINITY,
    SCALE,
    Budget,
    Limits,
    Searcher,
    Table,
    TooDeep,
    deep,
    iterate,
    to_value,
)
from nimmax.search.alphabeta import AlphaBeta
from nimmax.search.minimax import Minimax

__all__ = [
    "ALPHABETA",
    "AT_LEAST",
    "AT_MOST",
    "DRAWN",
    "EXACT_VALUE",
    "LEFT_OUT",
    "MINIMAX",
    "PRUNED",
    "SEARCHED",
    "GameTree",
    "Node",
    "TreeTooBig",
    "explore",
    "format_count",
    "trace",
    "tree_size",
]

MINIMAX, ALPHABETA = "minimax", "alphabeta"
"""The engines the tree view can trace."""

SEARCHED, PRUNED, LEFT_OUT = "searched", "pruned", "left out"
"""A node's status: visited; cut off by alpha-beta; left out by the game's search order (no
better than the moves searched)."""

EXACT_VALUE, AT_LEAST, AT_MOST = "exact", "at least", "at most"
"""What a value is for Max: the minimax value, or a bound where alpha-beta stopped early."""

DEEPEST = SCALE // 2
"""Most plies a traced tree may go when nothing tells how deep it is: the engines' own bound."""

DRAWN = 5_000
"""Most searched nodes a picture keeps: a bigger tree is drawn to the depth that fits, the nodes
below counted, so its drawing and its memory stay this size whatever `max_nodes` allows."""


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
    bound: str = EXACT_VALUE
    children: tuple[Node, ...] = ()
    best: int | None = None
    """Index of the child whose score gave this node its value (the first, among equal ones)."""
    hidden: int = 0
    """Nodes searched below this one and left out of the picture (it is at the drawn depth)."""

    def walk(self) -> Iterator[Node]:
        """This node and every node below it, depth first (without recursion: trees go deep)."""
        waiting = [self]
        while waiting:
            node = waiting.pop()
            yield node
            waiting.extend(reversed(node.children))


@dataclass(frozen=True)
class GameTree:
    """An explored tree and the node counts with and without pruning, for comparison."""

    root: Node
    algorithm: str
    nodes: int
    """Nodes the algorithm visited, counted by the engine itself (root included)."""
    minimax_nodes: int | None
    """Nodes of the whole tree (what minimax visits); None when too many to count."""
    alphabeta_nodes: int
    """Nodes alpha-beta without a table visits."""
    drawn_depth: int | None = None
    """The deepest ply drawn where the picture leaves nodes out (the tree is bigger than DRAWN, or
    `--depth` asked); None where every node is drawn."""

    @property
    def hidden(self) -> int:
        """Searched nodes left out of the picture, below the drawn depth."""
        return sum(node.hidden for node in self.root.walk())

    def count(self, status: str) -> int:
        """How many nodes have `status`: PRUNED counts the branches alpha-beta cut off."""
        return sum(node.status == status for node in self.root.walk())


@dataclass
class Frame:
    """A node as the engine left it: its score for Max (internal units), bound, searched
    children."""

    state: Any
    score: float = 0.0
    bound: str = EXACT_VALUE
    children: list[Frame] = field(default_factory=list)
    below: int = 0
    """Searched nodes under this one not kept (past the kept depth)."""

    def size(self) -> int:
        """This frame's nodes, itself, those kept below and those counted below (without
        recursion)."""
        total, waiting = 0, [self]
        while waiting:
            frame = waiting.pop()
            total += 1 + frame.below
            waiting.extend(frame.children)
        return total


class Tracing(Searcher):
    """Records the nodes an engine enters and leaves as Frames under `root`, to `kept_depth` plies
    and `keep` frames (past it one ply less, and again, the nodes below counted); TreeTooBig past
    `limit`."""

    max_side = 0
    limit: float = INFINITY

    def start(
        self, state: Any, limit: float, depth: int = DEEPEST, keep: float = INFINITY
    ) -> Frame:
        """Trace a search from `state`, whose mover is Max."""
        self.max_side, self.limit = self.game.to_move(state), limit
        self.root = Frame(state)
        self.open, self.frames = [self.root], 1
        self.depth, self.kept_depth, self.keep, self.kept = 0, depth, keep, 1
        return self.root

    def enter(self, state: Any) -> Frame | None:
        """A node the engine starts on: a child of the node it came from (None past the kept depth:
        counted on its ancestor there)."""
        self.frames += 1
        if self.frames > self.limit:
            raise TreeTooBig("tree too big")
        self.depth += 1
        if self.depth > self.kept_depth:
            # the open frames are those kept on the path: the last at the kept depth
            self.open[-1].below += 1
            return None
        frame = Frame(state)
        self.open[-1].children.append(frame)
        self.open.append(frame)
        self.kept += 1
        if self.kept > self.keep:
            self.shallower()
        return frame

    def leave(self, frame: Frame | None, score_for_max: float, bound: str) -> None:
        """The engine's answer for the node it is leaving (a frame folded away by `shallower` is not
        kept)."""
        self.depth -= 1
        if frame is not None and self.open[-1] is frame:
            frame.score, frame.bound = score_for_max, bound
            self.open.pop()

    def shallower(self) -> None:
        """Keep the most plies whose frames fit `keep`: the deepest kept ply's subtrees become
        counts."""
        plies: list[int] = []  # kept frames by ply
        for _, depth in _frames(self.root):
            plies[depth:] = plies[depth:] or [0]
            plies[depth] += 1
        total, self.kept_depth = 0, 0
        for depth, count in enumerate(plies):
            total += count
            if total > self.keep:
                break
            self.kept, self.kept_depth = total, depth
        for frame, depth in _frames(self.root):
            if depth == self.kept_depth:
                frame.below = frame.size() - 1
                frame.children = []
        del self.open[self.kept_depth + 1 :]


class TracedMinimax(Tracing, Minimax):
    """Plain minimax, traced; its scores are for the side to move at the root move's child."""

    def minimax(self, state: Any, depth: int, maximizer: int) -> float:
        frame = self.enter(state)
        score = super().minimax(state, depth, maximizer)
        self.leave(frame, score if maximizer == self.max_side else -score, EXACT_VALUE)
        return score


class TracedAlphaBeta(Tracing, AlphaBeta):
    """Alpha-beta, traced; a fail-soft score outside the node's window is a bound."""

    def value(self, state: Any, depth: int, alpha: float, beta: float, me: int) -> float:
        frame = self.enter(state)
        score = super().value(state, depth, alpha, beta, me)
        # a leaf's score is its value, whatever the window
        if self.game.is_terminal(state) or depth <= 0:
            bound = EXACT_VALUE
        else:
            bound = AT_LEAST if score >= beta else AT_MOST if score <= alpha else EXACT_VALUE
        if me != self.max_side:
            self.leave(frame, -score, {AT_LEAST: AT_MOST, AT_MOST: AT_LEAST}.get(bound, bound))
        else:
            self.leave(frame, score, bound)
        return score


def traced_engine(algorithm: str) -> type[Tracing]:
    """The traced engine `algorithm` names (the tree is drawn for the two textbook engines);
    BadInput names them."""
    if algorithm == MINIMAX:
        return TracedMinimax
    if algorithm == ALPHABETA:
        return TracedAlphaBeta
    raise BadInput(f"the tree is drawn for {MINIMAX} or {ALPHABETA}, not {quoted(algorithm)}")


def trace(
    game: AnyGame,
    state: Any,
    algorithm: str = MINIMAX,
    every_move: bool = False,
    limit: float = INFINITY,
    plies: int | None = None,
    depth: int | None = None,
    keep: float = INFINITY,
) -> tuple[Node, int]:
    """The explored tree's root and the nodes the engine visited; TreeTooBig past `limit` drawn
    nodes.

    The engine runs without a table, so every node it reaches is searched in front of you.
    `every_move` is the engines' flag: alpha-beta then searches every root move with the full window
    (as `solve` does), else later root moves only for a better value. `plies` bounds how deep the
    tree goes (the whole tree's, counted, when not given); the engine recurses that deep on a stack
    that holds it (TooDeep when none does). Nodes past `depth` plies are searched and counted, not
    drawn; past `keep` searched nodes, the picture draws as many plies as fit (see `Tracing`).
    """
    tracing = traced_engine(algorithm)
    searched = ENGINES[algorithm].game_for(game)
    if plies is None:
        whole = tree_size(game, state)
        plies = whole.plies if whole is not None else DEEPEST
    tracer = tracing(searched, Table(0), Budget())
    tracer.book = None  # the tree shows the search alone, as without a table
    root = tracer.start(state, limit, DEEPEST if depth is None else depth, keep)

    def traced() -> tuple[Node, int]:
        result = list(iterate(tracer, state, every_move=every_move, deepen=False))[-1]
        node = build(tracer, root, None, algorithm == ALPHABETA, result.value, [0], 0)
        return node, tracer.budget.nodes

    return deep(traced)


def _frames(root: Frame) -> Iterator[tuple[Frame, int]]:
    """Every kept frame and its ply, parents first (without recursion); a frame's children may be
    dropped as it is yielded."""
    waiting = [(root, 0)]
    while waiting:
        frame, depth = waiting.pop()
        yield frame, depth
        waiting.extend((child, depth + 1) for child in frame.children)


def build(
    tracer: Tracing,
    frame: Frame,
    move: Any,
    prune: bool,
    root_value: float | None,
    drawn: list[int],
    depth: int,
) -> Node:
    """The Node for a traced frame, its unsearched children marked pruned or left out (none drawn
    below the kept depth: the nodes searched there are counted)."""
    game, state = tracer.game, frame.state
    drawn[0] += 1
    if drawn[0] > tracer.limit:
        raise TreeTooBig("tree too big")
    maximizing = game.to_move(state) == tracer.max_side
    value = root_value if root_value is not None else to_value(frame.score, True)
    if game.is_terminal(state):
        return Node(move, state, maximizing, True, SEARCHED, value, frame.bound)
    if depth >= tracer.kept_depth:
        return Node(
            move, state, maximizing, False, SEARCHED, value, frame.bound, hidden=frame.below
        )
    root = root_value is not None
    every = list(game.actions(state))
    order = list(ordered(game)(state)) if prune and not root else every
    children = [
        build(tracer, child, step, prune, None, drawn, depth + 1)
        for child, step in zip(frame.children, order, strict=False)
    ]
    unsearched = order[len(children) :] + [step for step in every if step not in order]
    for step in unsearched:
        drawn[0] += 1
        if drawn[0] > tracer.limit:
            raise TreeTooBig("tree too big")
        after = game.result(state, step)
        status = PRUNED if step in order else LEFT_OUT
        children.append(
            Node(
                step, after, game.to_move(after) == tracer.max_side, game.is_terminal(after), status
            )
        )
    scores = [child.score for child in frame.children]
    best = (scores.index(max(scores) if maximizing else min(scores))) if scores else None
    return Node(move, state, maximizing, False, SEARCHED, value, frame.bound, tuple(children), best)


def alphabeta_size(game: AnyGame, state: Any, seconds: float | None = None) -> int | None:
    """Nodes the alpha-beta engine without a table visits from `state`; None past `seconds` (None:
    no limit), or when it recurses deeper than this thread's stack allows."""
    limits = Limits(time=seconds)
    try:
        result = ENGINES[ALPHABETA].search(game, state, limits, table=Table(0), deepen=False)
    except TooDeep:
        return None
    return result.nodes if result.exact else None


def explore(
    game: AnyGame,
    state: Any,
    algorithm: str = MINIMAX,
    max_nodes: int = 2_000,
    depth: int | None = None,
    drawn: int = DRAWN,
) -> GameTree:
    """The tree `algorithm` explores from `state`, with node counts with and without pruning.

    Refuses (TreeTooBig, saying how big the tree is) when it would search over `max_nodes` nodes,
    before it explores where the whole tree's size tells, and when the tree goes deeper than the
    stack allows. The picture keeps `depth` plies (all: None) and at most about `drawn` searched
    nodes, a ply less each time they would be more; the nodes below are counted.
    """
    traced_engine(algorithm)
    whole = tree_size(game, state)
    if algorithm == MINIMAX and (whole is None or whole.nodes > max_nodes):
        raise TreeTooBig(too_big(game, state, algorithm, max_nodes, whole))
    plies = min(whole.plies if whole is not None else DEEPEST, max_nodes)

    def explored() -> GameTree:
        root, visited = trace(
            game, state, algorithm, limit=max_nodes, plies=plies, depth=depth, keep=drawn
        )
        shown = drawn_depth(root)
        if algorithm == MINIMAX:
            pruned_visits = alphabeta_size(game, state)
            assert pruned_visits is not None  # no time limit, and the stack holds the whole tree
            return GameTree(root, algorithm, visited, visited, pruned_visits, shown)
        return GameTree(
            root, algorithm, visited, whole.nodes if whole is not None else None, visited, shown
        )

    try:
        return deep(explored)
    except TreeTooBig:
        raise TreeTooBig(too_big(game, state, algorithm, max_nodes, whole)) from None
    except TooDeep as error:
        raise TreeTooBig(
            f"{game.spec}: the tree goes deeper than {error.plies:,} plies, the most this "
            "machine's stack allows"
        ) from None


def drawn_depth(root: Node) -> int | None:
    """The ply of the nodes whose subtrees the picture counts rather than draws; None where it draws
    all."""
    waiting = [(root, 0)]
    while waiting:
        node, ply = waiting.pop()
        if node.hidden:
            return ply
        waiting.extend((child, ply + 1) for child in node.children)
    return None


def too_big(
    game: AnyGame, state: Any, algorithm: str, max_nodes: int, whole: TreeSize | None
) -> str:
    """The refusal: how big the tree is, and the limit."""
    sizes = [
        f"the whole tree has {format_count(whole.nodes)} nodes"
        if whole is not None
        else "the whole tree is too big to count quickly"
    ]
    if algorithm == ALPHABETA:
        visits = alphabeta_size(game, state, seconds=3.0)
        sizes.insert(
            0,
            f"alpha-beta visits {format_count(visits)} nodes"
            if visits is not None
            else "alpha-beta visits too many nodes to count quickly",
        )
    return (
        f"{game.spec}: {' and '.join(sizes)}; the tree view draws at most "
        f"{format_count(max_nodes)} (see --max-nodes)"
    )
