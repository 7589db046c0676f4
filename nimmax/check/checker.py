"""The playouts `nimmax check` walks, and each law's test of one position."""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import Any

from nimmax.check.solver import MAX_PLIES, Solver
from nimmax.game import (
    CHANCE,
    AnyGame,
    Capability,
    IllegalMove,
    evaluator,
    has_chance,
    ordered,
    outcomes,
    part,
)

SAMPLE = 4
"""Moves tried at each position beside the one played: bounded work on a 26x26 board."""

POSITION_EVERY, POSITION_READS = 16, 40
"""The position law reads one position in POSITION_EVERY, at most POSITION_READS in all:
reading one builds a whole game, the law's costliest step on a big board."""


class Checker:
    """The playouts and the per-position test of each law."""

    def __init__(
        self, game: AnyGame, rng: random.Random, position: Callable[[str], Any] | None
    ) -> None:
        self.game, self.rng, self.position = game, rng, position
        self.seen_moves: list[Any] = []
        self.keys: dict[Any, tuple[Any, tuple[str, ...]]] = {}
        self.positions_seen = 0
        self.count = 0
        """Positions the playouts reached."""
        self.crash: tuple[str, tuple[str, ...], str] | None = None
        self.mutates = False
        """Whether result() was caught changing its input: from then on every law and the
        playout work on copies, so that law alone fails."""
        self._moves: tuple[Any, Sequence[Any]] | None = None
        self.pending: list[tuple[tuple[str, ...], Any, Any, tuple[str, ...]]] = []
        self.solver = Solver(game)
        self.laws: dict[str, Callable[[list[str], Any, Any], str | None]] = {
            "unchanged": self.unchanged,
            "rebuilt": self.rebuilt,
            "to-move": self.to_move,
            "actions": self.actions,
            "legal": self.legal,
            "chance": self.chance,
            "zero-sum": self.zero_sum,
            "notation": self.notation,
            "position": self.same_position,
            "search-actions": self.search_actions,
            "evaluate": self.evaluate,
            "key": self.key,
        }

    def playout(self) -> Iterator[tuple[list[str], Any, Any]]:
        """Each position of one random playout: the moves to it, the state, and the same state
        built again by a second game of the same moves. Where the game's own code raises on
        the way, the playout ends there and `crash` keeps the law that broke."""
        game = self.game
        path: list[str] = []
        try:
            state, twin = game.initial_state(), game.initial_state()
        # the game's own code raised (or exited): that breaks the law too
        except (Exception, SystemExit) as error:
            self.crash = ("rebuilt", (), f"initial_state raised {type(error).__name__}: {error}")
            return
        for _ in range(MAX_PLIES + 1):
            yield path, state, twin
            law = "actions"
            try:
                if game.is_terminal(state):
                    return
                move = self.draw(state)
                if move is None:
                    return
                law = "legal"
                if self.mutates:
                    state, twin = copy.deepcopy(state), copy.deepcopy(twin)
                state, twin = game.result(state, move), game.result(twin, move)
                law = "notation"
                path = [*path, str(game.format_move(move))]
            # the game's own code raised (or exited): that breaks the law too
            except (Exception, SystemExit) as error:
                self.crash = (law, tuple(path), f"{type(error).__name__}: {error}")
                return

    def moves(self, state: Any) -> Sequence[Any]:
        """The state's actions, asked of the game once per position (each law needs them)."""
        if self._moves is None or self._moves[0] is not state:
            self._moves = (state, self.game.actions(state))
        return self._moves[1]

    def made(self, state: Any, move: Any) -> Any:
        """The state after a move, made on a copy once the game is known to change its input."""
        return self.game.result(copy.deepcopy(state) if self.mutates else state, move)

    def draw(self, state: Any) -> Any:
        """A random move (chance outcomes by their probabilities); None when there is none."""
        game = self.game
        if game.to_move(state) == CHANCE:
            drawn = outcomes(game, state)
            return self.rng.choices([outcome for _, outcome in drawn], [p for p, _ in drawn])[0]
        moves = self.moves(state)
        if len(moves) == 0:
            return None
        move = moves[self.rng.randrange(len(moves))]
        if len(self.seen_moves) < 64 and move not in self.seen_moves:
            self.seen_moves.append(move)
        return move

    def sample(self, state: Any) -> list[Any]:
        """A few of the position's moves (or chance outcomes): the first ones and random ones."""
        game = self.game
        if game.to_move(state) == CHANCE:
            return [outcome for _, outcome in islice(outcomes(game, state), SAMPLE)]
        moves = self.moves(state)
        count = len(moves)
        picks = (
            {0, count - 1, *(self.rng.randrange(count) for _ in range(SAMPLE - 2))}
            if count
            else set()
        )
        return [moves[index] for index in sorted(picks)]

    def unchanged(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        before = copy.deepcopy(state)
        for move in self.sample(state):
            # the playout goes on from `state`: a probe takes the damage
            probe = copy.deepcopy(state)
            self.game.result(probe, move)
            if probe != before:
                self.mutates = True
                return f"result(state, {self.game.format_move(move)}) changed the state"
        return None

    def rebuilt(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        if state != rebuilt:
            return "the same moves built two states that compare unequal"
        if hash(state) != hash(rebuilt):
            return "two equal states hash differently"
        return None

    def to_move(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        mover = self.game.to_move(state)
        if mover == CHANCE and has_chance(self.game):
            return None
        if not isinstance(mover, int) or not 0 <= mover < self.game.players:
            return f"to_move is {mover!r}, not a seat 0..{self.game.players - 1}" + (
                " or CHANCE" if has_chance(self.game) else " (the game declares no chance)"
            )
        return None

    def actions(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        game = self.game
        if game.is_terminal(state):
            return None if len(self.moves(state)) == 0 else "a terminal state has actions"
        if game.to_move(state) == CHANCE:
            return None if len(outcomes(game, state)) else "a chance node has no outcomes"
        return None if len(self.moves(state)) else "a state that is not terminal has no actions"

    def legal(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        game = self.game
        if not game.is_terminal(state):
            for move in self.sample(state):
                self.made(state, move)
        if game.to_move(state) == CHANCE and not game.is_terminal(state):
            return None
        legal = self.moves(state)
        for move in self.seen_moves[-8:]:
            if move in legal:
                continue
            try:
                self.made(state, move)
            except IllegalMove:
                continue
            return f"{game.format_move(move)} is not among the actions but result() accepted it"
        return None

    def chance(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        game = self.game
        if game.is_terminal(state) or game.to_move(state) != CHANCE:
            return None
        probabilities = [probability for probability, _ in outcomes(game, state)]
        if any(not probability > 0 for probability in probabilities):
            return f"a chance probability is not positive: {min(probabilities)}"
        if not math.isclose(math.fsum(probabilities), 1.0, abs_tol=1e-9):
            return f"chance probabilities sum to {math.fsum(probabilities)}, not 1"
        return None

    def zero_sum(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        game = self.game
        if not game.is_terminal(state):
            return None
        payoffs = [game.utility(state, seat) for seat in range(game.players)]
        if not all(
            isinstance(payoff, (int, float)) and math.isfinite(payoff) for payoff in payoffs
        ):
            return f"utilities {payoffs} are not finite numbers"
        if game.players == 2 and payoffs[0] + payoffs[1] != 0:
            return f"utilities {payoffs[0]} and {payoffs[1]} do not sum to zero"
        return None

    def notation(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        game = self.game
        if game.is_terminal(state) or game.to_move(state) == CHANCE:
            return None
        for move in self.sample(state):
            text = game.format_move(move)
            if game.parse_move(text, state) != move:
                return f"parse_move({text!r}) is not the move formatted as {text!r}"
        return None

    def same_position(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        game = self.game
        self.positions_seen += 1
        if (
            self.position is None
            or game.to_move(state) == CHANCE
            or self.positions_seen % POSITION_EVERY != 1
            or self.positions_seen > POSITION_EVERY * POSITION_READS
        ):
            return None
        text = game.format_position(state)
        read = self.position(text)
        if game.format_position(read) != text:
            return f"the position read from {text!r} is written {game.format_position(read)!r}"
        if game.to_move(read) != game.to_move(state) or game.is_terminal(read) != game.is_terminal(
            state
        ):
            return f"the position read from {text!r} has another side to move, or another end"
        if not game.is_terminal(state) and list(game.actions(read)) != list(self.moves(state)):
            return f"the position read from {text!r} has other moves"
        return None

    def search_actions(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        game = self.game
        if game.is_terminal(state) or game.to_move(state) == CHANCE:
            return None
        legal = self.moves(state)
        for move in islice(ordered(game)(state), 64):
            if move not in legal:
                return f"search_actions has {game.format_move(move)}, which is not legal"
        return None

    def evaluate(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        estimate_of = evaluator(self.game)
        for seat in range(self.game.players):
            estimate = estimate_of(state, seat)
            if not isinstance(estimate, (int, float)) or not math.isfinite(estimate):
                return f"evaluate(state, {seat}) is {estimate!r}"
        return None

    def key(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        """Remember a position whose key an earlier, different state has: `settle` values the
        pair."""
        first = self.keys.setdefault(self.keyed(state)[0], (state, tuple(path)))
        if first[0] != state:
            self.pending.append((tuple(path), state, *first))
        return None

    def keyed(self, state: Any) -> tuple[Any, float]:
        """The key the law groups states by and the offset it adds back (OFFSET_KEY's `keyed`), else
        `key` and 0."""
        if (own := part(self.game, Capability.OFFSET_KEY)) is not None:
            return own.keyed(state)
        return self.game.key(state), 0.0

    def alike(self, state: Any, mine: float, other: Any, theirs: float) -> bool:
        """Whether two states of one key have equal values less their offsets, at equal distances
        (where not drawn)."""
        (payoff, plies), (their_payoff, their_plies) = (
            self.solver.split(mine),
            self.solver.split(theirs),
        )
        offset, their_offset = self.keyed(state)[1], self.keyed(other)[1]
        if payoff - offset != their_payoff - their_offset:
            return False
        return plies == their_plies or not payoff or not their_payoff

    def settle(self) -> Iterator[tuple[tuple[str, ...], str]]:
        """The pairs of one playout that share a key but differ in value, valued from the end of
        the playout back (small positions first), and no further back than the solver reaches."""
        self.solver.copies = self.mutates
        for path, state, other, other_path in reversed(self.pending):
            try:
                mine, theirs = self.solver.value(state), self.solver.value(other)
            # the game's own code raised (or exited): that breaks the law
            except (Exception, SystemExit) as error:
                yield (
                    path,
                    f"valuing positions with equal keys raised {type(error).__name__}: {error}",
                )
                break
            if mine is None:
                break
            if theirs is not None and not self.alike(state, mine, other, theirs):
                where = " ".join(other_path) or "no moves"
                yield (
                    path,
                    (
                        f"the position after {where} has the same key, but it is worth "
                        f"{self.solver.describe(theirs)} and this one {self.solver.describe(mine)}"
                    ),
                )
        self.pending.clear()
