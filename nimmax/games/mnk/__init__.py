"""m,n,k games: tic-tac-toe on any board (k in a row wins), and with gravity Connect Four.

`MNK` is a Game holding its parts, one module each: `board` (the position, and the geometry every
part reads), `notation` (moves and positions as typed, the completed line, the game's words),
`rules` (moves, results, keys), `threats` (threat shapes, victories by continuous fours, the moves
a limited search tries on a big board), `evaluation` (window scores, row parity, the estimate at a
horizon), and on Connect Four 7x6 `proof` (exact outcomes beyond the opening books, with `fours`:
four in a row on its bitboards).
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Sequence
from typing import Self

from nimmax.game import Account, Capability, Game, Known
from nimmax.games import connect4_book
from nimmax.games.mnk.board import (
    DRAWN,
    LETTERS,
    MAX_SIDE,
    O_WON,
    ONGOING,
    X_WON,
    Board,
    Geometry,
    payoff,
)
from nimmax.games.mnk.evaluation import Evaluation
from nimmax.games.mnk.notation import CONNECT4, TICTACTOE, Notation
from nimmax.games.mnk.proof import Proof
from nimmax.games.mnk.rules import REMEMBERED_CELLS, Rules
from nimmax.games.mnk.threat_proof import ThreatProof, known_of, proves
from nimmax.games.mnk.threats import BEAM, NARROWED_CELLS, VCF_FOURS, Threats

__all__ = [
    "BEAM",
    "CONNECT4",
    "DRAWN",
    "LETTERS",
    "MAX_SIDE",
    "MNK",
    "NARROWED_CELLS",
    "O_WON",
    "ONGOING",
    "REMEMBERED_CELLS",
    "TICTACTOE",
    "VCF_FOURS",
    "X_WON",
    "Board",
    "create_connect4",
    "create_tictactoe",
]

BOUND = (
    ("actions", "rules"),
    ("result", "rules"),
    ("key", "rules"),
    ("search_actions", "rules"),
    ("evaluate", "evaluation"),
)
"""The members a search calls at every node, bound on each game to the part that answers them
(`MNK._compose`): a call goes straight to the part, without a frame of MNK's own."""


