"""Analysing a recorded game: every move valued against the best, and the mistake that decided it.

Each position is searched as `solve` searches it: "before" is the best value, "after" the
value of the move played (searched on its own where the answer only bounded it), both for the
side that moved; a limited search estimates every move of the position at one depth. The plies
are searched from the last back to the first on one table, so what a later ply proved helps the
earlier ones, and every claim goes through `nimmax.claim` (a move that ends the game is exact by
definition; a position a search of the session proved stays proven). Exact values grade by the
payoff: a proven loss of any of it (an outcome, or a margin: plates, Kalah) is a mistake of that
size; estimates only say how much a move gave up, and never that it kept an outcome.
"""

from __future__ import annotations

import time as clock
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from nimmax import games
from nimmax.claim import Claim, Proofs, best_payoff
from nimmax.commands.solve import prunes
from nimmax.game import CHANCE, AnyGame, outcomes
from nimmax.match import GameRecord
from nimmax.players import BadPlayerSpec, SearchPlayer, Spec, suggested
from nimmax.search import ENGINES, INFINITY, MOVE_SECONDS, Limits, SearchResult, Watcher, search

Verdict = Literal["best", "inaccuracy", "mistake", "estimate"]

INACCURACY = 0.2
"""An estimated move is an inaccuracy when it gives up more than this share of the best
value's size (at least this many payoff units): a fifth of a win, or of a score."""

GAME_SECONDS = 60.0
"""What a whole game's analysis takes by default (a second a position in games of up to 60
moves)."""

LEAST_SECONDS = 0.001
"""The least time a search is given (the least `time=`): it still completes its first depth
where that takes a few dozen nodes, and answers with a move it searched where it does not."""

SEARCH_SHARE = 0.6
"""The part of what is left of a position's time a paced search takes: the position's own search
the most, a move searched on its own after it part of the rest."""

SAME = 1e-9
"""Values closer than this are equal (estimates are floats)."""


def game_value(game: AnyGame) -> float:
    """The value of `game` from its start for its first seat, searched to the end by alpha-beta:
    what a result read against best play is measured by (the plates game's, a tree of a few hundred
    nodes)."""
    return search(game, game.initial_state(), "alphabeta", time=INFINITY).value


@dataclass(frozen=True)
class MoveAnalysis:
    """One move of a game, valued for the side that made it (`seat`)."""

    ply: int
    seat: int
    move: str
    value_before: float
    value_after: float
    best_move: str
    best_value: float
    verdict: Verdict
    exact: bool

    @property
    def loss(self) -> float:
        """What the move gave up against the best, in payoff (0 for the best move)."""
        return max(self.best_value - self.value_after, 0.0)

    def as_json(self) -> dict[str, object]:
        """The object `analyze --json` prints for this move (DESIGN.md)."""
        return {
            "ply": self.ply,
            "loss": self.loss,
            "seat": self.seat,
            "move": self.move,
            "value_before": self.value_before,
            "value_after": self.value_after,
            "best_move": self.best_move,
            "best_value": self.best_value,
            "verdict": self.verdict,
            "exact": self.exact,
        }


@dataclass(frozen=True)
class Analysis:
    """A whole game's analysis: a verdict on each player's move, chance's left out."""

    game: str
    players: tuple[str, ...]
    algorithm: str
    moves: tuple[MoveAnalysis, ...]
    finished: bool

    skipped: int = 0
    """Moves left unanalysed when the whole analysis's clock ran out (the earliest ones)."""

    @classmethod
    def of(cls, record: GameRecord, algorithm: str, moves: Iterable[MoveAnalysis]) -> Analysis:
        """The analysis of `record` made of these moves (all of them, or those analysed before a
        stop), in the order of the game; finished when its moves end the game, whatever the record
        says."""
        finished = games.create(record.game).is_terminal(record.positions()[-1])
        ordered = tuple(sorted(moves, key=lambda move: move.ply))
        return cls(
            record.game,
            record.players,
            algorithm,
            ordered,
            finished,
            choices(record) - len(ordered),
        )

    @property
    def decisive(self) -> MoveAnalysis | None:
        """The mistake that decided the game: the last one, since each mistake changes the
        proven outcome and only the last change stands; None when nobody erred."""
        mistakes = [move for move in self.moves if move.verdict == "mistake"]
        return mistakes[-1] if mistakes else None

    def as_json(self) -> dict[str, object]:
        """The object `analyze --json` prints (DESIGN.md)."""
        decisive = self.decisive
        return {
            "game": self.game,
            "players": list(self.players),
            "algorithm": self.algorithm,
            "finished": self.finished,
            "moves": [move.as_json() for move in self.moves],
            "decisive_ply": decisive.ply if decisive is not None else None,
            "skipped": self.skipped,
        }


def outcome(value: float, players: int) -> float:
    """What a proven value means for the side that moved: its sign in a two-player game (win,
    draw, loss, whatever the margin), the score itself in a one-player game."""
    if players == 1:
        return value
    return (value > SAME) - (value < -SAME)


