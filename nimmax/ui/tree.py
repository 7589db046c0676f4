"""The explored game tree drawn with Rich: values for Max, pruned branches dimmed, the best
line marked, and a footer comparing the nodes visited with and without pruning."""

from __future__ import annotations

from types import MappingProxyType

from rich.console import Group, RenderableType
from rich.text import Text
from rich.tree import Tree

from nimmax.commands.tree import (
    ALPHABETA,
    AT_LEAST,
    AT_MOST,
    DRAWN,
    EXACT_VALUE,
    LEFT_OUT,
    PRUNED,
    GameTree,
    Node,
    format_count,
)
from nimmax.game import AnyGame

BOUND_SIGN = MappingProxyType({AT_LEAST: "≥ ", AT_MOST: "≤ "})


def tree_picture(game: AnyGame, explored: GameTree) -> RenderableType:
    """The whole explored tree with its legend and node-count footer."""
    root = explored.root
    picture = Tree(label(game, root, root=True), guide_style="grey50")
    grow(game, picture, root)
    return Group(picture, Text(), footer(game, explored))


def grow(game: AnyGame, picture: Tree, root: Node) -> None:
    """Add the nodes below `root` under `picture`, without recursion (trees go deep); the best
    line from the root (perfect play) is marked."""
    waiting = [(picture, root, True)]
    while waiting:
        branch, node, on_line = waiting.pop()
        for index, child in enumerate(node.children):
            best = on_line and index == node.best and node.bound == EXACT_VALUE
            waiting.append((branch.add(label(game, child, best=best)), child, best))


def side_name(game: AnyGame, node: Node) -> str:
    """Max or Min, with the seat's own name when it has one."""
    role = "Max" if node.maximizing else "Min"
    seat = game.to_move(node.state)
    return f"{role} ({game.player_names[seat]})" if 0 <= seat < len(game.player_names) else role


def label(game: AnyGame, node: Node, root: bool = False, best: bool = False) -> Text:
    """One node's line: move and position, side to move, value for Max (or why it was skipped)."""
    position = game.format_position(node.state)
    text = Text(position if root else "")
    if not root:
        text.append(game.format_move(node.move), style="bold")
        text.append(f" → {position}")
    if node.status == PRUNED:
        text.append("   ✂ pruned", style="bold")
        text.stylize("dim")
        return text
    if node.status == LEFT_OUT:
        text.append("   left out: the game forces another move here, not searched")
        text.stylize("dim")
        return text
    if node.terminal:
        text.append("   end", style="dim")
    else:
        text.append(
            f"   {side_name(game, node)} to move", style="cyan" if node.maximizing else "magenta"
        )
    value = node.value if node.value is not None else 0.0
    colour = "green" if value > 0 else "red" if value < 0 else "yellow"
    text.append("   value ", style="dim")
    text.append(
        f"{BOUND_SIGN.get(node.bound, '')}{value:+g}"
        if value
        else f"{BOUND_SIGN.get(node.bound, '')}0",
        style=f"bold {colour}",
    )
    if best:
        text.append("   ◀ perfect play", style="bold green")
    if node.hidden:
        text.append(f"   … {node.hidden:,} nodes below, not drawn", style="dim")
    return text


def footer(game: AnyGame, explored: GameTree) -> Text:
    """The legend, the comparison of nodes visited with and without pruning, and what was not
    drawn."""
    text = counts(game, explored)
    if explored.drawn_depth is not None:
        plies = "ply" if explored.drawn_depth == 1 else "plies"
        text.append(
            f"\nDrawn to {explored.drawn_depth} {plies}: {explored.hidden:,} nodes searched below "
            "them are "
            f"counted, not drawn (a picture keeps about {DRAWN:,} nodes; --depth N draws fewer "
            "plies).",
            style="dim",
        )
    return text


def counts(game: AnyGame, explored: GameTree) -> Text:
    """The legend and the comparison of nodes visited with and without pruning."""
    whole, pruned_visits = explored.minimax_nodes, explored.alphabeta_nodes
    seat = game.to_move(explored.root.state)
    max_name = f" ({game.player_names[seat]})" if 0 <= seat < len(game.player_names) else ""
    text = Text(
        f"Each node: move → position, side to move, value (payoff for Max{max_name}, the side to "
        "move at the root)",
        style="dim",
    )
    if explored.algorithm == ALPHABETA:
        text.append("; ≥ and ≤ mark bounds where alpha-beta stopped early.\n", style="dim")
        text.append(f"alpha-beta visited {explored.nodes:,} nodes", style="bold")
        if whole is not None:
            saved = whole - explored.nodes
            text.append(
                f"; minimax (no pruning) visits {format_count(whole)}: "
                f"pruning saved {format_count(saved)} ({saved / whole:.0%})"
            )
        drawn = " in the plies drawn" if explored.drawn_depth is not None else ""
        text.append(f"; {explored.count(PRUNED):,} branches pruned{drawn}")
        if explored.count(LEFT_OUT):
            text.append(f", {explored.count(LEFT_OUT):,} moves left out by the game")
        text.append(".")
        return text
    saved = explored.nodes - pruned_visits
    text.append(".\n", style="dim")
    text.append(f"minimax visited {explored.nodes:,} nodes", style="bold")
    text.append(
        f" (every node of the tree); alpha-beta visits {pruned_visits:,}: pruning would save "
        f"{saved:,} ({saved / explored.nodes:.0%}). See it: --algorithm alphabeta"
    )
    return text
