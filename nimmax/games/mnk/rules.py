"""m,n,k rules: the moves of k in a row on a rows x cols board (with gravity, Connect Four), the
positions they make and the table key, on `board`'s bitboards. Only the lines through the last
move are tested for a win."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

from nimmax.game import IllegalMove
from nimmax.games.mnk.board import DRAWN, LETTERS, O_WON, X_WON, Board, Geometry
from nimmax.games.mnk.notation import Notation

REMEMBERED_CELLS = 16
"""Boards up to this many cells remember the moves of each set of taken cells: 2^16 sets at most."""
REMEMBERED_CHILDREN = 1 << 16
"""Children a board of at most REMEMBERED_CELLS remembers (then it starts afresh), 12 MB at most."""
REMEMBERED_SCORES = 1 << 19
"""Window scores a search remembers at most (then it starts afresh): some 60 MB at worst."""
REMEMBERED_POSITIONS = 1 << 17
"""Move lists and threat shapes a search on a big board remembers at most, each (then it starts
afresh): some 40 MB apiece."""

_new = tuple.__new__
"""Builds a Board without the keyword handling of its constructor: `result` is the hot path."""

V = TypeVar("V")


class Forgets(dict[int, V]):
    """A memo that keeps nothing: the game's own, outside a search (`MNK.for_search`)."""

    def __setitem__(self, key: int, value: V) -> None:
        pass


def memo(remember: bool) -> dict[int, V]:
    """A memo of a search's own, or one keeping nothing (the game's, shared and pickled bare)."""
    return {} if remember else Forgets()


class Rules:
    """The moves of one board and the positions they make; in a search's copy (`remember`) with
    memos of its own: the moves of each set of taken cells, and on a small board each child."""

    def __init__(self, geometry: Geometry, notation: Notation, remember: bool) -> None:
        self.geometry, self.notation, self.remembers = geometry, notation, remember
        self._moves: dict[int, tuple[int, ...]] = memo(remember)
        self._children: dict[int, Board] | None = (
            memo(remember) if remember and geometry.cells <= REMEMBERED_CELLS else None
        )

    def actions(self, state: Board) -> Sequence[int]:
        """The empty cells (under gravity the open columns), centre first, as a tuple; small
        boards remember them for each set of taken cells."""
        if state.outcome:
            return ()
        taken = state.x | state.o
        moves = self._moves.get(taken)
        if moves is None:
            geometry = self.geometry
            if geometry.gravity:
                masks = geometry.column_masks
                moves = tuple(
                    col for col in geometry.column_order if taken & masks[col] != masks[col]
                )
            else:
                moves = tuple(bit for bit, stone in geometry.order_stones if not taken & stone)
            if geometry.cells <= REMEMBERED_CELLS:
                self._moves[taken] = moves
        return moves

    def result(self, state: Board, action: int) -> Board:
        """The position after `action`; IllegalMove when it is not legal. A small board's position
        is a function of its stones: in a search each child is made once."""
        children = self._children
        if children is None or type(action) is not int or not 0 <= action < 64:
            return self._result(state, action)
        key = (state[0] << self.geometry.span | state[1]) << 6 | action
        child = children.get(key)
        if child is None:
            child = self._result(state, action)
            if len(children) >= REMEMBERED_CHILDREN:
                children.clear()
            children[key] = child
        return child

    def _result(self, state: Board, action: int) -> Board:
        """The position after `action`, worked out from the stones and the threats."""
        x, o, player, outcome, x_threats, o_threats, images = state
        geometry = self.geometry
        taken, bit = x | o, action
        if geometry.gravity:  # the move is a column: its lowest empty cell
            mask = geometry.column_masks[action] if 0 <= action < geometry.cols else 0
            bit = (((taken & mask) + (geometry.bottom & mask)) & mask).bit_length() - 1
        cell = geometry.stones.get(bit)
        if cell is None or outcome or taken & cell[0]:
            raise IllegalMove(self._illegal(state, action))
        stone, x_image, o_image = cell
        mine, theirs, threats = (o | stone, x, o_threats) if player else (x | stone, o, x_threats)
        if threats & stone:
            outcome = O_WON if player else X_WON
        else:
            # A new threat of the mover lies on a line through the stone; the opponent's threats
            # lose at most this cell, since a line of theirs through it is blocked, not made.
            threats |= geometry.threats_through(mine, theirs, bit)
            if (taken | stone) == geometry.board:
                outcome = DRAWN
        if player:
            return _new(Board, (x, mine, 0, outcome, x_threats & ~stone, threats, images | o_image))
        return _new(Board, (mine, o, 1, outcome, threats, o_threats & ~stone, images | x_image))

    def _illegal(self, state: Board, action: int) -> str:
        """Why `action` cannot be played, and what can."""
        if state.outcome:
            return "the game is over"
        geometry, legal = self.geometry, self.notation.listed(self.actions(state))
        if not isinstance(action, int) or not 0 <= action < (
            geometry.cols if geometry.gravity else geometry.span
        ):
            return f"no move {action!r} on this board; legal: {legal}"
        if geometry.gravity:
            return f"column {LETTERS[action]} is full; legal: {legal}"
        if action not in geometry.stones:
            return f"no move {action!r} on this board; legal: {legal}"
        return f"{self.notation.format_move(action)} is taken; legal: {legal}"

    def key(self, state: Board) -> Hashable:
        """The least symmetric image, as bytes (the side to move follows from the stone counts)."""
        geometry = self.geometry
        if not geometry.images_size:
            return state.x | state.o << geometry.span
        images: tuple[bytes, ...] = geometry.images_apart(
            state.images.to_bytes(geometry.images_size, "little")
        )
        return min(images)

    def search_actions(self, state: Board) -> Sequence[int]:
        """A move that wins at once, else the block of the opponent's immediate win, else
        every move centre first: the value (and its distance to the end) stays the same."""
        x, o, player, _, x_threats, o_threats, _ = state
        mine, theirs = (o_threats, x_threats) if player else (x_threats, o_threats)
        geometry = self.geometry
        if geometry.gravity:
            playable = (x | o) + geometry.bottom
            mine, theirs = mine & playable, theirs & playable
        urgent = mine or theirs
        if not urgent:
            return self.actions(state)
        bit = (urgent & -urgent).bit_length() - 1
        return [bit // geometry.stride if geometry.gravity else bit]
