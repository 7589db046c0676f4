"""Exact outcomes of Connect Four positions (four in a row under gravity), proven by a search of
their own: Pascal Pons' solver ("Solving Connect 4", blog.gamesolver.org) in pure Python, with
the follow-up rules of Victor Allis' thesis (claimeven, baseinverse) bounding a node at once.

A position is the mover's stones and the taken cells as two bitboards laid out as `rules` lays
them out (column by column, bottom first, a guard bit on top of each column), so the pair is
also its key (`mine + taken`). The search never plays under a cell the opponent would complete,
plays the forced block where there is one, tries first the move its table remembers, then the
moves making most cells that would complete a four; its scores bound the stones left to play, and
its table keeps window-independent bounds (a lower and an upper one) across every question
asked of it, so a question asked again goes on from what the last one proved.

Scores are Pons': a win with the mover's n-th stone from now scores (empty cells + 1) // 2 - n + 1,
a loss the negative, a draw 0. Only the sign is asked (`outcome`, `best_move`), by null windows
around 0, each question within a budget of nodes that grows each time the same position is asked
again, and all of a search's questions within a share of its own calls (`book`): counted, never
timed, so a search without a clock plays the same on every run and every machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from nimmax.game import Account, Known
from nimmax.games.mnk.fours import aligning, completing

FIRST_NODES = 4_000
"""The first question about a position next to a search's root, a small share of a timed move;
each later one may cost twice the last: a deepening search asks them again at every depth."""
MOST_NODES, ROOT_NODES = 15_000, 10_000
"""What one question may cost at most, and the first about a search's root (`best_moves`)."""
WON_NODES = 150_000
"""The first question about a root the book says the mover wins (`best_moves`'s `least`): asked
before any of its children's (`pending`), so no clock decides whether it is asked; enough for the
longest wins the book leaves to the proof (those from 12 stones after a perfect defence)."""
PROOF_TURN, SEARCH_TURN = 15_000, 1_000
"""While a root's payoff is unproven, its proof (these nodes) and the search (these calls into
`book`) take turns: the search's estimates choose among the moves the
proof has not refuted, the proof is what settles them."""
SEARCH_NODES, SHARE = 200_000, PROOF_TURN // SEARCH_TURN
"""The nodes a search's questions may take in all, and more per call of its into `book`: no engine,
however often it asks (MCTS at every node it makes), spends more than this share of its work on
them."""
FOLLOW_UP_STONES = 20
"""The fewest stones the follow-up rules are tried at: with fewer on 7x6 they next to never prove a
bound, and they cost a node's time."""
CHECK_EVERY = 256
"""Nodes between looks at the budget (and the table's size)."""
REMEMBERED = 1 << 20
"""Positions the table keeps at most (then it starts afresh): memory stays bounded."""

_UNKNOWN = 64
"""Bounds are stored shifted by this (a score lies within +-cells // 2)."""
_NOTHING = 127 << 7
"""The entry of a position the table has not seen: no bound, no move."""


class OutOfNodes(Exception):
    """A question ran past its budget; what it proved stays in the table."""


