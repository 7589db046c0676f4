"""AI-vs-AI duels and round-robin tournaments at scale: seeded game by game, with statistics.

Every game draws its random moves and chance outcomes from generators seeded by
(seed, pairing, game number), and each pairing's games are cut into at most `BLOCKS` blocks
of consecutive games (`MIN_BLOCK` games at least), each played by fresh players. Search
players keep their tables across the moves and games of a block (bounded by each player's
`table=N` cap) and start afresh with the next block; a block is also the unit of parallel
work, so `jobs` changes how fast the games are played, never which games are played.
(A time-limited player's moves depend on the clock, so only duels of players without
`time=` repeat exactly.)
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import queue
import random
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from nimmax import games as registry
from nimmax.game import CHANCE, AnyGame, BadGameSpec, BadInput
from nimmax.match import plies
from nimmax.players import BadPlayerSpec, Player, RandomPlayer, create, parse_spec

BLOCKS = 16
"""Blocks per pairing at most: a fresh search starts cold, so few long blocks play fastest,
while enough blocks keep every process of a pool busy to the end."""

MIN_BLOCK = 10
"""Games per block at least."""

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""

DEFAULT_GAME = "tictactoe"
"""The duel's default game words: 3x3 tic-tac-toe."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: honest near 0 and 1, unlike the normal approximation."""
    if trials == 0:
        return (0.0, 1.0)
    share = successes / trials
    spread = z * z / trials
    centre = (share + spread / 2) / (1 + spread)
    half = z * math.sqrt(share * (1 - share) / trials + spread / (4 * trials)) / (1 + spread)
    # at 0 and at every trial the bound is exactly 0 or 1; rounding must not move it
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def elo_ratings(
    scores: Sequence[Sequence[float]], games: Sequence[Sequence[int]], prior: float = 1.0, mean: float = 1500.0
) -> list[float]:
    """Maximum-likelihood Elo ratings (Bradley-Terry) from a round robin, draws counting half.

    `scores[i][j]` is what i scored against j in `games[i][j]` games. Each player also gets
    `prior` virtual games scored half against an anchor of the mean rating, so a perfect or
    a zero score stays finite. Solved by the minorise-maximise iteration (Hunter 2004);
    ratings are shifted so that their average is `mean`.
    """
    count = len(scores)
    strength = [1.0] * count
    for _ in range(100_000):
        updated = []
        for i in range(count):
            won = prior / 2 + sum(scores[i][j] for j in range(count) if j != i)
            weight = prior / (strength[i] + 1) + sum(
                games[i][j] / (strength[i] + strength[j]) for j in range(count) if j != i
            )
            updated.append(won / weight if weight > 0 else 1.0)
        change = max(abs(math.log(new / old)) for new, old in zip(updated, strength, strict=True)) if count else 0
        strength = updated
        if change < 1e-12:
            break
    ratings = [400 * math.log10(value) for value in strength]
    shift = mean - sum(ratings) / count if count else 0.0
    return [rating + shift for rating in ratings]


def labels(specs: Sequence[str]) -> tuple[str, ...]:
    """Names for the entrants: their specs, numbered `spec#1`, `spec#2` when a spec repeats."""
    repeated = Counter(specs)
    seen: Counter[str] = Counter()
    named = []
    for spec in specs:
        seen[spec] += 1
        named.append(f"{spec}#{seen[spec]}" if repeated[spec] > 1 else spec)
    return tuple(named)


@dataclass(frozen=True)
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
    if games < 1:
        raise BadInput(f"--games must be at least 1, not {games}")
    if len(specs) < 2:
        raise BadInput("name at least two players")
    game = registry.create(game) if isinstance(game, str) else game
    if game.players not in (1, 2):
        raise BadGameSpec(f"{game.name} has {game.players} players; duels take one- or two-player games")
    parsed = [parse_spec(spec) for spec in specs]
    for spec in parsed:
        if spec.kind == "human":
            raise BadPlayerSpec("a duel is played by machines: human is not a duel player")
    chosen = seed if seed is not None else random.SystemRandom().randrange(2**31)
    return Plan(
        game, tuple(str(spec) for spec in parsed), games, chosen, tuple(itertools.combinations(range(len(specs)), 2))
    )


@dataclass(frozen=True)
class Block:
    """Games `start`..`start + count - 1` of one pairing: one process plays them in a row."""

    game: AnyGame
    specs: tuple[str, str]
    pairing: int
    start: int
    count: int
    seed: int