class MNK(Game[Board, int]):
    """k in a row on a rows x cols board; with `gravity` stones drop to the lowest empty cell.

    The game holds its parts: the board's `geometry` (shared by every part and every copy of the
    game), its `notation`, its `rules`, the `threats` and `evaluation` a limited search reads, and
    in a search's copy of Connect Four 7x6 with the books installed, its `proof`."""

    player_names = ("X", "O")
    capabilities = frozenset(
        {Capability.SEARCH_ORDER, Capability.NARROWING, Capability.EVALUATION, Capability.BOOK}
    )
    """BOOK where the books cover the board and are installed: an instance without them drops it."""

    def __init__(
        self,
        rows: int = 3,
        cols: int = 3,
        k: int | None = None,
        gravity: bool = False,
        position: str | None = None,
        name: str = "tictactoe",
    ) -> None:
        self.name, self.position = name, position
        self.geometry = Geometry(rows, cols, k, gravity, name)
        self.notation = Notation(self.geometry, name)
        empty = "/".join(["." * cols] * rows)
        self.start = self.notation.read_position(position if position is not None else empty)
        self.booked = name == "connect4" and (rows, cols, self.geometry.k) == (6, 7, 4)
        """Whether the opening books cover this board (Connect Four 7x6)."""
        self.books = self.booked and connect4_book.installed()
        """Whether the books cover this board and are installed: BOOK is declared."""
        # BOOK: threats
        if not self.books and not proves(gravity, self.geometry.k, self.geometry.cells):
            self.capabilities = self.capabilities - {Capability.BOOK}
        self._compose(remember=False)

    def _compose(self, remember: bool) -> None:
        """The parts that remember: with memos of their own (a search's copy) or keeping nothing
        (the game's own, so it is shared and pickled bare); and the members in BOUND bound to
        them, where a subclass keeps MNK's."""
        geometry = self.geometry
        self.rules = Rules(geometry, self.notation, remember)
        self.threats = Threats(geometry, remember)
        self.evaluation = Evaluation(geometry, self.rules, self.threats, remember)
        self.proof = Proof(geometry.rows, geometry.cols) if remember and self.books else None
        proving = remember and proves(geometry.gravity, geometry.k, geometry.cells)
        self.threat_proof = ThreatProof(geometry) if proving else None
        for member, part in BOUND:
            if getattr(type(self), member) is getattr(MNK, member):
                setattr(self, member, getattr(getattr(self, part), member))

    def for_search(self) -> Self:
        """This game with parts of its own for one search (memos of moves and children on a small
        board, window scores, threat shapes, moves tried, victories by fours; Connect Four's proof,
        threat proofs), which owns them and drops them with it. A copy that remembers is its own: a
        player keeping one across its moves, like its table, keeps them; asked again, it tells its
        proof that a new search begins."""
        if self.rules.remembers:
            if self.proof is not None:
                self.proof.begin()
            if self.threat_proof is not None:  # each search's root and allowance afresh
                self.threat_proof.begin()
            return self
        searching = copy.copy(self)
        searching._compose(remember=True)
        if searching.threat_proof is not None:
            searching.threat_proof.begin()
        return searching

    # -- the Game protocol: the position's own readings, then the parts' --------------------------

    def initial_state(self) -> Board:
        return self.start

    def to_move(self, state: Board) -> int:
        return state.player

    def is_terminal(self, state: Board) -> bool:
        return state.outcome != ONGOING

    def utility(self, state: Board, player: int) -> float:
        return payoff(state.outcome, player)

    def plies_left(self, state: Board) -> int:
        """The most plies the game can last from `state`: its empty cells (a claim's depth)."""
        return self.geometry.cells - (state.x | state.o).bit_count()

    # Each game binds the members in BOUND to its parts; these delegates are what Game's reflection
    # (declared capabilities, `check`'s laws) and a subclass's `super()` reach.

    def actions(self, state: Board) -> Sequence[int]:
        """`Rules.actions`: the empty cells (under gravity the open columns), centre first."""
        return self.rules.actions(state)

    def result(self, state: Board, action: int) -> Board:
        """`Rules.result`."""
        return self.rules.result(state, action)

    def key(self, state: Board) -> Hashable:
        """`Rules.key`: the least symmetric image."""
        return self.rules.key(state)

    def search_actions(self, state: Board) -> Sequence[int]:
        """`Rules.search_actions`: the win at once, else the forced block, else every move."""
        return self.rules.search_actions(state)

    def evaluate(self, state: Board, player: int) -> float:
        """`Evaluation.evaluate`."""
        return self.evaluation.evaluate(state, player)

    @property
    def spec(self) -> str:
        return self.notation.spec(self.start if self.position is not None else None)

    def parse_move(self, text: str, state: Board) -> int:
        return self.notation.read_move(text, self.rules.actions(state))

    def format_move(self, action: int) -> str:
        return self.notation.format_move(action)

    def format_position(self, state: Board) -> str:
        return self.notation.format_position(state)

    # -- what the books and the proof know, and the moves a limited search tries ------------------

    def charge(self, account: Account | None) -> None:
        """The proof's work charged to a search (`Game.charge`): its nodes added to the search's
        (`book`, `heuristic_actions`), its questions stopped at the search's deadline."""
        if self.proof is not None:
            self.proof.account = account

    def heuristic_actions(self, state: Board) -> Sequence[int] | None:
        """`Threats.narrowed`; past the 8-stone book, in a search's copy, the moves its proof
        says the position needs (`proof.Proof.best_moves`: a proven win or draw alone, else at
        the search's root the moves not proven short of the 12-stone book's payoff); None for
        every move."""
        taken = state.x | state.o
        if self.proof is None or state.outcome or taken.bit_count() < connect4_book.STONES[-1]:
            return self.threats.narrowed(state)
        geometry = self.geometry
        if (state.x_threats | state.o_threats) & (taken + geometry.bottom):
            return None  # a four to make or to block: `search_actions` has the move
        proof = self.proof
        before = proof.nodes
        cells = proof.best_moves(
            state.o if state.player else state.x, taken, lambda: self.least(state)
        )
        if proof.account is not None:
            proof.account.nodes += proof.nodes - before
        return (
            tuple(col for col in geometry.column_order if cells & geometry.column_masks[col])
            or None
        )

    def least(self, state: Board) -> int:
        """The least payoff the 12-stone book proves for the mover (-1 where it says nothing): its
        own at 12 stones; one stone later, the most of every position X may have moved from (each
        X stone on top of its column taken back), since each move of X from there leaves O at
        least its negation."""
        taken, geometry = state.x | state.o, self.geometry
        stones = taken.bit_count()
        if stones == connect4_book.STONES[-1]:
            known = self.opening(state)
            return int(known.payoff) if known is not None else -1
        if stones != connect4_book.STONES[-1] + 1:
            return -1
        # each column's top stone, where it is X's
        least, tops = -1, (taken + geometry.bottom) >> 1 & state.x
        while tops and least < 1:
            top = tops & -tops
            tops ^= top
            x = state.x ^ top
            known = connect4_book.probe(
                x, state.o, ((x | state.o) + geometry.bottom) & geometry.board, 0
            )
            if known is not None:
                least = max(least, -int(known.payoff))
        return least

    def book(self, state: Board) -> Known | None:
        """The opening books at the stone counts they cover (`opening`); past them, in a search's
        copy (`for_search`), the outcome an exact search of its own proves (`proof.Proof`: the
        root's children within a budget of nodes that grows each time they are asked, all within
        a share of the calls here, deeper positions from its table), or None. First, in a search's
        copy of a board without gravity, a win or loss that threats prove (`threat_proof`)."""
        if (
            self.threat_proof is not None
            and (proven := known_of(self.threat_proof, state)) is not None
        ):
            return proven
        taken = state.x | state.o
        if self.proof is not None:
            self.proof.read, self.proof.calls = True, self.proof.calls + 1
        if self.proof is None or state.outcome or taken.bit_count() <= connect4_book.STONES[-1]:
            return self.opening(state)
        mine, threats = (state.o, state.o_threats) if state.player else (state.x, state.x_threats)
        if threats & (taken + self.geometry.bottom):  # the mover completes four at once
            return Known(1.0, 1, True)
        proof = self.proof
        before = proof.nodes
        known = proof.outcome(mine, taken)
        if proof.account is not None:
            proof.account.nodes += proof.nodes - before
        return known

    def opening(self, state: Board) -> Known | None:
        """Connect Four 7x6's opening books (`connect4_book`) where they are installed (then BOOK is
        declared), asked only at the stone counts they cover; None on any other board."""
        taken = state.x | state.o
        if not self.books or taken.bit_count() not in connect4_book.STONES or state.outcome:
            return None
        return connect4_book.probe(state.x, state.o, taken + self.geometry.bottom, state.x_threats)

    def missing_books(self) -> str | None:
        """How to get perfect play, on the board the books cover when they are not installed."""
        if self.booked and not connect4_book.installed():
            return connect4_book.ADVICE
        return None


