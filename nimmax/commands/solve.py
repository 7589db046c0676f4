"""Solving a position, the answer `nimmax solve` prints: the value and the best move with its line
at the engine's own speed, the other root moves with the bounds that prove them no better, then
(when asked) each of those valued exactly, one root move at a time, on the table the answer left."""

from __future__ import annotations

import time as clock
from dataclasses import replace
from typing import Any

from nimmax import cache
from nimmax.claim import clamped
from nimmax.commands.explain import ANY_SPAWN, follow
from nimmax.game import CHANCE, AnyGame, Capability
from nimmax.players import ALPHABETA, BadPlayerSpec, SearchPlayer, Spec
from nimmax.search import ENGINES, SCALE, Limits, MoveValue, SearchResult, Table, Watcher, deep
from nimmax.search.engines import Kept


def solver(
    spec: Spec = ALPHABETA, limits: Limits | None = None, watcher: Watcher | None = None
) -> SearchPlayer:
    """The player that solves with the engine `spec` names; `limits` (--depth/--time) replace its
    own.

    With no limit at all it searches to the end of the game (no play-time default): see `solve`.
    """
    if spec.engine is None:
        raise BadPlayerSpec(
            f"solve needs a search engine ({', '.join(ENGINES)}), not {spec.kind!r}"
        )
    if limits is not None or not spec.names_limits:
        spec = spec.limited(limits if limits is not None else Limits())
    return SearchPlayer(spec, watcher)


def solve(
    game: AnyGame,
    state: Any,
    algorithm: Spec = ALPHABETA,
    limits: Limits | None = None,
    watcher: Watcher | None = None,
    player: SearchPlayer | None = None,
    every_move: bool = False,
    others: bool = True,
) -> SearchResult:
    """The value and best move of `state` with its line, by the engine `algorithm` names (or by
    `player`, made by `solver`, whose table then holds the search for refining or explaining it), on
    a stack that holds a search to the end of the game (`deep`).

    Searching to the end, alpha-beta values the other root moves by the bounds that prove them no
    better (`upper_bounds`), at the speed of its own search; `every_move` asks for each move's own
    value too, searched after the answer (`refine`). An engine that prunes nothing values every move
    at no extra cost, and so does a limited search of a game that narrows its moves (estimates, all
    at one depth). A proven answer without a clock has its `others` valued exactly for what the
    proof took (`valued_within`, `others_budget`); the rest keep their bounds."""
    if player is None:
        player = solver(algorithm, limits, watcher)
    if game.to_move(state) == CHANCE:
        raise BadPlayerSpec("the position is a chance node: there is no move to solve")
    chosen = player
    # Where a limited search would narrow the root to the few moves worth trying (big boards),
    # every move is estimated at one depth instead, as the table lists them all.
    whole = (
        not prunes(chosen) or chosen.limits.limited and Capability.NARROWING in game.capabilities
    )

    def solved() -> SearchResult:
        result = searched(game, state, chosen, whole)
        own = prunes(chosen) and chosen.settings.cache  # its table holds most of the line
        return replace(
            result, pv=full_line(game, state, result, chosen.table_for(game) if own else Table())
        )

    # a search to the end without a clock may wait for a wide book (Kalah's)
    if not chosen.limits.limited:
        game = cache.at_work(game, patient=True)
    answer = deep(solved)
    if every_move:
        return refine(game, state, chosen, answer)
    if others and answer.exact and answer.upper_bounds and not chosen.limits.clocked:
        return deep(lambda: valued_within(game, state, chosen, answer, others_budget(answer)))
    return answer


LEAST_OTHERS = 0.5
"""Seconds a proven solve spends valuing the other moves exactly at least (else what the proof
took)."""

GLANCE = Limits(time=0.3)
"""What a solve stopped before its proof spends on an estimate to show (`searched`)."""


def searched(game: AnyGame, state: Any, player: SearchPlayer, every_move: bool) -> SearchResult:
    """The player's search of `state`; without a clock, alpha-beta searches straight to the end
    (or to its depth limit) as the engine alone does. Stopped before that (Ctrl-C), it answers
    with a glance: every move estimated by a search deepened for GLANCE on the table the proof
    left (the deepest depth completed), so the stop shows a move and a value."""
    deepen = deepens(player)
    if not (deepen and prunes(player)):
        return player.search(game, state, every_move=every_move, deepen=deepen)
    straight = player.search(game, state, every_move=every_move, deepen=False)
    # done, or not stopped by its watcher
    if straight.exact or straight.depth or player.watcher is None:
        return straight
    table, settings = player.table_for(game), player.settings
    glance = player.engine.search(
        game, state, GLANCE, table=table, every_move=True, deepen=True, settings=settings
    )
    return replace(
        glance, nodes=straight.nodes + glance.nodes, seconds=straight.seconds + glance.seconds
    )


def prunes(player: SearchPlayer) -> bool:
    """Whether the player's engine searches the moves after the best so far only for a better
    score (alpha-beta), so that valuing each of them exactly costs a search of its own."""
    return player.engine.name == "alphabeta"