def verdict(best: float, played: float, exact: bool, players: int) -> Verdict:
    """How the move valued `played` compares with the best move, valued `best`: a proven loss of
    payoff (an outcome, or a margin) is a mistake; an estimate is an inaccuracy where it gave up
    more than INACCURACY of the best, else only an estimate (it proves no outcome kept)."""
    if exact:
        return "best" if played >= best - SAME else "mistake"
    return "inaccuracy" if best - played > INACCURACY * max(1.0, abs(best)) else "estimate"


def positions(record: GameRecord) -> Iterator[tuple[int, Any, Any]]:
    """Each ply of the record: its number (from 1), the position before it and the move made."""
    game = games.create(record.game)
    states = record.positions()
    for ply, (state, text) in enumerate(zip(states, record.moves, strict=False), start=1):
        yield ply, state, game.parse_move(text, state)


class Paced(SearchPlayer):
    """A search player whose searches share one clock: each takes the time left over the positions
    left (a second at most), so a whole game is analysed in `seconds` however long it is, a search
    that overran being paid for by the next ones; once the clock is out, only the moves that end
    the game (exact by definition, no search) are analysed (`judged`)."""

    def __init__(self, spec: Spec, watcher: Watcher | None, positions: int, seconds: float) -> None:
        super().__init__(spec, watcher)
        self.left = positions
        self.deadline = clock.perf_counter() + seconds
        self.until = self.deadline

    @property
    def spent(self) -> bool:
        """Whether the whole analysis's time is out."""
        return clock.perf_counter() >= self.deadline

    def position(self) -> None:
        """A position starts: its share of the time left is the time left over the positions
        left."""
        now = clock.perf_counter()
        self.until = now + min(MOVE_SECONDS, max(self.deadline - now, 0.0) / max(self.left, 1))
        self.left -= 1

    def search(
        self,
        game: AnyGame,
        state: Any,
        every_move: bool = False,
        deepen: bool | None = None,
        limits: Limits | None = None,
    ) -> SearchResult:
        """Search with part of this position's share (each search of it after the first, a move
        searched on its own, gets part of what the ones before left); `limits` are the clock's
        own."""
        share = max(self.until - clock.perf_counter(), 0.0) * SEARCH_SHARE
        return super().search(
            game, state, every_move, deepen, Limits(time=max(share, LEAST_SECONDS))
        )


def choices(record: GameRecord) -> int:
    """How many positions of the record a player moves in (chance's draws are no one's choice)."""
    game = games.create(record.game)
    return sum(game.to_move(state) != CHANCE for state in record.positions()[:-1])


def analyst(
    game: AnyGame,
    algorithm: Spec | None = None,
    limits: Limits | None = None,
    watcher: Watcher | None = None,
    positions: int = 1,
) -> SearchPlayer:
    """The player whose engine values the positions: `algorithm` (the engine `play` suggests for the
    game when None), under `limits` (--time) when given instead of the spec's own. With neither a
    limit nor a spec's limit, the `positions` of the game share GAME_SECONDS (`Paced`, a second each
    at most), so a 2048 game of thousands of moves is analysed in about a minute."""
    spec = algorithm or suggested(game)
    if spec.engine is None:
        raise BadPlayerSpec(
            f"analyze needs a search engine ({', '.join(ENGINES)}), not {spec.kind!r}"
        )
    spec.engine.game_for(game)
    if limits is not None:
        return SearchPlayer(spec.limited(limits), watcher)
    if spec.names_limits:
        return SearchPlayer(spec, watcher)
    return Paced(spec, watcher, positions, GAME_SECONDS)


def plies(record: GameRecord) -> list[tuple[int, Any, Any]]:
    """The record's players' plies (chance's draws are no one's choice), from the last back to the
    first: the order `judged` searches them in, so each proof helps the plies before it."""
    game = games.create(record.game)
    return [
        (ply, state, move)
        for ply, state, move in positions(record)
        if game.to_move(state) != CHANCE
    ][::-1]


def judged(record: GameRecord, player: SearchPlayer, proofs: Proofs) -> Iterator[MoveAnalysis]:
    """Each player's move of the record, analysed from the last back to the first on one table and
    one store of proofs; once a paced analysis's clock is out, only the moves that end the game
    (no search needed)."""
    game = games.create(record.game)
    for ply, state, move in plies(record):
        if isinstance(player, Paced):
            if player.spent and not game.is_terminal(game.result(state, move)):
                continue
            player.position()
        yield judge(game, player, proofs, ply, state, move)


def analyze(
    record: GameRecord,
    algorithm: Spec | None = None,
    limits: Limits | None = None,
    watcher: Watcher | None = None,
) -> Analysis:
    """Value every player's move in `record`, each position exact where the engine proves it
    within its limits, else an estimate (see `analyst` for the engine and its time)."""
    player = analyst(games.create(record.game), algorithm, limits, watcher, choices(record))
    return Analysis.of(record, player.spec, judged(record, player, Proofs()))


