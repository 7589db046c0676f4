"""Rich views of the registry and of search answers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from nimmax.claim import Claim, says_nothing
from nimmax.game import AnyGame, has_chance
from nimmax.numbers import Option
from nimmax.search.result import SearchResult
from nimmax.ui.claims import claim_text
from nimmax.ui.results import value_words

if TYPE_CHECKING:
    from nimmax.games import GameInfo
    from nimmax.games.openspiel import Listed
    from nimmax.players import PlayerKind

from nimmax.ui.text import counted as counted  # re-exported: the CLI imports it from here
from nimmax.ui.text import signed


def outcome_word(game: AnyGame, value: float, exact: bool, mover: int | None = None) -> str:
    """What a value means for the side to move (`mover`, where known), in the game's own terms
    (`results.value_words`: win/draw/loss, "win by 4 seeds", "A keeps 20"), or that it is an
    estimate."""
    if not exact:
        return "heuristic estimate"
    if has_chance(game) and game.players == 2:
        return "expected"
    return value_words(game, value, mover)


def bound_word(game: AnyGame, value: float, exact: bool, mover: int | None = None) -> str:
    """What an upper bound on a move's value means for the side to move, in the game's terms:
    "loss or draw" where it is won, drawn or lost, "no better than win by 2 seeds" where it
    scores; a bound on an estimate is still an estimate."""
    if not exact:
        return "heuristic estimate, at most"
    if has_chance(game) and game.players == 2:
        return "expected, at most"
    words = value_words(game, value, mover)
    if words in ("loss", "draw", "win"):
        return {"loss": "loss", "draw": "loss or draw", "win": "no quicker win"}[words]
    return f"no better than {words}" if words != "proven" else "at most"


def move_value(value: float, bounded: bool) -> str:
    """A root move's value as the table shows it: "+2", or "≤ +2" for an upper bound."""
    return f"≤ {signed(value)}" if bounded else signed(value)


def games_table(games: Sequence[GameInfo]) -> Table:
    """Every game with its usage and what it is."""
    table = Table(title="Games", title_justify="left")
    table.add_column("game", style="bold cyan")
    table.add_column("usage")
    table.add_column("what it is")
    for info in games:
        name = info.name + (f" ({', '.join(info.aliases)})" if info.aliases else "")
        # plain text: "[books]" is no markup
        table.add_row(name, Text(info.usage), Text(info.summary))
    return table


def players_table(players: Sequence[PlayerKind]) -> Table:
    """Every player kind with the options its spec takes (and their defaults, where set)."""
    table = Table(title="Players (spec: kind[:option=value,...])", title_justify="left")
    table.add_column("player", style="bold cyan")
    table.add_column("options (default)")
    table.add_column("what it is")
    for kind in players:
        table.add_row(kind.name, ", ".join(map(option_text, kind.options)) or "-", kind.summary)
    table.caption = (
        "Engines think at most time=1 s a move; time=inf, or depth=N or nodes=N given alone, "
        "lifts the clock. "
        "solve searches to the end unless given --time or --depth."
    )
    table.caption_justify = "left"
    return table


def plugins_table(plugins: Sequence[dict[str, str]]) -> Table:
    """The games and players installed packages register (entry points), with any that fail to
    load."""
    table = Table(title="Plugins (installed packages)", title_justify="left")
    table.add_column("plugin", style="bold cyan")
    table.add_column("kind")
    table.add_column("from")
    for item in plugins:
        where = Text(item["target"])
        if "error" in item:
            where.append(f"  (cannot load: {item['error']})", style="red")
        table.add_row(Text(item["name"]), item["kind"], where)
    table.caption = (
        "A game or player of your own also works by file: path/file.py:Class (see README)."
    )
    table.caption_justify = "left"
    return table


def openspiel_table(listed: Sequence[Listed]) -> Table | Text:
    """OpenSpiel's games nimmax plays, with their parameters' defaults; how to get them where
    absent."""
    if not listed:
        return Text("OpenSpiel's games: pip install 'nimmax[openspiel]'", style="dim")
    table = Table(title="OpenSpiel's games (openspiel:NAME(param=value,...))", title_justify="left")
    table.add_column("game", style="bold cyan", no_wrap=True)
    table.add_column("parameters (default)")
    table.add_column("what it is")
    for game in listed:
        shown = ", ".join(f"{name}={value}" for name, value in game.parameters.items())
        table.add_row(f"openspiel:{game.name}", Text(shown or "-"), Text(game.long_name))
    return table


def option_text(option: Option) -> str:
    """An option as a spec writes it, with its default where it has one (`cache=on`, `c=1.414`,
    `cutoff=0.0001 (0 when exact)`, `depth`), a float to four figures."""
    default = option.default
    if default is None:
        return f"{option.name}={option.chosen}" if option.chosen else option.name
    if isinstance(default, bool):
        return f"{option.name}={'on' if default else 'off'}"
    if isinstance(default, int):
        return f"{option.name}={default:,}"
    return (
        f"{option.name}={default:.4g}" if isinstance(default, float) else f"{option.name}={default}"
    )


BEST_ROWS = 10
"""Root moves a solution table shows, best first, unless asked for all (`solve --all`): a 15x15
board has 225, a pile of millions has millions."""


def solution_header(game: AnyGame, state: Any) -> Text | Group:
    """Above the table: the game words, who is to move, the position, each on a line of its own, so
    none breaks mid-phrase at 80 columns; a position too long for a line is drawn as its board."""
    from nimmax.ui.render import render

    mover = game.to_move(state)
    position = game.format_position(state)
    if len(position) > MAX_POSITION_LINE:  # the board names the side to move
        return Group(Text(game.spec, "bold"), render(game, state))
    said = Text.assemble((game.spec, "bold"), "\n", (f"{game.player_names[mover]} to move", "bold"))
    return Text.assemble(said, "\n", (f"position {position}", "dim"))


