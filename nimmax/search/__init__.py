"""What every engine shares: the result type, score scale, table entries and search budget.

Scores inside a search are payoffs times SCALE, seen from the side to move at the node.
Each ply between a node and the end of the game moves a score one unit towards zero
(`older`), so among equal payoffs the quickest win and the slowest loss score best, and a
stored score stays true wherever the node is met again (it is relative to the node).
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from typing import Any, NamedTuple

from nimmax.game import CHANCE, AnyGame

SCALE = 1 << 20
"""One payoff unit in internal score units; games must end within SCALE // 2 plies."""

INFINITY = float("inf")
FULL_DEPTH = 1 << 30
"""The depth recorded for a value proven to the end of the game."""

EXACT, LOWER, UPPER = 0, 1, 2
"""Table bounds: the stored score is the value, at least the value, or at most the value."""


class MoveValue(NamedTuple):
    """A root move with its value for the side to move at the root."""

    move: Any
    value: float


@dataclass(frozen=True)
class SearchResult:
    """One search's answer: `value` is for the side to move at the root."""

    value: float
    move: Any
    pv: tuple[Any, ...]
    nodes: int
    depth: int
    seconds: float
    exact: bool
    moves: tuple[MoveValue, ...] = ()
    """Every root move with its value, when the search was asked to value them all."""


class Entry(NamedTuple):
    """A table entry: score relative to its node, its bound, the depth searched, the best move.

    `state` is the position the move belongs to: keys fold symmetries, so a move is only
    reused as a hint, or followed for the principal variation, at that very position.
    """

    depth: int
    bound: int
    score: float
    move: Any
    state: Hashable


