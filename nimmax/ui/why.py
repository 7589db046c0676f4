"""Explanations on screen: why an engine's move (`why` in play, `solve --explain`), and a
recorded game's analysis (`nimmax analyze`, `replay --analyze`)."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from rich.markup import escape
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from nimmax.game import CHANCE, AnyGame
from nimmax.ui.claims import claim_text
from nimmax.ui.text import counted, signed
from nimmax.ui.views import outcome_word

if TYPE_CHECKING:
    from nimmax.commands.analyze import Analysis, MoveAnalysis
    from nimmax.commands.explain import MoveLine

SHOWN_MOVES = 12
"""Root moves `why` lists: the played one and the best others; more would not be read."""

VERDICT_STYLE = MappingProxyType(
    {"best": "green", "estimate": "dim", "inaccuracy": "yellow", "mistake": "bold red"}
)


def line_text(game: AnyGame, state: Any, line: Sequence[Any], finished: bool) -> str:
    """A line in the game's notation, each move named by its mover: "O b1, X a3"; "…" where it
    stops short of the end. Where chance moves a line stops, its move there the explanation's
    marker (`explain.ANY_SPAWN`: "any spawn"), shown as it is."""
    parts = []
    for move in line:
        mover = game.to_move(state)
        if mover == CHANCE:
            parts.append(str(move))
            return ", ".join(parts)
        parts.append(f"{game.player_names[mover]} {game.format_move(move)}")
        state = game.result(state, move)
    return ", ".join(parts) + ("" if finished or not parts else ", …")


def value_phrase(game: AnyGame, state: Any, found: MoveLine) -> str:
    """A root move's value for the side to move at `state`, in the one wording (`ui/claims.py`): its
    claim (`MoveLine.claim`: proven by this search or earlier in the session, else an estimate)."""
    return claim_text(game, found.claim, game.to_move(state), short=True)


def explanation(game: AnyGame, state: Any, found: MoveLine) -> str:
    """One sentence for a root move: "b1 -1 (loss): X a3" — its value, then the line after it."""
    head = f"{game.format_move(found.move)} {value_phrase(game, state, found)}"
    rest = found.line[1:]
    if not rest:
        return head + (": the game ends" if found.finished else "")
    return f"{head}: {line_text(game, game.result(state, found.move), rest, found.finished)}"


def why_table(game: AnyGame, state: Any, found: Sequence[MoveLine], played: Any) -> Table:
    """The engine's move with its line first, then the other moves, best first, each with the
    line that shows its value (the refutation of a worse one)."""
    ordered = sorted(found, key=lambda item: item.move != played)
    table = Table(title_justify="left", show_edge=False)
    table.add_column("move", style="bold cyan")
    table.add_column("value")
    table.add_column("line after it", overflow="fold")
    for item in ordered[:SHOWN_MOVES]:
        after = game.result(state, item.move)
        label = game.format_move(item.move) + (" (played)" if item.move == played else "")
        rest = line_text(game, after, item.line[1:], item.finished) or (
            "the game ends" if item.finished else "…"
        )
        table.add_row(Text(label), Text(value_phrase(game, state, item)), Text(rest))
    if len(ordered) > SHOWN_MOVES:
        table.caption = f"{counted(len(ordered) - SHOWN_MOVES, 'more move')} not shown"
    return table


def explain_tree(game: AnyGame, state: Any, found: Sequence[MoveLine]) -> Tree:
    """`solve --explain`: the best line and each other root move's refutation as a tree."""
    mover = game.to_move(state)
    name = game.player_names[mover]
    tree = Tree(Text(f"{name} to move in {game.format_position(state)}", style="bold"))
    for rank, item in enumerate(found):
        label = Text(game.format_move(item.move), style="bold green" if rank == 0 else "bold cyan")
        label.append(f"  {value_phrase(game, state, item)}")
        if rank == 0:
            label.append("  best", style="green")
        branch = tree.add(label)
        rest = item.line[1:]
        after = game.result(state, item.move)
        branch.add(
            Text(
                line_text(game, after, rest, item.finished)
                if rest
                else "the game ends"
                if item.finished
                else "…",
                style="dim" if rank else "",
            )
        )
    return tree


def analysis_table(game: AnyGame, analysis: Analysis) -> Table:
    """One row per move: who played it, its verdict, its value against the best move's."""
    table = Table(
        title=Text(f"{analysis.game}: analysed by {analysis.algorithm}"), title_justify="left"
    )
    table.add_column("ply", justify="right")
    table.add_column("player")
    table.add_column("move", style="bold cyan")
    table.add_column("verdict")
    table.add_column("value", justify="right")
    table.add_column("best move (value)")
    names = game.player_names
    for move in analysis.moves:
        label = names[move.seat] + (
            f" ({analysis.players[move.seat]})" if move.seat < len(analysis.players) else ""
        )
        best = (
            ""
            if move.verdict == "best"
            else f"{escape(move.best_move)} ({signed(move.best_value)})"
        )
        shown = signed(move.value_after) + ("" if move.exact else " ~")
        table.add_row(
            str(move.ply),
            Text(label),
            Text(move.move),
            Text(move.verdict, style=VERDICT_STYLE[move.verdict]),
            shown,
            best,
        )
    table.caption = (
        "values for the player who moved; ~ marks an estimate (it proves no outcome kept)"
    )
    return table


def decisive_line(game: AnyGame, analysis: Analysis) -> Text:
    """Which move decided the game, and the move that would have kept the outcome (a mistake is only
    ever proven); a loss of margin is named with its size, so the line agrees with the banner."""
    decisive: MoveAnalysis | None = analysis.decisive
    skipped = (
        f" ({counted(analysis.skipped, 'earlier move')} left unanalysed: the time ran out)"
        if analysis.skipped
        else ""
    )
    if decisive is None:
        if all(move.exact for move in analysis.moves) and not analysis.skipped:
            return Text("Nobody erred: every move kept the best proven result.", style="green")
        return Text(
            f"No proven mistake (some positions were only estimated){skipped}.", style="cyan"
        )
    name = game.player_names[decisive.seat]
    kept = outcome_word(game, decisive.best_value, True, decisive.seat)
    lost = outcome_word(game, decisive.value_after, True, decisive.seat)
    if kept in ("win", "draw", "loss"):
        said = f"{decisive.best_move} kept the {kept}. Both outcomes proven."
    else:  # a loss of margin: its size, as the banner's "keeps 10; best possible 20"
        said = (
            f"{decisive.best_move} would have given {kept}: a mistake of {decisive.loss:,g}. "
            "Both proven."
        )
    return Text(
        f"Decided at ply {decisive.ply}: {name} played {decisive.move} ({lost}); {said}{skipped}",
        style="bold red",
    )