def _shape(
    position: str | None,
    size: int | None,
    rows: int | None,
    cols: int | None,
    default: tuple[int, int],
    square: bool,
) -> tuple[int, int]:
    """Rows and columns from --size, --rows/--cols, or the shape of --position; with `square`
    one side given makes a square board, else the other side keeps its default."""
    if size is not None:
        return size, size
    if position is not None and rows is None and cols is None:
        lines = position.strip().split("/")
        return len(lines), len(lines[0])
    if square:
        rows, cols = (rows if rows is not None else cols), (cols if cols is not None else rows)
    return (rows if rows is not None else default[0]), (cols if cols is not None else default[1])


def create_tictactoe(argv: Sequence[str]) -> MNK:
    """Tic-tac-toe (any m,n,k game) from its words (TICTACTOE)."""
    words = TICTACTOE.parse(argv)
    rows, cols = _shape(
        words["position"], words["size"], words["rows"], words["cols"], (3, 3), True
    )
    return MNK(rows, cols, words["k"], words["gravity"], words["position"])


def create_connect4(argv: Sequence[str]) -> MNK:
    """Connect Four from its words (CONNECT4): 6 rows x 7 columns, 4 in a row, gravity."""
    words = CONNECT4.parse(argv)
    rows, cols = _shape(words["position"], None, words["rows"], words["cols"], (6, 7), False)
    return MNK(rows, cols, words["k"], True, words["position"], name="connect4")