class Table(dict[Hashable, Entry]):
    """A transposition table with a size cap: when full, the oldest sixteenth is dropped.

    A sixteenth, not more: dropping half of a million entries at once took 0.4 s, inside a
    timed move."""

    def __init__(self, capacity: int = 2_000_000) -> None:
        super().__init__()
        self.capacity = capacity

    def put(self, key: Hashable, entry: Entry) -> None:
        """Store `entry`; a table of capacity 0 stores nothing."""
        if self.capacity <= 0:
            return
        if len(self) >= self.capacity and key not in self:
            for old in list(islice(self, max(1, self.capacity // 16))):
                del self[old]
        self[key] = entry


class OutOfBudget(Exception):
    """Raised inside a search when its deadline passes or its node limit is reached."""


@dataclass
class Budget:
    """Limits of one search: a deadline on the perf_counter clock and a node limit."""

    deadline: float = INFINITY
    node_limit: float = INFINITY
    nodes: int = 0
    _next_check: int = 64

    @classmethod
    def of(cls, seconds: float | None = None, nodes: int | None = None) -> Budget:
        deadline = time.perf_counter() + seconds if seconds is not None else INFINITY
        return cls(deadline, nodes if nodes is not None else INFINITY)

    def count(self) -> None:
        """Count one node; every 64 nodes (and at the node limit) check the limits.

        64, not more: one node's heuristic can cost a tenth of a millisecond (a 15x15 board,
        2048 on a loaded machine), and a player must answer within its budget plus a small
        constant."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + 64
            if self.nodes >= self.node_limit or time.perf_counter() >= self.deadline:
                raise OutOfBudget
            if self.node_limit < self._next_check:
                self._next_check = int(self.node_limit)


def side(game: AnyGame, state: Any) -> int:
    """The seat whose point of view a node's score takes.

    A chance node of a one-player game is the player's adversary (seat 1) for the minimax
    engines; expectimax values chance nodes from seat 0's side, see `expectimax.py`.
    """
    mover = game.to_move(state)
    return mover if mover != CHANCE else 1


def older(score: float) -> float:
    """The score one ply further from the end of the game: one unit closer to zero."""
    return score - 1 if score >= 1 else score + 1 if score <= -1 else 0.0


def younger(bound: float, upper: bool) -> float:
    """The child score that `older` maps onto `bound`, so windows survive the shift.

    For a lower bound: the largest score s with older(s) <= bound; for an upper bound, the
    smallest s with older(s) >= bound. They differ only at 0, where older is flat.
    """
    if upper:
        return bound + 1 if bound > 0 else bound - 1
    return bound + 1 if bound >= 0 else bound - 1


def to_value(score: float, whole: bool) -> float:
    """A reported value in payoff units: rounded to the payoff when it is a proven whole payoff
    (the distance to the end is internal), else the plain estimate."""
    if whole and abs(score) != INFINITY:
        return float(round(score / SCALE))
    return score / SCALE


def deep_enough(plies: int) -> None:
    """Let recursion go `plies` deep (a 5000-counter pile is a 5000-ply game)."""
    wanted = plies * 2 + 1000
    if sys.getrecursionlimit() < wanted:
        sys.setrecursionlimit(wanted)


def principal_variation(game: AnyGame, table: Table, state: Any, first: Any, length: int = 64) -> tuple[Any, ...]:
    """The best line from `state` starting with `first`, followed through the table."""
    line = [first]
    position = game.result(state, first)
    while len(line) < length and not game.is_terminal(position):
        entry = table.get(game.key(position))
        if entry is None or entry.move is None or entry.state != position or entry.bound != EXACT:
            break
        line.append(entry.move)
        position = game.result(position, entry.move)
    return tuple(line)


def ordered(moves: Iterable[Any], first: Any) -> list[Any]:
    """`moves` with `first` moved to the front when it is among them."""
    listed = list(moves)
    if first is not None and first in listed:
        listed.remove(first)
        listed.insert(0, first)
    return listed


def payoff(game: AnyGame, state: Any, seat: int, estimate: bool = False) -> float:
    """Terminal payoff (or heuristic estimate) for `seat`, in score units.

    In a one-player game seat 1 is the adversary the minimax engines make of chance.
    """
    measure = game.evaluate if estimate else game.utility
    if game.players == 1 and seat != 0:
        return -measure(state, 0) * SCALE
    return measure(state, seat) * SCALE


def choices(game: AnyGame, state: Any) -> list[Any]:
    """What may happen next: the legal moves, or the outcomes at a chance node."""
    if game.to_move(state) == CHANCE:
        return [outcome for _, outcome in game.chance_outcomes(state)]
    return list(game.actions(state))


class Searcher:
    """One search's context: the game, its table, its budget and its horizon count.

    `value(state, depth, alpha, beta)` is the engine: the score of `state` for the side to
    move there, searched `depth` plies deep (fail-soft inside the window where it prunes).
    `horizon` counts the leaves cut short by the depth limit, so a search that reached no
    horizon has proven its value.
    """

    averages = False
    """True for engines that average chance outcomes, whose values need not be whole payoffs."""

    def __init__(self, game: AnyGame, table: Table | None = None, budget: Budget | None = None) -> None:
        self.game = game
        self.table = table if table is not None else Table()
        self.budget = budget if budget is not None else Budget()
        self.horizon = 0

    def value(self, state: Any, depth: int, alpha: float, beta: float) -> float:
        raise NotImplementedError

    def leaf(self, state: Any, horizon: bool, seat: int) -> float | None:
        """Count a node reached; score it for `seat` if the search stops here (the game is
        over, or `horizon`: the depth limit, scored by `evaluate`); None to expand it."""
        self.budget.count()
        if self.game.is_terminal(state):
            return payoff(self.game, state, seat)
        if horizon:
            self.horizon += 1
            return payoff(self.game, state, seat, estimate=True)
        return None

    def child_score(self, me: int, child: Any, depth: int, alpha: float, beta: float) -> float:
        """A child's score for the parent's side `me`, one ply older, searched in (alpha, beta)."""
        low, high = younger(alpha, upper=False), younger(beta, upper=True)
        if side(self.game, child) == me:
            return older(self.value(child, depth, low, high))
        return older(-self.value(child, depth, -high, -low))


def search_root(
    searcher: Searcher, state: Any, depth: int, every_move: bool, first: Any = None
) -> tuple[float, Any, list[tuple[Any, float]]]:
    """Score every root move `depth` plies deep; the best score, its move, and the pairs.

    Without `every_move` later moves are searched only for a better score, so their
    scores are bounds; with it each gets the full window and an exact score.
    """
    game = searcher.game
    searcher.budget.count()
    if game.to_move(state) == CHANCE:
        raise ValueError("a chance node has no move to choose")
    me = side(game, state)
    best, best_move, scored = -INFINITY, None, []
    for move in ordered(game.actions(state), first):
        child = game.result(state, move)
        score = searcher.child_score(me, child, depth - 1, -INFINITY if every_move else best, INFINITY)
        scored.append((move, score))
        if score > best:
            best, best_move = score, move
    return best, best_move, scored


def iterate(
    searcher: Searcher, state: Any, depth: int | None = None, every_move: bool = False, deepen: bool = True
) -> Iterator[SearchResult]:
    """Iterative deepening: a SearchResult per completed depth, until proven or at `depth`.

    Callers own the clock: stop consuming whenever you like. The searcher's budget aborts
    an iteration that overruns it, and the generator then ends. `deepen=False` searches
    once, straight at `depth` (to the end of the game when depth is None).
    """
    game = searcher.game
    start = time.perf_counter()
    limit = depth if depth is not None else FULL_DEPTH
    deep_enough(min(limit, SCALE // 2))
    current, first = (1 if deepen else limit), None
    nodes_before = searcher.budget.nodes
    while True:
        horizon_before = searcher.horizon
        if game.is_terminal(state):
            searcher.budget.count()
            score = payoff(game, state, side(game, state))
            yield SearchResult(to_value(score, True), None, (), 1, 0, time.perf_counter() - start, True)
            return
        try:
            best, move, scored = search_root(searcher, state, current, every_move, first)
        except OutOfBudget:
            return
        exact = searcher.horizon == horizon_before
        whole = exact and not (searcher.averages and game.has_chance)
        pv = principal_variation(game, searcher.table, state, move)
        yield SearchResult(
            value=to_value(best, whole),
            move=move,
            pv=pv,
            nodes=searcher.budget.nodes - nodes_before,
            depth=current if current < FULL_DEPTH else len(pv),
            seconds=time.perf_counter() - start,
            exact=exact,
            moves=tuple(MoveValue(m, to_value(s, whole)) for m, s in scored) if every_move else (),
        )
        if exact or current >= limit:
            return
        current, first = current + 1, move


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run a timed search with the cyclic garbage collector paused, then freeze what it kept.

    Table entries are tuple subclasses, which the collector never untracks, so a full
    collection over a million of them took 0.3-1.2 s inside a timed move. They hold no
    reference cycles, so reference counting still frees every entry a table drops.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def run(
    searcher: Searcher, state: Any, depth: int | None = None, every_move: bool = False, deepen: bool = False
) -> SearchResult:
    """The last result `iterate` completes; when the budget stops even the first depth,
    the first legal move, so a player under a deadline always has an answer."""
    start, last = time.perf_counter(), None
    with collector_paused():
        for result in iterate(searcher, state, depth, every_move, deepen):
            last = result
    if last is not None:
        return last
    move = next(iter(searcher.game.actions(state)), None)
    pv = (move,) if move is not None else ()
    return SearchResult(0.0, move, pv, searcher.budget.nodes, 0, time.perf_counter() - start, False)