MAX_POSITION_LINE = 70
"""The longest position solve's header writes as text (a line at 80 columns); a longer one is
drawn."""


def solution_table(
    game: AnyGame, state: Any, result: SearchResult, rows: int | None = BEST_ROWS
) -> Group:
    """The root moves with their values for the side to move, best first (the best `rows`, or all
    for None); the best move stands out."""
    mover = game.to_move(state)
    table = Table()
    table.add_column("move", style="bold", no_wrap=True)
    table.add_column("value", justify="right", no_wrap=True)
    table.add_column("outcome")
    ranked = result.moves  # in the engine's order, its choice first
    shown = ranked if rows is None else ranked[:rows]
    top = game.format_move(result.move) if result.move is not None else "the best"
    for move, value in shown:
        best, bounded = move == result.move, move in result.upper_bounds
        style = "bold green" if best else ("red" if value < 0 else "")
        label = game.format_move(move) + ("  ← best" if best else "")
        # "≤ +1" would read as a win
        if bounded and result.moves_proven and says_nothing(game, state, value):
            table.add_row(Text(label, style=style), f"≤ {top}", f"no better than {top}")
            continue
        word = (bound_word if bounded else outcome_word)(game, value, result.moves_proven, mover)
        table.add_row(Text(label, style=style), move_value(value, bounded), word)
    parts: list[Text | Table | Group] = [solution_header(game, state), table]
    legal = legal_count(game, state, len(ranked))
    if len(shown) < legal:
        lowest = min((value for _, value in shown), default=0.0)
        higher = any(value > lowest for _, value in ranked[len(shown) :])  # MCTS ranks by visits
        note = "" if higher else ", none valued higher"
        # a root too wide to value move by move (a book's root): the rest unvalued
        if legal > len(ranked):
            none = "" if higher else ", none higher"
            note = f" ({len(ranked) - len(shown):,} of them valued{none}; the rest not valued)"
            parts.append(Text(f"and {counted(legal - len(shown), 'more move')}{note}"))
        else:
            parts.append(
                Text(f"and {counted(legal - len(shown), 'more move')}{note} (--all shows them)")
            )
    if result.upper_bounds:
        parts.append(Text(BOUNDS_NOTE, style="dim"))
    return Group(*parts)


def legal_count(game: AnyGame, state: Any, valued: int) -> int:
    """How many moves `state` has (a lazy sequence says without making them), at least the `valued`
    ones."""
    try:
        return max(len(game.actions(state)), valued)
    except Exception:  # noqa: BLE001 - a plugin's moves may not say their number: the valued ones then
        return valued


BOUNDS_NOTE = "≤: a bound proving the move no better than the best (--all: each exact value)"
"""Under a solution table with bounds: what ≤ means, and how to have every value."""


LINE_MOVES = 20
"""Moves of a best line shown at most: a pile of thousands has a line of thousands of moves."""


def line_text(game: AnyGame, pv: Sequence[Any]) -> str:
    """A best line in the game's notation, cut after LINE_MOVES moves with the count of them all."""
    shown = " ".join(game.format_move(move) for move in pv[:LINE_MOVES])
    return f"{shown} … ({counted(len(pv), 'move')} in all)" if len(pv) > LINE_MOVES else shown


def solution_summary(
    game: AnyGame, algorithm: str, result: SearchResult, claim: Claim, mover: int | None = None
) -> Text:
    """Lines under the table: the claim on the position (`Proofs.claimed`: a proof made earlier
    in the session stands, a depth is clamped to the plies left), the best line as far as the
    search knows it, nodes and time."""
    line = line_text(game, result.pv)
    rate = result.nodes / result.seconds if result.seconds > 0 else 0.0
    return Text.assemble(
        ("value ", "dim"),
        (claim_text(game, claim, mover), "bold"),
        ("\nbest line ", "dim"),
        (line or "-", "bold"),
        ("\n", ""),
        (
            f"{algorithm}: {result.nodes:,} nodes in {result.seconds:.4f} s ({rate:,.0f} nodes/s)",
            "dim",
        ),
    )


def partial_answer(result: SearchResult) -> str:
    """What an interrupted search kept, in words that follow "interrupted"."""
    if result.exact:
        return "after the answer was proven; it is shown above"
    if result.depth:
        deepest = result.depth
        return (
            f"past depth {deepest}; the deepest completed answer, depth {deepest}, is shown "
            "above, not proven"
        )
    if result.moves:
        proof = " (each value proven)" if result.every_value else ""
        valued = counted(len(result.moves), "move") + (
            " was" if len(result.moves) == 1 else " were"
        )
        return f"after {valued} valued{proof}; they are shown above, the best of them not proven"
    return "before any move was searched"


def refinement_note(result: SearchResult) -> Text:
    """Under the table of every value: how many moves were valued exactly after the answer, and what
    it cost."""
    own = len(result.moves) - len(result.upper_bounds)
    return Text(
        f"every move valued exactly: {counted(own, 'move')}, {result.nodes:,} nodes in all",
        style="dim",
    )


def interrupted_refinement(result: SearchResult) -> str:
    """What an interrupted `solve --all` kept, in words that follow "interrupted"."""
    own = len(result.moves) - len(result.upper_bounds)
    return (
        f"while valuing every move: the answer and {counted(own, 'move')} valued exactly"
        " are shown above, the others with their bounds"
    )
