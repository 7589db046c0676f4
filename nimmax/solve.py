"""Solving a position: every root move valued, the answer `nimmax solve` prints."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from nimmax.explain import ANY_SPAWN, follow
from nimmax.game import CHANCE, AnyGame
from nimmax.players import BadPlayerSpec, SearchPlayer, parse_spec
from nimmax.search import ENGINES, SCALE, Limits, SearchResult, Table, Watcher, deep
from nimmax.search.engines import Kept


def solver(algorithm: str = "alphabeta", limits: Limits | None = None, watcher: Watcher | None = None) -> SearchPlayer:
    """The player that solves with the engine `algorithm` names; `limits` (--depth/--time) replace its own.

    With no limit at all it searches to the end of the game (no play-time default): see `solve`.
    """
    spec = parse_spec(algorithm)
    if spec.engine is None:
        raise BadPlayerSpec(f"solve needs a search engine ({', '.join(ENGINES)}), not {spec.kind!r}")
    if limits is not None or not spec.names_limits:
        spec = spec.limited(limits if limits is not None else Limits())
    return SearchPlayer(spec, watcher)


def solve(
    game: AnyGame,
    state: Any,
    algorithm: str = "alphabeta",
    limits: Limits | None = None,
    watcher: Watcher | None = None,
    player: SearchPlayer | None = None,
) -> SearchResult:
    """Value every move of `state` with the engine `algorithm` names (or with `player`, made by
    `solver`, whose table then holds the search for explaining it), on a stack that holds a
    search to the end of the game (`deep`)."""
    if player is None:
        player = solver(algorithm, limits, watcher)
    if game.to_move(state) == CHANCE:
        raise BadPlayerSpec("the position is a chance node: there is no move to solve")
    chosen = player

    def solved() -> SearchResult:
        result = chosen.search(game, state, every_move=True, deepen=deepens(chosen))
        own = chosen.engine.name == "alphabeta" and chosen.settings.cache  # its table holds most of the line
        return replace(result, pv=full_line(game, state, result, chosen.table_for(game) if own else Table()))

    return deep(solved)


def deepens(player: SearchPlayer) -> bool | None:
    """Whether a solve without a clock deepens: with a table it does, a few cheap plies before it
    leaps to the end (`deepening.LEAP_NODES`), so Ctrl-C has the deepest of them to show while the
    proof runs; deepening ply by ply to the end would repeat ever bigger searches (up to ten times
    a straight proof's nodes, Connect Four 4x5). Without a table (cache=off) the shallow searches
    would help nothing, and the textbook counts stay the whole tree's. None: the engine's own rule."""
    if player.limits.clocked:
        return None
    return player.settings.cache


def full_line(game: AnyGame, state: Any, result: SearchResult, table: Kept) -> tuple[Any, ...]:
    """The best line as far as the search knows it: a proven value's line is played on to the end of
    the game (or to a chance draw), each further move the best by an exact alpha-beta search, since
    an engine without a table (minimax:cache=off) keeps only its first move."""
    line = tuple(result.pv)
    if not result.exact or not line:
        return line
    for move in line:
        state = game.result(state, move)
    exact = lambda at: ENGINES["alphabeta"].search(game, at, Limits(), table=table)  # noqa: E731
    more = follow(game, state, exact, table, proven=True, plies=SCALE)
    return line + tuple(move for move in more if move != ANY_SPAWN)


def solution_record(
    game: AnyGame, state: Any, algorithm: str, result: SearchResult, interrupted: bool = False
) -> dict[str, Any]:
    """The object `solve --json` prints (DESIGN.md); `interrupted` when Ctrl-C stopped the search."""
    mover = game.to_move(state)
    return {
        "game": game.spec,
        "position": game.format_position(state),
        "to_move": mover,
        "to_move_name": game.player_names[mover] if mover >= 0 else "chance",
        "value": result.value,
        "best_move": game.format_move(result.move) if result.move is not None else None,
        "moves": [{"move": game.format_move(move), "value": value} for move, value in result.moves],
        "pv": [game.format_move(move) for move in result.pv],
        "algorithm": algorithm,
        "depth": result.depth,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
        "exact": result.exact,
        "moves_proven": result.moves_proven,
        "interrupted": interrupted,
    }