@dataclass(frozen=True)
class GameResult:
    """One finished game as the pairing's two entrants (0 and 1) saw it.

    In a one-player game both entrants play the same deal (the same chance outcomes), one
    after the other; `winner` is the one who scored more, `goals` says who won by the game's
    own rule (`Game.winner`: 2048 is won by making the goal tile) and `max_tiles` holds the
    largest tiles made, for games that name them (`max_tile(state)`).
    """

    index: int
    first: int
    winner: int | None
    scores: tuple[float, float]
    max_tiles: tuple[int | None, int | None]
    goals: tuple[bool, bool]
    moves: tuple[int, int]
    seconds: tuple[float, float]
    max_seconds: tuple[float, float]
    nodes: tuple[int, int]


def _generator(seed: int, pairing: int, index: int, stream: str) -> random.Random:
    """A generator for one purpose in one game; string seeds hash the same in every process."""
    return random.Random(f"{seed}:{pairing}:{index}:{stream}")


def _reseed(player: Player, seed: int, pairing: int, index: int, stream: str) -> None:
    """Give a random player this game's generator; `random:seed=N` replaces the event's seed."""
    if isinstance(player, RandomPlayer):
        own = parse_spec(player.spec).options.get("seed")
        player.rng = _generator(own if own is not None else seed, pairing, index, stream)


@dataclass
class _Moves:
    """One entrant's moves in one game."""

    moves: int = 0
    seconds: float = 0.0
    max_seconds: float = 0.0
    nodes: int = 0


def _play(
    game: AnyGame, seats: Sequence[Player], entrants: Sequence[int], rng: random.Random, stop: Callable[[], bool]
) -> tuple[Any, list[_Moves]] | None:
    """Play one game to its end; `entrants[seat]` says whose moves a seat's are. None if stopped."""
    state = game.initial_state()
    tally = [_Moves(), _Moves()]
    for ply in plies(game, seats, state, rng):
        if stop():
            return None
        state = ply.after
        if ply.seat == CHANCE:
            continue
        moves = tally[entrants[ply.seat]]
        moves.moves += 1
        moves.seconds += ply.seconds
        moves.max_seconds = max(moves.max_seconds, ply.seconds)
        moves.nodes += ply.search.nodes if ply.search is not None else 0
    return state, tally


def block_games(block: Block, stop: Callable[[], bool] = lambda: False) -> Iterator[GameResult]:
    """Play a block's games with fresh players, yielding each result; stops early when `stop()`."""
    game = block.game
    players = [create(spec) for spec in block.specs]
    max_tile: Callable[[Any], int] | None = getattr(game, "max_tile", None)
    for index in range(block.start, block.start + block.count):
        if stop():
            return
        for entrant, player in enumerate(players):
            _reseed(player, block.seed, block.pairing, index, f"player{entrant}")
        if game.players == 2:
            first = index % 2  # the first mover alternates game by game
            seats = [players[first], players[1 - first]]
            played = _play(
                game, seats, [first, 1 - first], _generator(block.seed, block.pairing, index, "chance"), stop
            )
            if played is None:
                return
            final, tally = played
            seat_of = (first, 1 - first)  # entrant -> seat; the same map takes a seat to its entrant
            scores = (game.utility(final, seat_of[0]), game.utility(final, seat_of[1]))
            winner_seat = game.winner(final)
            winner = None if winner_seat is None else seat_of[winner_seat]
            tiles: tuple[int | None, int | None] = (None, None)
            goals = (False, False)
        else:
            first, finals, tally = 0, [], [_Moves(), _Moves()]
            for entrant, player in enumerate(players):
                deal = _generator(block.seed, block.pairing, index, "chance")  # the same deal for both
                played = _play(game, [player], [entrant], deal, stop)
                if played is None:
                    return
                finals.append(played[0])
                tally[entrant] = played[1][entrant]
            scores = (game.utility(finals[0], 0), game.utility(finals[1], 0))
            winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
            tiles = (max_tile(finals[0]), max_tile(finals[1])) if max_tile is not None else (None, None)
            goals = (game.winner(finals[0]) == 0, game.winner(finals[1]) == 0)
        yield GameResult(
            index,
            first,
            winner,
            scores,
            tiles,
            goals,
            (tally[0].moves, tally[1].moves),
            (tally[0].seconds, tally[1].seconds),
            (tally[0].max_seconds, tally[1].max_seconds),
            (tally[0].nodes, tally[1].nodes),
        )


_worker: dict[str, Any] = {}
"""In a pool worker only: the parent's stop Event (set on Ctrl-C) and its result Queue."""


STOP_CHECK = 0.05
"""Seconds between a worker's looks at the stop event (each look takes a lock)."""


