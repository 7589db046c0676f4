"""Why a move: each root move's value with the line that shows it: the best move's line, and
each other move's refutation (shown by `ui/why.py`: "c3 loses: O b1, X a1, O b3").

A line is the engine's principal variation after the move, searched again from where the
table's line stops, so a proven line runs to the end of the game and ends where its value says.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from nimmax.claim import Claim, Proofs
from nimmax.game import CHANCE, AnyGame, Capability, Known, part
from nimmax.players import SearchPlayer
from nimmax.search import Entry, SearchResult, deep
from nimmax.search.table import exact_move, key_of

LINE_PLIES = 40
"""The most plies a line shows: enough for any small game, a glance on a big one."""

ANY_SPAWN = "any spawn"
"""A chance node in a line: the engine averages its outcomes rather than expecting one."""


@dataclass(frozen=True)
class MoveLine:
    """A root move, its value for the side to move, its claim, and the line after it (the move
    first)."""

    move: Any
    value: float
    exact: bool
    claim: Claim
    """What is known of the move's value: this search's proof, the session's proof of the position
    after it, else an estimate at the search's depth (`Proofs.of_line`)."""
    line: tuple[Any, ...]
    """The moves of the line; ANY_SPAWN where chance moves (the line stops there)."""
    finished: bool
    """Whether the line reaches the end of the game."""


def lines(
    game: AnyGame,
    state: Any,
    player: SearchPlayer,
    proofs: Proofs,
    result: SearchResult | None = None,
) -> tuple[MoveLine, ...]:
    """Every move of `state` with its value and line, in the engine's order (its choice first);
    `result` is a search of `state` with every move valued (none only bounded), when the caller has
    one. What they prove is filed in `proofs`, and each move's claim read from it. Its searches run
    on a stack that holds searches to the end of the game (`deep`)."""

    def found() -> tuple[MoveLine, ...]:
        # each move's own value
        whole = result is not None and result.moves and not result.upper_bounds
        searched = (
            result if result is not None and whole else player.search(game, state, every_move=True)
        )
        exact = searched.exact and searched.moves_proven
        search = partial(player.search, game)
        # what `why` proves, every later view shows proven
        proofs.file_moves(game, state, searched, player.spec)
        table = player.table_for(game)
        depth = (result if result is not None else searched).depth
        each = []
        for move, value in searched.moves:
            line = (move, *follow(game, game.result(state, move), search, table, exact))
            claim = proofs.of_line(game, state, move, value, exact, depth)
            each.append(MoveLine(move, value, exact, claim, line, finishes(game, state, line)))
        return tuple(each)

    return deep(found)


def follow(
    game: AnyGame,
    state: Any,
    search: Callable[[Any], SearchResult],
    table: Mapping[Hashable, Entry],
    proven: bool,
    plies: int = LINE_PLIES,
) -> tuple[Any, ...]:
    """The best line from `state`, up to `plies` (ANY_SPAWN where chance moves, and there it stops).

    An estimate's line is the one the search saw, read from its table; a proven line is
    searched again (`search`) wherever the table's proven entries stop, and read from the book
    where the book answers (`book_move`), so it runs to the end.
    """
    line: list[Any] = []
    key = key_of(game)  # the key the search filed its entries by
    while len(line) < plies and not game.is_terminal(state):
        if game.to_move(state) == CHANCE:
            line.append(ANY_SPAWN)
            break
        move = exact_move(table.get(key(state)), state, proven)
        if (
            move is None
            and proven
            and (booked := part(game, Capability.BOOK))
            and (known := booked.book(state))
        ):
            move = book_move(game, state, known)  # a search on from here would start afresh
            if move is None:
                break
        if move is None and proven and (pv := search(state).pv):
            move = pv[0]
        if move is None:
            break
        line.append(move)
        state = game.result(state, move)
    return tuple(line)


def book_move(game: AnyGame, state: Any, known: Known) -> Any | None:
    """The move of the book's own line from `state`, which the book values but does not store: one
    whose position keeps the value and is a ply nearer the end (any that keeps the value where the
    book knows the payoff alone, or the value is a draw); None where the book is silent on them."""
    mover, keeping, booked = game.to_move(state), None, part(game, Capability.BOOK)
    for move in game.actions(state):
        child = game.result(state, move)
        if game.is_terminal(child):
            payoff, plies = game.utility(child, mover), 0
        elif booked is not None and (seen := booked.book(child)) is not None:
            payoff, plies = (
                seen.payoff if game.to_move(child) == mover else -seen.payoff,
                seen.plies,
            )
        else:
            continue
        if payoff == known.payoff:
            # a bounded distance: any move keeping the payoff
            if not known.exact or plies == known.plies - 1:
                return move
            keeping = move if keeping is None else keeping
    return keeping


def finishes(game: AnyGame, state: Any, line: tuple[Any, ...]) -> bool:
    """Whether `line`, played from `state`, reaches the end of the game."""
    for move in line:
        if move == ANY_SPAWN:
            return False
        state = game.result(state, move)
    return game.is_terminal(state)
