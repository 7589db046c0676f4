"""`nimmax check`: the Game protocol's laws tried on seeded random playouts.

Each law is tried on every position the playouts reach (a few sampled moves at each), and a
broken one is reported with the shortest counterexample found: the moves from the start.
Laws of optional members (`key`, `evaluate`, `search_actions`, positions) run only where the
game defines them. The key law values positions with a solver of its own, keyed by the
states themselves, since the engines trust the key it is checking.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Literal

from nimmax.game import CHANCE, AnyGame, BadGameSpec, Game, IllegalMove
from nimmax.guard import unguarded

PLAYOUTS = 100
MAX_PLIES = 300
"""A playout stops after this many plies (2048 and big boards run long); its positions still count."""

SAMPLE = 4
"""Moves tried at each position beside the one played: bounded work on a 26x26 board."""

POSITION_EVERY, POSITION_READS = 16, 40
"""The position law reads one position in POSITION_EVERY, at most POSITION_READS in all:
reading one builds a whole game (26x26: 70 ms)."""

SOLVER_NODES = 5_000
"""Positions the key law's solver may visit to value one position; beyond them the pair is skipped."""

Status = Literal["passed", "failed", "skipped"]


@dataclass(frozen=True)
class Law:
    """One law of the Game protocol: its name, what it says, and the member it needs."""

    name: str
    says: str
    needs: str | None = None
    """The optional member the law is about; the law is skipped when the game keeps the default."""


LAWS = (
    Law("unchanged", "result() never changes the state it is given"),
    Law("rebuilt", "states hash, and compare equal when the same moves rebuild them"),
    Law("to-move", "to_move() is a seat, or CHANCE in a game with chance"),
    Law("actions", "a terminal state has no actions; any other has actions (or chance outcomes)"),
    Law("legal", "every action applies; a move outside them raises IllegalMove"),
    Law("chance", "chance probabilities are positive and sum to 1"),
    Law("zero-sum", "utilities are numbers, summing to zero in a two-player game"),
    Law("notation", "parse_move(format_move(move)) gives the move back"),
    Law(
        "position",
        "the position read from format_position() writes the same, with the same mover and moves",
        "position",
    ),
    Law("search-actions", "search_actions() are legal actions", "search_actions"),
    Law("evaluate", "evaluate() is a finite number for every seat", "evaluate"),
    Law("key", "equal keys give equal values (and distance to the end) on small exhaustive searches", "key"),
)


@dataclass(frozen=True)
class Finding:
    """A law's verdict: passed, failed with its shortest counterexample, or skipped."""

    law: Law
    status: Status
    checked: int = 0
    """Positions the law was tried on."""
    moves: tuple[str, ...] | None = None
    """The counterexample: the moves from the start to the position that breaks the law."""
    detail: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "law": self.law.name,
            "says": self.law.says,
            "status": self.status,
            "checked": self.checked,
            "counterexample": list(self.moves) if self.moves is not None else None,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Report:
    """Every law's finding for one game."""

    game: str
    playouts: int
    seed: int
    positions: int
    findings: tuple[Finding, ...]
    interruption: KeyboardInterrupt | None = field(default=None, compare=False)
    """The Ctrl-C or SIGTERM that cut the playouts short: the findings are those of the positions before it."""

    @property
    def holds(self) -> bool:
        """Whether no law failed."""
        return all(finding.status != "failed" for finding in self.findings)

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "playouts": self.playouts,
            "seed": self.seed,
            "positions": self.positions,
            "interrupted": self.interruption is not None,
            "passed": self.holds,
            "laws": [finding.as_json() for finding in self.findings],
        }


@dataclass
class Tally:
    """What one law has seen so far: positions tried and its shortest failure."""

    checked: int = 0
    moves: tuple[str, ...] | None = None
    detail: str = ""

    def fail(self, moves: tuple[str, ...], detail: str) -> None:
        if self.moves is None or len(moves) < len(self.moves):
            self.moves, self.detail = moves, detail


def defines(game: AnyGame, member: str) -> bool:
    """Whether the game's class overrides an optional member of the protocol."""
    return getattr(type(game), member, None) is not getattr(Game, member, None)