def refine(game: AnyGame, state: Any, player: SearchPlayer, answer: SearchResult) -> SearchResult:
    """`answer` with each root move's own value in place of its bound: one search valuing every
    move, root move by root move, on the table the answer left (its best move's proof a table hit).

    Stopped early (the player's watcher: Ctrl-C), the moves valued by then replace their bounds
    and the rest keep them."""
    if not answer.upper_bounds:
        return answer
    every = deep(lambda: player.search(game, state, every_move=True, deepen=False))
    return merged(answer, every)


def others_budget(answer: SearchResult) -> float:
    """The seconds a proven answer's other moves are valued for: what the proof took, LEAST_OTHERS
    at least."""
    return max(answer.seconds, LEAST_OTHERS)


def valued_within(
    game: AnyGame, state: Any, player: SearchPlayer, answer: SearchResult, seconds: float
) -> SearchResult:
    """`answer` with its bounded moves valued exactly, each searched on its own on the answer's
    table, for as long as `seconds` allow: a move whose search is proven in time trades its bound
    for its value; the rest keep their bounds (a chance node after a move is left bounded). Straight
    to the end, as the answer's proof: deepening ply by ply would repeat ever bigger searches."""
    deadline = clock.perf_counter() + seconds
    mover, table = game.to_move(state), player.table_for(game)
    own: dict[Any, float] = {}
    nodes, spent = 0, 0.0
    for move, _ in answer.moves:
        left = deadline - clock.perf_counter()
        if move not in answer.upper_bounds or left <= 0:
            continue
        after = game.result(state, move)
        if game.is_terminal(after):
            own[move] = game.utility(after, mover)
            continue
        then = game.to_move(after)
        if then == CHANCE:
            continue
        found = player.engine.search(
            game,
            after,
            Limits(time=left),
            table=table,
            watcher=player.watcher,
            deepen=False,
            settings=player.settings,
        )
        nodes, spent = nodes + found.nodes, spent + found.seconds
        if found.exact:
            # a draw is 0, not -0
            own[move] = (found.value if then == mover else -found.value) + 0.0
    ranked = sorted(own.items(), key=lambda item: -item[1])
    first = [value for value in answer.moves if value.move == answer.move]
    rest = [value for value in answer.moves if value.move != answer.move and value.move not in own]
    return replace(
        answer,
        moves=tuple(first + [MoveValue(move, value) for move, value in ranked] + rest),
        upper_bounds=answer.upper_bounds - set(own),
        nodes=answer.nodes + nodes,
        seconds=answer.seconds + spent,
    )


def merged(answer: SearchResult, every: SearchResult) -> SearchResult:
    """The answer, its moves valued by `every` where it valued them: the best move first, then
    those valued in the engine's order, then those still bounded."""
    own = {move: value for move, value in every.moves if move != answer.move}
    first = [value for value in answer.moves if value.move == answer.move]
    rest = [value for value in answer.moves if value.move != answer.move and value.move not in own]
    refined = [value for value in every.moves if value.move in own]
    return replace(
        answer,
        moves=tuple(first + refined + rest),
        moves_proven=answer.moves_proven and (every.moves_proven or not own),
        upper_bounds=answer.upper_bounds - set(own),
        nodes=answer.nodes + every.nodes,
        seconds=answer.seconds + every.seconds,
    )


def deepens(player: SearchPlayer) -> bool | None:
    """Whether a solve without a clock deepens: with a table, an engine other than alpha-beta does,
    a few cheap plies before it leaps to the end (`deepening.LEAP_NODES`), so Ctrl-C has the
    deepest of them to show while the proof runs (alpha-beta searches straight, and glances on
    a stop: `searched`); deepening ply by ply to the end would repeat ever bigger searches (up to
    ten times a straight proof's nodes, Connect Four 4x5). Without a table (cache=off) the shallow
    searches would help nothing, and the textbook counts stay the whole tree's. None: the engine's
    own rule."""
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
    """The object `solve --json` prints (DESIGN.md); `interrupted` when Ctrl-C stopped the
    search."""
    mover = game.to_move(state)
    return {
        "game": game.spec,
        "position": game.format_position(state),
        "to_move": mover,
        "to_move_name": game.player_names[mover] if mover >= 0 else "chance",
        "value": result.value,
        "best_move": game.format_move(result.move) if result.move is not None else None,
        "moves": [move_record(game, result, move, value) for move, value in result.moves],
        "pv": [game.format_move(move) for move in result.pv],
        "algorithm": algorithm,
        "depth": clamped(game, state, result.depth),
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
        "exact": result.exact,
        "moves_proven": result.moves_proven,
        "interrupted": interrupted,
    }


def move_record(game: AnyGame, result: SearchResult, move: Any, value: float) -> dict[str, Any]:
    """A root move as `solve --json` lists it: `exact` when `value` is its own proven value,
    `bound` "upper" when the move is worth at most `value` (else null)."""
    bounded = move in result.upper_bounds
    return {
        "move": game.format_move(move),
        "value": value,
        "exact": result.moves_proven and not bounded,
        "bound": "upper" if bounded else None,
    }
