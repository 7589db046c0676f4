"""The commands that look at games rather than play them: `games`, `solve`, `tree`.

A command imports what it draws and runs inside its body: `nimmax --help` and a small solve
start in a fraction of the time the whole console takes to import.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from nimmax.cli.options import (
    GAME_WORDS,
    MAX_DEPTH,
    Depth,
    GameWords,
    count_option,
    json_option,
    output_file,
    seconds_option,
)
from nimmax.cli.root import app, emit_json, err, out
from nimmax.search.limits import override

if TYPE_CHECKING:
    from nimmax.claim import Proofs
    from nimmax.game import AnyGame
    from nimmax.players import SearchPlayer
    from nimmax.search import SearchResult
    from nimmax.ui.live import LiveSearch

MAX_TREE_NODES = 10**6
"""The most nodes `tree --max-nodes` lets a tree have: more than any picture shows."""


@app.command("games")
def games_command(as_json: Annotated[bool, json_option("the list")] = False) -> None:
    """List the games, their options, and the players.

    [bold]Examples[/bold]: [cyan]nimmax games[/cyan], [cyan]nimmax games --json[/cyan]
    """
    from nimmax.commands.catalog import catalog
    from nimmax.ui import views

    found = catalog()
    if as_json:
        emit_json(found.as_json())
        return
    out.print(views.games_table(found.games))
    out.print(views.players_table(found.players))
    if found.plugins:
        out.print(views.plugins_table(found.plugins))
    out.print(views.openspiel_table(found.openspiel))


@app.command("solve", context_settings=dict(GAME_WORDS))
def solve_command(
    game_words: GameWords,
    algorithm: Annotated[
        str, typer.Option(help="Player spec of the engine, e.g. minimax:cache=off.")
    ] = "alphabeta",
    depth: Depth = None,
    time: Annotated[
        float | None, seconds_option("to search, deepening ply by ply", show_default="to the end")
    ] = None,
    every_move: Annotated[
        bool,
        typer.Option(
            "--all", help="Value every move exactly after the answer; show every move in the table."
        ),
    ] = False,
    explain: Annotated[
        bool,
        typer.Option(
            "--explain", help="Show the best line and each other move's refutation as a tree."
        ),
    ] = False,
    as_json: Annotated[bool, json_option("the answer")] = False,
) -> None:
    """Find the value and best move of a position; the other moves with the bound that proves them
    no better.

    With no limit it searches to the end of the game, showing its progress; Ctrl-C stops it and
    prints what it has (not proven), exit 130. --all (or --explain) then values every other move
    exactly, one at a time; Ctrl-C there keeps the answer and the values so far.
    [bold]Examples[/bold]: [cyan]nimmax solve nim 2 3 5[/cyan] · [cyan]nimmax solve connect4 --time
    10[/cyan] · [cyan]nimmax solve tictactoe --size 15 --k 5 --time 5 --all[/cyan] · [cyan]nimmax
    solve tictactoe --position x../.o./... --explain[/cyan] · [cyan]nimmax solve nim 1 2 3 --normal
    --algorithm minimax:cache=off --json[/cyan]
    """
    from nimmax import games
    from nimmax.claim import Proofs
    from nimmax.commands.solve import solution_record, solve, solver
    from nimmax.players import parse_spec
    from nimmax.ui.live import LiveSearch

    game = games.create(game_words)
    state = game.initial_state()
    live = LiveSearch(game, err, "Ctrl-C stops and shows the answer so far")
    live.state = state
    game = live.working(game)  # a book made for the solve shows its bar and stops with it
    player = solver(parse_spec(algorithm), override(depth, time), live)
    proofs = Proofs()  # what this solve proves, every view of it shows proven
    with live.watching("solving"):
        result = solve(game, state, player=player, others=not (every_move or explain))
    refining = (every_move or explain) and bool(result.upper_bounds) and not live.interrupted
    if refining:
        result = refined(game, state, algorithm, player, result, live, proofs, as_json)
    if as_json:
        emit_json(solution_record(game, state, algorithm, result, live.interrupted))
    else:
        show_solution(game, state, algorithm, result, proofs, every_move or explain, refining)
        if explain and result.moves and not live.interrupted:
            show_lines(game, state, player, result, live, proofs)
    if live.interrupted:
        stop(result, refining)


def stop(result: SearchResult, refining: bool) -> None:
    """An interrupted solve ends here: main() prints "interrupted" and what was kept, and exits
    130."""
    from nimmax.ui.views import interrupted_refinement, partial_answer

    stopped = KeyboardInterrupt()
    stopped.add_note(interrupted_refinement(result) if refining else partial_answer(result))
    raise stopped


def refined(
    game: AnyGame,
    state: Any,
    algorithm: str,
    player: SearchPlayer,
    result: SearchResult,
    live: LiveSearch,
    proofs: Proofs,
    quiet: bool,
) -> SearchResult:
    """solve --all: the answer shown first (unless `quiet`: --json), then every other move valued
    exactly, live."""
    from nimmax.commands.solve import refine

    with live.watching("valuing every move"):  # from the answer on, Ctrl-C keeps it
        if not quiet:
            show_answer(game, state, algorithm, result, proofs)
        return refine(game, state, player, result)


def show_answer(
    game: AnyGame, state: Any, algorithm: str, result: SearchResult, proofs: Proofs
) -> None:
    """Solve's answer before every move is valued: the position, the value, the best line, its
    cost."""
    from nimmax.ui import views

    out.print(views.solution_header(game, state))
    claim = proofs.claimed(game, state, result, algorithm)
    out.print(views.solution_summary(game, algorithm, result, claim, game.to_move(state)))


def show_solution(
    game: AnyGame,
    state: Any,
    algorithm: str,
    result: SearchResult,
    proofs: Proofs,
    every_move: bool,
    refined: bool = False,
) -> None:
    """Solve's answer: the moves valued, best first, and a summary (or, after `show_answer`, what
    valuing every move found); or how a finished game ended."""
    from nimmax.ui import views
    from nimmax.ui.results import outcome

    if game.is_terminal(state):
        out.print(f"The game is already over: {outcome(game, state, game.player_names)[0]}.")
    elif result.moves:
        table = views.solution_table(game, state, result, None if every_move else views.BEST_ROWS)
        if refined:  # the header and the answer are shown above
            out.print(*table.renderables[1:])
            out.print(views.refinement_note(result))
        else:
            out.print(table)
            claim = proofs.claimed(game, state, result, algorithm)
            out.print(views.solution_summary(game, algorithm, result, claim, game.to_move(state)))


def show_lines(
    game: AnyGame,
    state: Any,
    player: SearchPlayer,
    result: SearchResult,
    live: LiveSearch,
    proofs: Proofs,
) -> None:
    """solve --explain: the best line and each other move's refutation, as a tree."""
    from nimmax.commands.explain import lines
    from nimmax.ui.why import explain_tree

    with live.watching("explaining"):
        found = lines(game, state, player, proofs, result)
    out.print(explain_tree(game, state, found))


