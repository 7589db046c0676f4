"""The tree an MCTS search grows, and keeps between the moves of one game: nodes with their
visits, payoffs and proven bounds, and the lines a reader of tables follows."""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from itertools import accumulate
from typing import Any

from nimmax.game import CHANCE, AnyGame
from nimmax.search.score import FULL_DEPTH, INFINITY
from nimmax.search.table import EXACT, Entry, key_of

REUSE_PLIES = 4
"""How far below the last root a kept tree is searched for the position now to be played."""

PV_LENGTH = 64
"""The most moves of a line (the most visited one)."""

UNLISTED: Any = object()
"""A node's next move before its moves are asked for."""
NO_MORE: Any = object()
"""A node's next move once every move has a child."""


class Node:
    """A position in the tree: visits, the sum of seat 0's payoffs, and proven bounds on its
    value."""

    __slots__ = (
        "state",
        "move",
        "mover",
        "children",
        "moves",
        "upcoming",
        "narrowed",
        "visits",
        "total",
        "low",
        "high",
        "done",
    )

    def __init__(self, state: Any, move: Any, mover: int) -> None:
        self.state, self.move, self.mover = state, move, mover
        self.children: list[Node] = []
        self.moves: Iterator[Any] | None = None
        self.upcoming: Any = UNLISTED
        self.narrowed = False
        """Its moves are the game's `heuristic_actions`: some are left out, so it proves no loss."""
        self.visits = 0
        self.total = 0.0
        self.low, self.high = -INFINITY, INFINITY
        self.done = False
        """Settled: the bounds met, or (two players) they decide who wins."""

    def tried_all(self) -> bool:
        """Whether every legal move of a player's node has a child (none left out by narrowing)."""
        return self.upcoming is NO_MORE and not self.narrowed

    def made(self) -> list[Node]:
        """The children made so far."""
        return self.children

    def mean(self) -> float:
        """The mean payoff for seat 0 (0 before the first visit)."""
        return self.total / self.visits if self.visits else 0.0


class Chance(Node):
    """A chance node: its outcomes, their running probabilities, and a child per outcome drawn so
    far."""

    __slots__ = ("outcomes", "thresholds", "drawn")

    def __init__(self, state: Any, move: Any, outcomes: Sequence[tuple[float, Any]]) -> None:
        super().__init__(state, move, CHANCE)
        self.outcomes = list(outcomes)
        self.thresholds = list(accumulate(probability for probability, _ in self.outcomes))
        self.drawn: list[Node | None] = [None] * len(self.outcomes)

    def made(self) -> list[Node]:
        """The outcomes drawn so far, in the order of the outcomes."""
        return [child for child in self.drawn if child is not None]


class Tree(Mapping[Hashable, Entry]):
    """What an MCTS player keeps between moves: the tree, and a mapping of the lines it valued (read
    like a table)."""

    def __init__(self) -> None:
        self.root: Node | None = None
        self.lowest, self.highest = INFINITY, -INFINITY
        """The least and the most payoff a playout has reached: UCT scales means by them."""
        self.lines: dict[Hashable, Entry] = {}

    def __getitem__(self, key: Hashable) -> Entry:
        return self.lines[key]

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.lines)

    def __len__(self) -> int:
        return len(self.lines)

    def index(self, game: AnyGame, root: Node) -> None:
        """Keep the most visited line below each root move as exact entries (moves, not values), for
        `explain`."""
        self.lines.clear()
        key = key_of(game)  # the key explain reads a table by
        # of two mirror images, the more visited
        for child in sorted(root.made(), key=lambda node: node.visits):
            node, plies = child, 0
            while node.children and node.mover != CHANCE and plies < PV_LENGTH:
                best = max(node.children, key=lambda below: below.visits)
                if not best.visits:
                    break
                proven = FULL_DEPTH if node.low == node.high else 0
                self.lines[key(node.state)] = (proven, EXACT, 0.0, best.move, hash(node.state))
                node, plies = best, plies + 1

    def find(self, state: Any) -> Node | None:
        """The node of `state` within REUSE_PLIES below the last root (the root itself included)."""
        level = [self.root] if self.root is not None else []
        for _ in range(REUSE_PLIES + 1):
            for node in level:
                if node.state == state:
                    return node
            level = [child for node in level for child in node.made()]
        return None