def _start_worker(stop: Any, results: Any) -> None:
    _worker.update(stop=stop, results=results, next_check=0.0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent owns Ctrl-C and tells workers by the event


def _stopped() -> bool:
    now = time.perf_counter()
    if now < _worker["next_check"]:
        return False
    _worker["next_check"] = now + STOP_CHECK
    return bool(_worker["stop"].is_set())


def play_block(block: Block, every: float = 0.1) -> int:
    """A pool worker's job: play a block, sending the finished games to the parent every
    `every` seconds (so progress moves and Ctrl-C keeps them); returns how many were sent."""
    sent, batch, last = 0, [], time.perf_counter()
    for result in block_games(block, _stopped):
        batch.append(result)
        if time.perf_counter() - last >= every:
            _worker["results"].put((block.pairing, batch))
            sent, batch, last = sent + len(batch), [], time.perf_counter()
    if batch:
        _worker["results"].put((block.pairing, batch))
    return sent + len(batch)


@dataclass
class Side:
    """One entrant's running statistics within a pairing."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    games_first: int = 0
    wins_first: int = 0
    wins_second: int = 0
    moves: int = 0
    seconds: float = 0.0
    max_seconds: float = 0.0
    nodes: int = 0
    total_score: float = 0.0
    goals: int = 0
    max_tiles: Counter[int] = field(default_factory=Counter)


@dataclass
class Pairing:
    """Two entrants' games so far: a duel, or one cell pair of a tournament's crosstable."""

    entrants: tuple[int, int]
    games: int = 0
    draws: int = 0
    sides: tuple[Side, Side] = field(default_factory=lambda: (Side(), Side()))

    def add(self, result: GameResult) -> None:
        """Count a finished game."""
        self.games += 1
        self.draws += result.winner is None
        for entrant, side in enumerate(self.sides):
            first = result.first == entrant
            won = result.winner == entrant
            side.wins += won
            side.draws += result.winner is None
            side.losses += result.winner == 1 - entrant
            side.games_first += first
            side.wins_first += won and first
            side.wins_second += won and not first
            side.moves += result.moves[entrant]
            side.seconds += result.seconds[entrant]
            side.max_seconds = max(side.max_seconds, result.max_seconds[entrant])
            side.nodes += result.nodes[entrant]
            side.total_score += result.scores[entrant]
            side.goals += result.goals[entrant]
            tile = result.max_tiles[entrant]
            if tile is not None:
                side.max_tiles[tile] += 1


@dataclass
class Event:
    """A duel or tournament as played so far: the plan, each pairing's statistics, the clock."""

    plan: Plan
    players: int
    pairings: list[Pairing]
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def done(self) -> int:
        """Games finished in the whole event."""
        return sum(pairing.games for pairing in self.pairings)

    def add(self, pairing: int, result: GameResult) -> None:
        """Count a finished game of one pairing."""
        self.pairings[pairing].add(result)


def check_jobs(jobs: int) -> None:
    """BadInput unless `jobs` is a usable number of processes."""
    if jobs < 1:
        raise BadInput(f"--jobs must be at least 1, not {jobs}")


def run(plan: Plan, jobs: int = 1, on_game: Callable[[Event], None] | None = None) -> Event:
    """Play the event on `jobs` processes; `on_game(event)` after every finished game.

    Ctrl-C stops the event: the finished games are kept and `interrupted` is set, so the
    caller can still report them.
    """
    check_jobs(jobs)
    event = Event(plan, plan.game.players, [Pairing(pair) for pair in plan.pairings])
    started = time.perf_counter()

    def count(pairing: int, result: GameResult) -> None:
        event.add(pairing, result)
        event.seconds = time.perf_counter() - started
        if on_game is not None:
            on_game(event)

    try:
        if jobs == 1:
            for block in plan.blocks():
                for result in block_games(block):
                    count(block.pairing, result)
        else:
            _run_pool(plan, jobs, count)
    except KeyboardInterrupt:
        event.interrupted = True
    event.seconds = time.perf_counter() - started
    return event


def _run_pool(plan: Plan, jobs: int, count: Callable[[int, GameResult], None]) -> None:
    """Play the blocks in a process pool, a few at a time, counting each game as it arrives;
    on Ctrl-C tell the workers to stop, count what they finished, then raise KeyboardInterrupt again."""
    methods = multiprocessing.get_all_start_methods()
    # forkserver/spawn: forking a process whose progress display runs a thread can deadlock
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    stop, results = context.Event(), context.Queue()
    workers = min(jobs, plan.block_count)
    waiting = plan.blocks()
    running: set[Future[int]] = set()
    sent = received = 0  # games the finished blocks sent; games counted here

    interrupted = False

    def on_interrupt(signum: int, frame: Any) -> None:
        # Only a flag: a KeyboardInterrupt raised inside `results.get` could lose a batch half
        # read from the pipe, and the drain below would then wait for it forever.
        nonlocal interrupted
        if interrupted:  # a second Ctrl-C: stop waiting for the workers at once
            raise KeyboardInterrupt
        interrupted = True

    def receive(timeout: float) -> None:
        nonlocal received
        try:
            pairing, batch = results.get(timeout=timeout)
        except queue.Empty:
            return
        received += len(batch)
        for result in batch:
            count(pairing, result)

    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, on_interrupt) if in_main_thread else None
    try:
        with ProcessPoolExecutor(
            workers, mp_context=context, initializer=_start_worker, initargs=(stop, results)
        ) as pool:
            while not interrupted:
                # a short queue of blocks, so Ctrl-C has little to cancel
                for block in itertools.islice(waiting, 2 * workers - len(running)):
                    running.add(pool.submit(play_block, block))
                for future in [future for future in running if future.done()]:
                    running.remove(future)
                    sent += future.result()  # re-raises a worker's error
                if not running and received == sent:
                    return
                receive(0.05)
            stop.set()
            for future in running:
                if not future.cancel():
                    sent += future.result()
            while received < sent:
                receive(1.0)
        raise KeyboardInterrupt
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def side_record(event: Event, pairing: Pairing, entrant: int) -> dict[str, Any]:
    """One entrant's statistics in one pairing, as JSON-ready values."""
    side = pairing.sides[entrant]
    games = pairing.games
    record: dict[str, Any] = {
        "wins": side.wins,
        "losses": side.losses,
        "draws": side.draws,
        "win_interval": list(wilson(side.wins, games)),
        "loss_interval": list(wilson(side.losses, games)),
        "draw_interval": list(wilson(side.draws, games)),
    }
    if event.players == 2:
        record |= {
            "games_first": side.games_first,
            "wins_first": side.wins_first,
            "games_second": games - side.games_first,
            "wins_second": side.wins_second,
        }
    else:
        record["mean_score"] = side.total_score / games if games else 0.0
        record["reached_goal"] = side.goals / games if games else 0.0
        if sum(side.max_tiles.values()):
            record["max_tiles"] = {str(tile): side.max_tiles[tile] for tile in sorted(side.max_tiles)}
    record |= {
        "moves": side.moves,
        "nodes": side.nodes,
        "nodes_per_move": side.nodes / side.moves if side.moves else 0.0,
        "avg_move_seconds": side.seconds / side.moves if side.moves else 0.0,
        "max_move_seconds": side.max_seconds,
    }
    return record


