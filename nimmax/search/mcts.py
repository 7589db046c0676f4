"""Monte Carlo tree search: UCT with MCTS-Solver bounds, game-agnostic like the other engines.

Each simulation walks down the tree by UCT (a child's mean payoff, scaled to [0, 1] by the
payoffs seen so far, plus `c` times sqrt(ln N / n)), adds one child, plays a random game
from it (or a few random plies scored by the game's `evaluate`, `rollout=heuristic`) and
adds the payoff to every node on the way. The side to move is read from every state, and
chance nodes are sampled by their probabilities. One-player games maximise the score.

Every node also keeps proven bounds on its value for seat 0 (score-bounded MCTS, after
Cazenave and Saffidine, generalising Winands' MCTS-Solver): a finished game is its payoff,
a player's node the best bound of its children (with moves not yet tried left open), a
chance node the weighted sum once every outcome is tried. In a two-player game a node
whose bounds decide the result (won, lost or an exact value) is settled: the walk stops
there, its losing children are no longer chosen, and a settled root ends the search. So it
never misses a win in one, and a move the opponent wins against at once is proven lost.
A node tries the game's `search_actions`: the game narrows them only where the value is
unchanged, so the bounds stay proofs. A game with `heuristic_actions` (the cells near the
stones of a big board) narrows the tree and the playouts further, as it does a limited
alpha-beta: a node so narrowed proves wins, never that every move loses, since the moves
left out are untried. A game declaring its payoff range (`utility_bounds` of the root) closes
the bounds a node leaves open at that range, so a proven win at the top of the range (or a loss
at its bottom) meets the other bound: exact. `exact` is reported only for a root whose bounds met.

Simulations are the search's nodes: the budget counts one per simulation, and looks at the
clock after every simulation and every few hundred plies of a playout, so a slow playout
on a big board does not overrun a deadline.
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import Any

from nimmax.game import CHANCE, AnyGame, Capability, charge, evaluator, ordered, part
from nimmax.search.budget import Budget, OutOfBudget
from nimmax.search.mcts_tree import NO_MORE, PV_LENGTH, UNLISTED, Chance, Node, Tree
from nimmax.search.result import MoveValue, SearchResult, Watcher
from nimmax.search.score import INFINITY

__all__ = ("EXPLORATION", "HEURISTIC_PLIES", "ROLLOUTS", "MonteCarlo", "Tree")

EXPLORATION = math.sqrt(2)
"""UCT's exploration constant for payoffs scaled to [0, 1] (Kocsis and Szepesvari's UCB1)."""

ROLLOUTS = ("random", "heuristic")
"""Playouts: random to the end of the game, or HEURISTIC_PLIES random plies scored by `evaluate`."""

HEURISTIC_PLIES = 4
"""Random plies a heuristic playout makes before `evaluate` scores it: a few, so the estimate
is taken a little past the new node rather than at it."""

CLOCK_PLIES = 256
"""Plies of a playout between looks at the clock (a 26x26 playout is some 700 plies)."""


class Clock:
    """What MCTS charges a game's own work to: its budget's deadline; the work's nodes, which are no
    simulations, are kept here apart from the simulations counted as its nodes."""

    def __init__(self, budget: Budget) -> None:
        self.budget, self.nodes = budget, 0

    @property
    def deadline(self) -> float:
        """The search's deadline, as its budget has it now (`stop` moves it)."""
        return self.budget.deadline


