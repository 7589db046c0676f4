"""A tiny game given as an explicit tree, to pin engine behaviour with hand-checked answers.

A node is ("seat", [children]) with seat 0, 1 or "chance" (children as (probability, node)),
or a number: the payoff for seat 0 at a leaf. Seats need not alternate.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nimmax.game import CHANCE, Capability, Game, IllegalMove

Tree = Any


class TreeGame(Game[tuple[int, ...], int]):
    """States are paths from the root; moves are child indices."""

    name = "tree"

    def __init__(self, tree: Tree, players: int = 2) -> None:
        self.tree, self.players = tree, players
        chance, declared = "chance" in repr(tree), type(self).capabilities
        self.capabilities = (
            declared | {Capability.CHANCE} if chance else declared - {Capability.CHANCE}
        )

    def node(self, state: tuple[int, ...]) -> Tree:
        node = self.tree
        for index in state:
            children = node[1]
            node = children[index][1] if node[0] == "chance" else children[index]
        return node

    def initial_state(self) -> tuple[int, ...]:
        return ()

    def to_move(self, state: tuple[int, ...]) -> int:
        node = self.node(state)
        if isinstance(node, (int, float)):
            return 0
        return CHANCE if node[0] == "chance" else node[0]

    def actions(self, state: tuple[int, ...]) -> Sequence[int]:
        return range(len(self.node(state)[1]))

    def chance_outcomes(self, state: tuple[int, ...]) -> Sequence[tuple[float, int]]:
        return [(child[0], index) for index, child in enumerate(self.node(state)[1])]

    def result(self, state: tuple[int, ...], action: int) -> tuple[int, ...]:
        if self.is_terminal(state) or not 0 <= action < len(self.node(state)[1]):
            raise IllegalMove(f"no move {action}")
        return (*state, action)

    def is_terminal(self, state: tuple[int, ...]) -> bool:
        return isinstance(self.node(state), (int, float))

    def utility(self, state: tuple[int, ...], player: int) -> float:
        payoff = float(self.node(state))
        return payoff if player == 0 else -payoff