def judge(
    game: AnyGame, player: SearchPlayer, proofs: Proofs, ply: int, state: Any, move: Any
) -> MoveAnalysis:
    """The analysis of `move` in `state`: the best value and move from the search `solve` answers
    with (to the end: alpha-beta's own, the other moves bounded; under a limit: every move
    estimated at one depth), and the move alone searched on where that search gave only a bound
    for it or did not reach it (stopped, or narrowed). Claims come from `nimmax.claim`: a move that
    ends the game is exact, a proof an earlier search made stands; a played move proven worth the
    most there is proves the best value too. An estimated inaccuracy of a two-player game is a
    mistake where the best move and the played one, each proven on its own, differ in outcome."""
    seat = game.to_move(state)
    result, position = searched(game, player, proofs, state)
    best, best_move, best_exact = position.value, result.move, position.exact and result.exact
    # the store's proof: its value stands, the move is the search's
    if position.exact and not result.exact:
        best_exact = True
    valued = dict(result.moves)
    if move in valued and move not in result.upper_bounds:
        claim = proofs.of_move(game, state, result, move, valued[move])
        played, proven = claim.value, claim.exact
    else:  # not reached, or only bounded: searched on its own
        played, proven = value_of(game, player, proofs, state, move, seat)
    top = best_payoff(game, state)
    if proven and (played >= best - SAME and best_exact or top is not None and played >= top):
        best, best_move, best_exact = played, move, True  # nothing is better than what it proved
    if proven and best_exact and played > best:  # the played move's proof beats the search's value
        best, best_move = played, move
    exact = proven and best_exact
    if exact:
        proofs.remember(game, state, Claim(best, "exact", 0, player.spec))
    said = verdict(best, played, exact, game.players)
    if said == "inaccuracy" and game.players == 2:  # an estimate's loss may be a proven one
        pair = proven_pair(game, player, proofs, state, (result.move, move), seat)
        if pair is not None and outcome(pair[0], 2) > outcome(pair[1], 2):
            (best, played), said, exact = pair, "mistake", True
    shown = game.format_move(best_move) if best_move is not None else game.format_move(move)
    return MoveAnalysis(ply, seat, game.format_move(move), best, played, shown, best, said, exact)


def searched(
    game: AnyGame, player: SearchPlayer, proofs: Proofs, state: Any
) -> tuple[SearchResult, Claim]:
    """The position's search and claim: under a limit every move valued at one depth, so the played
    move's estimate compares with the best's; where that leaves an estimate, the search play makes
    (the best move's window alone, on the same table), which proves what play proves."""
    limited = player.limits.limited and prunes(player)
    result = player.search(game, state, every_move=limited or not prunes(player))
    position = proofs.claimed(game, state, result, player.spec)
    if position.exact or not limited:
        return result, position
    plain = player.search(game, state)
    proven = proofs.claimed(game, state, plain, player.spec)
    return (plain, proven) if proven.exact else (result, position)


def proven_pair(
    game: AnyGame,
    player: SearchPlayer,
    proofs: Proofs,
    state: Any,
    moves: tuple[Any, Any],
    seat: int,
) -> tuple[float, float] | None:
    """The values of two moves (the best one and the one played), each searched on its own, where
    both are proven; else None. Where a position's answer stays an estimate (a move left unproven),
    the two alone may prove that the played move gave away the outcome the other keeps."""
    values = []
    for move in moves:
        value, proven = value_of(game, player, proofs, state, move, seat, every_move=True)
        if not proven:
            return None
        values.append(value)
    return values[0], values[1]


def value_of(
    game: AnyGame,
    player: SearchPlayer,
    proofs: Proofs,
    state: Any,
    move: Any,
    seat: int,
    every_move: bool = False,
) -> tuple[float, bool]:
    """The value of `move` for `seat` searched on its own (`every_move`: each reply valued, none
    left out by a narrowing search, so a draw is proven too), and whether it is proven."""
    after = game.result(state, move)
    if game.is_terminal(after):  # exact by definition
        return game.utility(after, seat), True
    mover = game.to_move(after)
    # a two-player search chooses at its root: chance's draws averaged here
    if mover == CHANCE and game.players == 2:
        valued = [
            (chance, value_of(game, player, proofs, after, outcome, seat))
            for chance, outcome in outcomes(game, after)
        ]
        return sum(chance * value for chance, (value, _) in valued), all(
            proven for _, (_, proven) in valued
        )
    result = player.search(game, after, every_move=every_move)
    claim = proofs.claimed(game, after, result, player.spec)
    if mover == seat or (mover == CHANCE and seat == 0):  # a chance node is valued for seat 0
        return claim.value, claim.exact
    return -claim.value, claim.exact
