"""One claim per position: what a search (a book hit, the end of the game) says of a position's
value, made in one place and kept, so every view (status line, hint, why, solve, analyze, replay)
says the same of it.

A `Claim` is a value for the side to move, its kind (exact, an upper bound, an estimate), the plies
behind it (an estimate's depth, never more than the plies the game has left) and the engine that
made it. `Proofs` is a session's store of them: whoever runs a session or a command (a play session,
an analysis, a solve) makes one and hands it to every view of it. `Proofs.claimed` builds a claim
from a `SearchResult` and files a proof, keyed by the game and the position's key; it answers with
the proof where an earlier search of the session proved the position, so a position once proven
stays proven in every later view. The wording is `ui/claims.py`'s.
"""

from __future__ import annotations

import contextlib
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Literal

from nimmax.game import CHANCE, AnyGame, Capability, has_chance, part
from nimmax.search.result import SearchResult
from nimmax.search.table import offsets

Kind = Literal["exact", "bound", "estimate"]

STORE_SIZE = 1 << 16
"""Proofs the store keeps at most (a session proves far fewer positions than it searches)."""


@dataclass(frozen=True)
class Claim:
    """What is known of a position's (or a root move's) value, for the side to move there."""

    value: float
    kind: Kind
    depth: int = 0
    """An estimate's depth (plies searched), clamped to the plies left; 0 where none is known."""
    engine: str = ""

    @property
    def exact(self) -> bool:
        """Whether the value is proven."""
        return self.kind == "exact"


def plies_left(game: AnyGame, state: Any) -> int | None:
    """The most plies the game can last from `state`, where the game says or the board shows it
    (an m,n,k board: its empty cells); None where unknown."""
    own = getattr(game, "plies_left", None)
    if callable(own):
        try:
            left = own(state)
        except Exception:  # noqa: BLE001 - a plugin's own member may fail: no clamp then
            return None
        return int(left) if isinstance(left, int) else None
    cells = getattr(game, "rows", None), getattr(game, "cols", None)
    stones = getattr(state, "x", None), getattr(state, "o", None)
    if all(isinstance(n, int) for n in (*cells, *stones)):
        rows, cols = cells
        x, o = stones
        assert (
            isinstance(rows, int)
            and isinstance(cols, int)
            and isinstance(x, int)
            and isinstance(o, int)
        )
        return max(rows * cols - (x.bit_count() + o.bit_count()), 0)
    return None


def clamped(game: AnyGame, state: Any, depth: int) -> int:
    """`depth` no deeper than the plies the game has left from `state` (a narrowed line's plies)."""
    left = plies_left(game, state)
    return depth if left is None else max(min(depth, left), 0)


def best_payoff(game: AnyGame, state: Any) -> float | None:
    """The most the side to move can get at any end from `state`, where known: the game's
    `utility_bounds`, else +1 in a two-player game without chance that does not say it `scores`
    margins (win, draw, loss); None otherwise."""
    if (own := part(game, Capability.BOUNDS)) is not None:
        try:
            bounds = own.utility_bounds(state)
        except Exception:  # noqa: BLE001 - a plugin's bounds may fail
            bounds = None
        if bounds is not None:
            return float(bounds[1])
    if game.players == 2 and not has_chance(game) and not getattr(game, "scores", False):
        return 1.0
    return None


def says_nothing(game: AnyGame, state: Any, bound: float) -> bool:
    """Whether an upper bound on a move's value tells nothing: it is at least the best payoff there
    is."""
    best = best_payoff(game, state)
    return best is not None and bound >= best


def terminal(game: AnyGame, state: Any, engine: str = "") -> Claim:
    """A finished position's claim: its payoff for the seat that would move (seat 0 where none
    does)."""
    try:
        seat = game.to_move(state)
    except Exception:  # noqa: BLE001 - a game need not say who moves at its end
        seat = 0
    return Claim(game.utility(state, max(seat, 0)), "exact", 0, engine or "rules")


