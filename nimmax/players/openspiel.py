"""OpenSpiel's own bots as nimmax players (`openspiel-mcts`, `openspiel-ab`), on any nimmax game.

A bot drives pyspiel-shaped states: an OpenSpiel game's own pyspiel state (cloned, never the
position's), or for any other game a `SpielState`, a mutable view of an immutable nimmax state
whose actions are the indices of the game's moves. So one bot plays OpenSpiel's games at
OpenSpiel's speed and nimmax's games through the protocol, with no game registered in pyspiel.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType, SimpleNamespace
from typing import Any

from nimmax.game import CHANCE, AnyGame, Capability, evaluator, has_chance, outcomes, part
from nimmax.games.openspiel import OpenSpielGame, pyspiel
from nimmax.numbers import Value
from nimmax.player import Decision
from nimmax.plugins.guard import unguarded

TERMINAL = -4
"""pyspiel's player id at the end of a game."""


class SpielView:
    """A nimmax game shaped as the pyspiel game a bot asks about (its type, players and payoff
    range)."""

    def __init__(self, game: AnyGame) -> None:
        spiel = pyspiel().GameType
        self.game = game
        self.kind = SimpleNamespace(
            reward_model=spiel.RewardModel.TERMINAL,
            dynamics=spiel.Dynamics.SEQUENTIAL,
            short_name=game.name,
        )
        own = part(game, Capability.BOUNDS)
        bounds = own.utility_bounds(game.initial_state()) if own is not None else None
        self.low, self.high = bounds if bounds is not None else (-1.0, 1.0)

    def get_type(self) -> Any:
        return self.kind

    def num_players(self) -> int:
        return self.game.players

    def max_utility(self) -> float:
        return self.high

    def min_utility(self) -> float:
        return self.low


class SpielState:
    """A nimmax state as a mutable pyspiel state: `apply_action` moves it to the next immutable
    state."""

    def __init__(self, game: AnyGame, state: Any) -> None:
        self.game, self.state = game, state
        self._moves: list[Any] | None = None

    def moves(self) -> list[Any]:
        """The moves here, in the game's order (a bot's action is an index into them)."""
        if self._moves is None:
            if self.is_chance_node():
                self._moves = [outcome for _, outcome in outcomes(self.game, self.state)]
            else:
                self._moves = list(self.game.actions(self.state))
        return self._moves

    def current_player(self) -> int:
        return TERMINAL if self.game.is_terminal(self.state) else self.game.to_move(self.state)

    def is_terminal(self) -> bool:
        return self.game.is_terminal(self.state)

    def is_chance_node(self) -> bool:
        return not self.game.is_terminal(self.state) and self.game.to_move(self.state) == CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        return list(range(len(self.moves())))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [
            (index, chance) for index, (chance, _) in enumerate(outcomes(self.game, self.state))
        ]

    def apply_action(self, action: int) -> None:
        self.state, self._moves = self.game.result(self.state, self.moves()[action]), None

    def clone(self) -> SpielState:
        return SpielState(self.game, self.state)

    def returns(self) -> list[float]:
        return [float(self.game.utility(self.state, seat)) for seat in range(self.game.players)]

    def player_return(self, player: int) -> float:
        return float(self.game.utility(self.state, player))

    def action_to_string(self, player: int, action: int) -> str:
        return self.game.format_move(self.moves()[action])


def _shaped(game: AnyGame, state: Any) -> tuple[Any, Any]:
    """The pyspiel game and state a bot searches for `state` of `game`."""
    own = unguarded(game)
    if isinstance(own, OpenSpielGame):
        return own.spiel_game, state.spiel.clone()
    return SpielView(game), SpielState(game, state)


def _move(game: AnyGame, state: Any, action: int) -> Any:
    """The nimmax move a bot's action names."""
    if isinstance(unguarded(game), OpenSpielGame):
        return next(move for move in game.actions(state) if move.action == action)
    return list(game.actions(state))[action]


def _number(options: Mapping[str, Value], name: str, default: int | float) -> Any:
    """An option's number, else its default."""
    value = options.get(name)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else default


class MCTSBotPlayer:
    """OpenSpiel's MCTSBot (UCT with random rollouts, solving proven nodes), `simulations` a
    move."""

    def __init__(self, spec: str, options: Mapping[str, Value]) -> None:
        import numpy

        self.spec = spec
        self.simulations = _number(options, "simulations", 1000)
        self.c = float(_number(options, "uct", 2.0))
        seed = options.get("seed")
        self.random = numpy.random.RandomState(int(seed) if isinstance(seed, int) else None)

    def choose(self, game: AnyGame, state: Any) -> Decision:
        from open_spiel.python.algorithms import mcts

        spiel_game, spiel_state = _shaped(game, state)
        evaluator = mcts.RandomRolloutEvaluator(1, self.random)
        bot = mcts.MCTSBot(
            spiel_game, self.c, self.simulations, evaluator, solve=True, random_state=self.random
        )
        return Decision(_move(game, state, bot.step(spiel_state)))


class AlphaBetaBotPlayer:
    """OpenSpiel's alpha-beta (expectiminimax where the game has chance) to `depth` plies, a
    position past it valued by the game's `evaluate` where it has one, else as even."""

    def __init__(self, spec: str, options: Mapping[str, Value]) -> None:
        self.spec = spec
        self.depth = int(_number(options, "depth", 4))

    def choose(self, game: AnyGame, state: Any) -> Decision:
        from open_spiel.python.algorithms import minimax

        _, spiel_state = _shaped(game, state)
        seat = game.to_move(state)
        own = unguarded(game)
        estimate = evaluator(game)
        if Capability.EVALUATION in game.capabilities and not isinstance(own, OpenSpielGame):

            def value(shaped: Any) -> float:
                return float(estimate(shaped.state, seat))
        else:

            def value(shaped: Any) -> float:
                return 0.0

        if has_chance(game):
            _, action = minimax.expectiminimax(spiel_state, self.depth, value, seat)
        else:
            _, action = minimax._alpha_beta(
                spiel_state, self.depth, -float("inf"), float("inf"), value, seat
            )  # noqa: SLF001 - the public entry refuses games it did not load
        return Decision(_move(game, state, action))


KINDS: Mapping[str, type[MCTSBotPlayer | AlphaBetaBotPlayer]] = MappingProxyType(
    {
        "openspiel-mcts": MCTSBotPlayer,
        "openspiel-ab": AlphaBetaBotPlayer,
    }
)


def create(
    kind: str, spec: str, options: Mapping[str, Value]
) -> MCTSBotPlayer | AlphaBetaBotPlayer:
    """The OpenSpiel bot a parsed spec names; BadGameSpec saying how to install OpenSpiel without
    it."""
    pyspiel()
    return KINDS[kind](spec, options)