@app.command("tree", context_settings=dict(GAME_WORDS))
def tree_command(
    game_words: GameWords,
    algorithm: Annotated[
        str,
        typer.Option(
            help=(
                "minimax or alphabeta (pruned branches shown dimmed). The default is minimax, not "
                "solve's "
                "alphabeta: the whole tree is the picture, and alphabeta's cuts are best seen "
                "against it."
            )
        ),
    ] = "minimax",
    max_nodes: Annotated[
        int, count_option("--max-nodes", MAX_TREE_NODES, "Refuse trees with more nodes than this")
    ] = 2_000,
    svg: Annotated[
        Path | None, output_file("the picture", "Also write the picture to this SVG file.")
    ] = None,
    depth: Annotated[
        int | None,
        count_option(
            "--depth", MAX_DEPTH, "Plies drawn (the search still goes to the end)", least=0
        ),
    ] = None,
) -> None:
    """Draw the whole game tree: every position, the side to move (Max or Min) and its value.

    A tree of more than about 5,000 nodes is drawn to the depth that fits, each node there with the
    count of the nodes searched below it.

    [bold]Examples[/bold]:
    [cyan]nimmax tree plates[/cyan] ·
    [cyan]nimmax tree simple-nim 6 --algorithm alphabeta[/cyan] ·
    [cyan]nimmax tree nim 2 2 --algorithm alphabeta --svg nim.svg[/cyan]
    """
    from nimmax import games
    from nimmax.commands.tree import explore
    from nimmax.files import CannotWrite, write_atomic
    from nimmax.ui.tree import tree_picture

    game = games.create(game_words)
    explored = explore(game, game.initial_state(), algorithm, max_nodes, depth)
    console = Console(record=True) if svg is not None else out
    console.print(tree_picture(game, explored))
    if svg is not None:
        try:
            write_atomic(
                svg, console.export_svg(title=f"nimmax tree {game.spec} --algorithm {algorithm}")
            )
        except OSError as error:
            raise CannotWrite("the picture", svg, error) from None
