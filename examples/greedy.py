"""A player plugin: takes a move that wins at once, else one that does not let the opponent
win at once, else the first legal move. Options come from the spec as keywords.

    nimmax duel examples/greedy.py:Greedy random --game tictactoe --games 20
    nimmax play tictactoe --second examples/greedy.py:Greedy:seed=3
"""

import random
from collections.abc import Hashable
from typing import TypeVar

from nimmax import Game

State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move", bound=Hashable)


class Greedy:
    """One ply of look-ahead and a random choice among the rest."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game[State, Move], state: State) -> Move:
        me = game.to_move(state)
        moves = list(game.actions(state))
        safe = []
        for move in moves:
            after = game.result(state, move)
            if game.is_terminal(after) and game.utility(after, me) > 0:
                return move
            if not any(self.wins_at_once(game, after, reply) for reply in game.actions(after)):
                safe.append(move)
        return self.rng.choice(safe or moves)

    @staticmethod
    def wins_at_once(game: Game[State, Move], state: State, move: Move) -> bool:
        mover = game.to_move(state)
        after = game.result(state, move)
        return game.is_terminal(after) and game.utility(after, mover) > 0
