"""A one-player game with chance, played as a two-player game against chance as an adversary.

This is the model of the classic minimax 2048 player: seat 1 picks the outcome that is worst
for the player. Engines that cannot average chance (minimax, negamax, alpha-beta) search a
one-player chance game through this adapter, so no shared helper needs a special case for it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from nimmax.game import CHANCE, A, Capability, Game, S, evaluator, ordered, part

ADVERSARY = 1
"""The seat chance takes in the adapted game."""


class ChanceAsAdversary(Game[S, A]):
    """`game` with its chance nodes turned into moves of an adversary who minimises seat 0's
    payoff."""

    players = 2
    has_chance = False

    def __init__(self, game: Game[S, A]) -> None:
        chancy = part(game, Capability.CHANCE)
        if game.players != 1 or chancy is None:
            raise ValueError(f"{game.name} is not a one-player game with chance")
        self.game = game
        self.outcomes, self.ordered, self.estimate = (
            chancy.chance_outcomes,
            ordered(game),
            evaluator(game),
        )
        self.capabilities = frozenset({Capability.SEARCH_ORDER, Capability.EVALUATION})
        self.name = game.name
        self.player_names = (*game.player_names[:1], "chance")

    @property
    def spec(self) -> str:
        return self.game.spec

    def initial_state(self) -> S:
        return self.game.initial_state()

    def to_move(self, state: S) -> int:
        mover = self.game.to_move(state)
        return ADVERSARY if mover == CHANCE else mover

    def actions(self, state: S) -> Sequence[A]:
        if self.game.to_move(state) == CHANCE:
            return [outcome for _, outcome in self.outcomes(state)]
        return self.game.actions(state)

    def search_actions(self, state: S) -> Sequence[A]:
        if self.game.to_move(state) == CHANCE:
            return self.actions(state)
        return self.ordered(state)

    def result(self, state: S, action: A) -> S:
        return self.game.result(state, action)

    def is_terminal(self, state: S) -> bool:
        return self.game.is_terminal(state)

    def utility(self, state: S, player: int) -> float:
        payoff = self.game.utility(state, 0)
        return payoff if player == 0 else -payoff

    def evaluate(self, state: S, player: int) -> float:
        estimate = self.estimate(state, 0)
        return estimate if player == 0 else -estimate

    def key(self, state: S) -> Hashable:
        return self.game.key(state)

    def format_move(self, action: A) -> str:
        return self.game.format_move(action)

    def format_position(self, state: S) -> str:
        return self.game.format_position(state)
