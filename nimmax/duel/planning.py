"""The event before it is played: the game and entrants checked, their names, and the blocks of games.

Each pairing's games are cut into at most `BLOCKS` blocks of consecutive games (`MIN_BLOCK`
games at least), each played by fresh players. A block is also the unit of parallel work,
so the number of processes changes how fast the games are played, never which games.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from nimmax import games as registry
from nimmax.game import AnyGame, BadGameSpec, BadInput
from nimmax.players import BadPlayerSpec, check_fit, create, is_plugin, parse_spec

BLOCKS = 16
"""Blocks per pairing at most: a fresh search starts cold, so few long blocks play fastest,
while enough blocks keep every process of a pool busy to the end."""

MIN_BLOCK = 10
"""Games per block at least."""

MAX_GAMES = 10**6
"""Games per pairing at most: a million games measure any difference worth measuring."""

MAX_JOBS = 64
"""Processes at most: more than a pairing has blocks, or the machine cores, only wait."""

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


@dataclass(frozen=True, slots=True)
class Plan:
    """What to play: the game, the entrants, games per pairing, the seed, who meets whom."""

    game: AnyGame
    specs: tuple[str, ...]
    games: int
    seed: int
    pairings: tuple[tuple[int, int], ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The entrants' names in reports (specs, numbered when one repeats)."""
        return labels(self.specs)

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
                )


def plan(game: str | AnyGame, specs: Sequence[str], games: int, seed: int | None = None) -> Plan:
    """Check the game (words or a Game), player specs and game count; a duel is a round robin of two.

    Raises BadInput (BadGameSpec, BadPlayerSpec) with a message for the user. Without a
    seed one is drawn, and reported, so any event can be replayed.
    """
    if not 1 <= games <= MAX_GAMES:
        raise BadInput(f"--games must be a whole number from 1 to {MAX_GAMES}, not {games}")
    if len(specs) < 2:
        raise BadInput("name at least two players")
    game = registry.create(game) if isinstance(game, str) else game
    if game.players not in (1, 2):
        raise BadGameSpec(f"{game.name} has {game.players} players; duels take one- or two-player games")
    parsed = [spec if is_plugin(spec) else parse_spec(spec) for spec in specs]
    for spec in parsed:
        if not isinstance(spec, str) and spec.kind == "human":
            raise BadPlayerSpec("a duel is played by machines: human is not a duel player")
        if isinstance(spec, str):
            create(spec)  # a plugin that cannot be built says so now, not in a worker
        check_fit(spec, game)
    chosen = seed if seed is not None else random.SystemRandom().randrange(2**31)
    return Plan(
        game, tuple(str(spec) for spec in parsed), games, chosen, tuple(itertools.combinations(range(len(specs)), 2))
    )


@dataclass(frozen=True, slots=True)
class Block:
    """Games `start`..`start + count - 1` of one pairing: one process plays them in a row."""

    game: AnyGame
    specs: tuple[str, str]
    pairing: int
    start: int
    count: int
    seed: int