def check(
    game: AnyGame,
    playouts: int = PLAYOUTS,
    seed: int = 0,
    position: Callable[[str], Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Try every law on `playouts` seeded random playouts of `game`; `position` reads a
    position's text into a state (the game's `--position`), when the game has one. A plugin game
    is tried as its own code, outside the boundary that would stop at a broken law unreported."""
    game = unguarded(game)
    rng = random.Random(seed)
    active = [
        law
        for law in LAWS
        if law.needs is None or (position is not None if law.needs == "position" else defines(game, law.needs))
    ]
    tallies = {law.name: Tally() for law in active}
    checker = Checker(game, rng, position)
    count = 0
    interruption: KeyboardInterrupt | None = None
    try:
        for number in range(playouts):
            if progress is not None:
                progress(number, playouts)
            for path, state, rebuilt in checker.playout():
                count += 1
                for law in active:
                    tally = tallies[law.name]
                    tally.checked += 1
                    subject = copy.deepcopy(state) if checker.mutates else state
                    try:
                        broken = checker.laws[law.name](path, subject, rebuilt)
                    # the game's own code raised (or exited): that breaks the law too
                    except (Exception, SystemExit) as error:
                        broken = f"{type(error).__name__}: {error}"
                    if broken:
                        tally.fail(tuple(path), broken)
            if checker.crash is not None:
                law_name, where, why = checker.crash
                tallies[law_name].fail(where, why)
                checker.crash = None
            if "key" in tallies:
                for where, why in checker.settle():
                    tallies["key"].fail(where, why)
    except KeyboardInterrupt as error:  # the findings so far are kept; the caller raises it once shown
        interruption = error
    findings = []
    for law in LAWS:
        kept = tallies.get(law.name)
        if kept is None:
            findings.append(Finding(law, "skipped", detail=f"the game keeps the default {law.needs}"))
        else:
            status: Status = "failed" if kept.moves is not None else "passed"
            findings.append(Finding(law, status, kept.checked, kept.moves, kept.detail))
    return Report(game.spec, playouts, seed, count, tuple(findings), interruption)


class Checker:
    """The playouts and the per-position test of each law."""

    def __init__(self, game: AnyGame, rng: random.Random, position: Callable[[str], Any] | None) -> None:
        self.game, self.rng, self.position = game, rng, position
        self.seen_moves: list[Any] = []
        self.keys: dict[Any, tuple[Any, tuple[str, ...]]] = {}
        self.positions_seen = 0
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
        except (Exception, SystemExit) as error:  # the game's own code raised (or exited): that breaks the law too
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
            except (Exception, SystemExit) as error:  # the game's own code raised (or exited): that breaks the law too
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
            outcomes = game.chance_outcomes(state)
            return self.rng.choices([outcome for _, outcome in outcomes], [p for p, _ in outcomes])[0]
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
            return [outcome for _, outcome in islice(game.chance_outcomes(state), SAMPLE)]
        moves = self.moves(state)
        count = len(moves)
        picks = {0, count - 1, *(self.rng.randrange(count) for _ in range(SAMPLE - 2))} if count else set()
        return [moves[index] for index in sorted(picks)]

    def unchanged(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        before = copy.deepcopy(state)
        for move in self.sample(state):
            probe = copy.deepcopy(state)  # the playout goes on from `state`: a probe takes the damage
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
        if mover == CHANCE and self.game.has_chance:
            return None
        if not isinstance(mover, int) or not 0 <= mover < self.game.players:
            return f"to_move is {mover!r}, not a seat 0..{self.game.players - 1}" + (
                " or CHANCE" if self.game.has_chance else " (the game declares no chance)"
            )
        return None

    def actions(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        game = self.game
        if game.is_terminal(state):
            return None if len(self.moves(state)) == 0 else "a terminal state has actions"
        if game.to_move(state) == CHANCE:
            return None if len(game.chance_outcomes(state)) else "a chance node has no outcomes"
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
        probabilities = [probability for probability, _ in game.chance_outcomes(state)]
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
        if not all(isinstance(payoff, (int, float)) and math.isfinite(payoff) for payoff in payoffs):
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
        if game.to_move(read) != game.to_move(state) or game.is_terminal(read) != game.is_terminal(state):
            return f"the position read from {text!r} has another side to move, or another end"
        if not game.is_terminal(state) and list(game.actions(read)) != list(self.moves(state)):
            return f"the position read from {text!r} has other moves"
        return None

    def search_actions(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        game = self.game
        if game.is_terminal(state) or game.to_move(state) == CHANCE:
            return None
        legal = self.moves(state)
        for move in islice(game.search_actions(state), 64):
            if move not in legal:
                return f"search_actions has {game.format_move(move)}, which is not legal"
        return None

    def evaluate(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        for seat in range(self.game.players):
            estimate = self.game.evaluate(state, seat)
            if not isinstance(estimate, (int, float)) or not math.isfinite(estimate):
                return f"evaluate(state, {seat}) is {estimate!r}"
        return None

    def key(self, path: list[str], state: Any, rebuilt: Any) -> str | None:
        """Remember a position whose key an earlier, different state has: `settle` values the pair."""
        first = self.keys.setdefault(self.game.key(state), (state, tuple(path)))
        if first[0] != state:
            self.pending.append((tuple(path), state, *first))
        return None

    def settle(self) -> Iterator[tuple[tuple[str, ...], str]]:
        """The pairs of one playout that share a key but differ in value, valued from the end of
        the playout back (small positions first), and no further back than the solver reaches."""
        self.solver.copies = self.mutates
        for path, state, other, other_path in reversed(self.pending):
            try:
                mine, theirs = self.solver.value(state), self.solver.value(other)
            except (Exception, SystemExit) as error:  # the game's own code raised (or exited): that breaks the law
                yield path, f"valuing positions with equal keys raised {type(error).__name__}: {error}"
                break
            if mine is None:
                break
            if theirs is not None and mine != theirs:
                where = " ".join(other_path) or "no moves"
                yield (
                    path,
                    (
                        f"the position after {where} has the same key, but it is worth "
                        f"{self.solver.describe(theirs)} and this one {self.solver.describe(mine)}"
                    ),
                )
        self.pending.clear()


class Solver:
    """Exact values of small positions by plain expectiminimax over the states themselves.

    A score is the payoff times SCALE, moved one unit towards zero per ply, so it holds both
    the value and the distance to the end; it is for the side to move (seat 0 at chance).
    """

    SCALE = 1 << 20

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.memo: dict[Any, float] = {}
        self.copies = False
        """Whether moves are made on copies (a game whose result() changes its input)."""

    def value(self, state: Any) -> float | None:
        """The state's score for its side to move, or None when it needs too many positions."""
        if len(self.memo) > 20 * SOLVER_NODES:
            self.memo.clear()
        self.left = SOLVER_NODES
        try:
            return self.score(state, 0)
        except _TooBig:
            return None

    def viewpoint(self, state: Any) -> int:
        mover = self.game.to_move(state)
        return 0 if mover == CHANCE else mover

    def score(self, state: Any, plies: int) -> float:
        known = self.memo.get(state)
        if known is not None:
            return known
        self.left -= 1
        if self.left < 0 or plies > MAX_PLIES:
            raise _TooBig
        game, me = self.game, self.viewpoint(state)
        if game.is_terminal(state):
            found = float(game.utility(state, me)) * self.SCALE
        elif game.to_move(state) == CHANCE:
            found = math.fsum(p * self.child(me, game.result(state, o), plies) for p, o in game.chance_outcomes(state))
        else:
            found = max(self.child(me, self.made(state, move), plies) for move in game.actions(state))
        self.memo[state] = found
        return found

    def made(self, state: Any, move: Any) -> Any:
        return self.game.result(copy.deepcopy(state) if self.copies else state, move)

    def child(self, me: int, state: Any, plies: int) -> float:
        """A child's score for the parent's side `me`, one ply further from the end."""
        score = self.score(state, plies + 1)
        score = score if self.viewpoint(state) == me else -score
        return score - 1 if score >= 1 else score + 1 if score <= -1 else 0.0

    def describe(self, score: float) -> str:
        """A score in words: the payoff, and the plies to the end where they matter."""
        payoff = round(score / self.SCALE)
        plies = abs(payoff * self.SCALE - score)
        return f"{payoff:+g}" + (f" in {plies:g} plies" if payoff and plies == int(plies) else "")


class _TooBig(Exception):
    """The solver's budget ran out."""


def position_reader(words: Sequence[str]) -> Callable[[str], Any] | None:
    """How `--position` reads a position of the registered game these words build; None for a
    game without `--position` (a plugin, or a game whose words are its position)."""
    from nimmax import games

    name = words[0].lower() if words else ""
    try:
        info = games.lookup(name)
    except BadGameSpec:
        return None
    if not any(option.name == "--position" for option in info.signature.each_option()):
        return None
    rest = list(words[1:])
    if "--position" in rest:  # the position given is where the game starts; others are read in its place
        at = rest.index("--position")
        del rest[at : at + 2]
    return lambda text: games.create([name, *rest, "--position", text]).initial_state()


def playout_moves(game: AnyGame, moves: Sequence[str]) -> Any:
    """The state the moves of a counterexample lead to, from the start."""
    state = game.initial_state()
    for text in moves:
        state = game.result(state, game.parse_move(text, state))
    return state
