"""The event before it is played: the game and entrants checked, their names, and the blocks of
games.

Each pairing's games are cut into at most `BLOCKS` blocks of consecutive games (`MIN_BLOCK` games at
least), each played by fresh players. A block is also the unit of parallel work, so the number of
processes changes how fast the games are played, never which games. With `openings`, games 2j and 2j
+ 1 of every pairing (colours swapped) start from opening j: that many random plies drawn from the
event's seed, so deterministic engines play varied games.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from nimmax import games as registry
from nimmax.game import CHANCE, AnyGame, BadGameSpec, BadInput, Game, narrower, ordered, outcomes
from nimmax.numbers import MAX_GAMES, MAX_OPENING
from nimmax.players import BadPlayerSpec, Spec, check_fit, create
from nimmax.plugins.guard import words_of

BLOCKS = 16
"""Blocks per pairing at most: a fresh search starts cold, so few long blocks play fastest,
while enough blocks keep every process of a pool busy to the end."""

MIN_BLOCK = 10
"""Games per block at least."""

DEFAULT_GAME = "tictactoe"
"""The duel's default game words: 3x3 tic-tac-toe."""


def labels(specs: Sequence[str]) -> tuple[str, ...]:
    """Names for the entrants: their specs, numbered `spec#1`, `spec#2` when a spec repeats."""
    repeated = Counter(specs)
    seen: Counter[str] = Counter()
    named = []
    for spec in specs:
        seen[spec] += 1
        named.append(f"{spec}#{seen[spec]}" if repeated[spec] > 1 else spec)
    return tuple(named)


@lru_cache(maxsize=8)
def _labels(specs: tuple[Spec, ...]) -> tuple[str, ...]:
    """`labels` of the specs' text, kept for the few events of a process: reports read the names
    once a pairing."""
    return labels([str(spec) for spec in specs])


@dataclass(frozen=True, slots=True)
class Plan:
    """What to play: the game, the entrants, games per pairing, the seed, who meets whom."""

    game: AnyGame
    specs: tuple[Spec, ...]
    games: int
    seed: int
    pairings: tuple[tuple[int, int], ...]
    openings: int = 0
    """Random plies each game starts with, the same for the two games of a colour-swapped pair."""

    def opening(self, index: int) -> tuple[Any, ...]:
        """The moves game `index` of every pairing starts with (chance outcomes included)."""
        return opening(self.game, self.seed, index // 2, self.openings)

    @property
    def names(self) -> tuple[str, ...]:
        """The entrants' names in reports (specs, numbered when one repeats)."""
        return _labels(self.specs)

    @property
    def total(self) -> int:
        """Games in the whole event."""
        return self.games * len(self.pairings)

    @property
    def block_size(self) -> int:
        """Games per block (the last block of a pairing may be shorter)."""
        return max(MIN_BLOCK, -(-self.games // BLOCKS))

    @property
    def block_count(self) -> int:
        """How many blocks `blocks()` yields."""
        return -(-self.games // self.block_size) * len(self.pairings)

    def blocks(self) -> Iterator[Block]:
        """The event cut into blocks of consecutive games, pairing by pairing."""
        size = self.block_size
        for number, (first, second) in enumerate(self.pairings):
            for start in range(0, self.games, size):
                yield Block(
                    self.game,
                    (self.specs[first], self.specs[second]),
                    number,
                    start,
                    min(size, self.games - start),
                    self.seed,
                    self.openings,
                )


def opening(game: AnyGame, seed: int, number: int, plies: int) -> tuple[Any, ...]:
    """Opening `number` of an event: `plies` moves drawn at random from (seed, number), each
    among the moves a limited search would try (`heuristic_actions`, else `search_actions`, so
    an opening never hangs a win in one), chance outcomes by their probabilities; it ends
    early where the game does."""
    rng = random.Random(f"{seed}:opening:{number}")  # a string seed hashes alike in every process
    state, moves = game.initial_state(), []
    for _ in range(plies):
        if game.is_terminal(state):
            break
        if game.to_move(state) == CHANCE:
            drawn = outcomes(game, state)
            move = rng.choices([outcome for _, outcome in drawn], [chance for chance, _ in drawn])[
                0
            ]
        else:
            choices = narrower(game)(state)
            move = rng.choice(list(choices if choices is not None else ordered(game)(state)))
        moves.append(move)
        state = game.result(state, move)
    return tuple(moves)


def plan(
    game: str | AnyGame,
    specs: Sequence[Spec],
    games: int,
    seed: int | None = None,
    openings: int = 0,
) -> Plan:
    """Check the game (words or a Game), player specs and game count; a duel is a round robin of
    two.

    Raises BadInput (BadGameSpec, BadPlayerSpec) with a message for the user. Without a seed one is
    drawn, and reported, so any event can be replayed.
    """
    if not 1 <= games <= MAX_GAMES:
        raise BadInput(f"--games must be a whole number from 1 to {MAX_GAMES}, not {games}")
    if len(specs) < 2:
        raise BadInput("name at least two players")
    if not 0 <= openings <= MAX_OPENING:
        raise BadInput(f"--openings must be a whole number from 0 to {MAX_OPENING}, not {openings}")
    game = registry.create(game) if isinstance(game, str) else game
    if game.players not in (1, 2):
        raise BadGameSpec(
            f"{game.name} has {game.players} players; duels take one- or two-player games"
        )
    for spec in specs:
        if spec.kind == "human":
            raise BadPlayerSpec("a duel is played by machines: human is not a duel player")
        if spec.is_plugin:
            create(spec)  # a plugin that cannot be built says so now, not in a worker
        check_fit(spec, game)
    chosen = seed if seed is not None else random.SystemRandom().randrange(2**31)
    return Plan(
        game,
        tuple(specs),
        games,
        chosen,
        tuple(itertools.combinations(range(len(specs)), 2)),
        openings,
    )


@dataclass(frozen=True, slots=True)
class Block:
    """Games `start`..`start + count - 1` of one pairing: one process plays them in a row."""

    game: AnyGame
    specs: tuple[Spec, Spec]
    pairing: int
    start: int
    count: int
    seed: int
    openings: int = 0

    def opening(self, index: int) -> tuple[Any, ...]:
        """The moves game `index` starts with (see `Plan.opening`)."""
        return opening(self.game, self.seed, index // 2, self.openings)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled for a worker with a plugin game as its words: the worker loads the plugin itself
        (its class lives in a module only the loading process has), a built-in game as it is."""
        game: AnyGame | tuple[str, ...] = words_of(self.game) or self.game
        return (
            _block,
            (game, self.specs, self.pairing, self.start, self.count, self.seed, self.openings),
        )


def _block(
    game: AnyGame | Sequence[str],
    specs: tuple[Spec, Spec],
    pairing: int,
    start: int,
    count: int,
    seed: int,
    openings: int = 0,
) -> Block:
    """A block unpickled: its game rebuilt from words where it was sent so."""
    built = game if isinstance(game, Game) else registry.create(list(game))
    return Block(built, specs, pairing, start, count, seed, openings)
