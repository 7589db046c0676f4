"""Playing a block of games: seeding each game, the players' moves and their tallies, one result per
game.

Every game draws its random moves and chance outcomes from generators seeded by (seed, pairing, game
number), after the opening plies the block gives it (`Block.opening`). Search players keep their
tables across the moves and games of a block (bounded by each player's `table=N` cap) and start
afresh with the next block. (A time-limited player's moves depend on the clock, so only duels of
players without `time=` repeat exactly.)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from nimmax.duel.planning import Block
from nimmax.duel.stats import mean
from nimmax.game import CHANCE, AnyGame, winner_of
from nimmax.match import Ply, plies
from nimmax.player import Player
from nimmax.players import RandomPlayer, SearchPlayer, Spec, create


@dataclass(frozen=True, slots=True)
class Moves:
    """One entrant's moves: how many, their seconds in all and at worst, the nodes searched.

    The one tally of a game and of a pairing: a pairing's is the sum of its games'.
    """

    count: int = 0
    seconds: float = 0.0
    max_seconds: float = 0.0
    nodes: int = 0

    @classmethod
    def of(cls, plies: Sequence[Ply]) -> Moves:
        """The tally of one entrant's plies in one game."""
        seconds = [ply.seconds for ply in plies]
        nodes = sum(ply.search.nodes for ply in plies if ply.search is not None)
        return cls(len(plies), sum(seconds), max(seconds, default=0.0), nodes)

    def __add__(self, other: Moves) -> Moves:
        """Both tallies together."""
        return Moves(
            self.count + other.count,
            self.seconds + other.seconds,
            max(self.max_seconds, other.max_seconds),
            self.nodes + other.nodes,
        )

    @property
    def mean_seconds(self) -> float:
        """Seconds per move."""
        return mean(self.seconds, self.count)

    @property
    def nodes_per_move(self) -> float:
        """Nodes searched per move."""
        return mean(self.nodes, self.count)


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game as the pairing's two entrants (0 and 1) saw it.

    In a one-player game both entrants play the same deal (the same chance outcomes), one
    after the other; `winner` is the one who scored more and `goals` says who won by the game's
    own rule (`Game.winner`: 2048 is won by making the goal tile).
    """

    index: int
    first: int
    winner: int | None
    scores: tuple[float, float]
    goals: tuple[bool, bool]
    moves: tuple[Moves, Moves]


def _generator(seed: int, pairing: int, index: int, stream: str) -> random.Random:
    """A generator for one purpose in one game; string seeds hash the same in every process."""
    return random.Random(f"{seed}:{pairing}:{index}:{stream}")


def _reseed(player: Player, spec: Spec, seed: int, pairing: int, index: int, stream: str) -> Player:
    """The player of `spec` for this game: a random player with this game's generator
    (`random:seed=N` replaces the event's seed); a plugin built afresh with a seed of this game's,
    so its games do not depend on how they are split among workers; an engine that draws at
    random (mcts) given a seed of the block's first game unless its spec sets one (it keeps its
    tree across the block); others as they are."""
    if isinstance(player, RandomPlayer):
        own = spec.settings.seed
        player.rng = _generator(own if own is not None else seed, pairing, index, stream)
    elif spec.is_plugin:
        return create(spec, _generator(seed, pairing, index, stream).getrandbits(63))
    elif isinstance(player, SearchPlayer) and "seed" not in player.parsed.named and _draws(player):
        reseeded = SearchPlayer(
            spec.seeded(_generator(seed, pairing, index, stream).getrandbits(63))
        )
        reseeded.spec = player.spec  # the entrant keeps its name in the tallies
        return reseeded
    return player


def _draws(player: SearchPlayer) -> bool:
    """Whether the player's engine draws at random (takes a seed)."""
    return any(option.name == "seed" for option in player.engine.options)


def _play(
    game: AnyGame,
    seats: Sequence[Player],
    entrants: Sequence[int],
    rng: random.Random,
    stop: Callable[[], bool],
    opening: Sequence[Any] = (),
) -> tuple[Any, list[Moves]] | None:
    """Play one game from its opening's moves to its end; `entrants[seat]` says whose moves a
    seat's are. None if stopped."""
    state = game.initial_state()
    for move in opening:
        state = game.result(state, move)
    made: tuple[list[Ply], list[Ply]] = ([], [])
    for ply in plies(game, seats, state, rng):
        if stop():
            return None
        state = ply.after
        if ply.seat != CHANCE:
            made[entrants[ply.seat]].append(ply)
    return state, [Moves.of(made[0]), Moves.of(made[1])]


def _two_player_game(
    game: AnyGame, players: Sequence[Player], block: Block, index: int, stop: Callable[[], bool]
) -> GameResult | None:
    """Game `index` of a block between two players, the first mover alternating game by game."""
    first = index % 2
    seat_of = (first, 1 - first)  # entrant -> seat; the same map takes a seat to its entrant
    chance = _generator(block.seed, block.pairing, index, "chance")
    played = _play(
        game,
        [players[seat_of[0]], players[seat_of[1]]],
        seat_of,
        chance,
        stop,
        block.opening(index),
    )
    if played is None:
        return None
    final, tally = played
    scores = (game.utility(final, seat_of[0]), game.utility(final, seat_of[1]))
    winner_seat = winner_of(game, final)
    winner = None if winner_seat is None else seat_of[winner_seat]
    return GameResult(index, first, winner, scores, (False, False), (tally[0], tally[1]))


def _one_player_game(
    game: AnyGame, players: Sequence[Player], block: Block, index: int, stop: Callable[[], bool]
) -> GameResult | None:
    """Game `index` of a block in a one-player game: each player plays the same deal in turn."""
    finals, tally = [], [Moves(), Moves()]
    for entrant, player in enumerate(players):
        deal = _generator(block.seed, block.pairing, index, "chance")  # the same deal for both
        played = _play(game, [player], [entrant], deal, stop, block.opening(index))
        if played is None:
            return None
        finals.append(played[0])
        tally[entrant] = played[1][entrant]
    scores = (game.utility(finals[0], 0), game.utility(finals[1], 0))
    winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
    goals = (winner_of(game, finals[0]) == 0, winner_of(game, finals[1]) == 0)
    return GameResult(index, 0, winner, scores, goals, (tally[0], tally[1]))


def block_games(block: Block, stop: Callable[[], bool] = lambda: False) -> Iterator[GameResult]:
    """Play a block's games with fresh players, yielding each result; stops early when `stop()`."""
    players = [create(spec) for spec in block.specs]
    play_game = _two_player_game if block.game.players == 2 else _one_player_game
    for index in range(block.start, block.start + block.count):
        if stop():
            return
        players = [
            _reseed(player, spec, block.seed, block.pairing, index, f"player{entrant}")
            for entrant, (player, spec) in enumerate(zip(players, block.specs, strict=True))
        ]
        result = play_game(block.game, players, block, index, stop)
        if result is None:
            return
        yield result