def pairing_record(event: Event, pairing: Pairing) -> dict[str, Any]:
    """A duel's JSON object: game, players, games, wins and draws, per player statistics.

    Keys are the player names (specs, `spec#1`/`spec#2` when both are the same); every
    field except those ending in `seconds` repeats exactly for the same seed.
    """
    names = [event.plan.names[entrant] for entrant in pairing.entrants]
    return {
        "game": event.plan.game.spec,
        "players": names,
        "games": pairing.games,
        "planned_games": event.plan.games,
        "seed": event.plan.seed,
        "interrupted": event.interrupted,
        "wins": {name: side.wins for name, side in zip(names, pairing.sides, strict=True)},
        "draws": pairing.draws,
        "per_player": {name: side_record(event, pairing, entrant) for entrant, name in enumerate(names)},
        "seconds": event.seconds,
    }


def points(event: Event) -> tuple[list[list[float]], list[list[int]]]:
    """Each entrant's score (wins + half the draws) and games against each other entrant."""
    count = len(event.plan.specs)
    scores = [[0.0] * count for _ in range(count)]
    played = [[0] * count for _ in range(count)]
    for pairing in event.pairings:
        first, second = pairing.entrants
        scores[first][second] = pairing.sides[0].wins + pairing.draws / 2
        scores[second][first] = pairing.sides[1].wins + pairing.draws / 2
        played[first][second] = played[second][first] = pairing.games
    return scores, played


def tournament_record(event: Event) -> dict[str, Any]:
    """A tournament's JSON object: crosstable, points and Elo rating per player, every pairing."""
    names = event.plan.names
    scores, played = points(event)
    ratings = elo_ratings(scores, played)
    crosstable: dict[str, dict[str, dict[str, int]]] = {name: {} for name in names}
    for pairing in event.pairings:
        for entrant, opponent in (pairing.entrants, pairing.entrants[::-1]):
            side = pairing.sides[pairing.entrants.index(entrant)]
            crosstable[names[entrant]][names[opponent]] = {
                "wins": side.wins,
                "draws": side.draws,
                "losses": side.losses,
            }
    return {
        "game": event.plan.game.spec,
        "players": list(names),
        "games_per_pairing": event.plan.games,
        "games": event.done,
        "seed": event.plan.seed,
        "interrupted": event.interrupted,
        "points": {name: sum(row) for name, row in zip(names, scores, strict=True)},
        "ratings": {name: round(rating, 1) for name, rating in zip(names, ratings, strict=True)},
        "rating_method": "maximum-likelihood Elo (Bradley-Terry, draws count half, one virtual draw "
        "per player against a fixed anchor; mean 1500)",
        "crosstable": crosstable,
        "pairings": [pairing_record(event, pairing) for pairing in event.pairings],
        "seconds": event.seconds,
    }