class Proofs:
    """The positions a session's searches proved, at most STORE_SIZE: a session or a command owns
    one and hands it to each view, so what was proven once is shown proven everywhere after."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, Hashable], Claim] = {}

    def known(self, game: AnyGame, state: Any) -> Claim | None:
        """The proof an earlier search of this session made of `state`, or None."""
        try:
            return self.kept.get(_key(game, state))
        except TypeError:  # an unhashable plugin state: nothing is kept for it
            return None

    def remember(self, game: AnyGame, state: Any, claim: Claim) -> None:
        """Keep a proof of `state` for every later view (estimates and bounds are not kept)."""
        if not claim.exact:
            return
        if len(self.kept) >= STORE_SIZE:
            self.kept.clear()
        with contextlib.suppress(TypeError):
            self.kept[_key(game, state)] = claim

    def claimed(self, game: AnyGame, state: Any, result: SearchResult, engine: str = "") -> Claim:
        """The claim a search of `state` makes of it, the store's proof where an earlier search
        proved more; a proof is filed for every later view."""
        if game.is_terminal(state):
            return terminal(game, state, engine)
        if result.exact:
            claim = Claim(result.value, "exact", clamped(game, state, result.depth), engine)
            self.remember(game, state, claim)
            return claim
        proof = self.known(game, state)
        if proof is not None:
            return proof
        return Claim(result.value, "estimate", clamped(game, state, result.depth), engine)

    def of_move(
        self, game: AnyGame, state: Any, result: SearchResult, move: Any, value: float
    ) -> Claim:
        """A root move's claim, for the side to move at `state`: its proven value, a proven bound,
        or an estimate; the proof of the position after it, where the store holds one, overrides a
        bound or estimate."""
        bounded = move in result.upper_bounds
        if result.moves_proven and not bounded:
            return Claim(value, "exact", 0)
        proof = self.proven_after(game, state, move)
        if proof is not None:
            return proof
        if bounded and result.moves_proven:
            return Claim(value, "bound", 0)
        return Claim(value, "estimate", clamped(game, state, result.depth))

    def of_line(
        self, game: AnyGame, state: Any, move: Any, value: float, exact: bool, depth: int = 0
    ) -> Claim:
        """A root move's claim as `why` and `solve --explain` show it with its line: proven where
        their search proved it or the store holds a proof of the position after it, else an
        estimate at `depth`."""
        if exact:
            return Claim(value, "exact", 0)
        proof = self.proven_after(game, state, move)
        return proof if proof is not None else Claim(value, "estimate", clamped(game, state, depth))

    def proven_after(self, game: AnyGame, state: Any, move: Any) -> Claim | None:
        """What is proven of `move` for the side to move at `state`: the end it makes (exact by
        definition), or the store's proof of the position after it; None where neither is known."""
        after = game.result(state, move)
        mover, then = game.to_move(state), game.to_move(after)
        if game.is_terminal(after):
            return Claim(game.utility(after, mover), "exact", 0, "rules")
        proof = self.known(game, after)
        if proof is None or then == CHANCE:
            return None
        return Claim(proof.value if then == mover else -proof.value, "exact", 0, proof.engine)

    def file_moves(self, game: AnyGame, state: Any, result: SearchResult, engine: str = "") -> None:
        """File what a search valuing every root move proved: the root, and the position after
        each move it valued exactly (for the side to move there), so later views of those
        positions show the proof."""
        self.claimed(game, state, result, engine)
        if not (result.exact and result.moves_proven):
            return
        mover = game.to_move(state)
        for row in result.moves:
            if row.move in result.upper_bounds:
                continue
            after = game.result(state, row.move)
            then = game.to_move(after)
            if not game.is_terminal(after) and then != CHANCE:
                claim = Claim(row.value if then == mover else -row.value, "exact", 0, engine)
                self.remember(game, after, claim)


def _key(game: AnyGame, state: Any) -> tuple[str, Hashable]:
    """A position's key in the store: the game's words and its key (the state itself where the key
    holds an offset, a payoff banked, since two states under one such key differ in value)."""
    try:
        own: Hashable = state if offsets(game) else game.key(state)
    except Exception:  # noqa: BLE001 - a plugin's key may fail; the state is hashable by the protocol
        own = state
    return game.spec, own