class MonteCarlo:
    """One MCTS search: UCT down the tree, a playout, the payoff backed up, proofs propagated."""

    simulates = True
    """Its nodes are simulations."""

    def __init__(
        self,
        game: AnyGame,
        tree: Tree | None = None,
        budget: Budget | None = None,
        c: float = EXPLORATION,
        rollout: str = "random",
        seed: int | None = None,
    ) -> None:
        self.game = game
        self.tree = tree if tree is not None else Tree()
        self.budget = budget if budget is not None else Budget()
        booked = part(game, Capability.BOOK)
        self.book = booked.book if booked is not None else None
        """The game's book, or None (no book, or the engine's `book=off`): a hit settles a node."""
        self.c, self.heuristic = c, rollout == "heuristic"
        self.rng = random.Random(seed)
        self.two = game.players == 2
        self.root: Node | None = None
        self.position: Any = None
        """The root position being searched (set by `run`): a live view clamps depths to the plies
        left there."""
        narrowing = part(game, Capability.NARROWING)
        self.narrows = narrowing.heuristic_actions if narrowing is not None else None
        """The game's `heuristic_actions`, where it narrows a limited search (MCTS always is
        one)."""
        self.ordered, self.evaluate = ordered(game), evaluator(game)
        """The game's `search_actions` (or `actions`) and `evaluate` (or neutral), bound once."""
        chancy = part(game, Capability.CHANCE)
        self.outcomes = chancy.chance_outcomes if chancy is not None else None
        """The game's `chance_outcomes`, where it declares chance."""
        self.bottom, self.top = -INFINITY, INFINITY
        """The least and the most seat 0's payoff can be below the root: the game's range, where it
        declares one."""

    # -- the search -----------------------------------------------------------------------

    def run(
        self, state: Any, every_move: bool = False, watcher: Watcher | None = None
    ) -> SearchResult:
        """Simulate until the budget ends or the root is settled; the most visited move (a proven
        win first)."""
        game, budget = self.game, self.budget
        start, nodes_before = time.perf_counter(), budget.nodes
        self.position = state
        if game.is_terminal(state):
            budget.count()
            value = game.utility(state, max(game.to_move(state), 0))
            return SearchResult(value, None, (), 1, 0, time.perf_counter() - start, True)
        if game.to_move(state) == CHANCE:
            raise ValueError("a chance node has no move to choose")
        self.bottom, self.top = self.payoff_range(state)
        charge(game, Clock(budget))  # the game's own proofs keep the deadline
        budget.watch = (lambda _: watcher.tick(self)) if watcher is not None else None
        try:
            # no budget check in it: the root is always made
            self.root = root = self._root(state, every_move)
            # the caller's policy pauses the collector: a big tree holds no cycles
            while not root.done:
                self.simulate(root)
                budget.nodes += 1  # a simulation is a node; the clock is read after each one
                budget.check()
        except OutOfBudget:
            pass
        finally:
            budget.watch = None
            charge(game, None)
        return self.answer(every_move, budget.nodes - nodes_before, time.perf_counter() - start)

    def payoff_range(self, state: Any) -> tuple[float, float]:
        """Seat 0's payoffs at any end below `state`: the game's `utility_bounds` for the side to
        move there (zero-sum: seat 1's bounds negated), or unbounded where the game declares
        none."""
        game = self.game
        own = part(game, Capability.BOUNDS)
        bounds = own.utility_bounds(state) if own is not None else None
        if bounds is None:
            return -INFINITY, INFINITY
        low, high = bounds
        return (low, high) if game.to_move(state) == 0 else (-high, -low)

    def _root(self, state: Any, every_move: bool) -> Node:
        """The root: the kept tree's node of `state` when playing on, else a new one (of every move,
        to value each)."""
        tree = self.tree
        found = tree.find(state) if not every_move else None
        if found is None:
            found = self.node(state, None)
            if every_move:
                found.moves = iter(self.game.actions(state))
                found.upcoming = next(found.moves, NO_MORE)
        # settled by the book: the root needs its moves
        if found.done and not self.game.is_terminal(state):
            found.low, found.high, found.done = -INFINITY, INFINITY, False
        tree.root = found
        return found

    def simulate(self, root: Node) -> None:
        """One simulation: down by UCT to a new node (or a settled one), a playout, the payoff
        backed up."""
        node, path = root, [root]
        while not node.done and (node.visits or node is root):
            if isinstance(node, Chance):
                node = self.draw(node)
            elif node.upcoming is not NO_MORE:
                node = self.expand(node)
            else:
                node = self.select(node)
            path.append(node)
        reward = self.settled_value(node) if node.done else self.playout(node.state)
        tree = self.tree
        if reward < tree.lowest:
            tree.lowest = reward
        if reward > tree.highest:
            tree.highest = reward
        proving = node.done
        for step in reversed(path):
            step.visits += 1
            step.total += reward
            if proving and step is not node:
                proving = self.bound(step)

    def node(self, state: Any, move: Any) -> Node:
        """A new node for `state`; a finished game is settled at its payoff for seat 0."""
        game = self.game
        mover = game.to_move(state)
        if mover == CHANCE:
            assert self.outcomes is not None  # CHANCE is to move only in a game declaring it
            return Chance(state, move, self.outcomes(state))
        made = Node(state, move, mover)
        if game.is_terminal(state):
            made.low = made.high = game.utility(state, 0)
            made.done = True
        elif self.book is not None and (known := self.book(state)) is not None:
            # proven by the book
            made.low = made.high = known.payoff if mover == 0 else -known.payoff
            made.done = True
        return made

    def expand(self, node: Node) -> Node:
        """The child of `node`'s next untried move (its moves asked for on the first call)."""
        if node.upcoming is UNLISTED:
            node.moves = iter(self.moves_of(node.state, node))
            node.upcoming = next(node.moves, NO_MORE)
            if node.upcoming is NO_MORE:
                raise ValueError(f"{self.game.name}: a position that is not over has no moves")
        move = node.upcoming
        assert node.moves is not None
        node.upcoming = next(node.moves, NO_MORE)
        child = self.node(self.game.result(node.state, move), move)
        node.children.append(child)
        return child

    def moves_of(self, state: Any, node: Node | None = None) -> Sequence[Any] | Iterator[Any]:
        """The moves a node or playout tries: `heuristic_actions` (`node` marked narrowed), else
        `search_actions`."""
        moves = self.narrows(state) if self.narrows is not None else None
        if moves is None:
            return self.ordered(state)
        if node is not None:
            node.narrowed = True
        return moves

    def draw(self, node: Chance) -> Node:
        """An outcome of a chance node drawn by its probability; its child, made when first
        drawn."""
        index = min(
            bisect_right(node.thresholds, self.rng.random() * node.thresholds[-1]),
            len(node.outcomes) - 1,
        )
        child = node.drawn[index]
        if child is None:
            child = node.drawn[index] = self.node(
                self.game.result(node.state, node.outcomes[index][1]), None
            )
            node.children.append(child)
        return child

    def select(self, node: Node) -> Node:
        """The child with the best UCT score for the side to move, of those not proven lost for it
        if any."""
        tree = self.tree
        span = tree.highest - tree.lowest
        span = span if span > 0 else 1.0
        bottom, top = tree.lowest, tree.highest
        explore = self.c * math.sqrt(math.log(node.visits or 1))
        maximising = node.mover == 0
        best, best_score = None, -INFINITY
        for losing in (True, False) if self.two else (False,):
            for child in node.children:
                visits = child.visits
                if losing and (child.high < 0 if maximising else child.low > 0):
                    continue
                if not visits:
                    return child
                mean = child.total / visits
                gain = (mean - bottom if maximising else top - mean) / span
                score = gain + explore / math.sqrt(visits)
                if score > best_score:
                    best, best_score = child, score
            if best is not None:
                return best
        return node.children[0]

    def playout(self, state: Any) -> float:
        """Seat 0's payoff at the end of a random game from `state` (or, heuristic, `evaluate` a few
        plies on)."""
        game, rng, budget = self.game, self.rng, self.budget
        cut = HEURISTIC_PLIES if self.heuristic else -1
        plies = 0
        while not game.is_terminal(state):
            if plies == cut:
                return self.evaluate(state, 0)
            if game.to_move(state) == CHANCE:
                assert self.outcomes is not None
                state = game.result(state, _drawn(self.outcomes(state), rng.random()))
            else:
                moves = self.moves_of(state)  # a lazy sequence is drawn from, never listed
                state = game.result(
                    state, rng.choice(moves if isinstance(moves, Sequence) else list(moves))
                )
            plies += 1
            if not plies % CLOCK_PLIES and time.perf_counter() >= budget.deadline:
                raise OutOfBudget
        return game.utility(state, 0)

    # -- proofs -----------------------------------------------------------------------------

    def bound(self, node: Node) -> bool:
        """Recompute a node's bounds from its children; whether they changed."""
        children = node.children
        if isinstance(node, Chance):
            if any(child is None for child in node.drawn):
                return False
            low = high = 0.0
            for (probability, _), child in zip(node.outcomes, node.drawn, strict=True):
                assert child is not None
                low, high = low + probability * child.low, high + probability * child.high
            low, high = low / node.thresholds[-1], high / node.thresholds[-1]
        elif not children:
            return False
        elif node.mover == 0:
            low = max(self.bottom, *(child.low for child in children))
            high = (
                min(self.top, max(child.high for child in children))
                if node.tried_all()
                else self.top
            )
        else:
            high = min(self.top, *(child.high for child in children))
            low = (
                max(self.bottom, min(child.low for child in children))
                if node.tried_all()
                else self.bottom
            )
        if low == node.low and high == node.high:
            return False
        node.low, node.high = low, high
        node.done = low == high or (self.two and (low > 0 or high < 0))
        return True

    def settled_value(self, node: Node) -> float:
        """A settled node's payoff for seat 0: its value, or the proven bound that decides it."""
        if node.low == node.high or node.low > 0:
            return node.low
        return node.high

    # -- the answer -------------------------------------------------------------------------

    def for_mover(self, value: float) -> float:
        """A value for seat 0 as the root's side to move sees it (zero-sum)."""
        return -value if self.root is not None and self.root.mover == 1 else value

    def choice(self) -> Node | None:
        """The root's move: the greatest proven win (an end at once first), else the most visited
        not proven worse."""
        root = self.root
        if root is None or not root.children:
            return None
        children = root.children
        if self.two:
            won = [child for child in children if self.bounds(child)[0] > 0]
            if won:
                over = self.game.is_terminal
                return max(
                    won, key=lambda child: (self.bounds(child)[0], over(child.state), child.visits)
                )
        floor = max(self.bounds(child)[0] for child in children)
        hopeful = [
            child
            for child in children
            if self.bounds(child)[1] >= max(floor, 0 if self.two else -INFINITY)
        ]
        if not hopeful:  # every move is proven to lose: the least loss, then the most visited
            return max(children, key=lambda child: (self.bounds(child)[1], child.visits))
        return max(hopeful, key=lambda child: (child.visits, self.for_mover(child.mean())))

    def bounds(self, child: Node) -> tuple[float, float]:
        """A root child's proven bounds for the side to move at the root."""
        if self.root is not None and self.root.mover == 1:
            return -child.high, -child.low
        return child.low, child.high

    def value_of(self, child: Node) -> tuple[float, bool]:
        """A root child's value for the side to move at the root, and whether it is proven."""
        if child.low == child.high:
            return self.for_mover(child.low), True
        if child.done:
            return self.for_mover(self.settled_value(child)), False
        return self.for_mover(child.mean()), False

    def answer(self, every_move: bool, nodes: int, seconds: float) -> SearchResult:
        """The search's SearchResult: the chosen move, its value, the most visited line."""
        root, chosen = self.root, self.choice()
        assert root is not None
        if chosen is None:
            move = next(iter(self.ordered(root.state)), None)
            return SearchResult(
                0.0, move, (move,) if move is not None else (), nodes, 0, seconds, False
            )
        exact = root.low == root.high
        if exact:
            value = self.for_mover(root.low)
        elif root.done:
            value = self.for_mover(self.settled_value(root))
        else:
            value = self.value_of(chosen)[0]
        line, node = [chosen.move], chosen
        while len(line) < PV_LENGTH and node.children and node.mover != CHANCE:
            node = max(node.children, key=lambda child: child.visits)
            if not node.visits:
                break
            line.append(node.move)
        preferred = sorted(root.children, key=lambda child: (child is not chosen, -child.visits))
        values = (
            tuple(MoveValue(child.move, self.value_of(child)[0]) for child in preferred)
            if every_move
            else ()
        )
        if every_move:
            self.tree.index(self.game, root)
        proven = (
            every_move
            and root.tried_all()
            and all(self.value_of(child)[1] for child in root.children)
        )
        return SearchResult(
            value, chosen.move, tuple(line), nodes, len(line), seconds, exact, values, proven
        )

    # -- what a live display reads ----------------------------------------------------------

    def best_scored(self) -> tuple[Any, float, int] | None:
        """The move the search would play now, its value, and how many root moves it has tried."""
        chosen = self.choice()
        if chosen is None or self.root is None:
            return None
        return chosen.move, self.value_of(chosen)[0], len(self.root.children)

    def unhorizoned(self) -> bool:
        """Whether the root's value is proven."""
        return self.root is not None and self.root.low == self.root.high


def _drawn(outcomes: Sequence[tuple[float, Any]], pick: float) -> Any:
    """The outcome a uniform `pick` in [0, 1) falls on, the outcomes laid end to end by
    probability."""
    for probability, outcome in outcomes:
        pick -= probability
        if pick < 0:
            return outcome
    return outcomes[-1][1]