class Proof:
    """An exact search of one board size's Connect Four positions, with its own table."""

    account: Account | None = None
    """The search the proof's work is charged to (`MNK.charge`): a question stops at its
    deadline."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols, stride = rows, cols, rows + 1
        self.cells = rows * cols
        self.bottom = sum(1 << col * stride for col in range(cols))
        self.board = self.bottom * ((1 << rows) - 1)
        middle = (cols - 1) / 2
        order = sorted(range(cols), key=lambda col: (abs(col - middle), col))
        self.columns = [((1 << rows) - 1) << col * stride for col in order]
        """Each column's cells, centre first: the order moves are tried in among equals."""
        self.winning = completing(stride)
        self.lane = cols * stride + 3 * (stride + 1)
        """The bits one board takes side by side with others: its own, and four's reach."""
        self.spread = sum(1 << self.lane * col for col in range(cols))
        """The number that repeats a board once per column side by side (by product)."""
        self.diagonal = sum(
            column << (column.bit_length() - 1) // stride * self.lane for column in self.columns
        )
        """Each column's cells on the board of its own place side by side."""
        self.lanes = [
            (rank, column, (column.bit_length() - 1) // stride * self.lane)
            for rank, column in enumerate(self.columns)
        ]
        """Per column, centre first: its rank, its cells, and its board's place side by side."""
        self.four = aligning(stride)
        self.odd = sum(
            1 << col * stride + height for col in range(cols) for height in range(0, rows, 2)
        )
        """Odd rows from the bottom (1, 3, 5): the first player's cells under zugzwang."""
        full = (1 << rows) - 1
        self.column_of = {
            1 << col * stride + height: full << col * stride
            for col in range(cols)
            for height in range(rows)
        }
        """Each cell's column."""
        self.unseen = [
            (_UNKNOWN - (self.cells - 2 - stones) // 2)
            | (_UNKNOWN + (self.cells - 1 - stones) // 2) << 7
            for stones in range(self.cells + 1)
        ]
        """Per stone count, an unseen position's entry: a non-losing move's bounds (Pons')."""
        # the rules need even cells
        self.follow_from = FOLLOW_UP_STONES if self.cells % 2 == 0 else self.cells + 1
        self.table: dict[int, int] = {}
        """key -> (lower + _UNKNOWN) | (upper + _UNKNOWN) << 7 | best move's bit << 14."""
        self.asked: dict[int, int] = {}
        """key -> the nodes the last question about it was allowed."""
        self.nodes = self.limit = self.stop = self.calls = 0
        """Since the search began (`begin`): the nodes searched, the count at which the budget is
        looked at next, the one the current question stops at, and its calls into `book`
        (`SHARE`)."""
        self.nearest: int | None = None
        """The fewest stones of a position asked since `begin`: its root's children."""
        self.read = False
        """Whether the search reads the game's book (an engine's `book=off` does not): the proof is
        part of it."""
        self.root: tuple[int, int] | None = None
        """The search's root (mine, taken) while its payoff is not proven: deeper questions share
        turns with it."""
        # the call count of the root's proof's next turn; a question asked yet
        self.turn, self.opened = 0, False
        self.pending: tuple[int, int] | None = None
        """A root the book says the mover wins, met before the search read it: asked first
        (`outcome`)."""

    def begin(self) -> None:
        """A new search begins: the next question is about its root or one of its root's
        children."""
        self.nearest, self.read, self.root, self.pending, self.opened = (
            None,
            False,
            None,
            None,
            False,
        )
        self.nodes = self.calls = 0

    def budget(self, nodes: int) -> bool:
        """Start a question of at most `nodes` nodes, fewer where the search's share runs out; False
        if none is left, or the search's deadline has passed."""
        left = SEARCH_NODES + SHARE * self.calls - self.nodes
        if left <= 0 or (self.account is not None and time.perf_counter() >= self.account.deadline):
            return False
        self.stop = self.nodes + min(nodes, left)
        self.limit = min(self.stop, self.nodes + CHECK_EVERY)
        return True

    def outcome(self, mine: int, taken: int) -> Known | None:
        """The payoff for the side to move (`mine`, on a board with `taken` cells and no four, the
        mover unable to complete four at once) with the most plies left, or None. A search's nearest
        positions to its root (the fewest stones asked since `begin`) are searched, within a budget
        of nodes that grows each time they are asked; deeper ones are answered from the table
        (`tests`)."""
        if self.pending is not None:  # the search's first question: its won root's
            (root, board), self.pending = self.pending, None
            self._ask(root, board, (0,), WON_NODES)
        stones = taken.bit_count()
        bounds = self._ask(mine, taken, self.tests(taken), FIRST_NODES)
        if bounds is None:
            return None
        low, high = bounds
        if not (low > 0 or high < 0 or low >= 0 >= high):
            return None
        payoff = 1 if low > 0 else -1 if high < 0 else 0
        return Known(float(payoff), self.cells - stones, payoff == 0)

    def best_moves(self, mine: int, taken: int, least: Callable[[], int] = lambda: -1) -> int:
        """The cells of the moves a search of this position needs (same conditions as `outcome`), or
        0 for every move: a proven best move's alone (one that wins, or one that draws where the
        mover cannot win); else, at a search's root whose least payoff is known (`least`, the
        book's, asked of a root alone; or the table's), the moves not proven to fall short of it. At
        a search's root whether the mover wins and then whether it loses are searched (ROOT_NODES at
        first; a root known won, whether it wins, WON_NODES), once the search has read the book
        (`read`: the proof is part of it; before, a root known won is kept `pending`); deeper, the
        table answers."""
        stones = taken.bit_count()
        if not self.read:
            if not self.opened and least() > 0:  # a search's first question is about its root
                self.pending = (mine, taken)
            self.opened = True
            return 0
        # asked of a root alone
        floor = least() if self.nearest is None or stones <= self.nearest else -1
        won = floor > 0  # only its winning move is to find
        bounds = self._ask(
            mine, taken, (0,) if won else self.tests(taken), WON_NODES if won else ROOT_NODES
        )
        root = self.nearest == stones
        if root:
            settled = bounds is not None and (
                bounds[0] > 0 or bounds[1] < 0 or bounds[0] >= 0 >= bounds[1]
            )
            self.root, self.turn = (None if settled else (mine, taken)), self.calls + SEARCH_TURN
        elif self.root is not None and self.calls >= self.turn:
            self._share()
        entry = self.table.get(mine + taken, _NOTHING)
        low, high, move = (entry & 127) - _UNKNOWN, (entry >> 7 & 127) - _UNKNOWN, entry >> 14
        if move and (low > 0 or (low >= 0 >= high and root)):
            if root:
                self._settle(mine ^ taken, taken | move)
            return move
        floor = max(floor, min(low, 1))
        if not root or floor < 0:
            return 0
        kept = moves = self.safe(mine, taken)
        while moves:
            move = moves & -moves
            moves ^= move
            child = self.table.get((mine ^ taken) + (taken | move), _NOTHING)
            # the opponent's least score there caps the mover below `floor`
            if (child & 127) - _UNKNOWN > -floor:
                kept ^= move
        return kept if kept != (taken + self.bottom) & self.board else 0

    @staticmethod
    def tests(taken: int) -> tuple[int, int]:
        """The null windows (their alphas) that settle a payoff, the likelier first: whether the
        first player wins (with it to move, whether it wins; with the second, whether the second
        loses)."""
        return (0, -1) if taken.bit_count() % 2 == 0 else (-1, 0)

    def _settle(self, mine: int, taken: int) -> None:
        """The position a root's proven move leads to: its payoff settled too where the table leaves
        it open (a question of MOST_NODES), so the search, reading it there, proves the root's."""
        entry = self.table.get(mine + taken, _NOTHING)
        low, high = (entry & 127) - _UNKNOWN, (entry >> 7 & 127) - _UNKNOWN
        if low > 0 or high < 0 or low >= 0 >= high or not self.budget(MOST_NODES):
            return
        try:
            for alpha in self.tests(taken):
                self.negamax(mine, taken, alpha, alpha + 1)
        except OutOfNodes:
            pass

    def _share(self) -> None:
        """The root's proof's turn: PROOF_TURN nodes more of its questions, then the search's
        turn."""
        assert self.root is not None
        mine, taken = self.root
        self.turn = self.calls + SEARCH_TURN
        if not self.budget(PROOF_TURN):
            return
        try:
            low, high = -self.cells, self.cells
            for alpha in self.tests(taken):
                score = self.negamax(mine, taken, alpha, alpha + 1)
                low, high = (max(low, score), high) if score > alpha else (low, min(high, score))
            if low > 0 or high < 0 or low >= 0 >= high:
                self.root = None  # proven
        except OutOfNodes:
            pass

    def _ask(
        self, mine: int, taken: int, tests: tuple[int, ...], first: int
    ) -> tuple[int, int] | None:
        """The bounds of the mover's score: from the table, and at a search's nearest positions from
        null-window `tests` (each alpha's window (alpha, alpha + 1)) until one settles the payoff;
        None where the budget ran out."""
        key, stones = mine + taken, taken.bit_count()
        if self.nearest is None or stones < self.nearest:
            self.nearest = stones
        entry = self.table.get(key, _NOTHING)
        low, high = (entry & 127) - _UNKNOWN, (entry >> 7 & 127) - _UNKNOWN
        if low > 0 or high < 0 or low >= 0 >= high or stones > self.nearest:
            return low, high
        last = self.asked.get(key)
        nodes = min(MOST_NODES, 2 * last) if last is not None else first
        if not self.budget(nodes):
            return None
        if len(self.asked) >= REMEMBERED:
            self.asked.clear()
        self.asked[key] = nodes
        try:
            for alpha in tests:
                score = self.negamax(mine, taken, alpha, alpha + 1)
                low, high = (max(low, score), high) if score > alpha else (low, min(high, score))
                if low > 0 or high < 0:
                    break
        except OutOfNodes:
            return None
        # a cut by a child's entry (`transposed`) leaves the bound unsaid there
        entry = self.table.get(key, _NOTHING)
        low, high = max(low, (entry & 127) - _UNKNOWN), min(high, (entry >> 7 & 127) - _UNKNOWN)
        self.table[key] = (low + _UNKNOWN) | (high + _UNKNOWN) << 7 | entry >> 14 << 14
        return low, high

    def negamax(self, mine: int, taken: int, alpha: int, beta: int, threats: int = -1) -> int:
        """The score for the mover, fail-soft in (alpha, beta); the mover cannot complete four at
        once. `threats`: the cells completing the opponent's four (-1: not known yet; its move's
        ranking knew)."""
        self.nodes += 1
        if self.nodes >= self.limit:
            self.tick()
        winning, stones, empty = self.winning, taken.bit_count(), self.board ^ taken
        if threats < 0:
            threats = winning(mine ^ taken, empty)
        possible = (taken + self.bottom) & self.board
        forced = possible & threats
        if forced:  # the one block, or none against two threats
            possible = 0 if forced & (forced - 1) else forced
        possible &= ~(threats >> 1)
        if not possible:
            return -((self.cells - stones) // 2)
        if stones >= self.cells - 2:
            return 0
        key, table = mine + taken, self.table
        entry = table.get(key)
        if entry is None:
            entry = (
                self.unseen[stones]
                if stones < self.follow_from
                else self.fresh(key, mine, taken, stones, threats)
            )
        low, high = (entry & 127) - _UNKNOWN, (entry >> 7 & 127) - _UNKNOWN
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        theirs = mine ^ taken
        cut = self.transposed(theirs, taken, possible, beta)
        if cut is not None:
            return cut
        alpha, beta = (low if low > alpha else alpha), (high if high < beta else beta)
        best, best_move, start, first = -self.cells, 0, alpha, entry >> 14 & possible
        if first:  # the table's move first: where it still cuts, the others need no ranking
            best = -self.negamax(
                theirs, taken | first, -beta, -alpha, winning(mine | first, empty ^ first)
            )
            best_move, alpha = first, (best if best > alpha else alpha)
        if alpha < beta and possible != first:
            for _, _, move, made in self.ordered(mine, taken, possible ^ first):
                score = -self.negamax(theirs, taken | move, -beta, -alpha, made)
                if score > best:
                    best, best_move = score, move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            break
        low, high = (best, high) if best >= beta else (low, best) if best <= start else (best, best)
        table[key] = (low + _UNKNOWN) | (high + _UNKNOWN) << 7 | best_move << 14
        return best

    def transposed(self, theirs: int, taken: int, possible: int, beta: int) -> int | None:
        """A score of at least `beta` the table proves for a move's position (`theirs` to move after
        it), or None: enhanced transposition cutoffs, a look-up each instead of a search."""
        table = self.table
        while possible:
            move = possible & -possible
            possible ^= move
            child = table.get(theirs + (taken | move))
            if child is not None and _UNKNOWN - (child >> 7 & 127) >= beta:
                return _UNKNOWN - (child >> 7 & 127)
        return None

    def tick(self) -> None:
        """Look at the budget (every CHECK_EVERY nodes): spent, or the search's deadline passed,
        stop; a full table starts afresh."""
        if self.nodes >= self.stop or (
            self.account is not None and time.perf_counter() >= self.account.deadline
        ):
            raise OutOfNodes
        self.limit = min(self.stop, self.nodes + CHECK_EVERY)
        if len(self.table) >= REMEMBERED:
            self.table.clear()

    def fresh(self, key: int, mine: int, taken: int, stones: int, threats: int) -> int:
        """The entry of a position the table has not seen: the bounds its stones allow, and the
        follow-up rules' ceiling, kept, if they prove one."""
        entry = self.unseen[stones]
        ceiling = self.follow_up(mine, taken, stones % 2, threats)
        if ceiling is None:
            return entry
        entry = self.table[key] = entry & 127 | (ceiling + _UNKNOWN) << 7
        return entry

    def safe(self, mine: int, taken: int) -> int:
        """The cells the mover may play without losing at once: the block where the opponent
        threatens one playable cell, none where two, never under a cell the opponent would
        complete."""
        possible = (taken + self.bottom) & self.board
        threats = self.winning(mine ^ taken, self.board ^ taken)
        forced = possible & threats
        if forced:
            if forced & (forced - 1):
                return 0
            possible = forced
        return possible & ~(threats >> 1)

    def follow_up(self, mine: int, taken: int, second: int, threats: int) -> int | None:
        """The most the mover can score where a follow-up strategy proves it (Allis's claimeven and
        baseinverse), or None: 0 (it cannot win) or -1 (it loses). On a board of even cells, the
        first player to move gets at most the odd-row cells and one of each two lowest cells of the
        columns with an odd number left (the second player answers on top, or in the other column of
        the pair): without a four there it cannot win, and loses where the second player's sure
        cells make one. With the second player to move, the first one answering the same way (the
        lowest cells paired in all but one such column, where it answers on top) gets every odd-row
        cell of that column before its top: a threat there wins unless the second player's cells
        hold a four."""
        odd, four = self.odd, self.four
        empty, lowest = self.board & ~taken, (taken + self.bottom) & self.board
        bases = lowest & ~odd  # the lowest cells of the columns with an odd number of cells left
        if not second:
            if four(mine | empty & odd | bases):
                return None
            return -1 if four((mine ^ taken) | empty & ~odd & ~bases) else 0
        threats, claimable = threats & odd, mine | empty & odd | bases
        left = bases if threats else 0
        while left:
            base = left & -left
            left ^= base
            column = self.column_of[base]
            if threats & column and not four(
                claimable & ~column | mine & column | empty & column & ~odd
            ):
                return -1
        return None

    def ordered(self, mine: int, taken: int, possible: int) -> list[tuple[int, int, int, int]]:
        """The moves in `possible` (one at least) by the cells they would make four-completing (most
        first), centre first among equals: (-cells, rank, move, the cells). The boards after each
        column's move lie side by side in one number, so one pass of `winning` finds them all."""
        board = self.board
        if not possible & (possible - 1):
            return [(0, 0, possible, self.winning(mine | possible, board ^ taken ^ possible))]
        spread = self.spread
        moves = possible * spread & self.diagonal  # each column's move on its own board
        found = self.winning(mine * spread | moves, (board ^ taken) * spread ^ moves)
        ranked = []
        for rank, column, place in self.lanes:
            move = possible & column
            if move:
                made = found >> place & board
                ranked.append((-made.bit_count(), rank, move, made))
        ranked.sort()
        return ranked
