"""The searcher the deepening engines extend, the root search, and iterative deepening.

`iterate` is iterative deepening as a generator (one SearchResult per completed depth; the
caller owns the clock); `run` takes its last answer, as deep as the caller's interpreter policy
lets it recurse (`stack`). A `Watcher` sees a running search: every budget check and every
depth done.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Hashable, Iterable, Iterator, Sequence
from dataclasses import replace
from itertools import chain
from typing import Any

from nimmax.game import (
    CHANCE,
    AnyGame,
    Capability,
    Known,
    charge,
    evaluator,
    has_chance,
    narrower,
    ordered,
    part,
)
from nimmax.search.budget import Budget, OutOfBudget
from nimmax.search.limits import Limits
from nimmax.search.result import MoveValue, SearchResult, Watcher
from nimmax.search.score import FULL_DEPTH, HALF, INFINITY, SCALE, payoff, score_of, to_value
from nimmax.search.stack import refusing
from nimmax.search.table import Table, offsets, principal_variation

LEAP_NODES = 10_000
"""Deepening with no clock or node limit (solve) searches straight to its depth limit once its
iterations have cost this many nodes: the shallow ones give answers to show when Ctrl-C stops
the search, and cost little beside the proof; deepening ply by ply to the end would repeat
ever bigger searches (or, on a game thousands of plies long, thousands of small ones)."""


UNLIMITED = Limits()
"""No limit at all: a search to the end of the game."""


class Searcher:
    """A deepening search's context: game, table, budget, horizon count; each engine writes its node
    in one method."""

    simulates = False
    """Whether its nodes are simulations (MCTS's), which the live line counts as such."""
    averages = False
    """True for engines that average chance outcomes, whose values need not be whole payoffs."""
    step = 1
    """Plies each deepening iteration adds."""
    near = True
    """Whether a limited search may take the game's `heuristic_actions` (an engine's `near=off`
    clears it)."""

    def __init__(
        self, game: AnyGame, table: Table | None = None, budget: Budget | None = None
    ) -> None:
        self.game = game.for_search()
        self.table = table if table is not None else Table()
        self.budget = budget if budget is not None else Budget()
        # the game's own proofs count in the search's nodes and keep its deadline
        charge(self.game, self.budget)
        self.horizon = 0
        """Leaves cut short by a horizon: a search that met none has proven its value."""
        self.scored: list[tuple[Any, float]] = []
        """The root moves scored so far at this depth: a search stopped early answers with one of
        them."""
        self.narrowing = False
        """Whether the game's `heuristic_actions` apply: a limited search, set by `iterate`."""
        self.mover = CHANCE
        """The seat to move at the root being searched (set by `search_root`)."""
        self.position: Any = None
        """The root being searched (set by `iterate`): a live view clamps depths to the plies left
        there."""
        self.narrowed = [0, 0]
        """Nodes narrowed to `heuristic_actions`: the root mover's, then the other side's. A horizon
        of the mover's own leaves a win sound (a win needs one good move); the other side's does
        not."""
        self.forced = False
        """Whether the best root move's score met no horizon but the mover's own narrowed nodes,
        so a win it shows is won whatever the other side does (set by `search_root`)."""
        self.limited = False
        """Whether a depth, time or node limit applies (set by `iterate`): then a book's payoff is
        taken as proven without its distance, since only the move and its outcome matter."""
        self.book = (
            booked.book if (booked := part(self.game, Capability.BOOK)) is not None else None
        )
        """The search copy's book (it may answer from memos of its own), or None (no book, or the
        engine's `book=off`): a call saved a node."""
        self.keyed = offsets(self.game)
        """The game's `keyed` where it declares OFFSET_KEY (the table stores values less the
        offset), else None."""
        self.ordered, self.evaluate = ordered(self.game), evaluator(self.game)
        self.heuristic_actions = narrower(self.game)
        """The game's members a node calls, bound once (`search_actions`, `evaluate`,
        `heuristic_actions`)."""
        self.rough = 0
        """Book hits read at the most plies they bound (a payoff proven, its distance not): a
        search that met none has proven its distances too."""

    def root_score(self, me: int, child: Any, depth: int, alpha: float, beta: float) -> float:
        """A root move's score for the root's side `me`, one ply older: `child` searched in (alpha,
        beta)."""
        raise NotImplementedError

    def viewpoint(self, state: Any) -> int:
        """The seat a node's score is for: the side to move."""
        return self.game.to_move(state)

    def from_book(self, state: Any) -> tuple[float, float] | None:
        """The least and the most score the book gives `state`, or None where it is silent
        (`book_range`)."""
        assert self.book is not None
        known = self.book(state)
        return self.book_range(known) if known is not None else None

    def book_range(self, known: Known) -> tuple[float, float]:
        """The least and the most score of a book's answer: one score where it knows the plies,
        the payoff's scores within them where it bounds them."""
        payoff, plies, exact = known
        score = score_of(
            payoff, min(plies, HALF - 2)
        )  # past HALF plies a score reads as the farthest it holds (a ply older too)
        # A limited search proves outcomes, not distances: the most plies serve as the distance.
        if exact or self.limited or not payoff:
            return score, score
        return (score, payoff * SCALE - 1) if payoff > 0 else (payoff * SCALE + 1, score)

    def filed(self, state: Any) -> tuple[Hashable, float]:
        """The table key of `state` and the shift its entry is stored less (its key's offset in
        score units)."""
        if self.keyed is None:
            return self.game.key(state), 0.0
        key, offset = self.keyed(state)
        return key, offset * SCALE

    def near_moves(self, state: Any, me: int, every: bool = False) -> Sequence[Any]:
        """A narrowing search's moves: `heuristic_actions` (a horizon), else `search_actions`
        (`actions` if `every`)."""
        moves = self.heuristic_actions(state)
        if moves is None:
            return self.game.actions(state) if every else self.ordered(state)
        self.horizon += 1
        self.narrowed[me != self.mover] += 1
        return moves

    def best_scored(self) -> tuple[Any, float, int] | None:
        """The best root move scored so far at this depth, its value and how many are scored; None
        before the first."""
        if not self.scored:
            return None
        move, score = max(self.scored, key=lambda pair: pair[1])
        return move, to_value(score, self.unhorizoned()), len(self.scored)

    def unhorizoned(self) -> bool:
        """Whether every score so far is a proven whole payoff: no horizon met, no chance
        averaged."""
        return self.horizon == 0 and not (self.averages and has_chance(self.game))


def first_in(moves: Iterable[Any], first: Any) -> Iterable[Any]:
    """`moves` with `first` (a table move, legal in its own position) tried first; a lazy sequence
    stays lazy."""
    if isinstance(moves, (list, tuple)):
        if not moves or moves[0] == first or first not in moves:
            return moves
        ordered = list(moves)
        ordered.remove(first)
        ordered.insert(0, first)
        return ordered
    return chain((first,), (move for move in moves if move != first))


def search_root(
    searcher: Searcher, state: Any, depth: int, every_move: bool, first: Any = None
) -> tuple[float, Any, list[tuple[Any, float]]]:
    """Score every root move `depth` plies deep; the best score, its move, and the pairs (kept in
    `searcher.scored`)."""
    # Without `every_move` later moves are searched only for a better score, so a score no
    # better than the best before it is an upper bound (`upper_bounds`); with it each gets the
    # full window and its own score.
    game = searcher.game
    searcher.budget.count()
    if game.to_move(state) == CHANCE:
        raise ValueError("a chance node has no move to choose")
    me = searcher.mover = searcher.viewpoint(state)
    # A narrowing search treats its root as any node; valuing every move takes every move.
    narrowing = searcher.narrowing and not every_move
    moves = searcher.near_moves(state, me) if narrowing else game.actions(state)
    best, best_move = -INFINITY, None
    scored: list[tuple[Any, float]] = []
    searcher.scored = scored
    for move in first_in(moves, first) if first is not None else moves:
        child = game.result(state, move)
        horizon, own = searcher.horizon, searcher.narrowed[0]
        score = searcher.root_score(
            me, child, depth - 1, -INFINITY if every_move else best, INFINITY
        )
        scored.append((move, score))
        if score > best:
            best, best_move = score, move
            searcher.forced = searcher.horizon - horizon == searcher.narrowed[0] - own
    return best, best_move, scored


def upper_bounds(scored: list[tuple[Any, float]], every_move: bool) -> frozenset[Any]:
    """The root moves `search_root` scored only as upper bounds: each searched after the first,
    without `every_move`, whose (fail-soft) score is no better than the best before it."""
    if every_move:
        return frozenset()
    bounded, best = [], -INFINITY
    for move, score in scored:
        if score <= best:
            bounded.append(move)
        best = max(best, score)
    return frozenset(bounded)


def valued(scored: list[tuple[Any, float]], whole: bool) -> tuple[MoveValue, ...]:
    """A SearchResult's `moves` from `search_root`'s pairs, ranked; payoffs where `whole` (proven,
    not averaged)."""
    return tuple(MoveValue(move, to_value(score, whole)) for move, score in ranked(scored))


def ranked(scored: list[tuple[Any, float]]) -> list[tuple[Any, float]]:
    """Root moves as the search prefers them: by score (the quickest win, slowest loss first), ties
    as chosen."""
    return sorted(scored, key=lambda pair: -pair[1])


def iterate(
    searcher: Searcher,
    state: Any,
    limits: Limits = UNLIMITED,
    every_move: bool = False,
    deepen: bool = True,
) -> Iterator[SearchResult]:
    """Iterative deepening: a SearchResult per completed depth, until proven or at the depth limit.

    Callers own the clock: stop consuming whenever you like. The searcher's budget (made from
    the same `limits`) aborts an iteration that overruns it, and the generator then ends.
    `deepen=False` searches once, straight at the depth limit (to the end of the game without
    one); deepening without a clock goes straight there once its iterations cost LEAP_NODES.
    Each result's nodes and seconds are those of the search so far, every earlier depth included.
    """
    game, budget = searcher.game, searcher.budget
    start, nodes_before = time.perf_counter(), budget.nodes
    searcher.position = state
    limit = limits.depth if limits.depth is not None else FULL_DEPTH
    current, first = (1 if deepen else limit), None
    searcher.narrowing = (
        limits.limited and searcher.near and Capability.NARROWING in game.capabilities
    )
    searcher.limited = limits.limited
    if (yield from book_answer(searcher, state, start, nodes_before)):
        return
    while True:
        horizon_before, narrowed_before, rough_before = (
            searcher.horizon,
            sum(searcher.narrowed),
            searcher.rough,
        )
        if game.is_terminal(state):
            budget.count()
            score = payoff(game, state, searcher.viewpoint(state))
            yield SearchResult(
                to_value(score, True), None, (), 1, 0, time.perf_counter() - start, True
            )
            return
        try:
            best, move, scored = search_root(searcher, state, current, every_move, first)
        except OutOfBudget:
            return
        exact = searcher.horizon == horizon_before
        # A win where no reply of the other side was left out: the most a narrowing game (won,
        # drawn or lost) gives. With every move valued, deepening goes on until each is proven.
        won = (
            searcher.narrowing
            and searcher.forced
            and SCALE - HALF < best <= SCALE
            and not every_move
        )
        plies = int(SCALE - best) if won else current  # a win: its plies
        result = answer(
            searcher,
            state,
            (best, move, scored),
            plies,
            exact,
            won,
            every_move,
            start,
            nodes_before,
        )
        yield replace(result, distance_exact=False) if searcher.rough != rough_before else result
        # Narrowing does not depend on the depth: once no leaf was cut by the depth (every
        # horizon a narrowed node), a deeper search would search the same tree again.
        ended = searcher.horizon - horizon_before == sum(searcher.narrowed) - narrowed_before
        if exact or won or ended or current >= limit:
            return
        leap = not limits.clocked and budget.nodes - nodes_before >= LEAP_NODES
        if leap:  # estimates' moves order a proof worse than the game's own order: keep only proofs
            for key in [key for key, entry in searcher.table.items() if entry[0] < FULL_DEPTH]:
                del searcher.table[key]
        current, first = (limit if leap else min(limit, current + searcher.step)), move


def book_answer(
    searcher: Searcher, state: Any, start: float, nodes_before: int
) -> Generator[SearchResult, None, bool]:
    """A root the book answers, answered at once where the book knows its distances or its moves are
    too many to search one by one (yields it); whether the search is over (answered, or out of
    budget). Else the search, reading the book below, ranks the moves."""
    book = searcher.book
    if book is None or searcher.game.is_terminal(state) or (known := book(state)) is None:
        return False
    try:
        booked = book_root(searcher, state, known, start, nodes_before)
    except OutOfBudget:
        return True
    if booked is None:
        return False
    yield booked
    return True


BOOK_MOVES = 1000
"""The most root moves a root the book answers values one by one (a Nim pile may offer a billion):
past them only the move of the book's own line is looked for."""


def book_root(
    searcher: Searcher, state: Any, known: Known, start: float, nodes_before: int
) -> SearchResult | None:
    """A root the book answers, at once: its value, a move keeping it, and up to BOOK_MOVES root
    moves the book values (each child a node); None where no move it values keeps the root's
    payoff."""
    game, budget, book = searcher.game, searcher.budget, searcher.book
    assert book is not None
    if not known.exact and len(game.actions(state)) <= BOOK_MOVES:
        return None
    budget.count()
    me = searcher.viewpoint(state)
    scored: list[tuple[Any, float]] = []
    best, best_move, distances = -INFINITY, None, known.exact
    for move in game.actions(state):
        if len(scored) >= BOOK_MOVES and round(best / SCALE) == known.payoff:
            break
        child = game.result(state, move)
        budget.count()
        if game.is_terminal(child):
            score = payoff(game, child, me)
        elif (seen := book(child)) is not None:
            distances = distances and seen.exact
            score = score_of(seen.payoff, min(seen.plies, HALF - 2)) * (
                1 if game.to_move(child) == me else -1
            )
        else:
            # a move the book is silent on is left out: the book's value needs one move keeping it
            continue
        score = score - 1 if score >= 1 else score + 1 if score <= -1 else 0.0  # one ply older
        if len(scored) < BOOK_MOVES:
            scored.append((move, score))
        if score > best:
            best, best_move = score, move
    if best_move is None or round(best / SCALE) != known.payoff:
        return None
    if all(move != best_move for move, _ in scored):
        scored.insert(0, (best_move, best))
    return SearchResult(
        value=to_value(best, True),
        move=best_move,
        pv=(best_move,),
        nodes=budget.nodes - nodes_before,
        depth=known.plies,
        seconds=time.perf_counter() - start,
        exact=True,
        moves=valued(scored, True),
        moves_proven=True,
        distance_exact=distances,
    )


def answer(
    searcher: Searcher,
    state: Any,
    root: tuple[float, Any, list[tuple[Any, float]]],
    plies: int,
    exact: bool,
    won: bool,
    every_move: bool,
    start: float,
    nodes_before: int,
) -> SearchResult:
    """One depth's SearchResult from `search_root`'s (best score, move, scored moves)."""
    best, move, scored = root
    whole = (exact or won) and not (searcher.averages and has_chance(searcher.game))
    pv = principal_variation(searcher.game, searcher.table, state, move)
    return SearchResult(
        value=to_value(best, whole),
        move=move,
        pv=pv,
        nodes=searcher.budget.nodes - nodes_before,
        depth=plies if plies < FULL_DEPTH else len(pv),
        seconds=time.perf_counter() - start,
        exact=exact or won,
        moves=valued(scored, whole and exact),
        moves_proven=exact,
        upper_bounds=upper_bounds(scored, every_move),
    )


def run(
    searcher: Searcher,
    state: Any,
    limits: Limits = UNLIMITED,
    every_move: bool = False,
    deepen: bool | None = None,
    watcher: Watcher | None = None,
) -> SearchResult:
    """The deepest answer `iterate` completes, with the nodes and seconds of the whole search
    (the iteration the budget cut short included); `deepen` by default under a clock.

    A search goes as deep as the recursion limit lets it from here (the caller's interpreter
    policy, `stack.interpreter` and `stack.deep`): deepening under a clock stops there (a timed
    move answers from there); a search without one is refused with TooDeep. When the budget
    stops even the first depth, the answer is the best root move scored by then (an estimate),
    or failing those the game's first move in search order, so a player under a deadline always
    has an answer.
    """
    budget = searcher.budget
    nodes_before, last = budget.nodes, None
    deepen = limits.clocked if deepen is None else deepen
    budget.watch = (lambda _: watcher.tick(searcher)) if watcher is not None else None
    try:
        with refusing() as room:
            if deepen and limits.clocked:
                limits = replace(
                    limits, depth=min(limits.depth if limits.depth is not None else room, room)
                )
            for result in iterate(searcher, state, limits, every_move, deepen):
                last = result
                if watcher is not None:
                    watcher.reached(result)
    finally:
        budget.watch = None
        charge(searcher.game, None)  # a copy kept for the next move charges nothing to this one
    if last is None:
        last = unfinished(searcher, state, every_move)
    # the move's seconds on the clock its deadline is read from (started with the searcher)
    return replace(last, nodes=budget.nodes - nodes_before, seconds=budget.elapsed)


def unfinished(searcher: Searcher, state: Any, every_move: bool) -> SearchResult:
    """The answer of a search stopped before its first depth was done: the best root move
    scored so far, an estimate; with none scored, the first move the game would search."""
    best = searcher.best_scored()
    if best is None:
        move = next(iter(searcher.ordered(state)), None)
        return SearchResult(0.0, move, (move,) if move is not None else (), 0, 0, 0.0, False)
    move, value, _ = best
    scored, proven = searcher.scored, searcher.unhorizoned()
    bounds = upper_bounds(scored, every_move)
    return SearchResult(
        value, move, (move,), 0, 0, 0.0, False, valued(scored, proven), proven, bounds
    )
