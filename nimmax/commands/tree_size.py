"""The size of a whole game tree, counted over distinct positions without recursion: what `tree`
says of a tree it will not draw, and how deep its trace may go."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import MAX_EMAX, Context, Decimal
from typing import Any

from nimmax.game import AnyGame
from nimmax.search import ENGINES

MINIMAX = "minimax"
"""The engine whose view of the game the count takes (its `game_for`)."""

COUNT_POSITIONS = 100_000
"""Most distinct positions `tree_size` keeps before calling a tree too big to count."""

COUNT_SECONDS = 1.0
"""Most seconds `tree_size` counts before calling a tree too big to count quickly."""

COUNT_DIGITS = 18
"""Node counts are exact below 10^18 and keep their leading 18 digits above it, so a tree of
10^6000 nodes is counted without 6,000-digit numbers."""


@dataclass(frozen=True)
class TreeSize:
    """The whole game tree below a position, as plain minimax walks it."""

    nodes: int
    """Nodes, root included: exact below 10^COUNT_DIGITS, else its leading COUNT_DIGITS digits."""
    plies: int
    """The longest line to the end of the game."""


@dataclass
class Opened:
    """A position `tree_size` is counting: the moves not yet followed and the tree so far."""

    position: Any
    moves: Iterator[Any]
    nodes: Decimal
    plies: int = 0


def tree_size(
    game: AnyGame, state: Any, most_positions: int = COUNT_POSITIONS, seconds: float = COUNT_SECONDS
) -> TreeSize | None:
    """The whole game tree below `state` (what plain minimax visits), counted over distinct
    positions without recursion; None past `most_positions` positions or `seconds`."""
    game = ENGINES[MINIMAX].game_for(game)
    deadline = time.perf_counter() + seconds
    counting = Context(prec=COUNT_DIGITS, Emax=MAX_EMAX)
    sizes: dict[Any, tuple[Decimal, int]] = {}
    end = object()

    def opened(position: Any) -> Opened:
        moves = () if game.is_terminal(position) else game.actions(position)
        return Opened(position, iter(moves), Decimal(1))

    def add(parent: Opened, nodes: Decimal, plies: int) -> None:
        parent.nodes, parent.plies = counting.add(parent.nodes, nodes), max(parent.plies, plies + 1)

    path = [opened(state)]
    while True:
        top = path[-1]
        move = next(top.moves, end)
        if move is end:
            path.pop()
            if not path:
                return TreeSize(int(top.nodes), top.plies)
            sizes[top.position] = top.nodes, top.plies
            add(path[-1], top.nodes, top.plies)
            continue
        child = game.result(top.position, move)
        known = sizes.get(child)
        if known is not None:
            add(top, *known)
            continue
        if len(sizes) + len(path) >= most_positions or time.perf_counter() > deadline:
            return None
        path.append(opened(child))


def format_count(count: int) -> str:
    """A node count for people: with thousands separators, or its order of magnitude when huge."""
    return f"{count:,}" if count < 10**COUNT_DIGITS else f"about 10^{round(math.log10(count)):,}"
