"""The project's own newcomer: every game, in each of its shapes, played to its end through the CLI.

Each journey plays one whole game with `--record` (people at a pipe answering random legal moves,
`random`, and every engine that honours the game at a small depth, time or number of simulations,
all seeded), then replays the record. Every shape's record of a person against alpha-beta is then
analysed, and its middle position solved with `--explain` and `--json`. What is checked does not
come from the code under test: the winner is computed here from the final position (k in a row
scanned on the plain grid, the last mover in Nim, the seeds counted in Kalah, 2048's score from its
tiles), every depth shown is held against the plies the game has left, and wherever moves are
listed the best comes first. Most runs are in this process (`cli_helpers.nimmax_in_process`); two
people at one board are a real pipe into a real process.
"""

from __future__ import annotations

import json
import random
import re
import shlex
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from nimmax import games
from nimmax.game import CHANCE, AnyGame

from .cli_helpers import (
    ROOT,
    PipedPerson,
    best_listed_first,
    moves_shown,
    nimmax,
    nimmax_in_process,
    ran_clean,
    replayed,
)
from .theory import nim_mover_wins, simple_nim_mover_wins, split_nim_mover_wins

PLAY_TIME = "0.05"
"""`play --time`: the hint's engine (and any engine without a limit of its own) thinks this long."""

ASKED = {1: ("hint", "why", "moves")}
"""What a person at a pipe types at their second prompt before moving: by then an engine has
moved."""


# The referee: what a finished game's banner must say, from the final position alone.


@dataclass(frozen=True)
class Verdict:
    """A finished game as the referee sees it: the winning seat (None: a draw, or no winner in the
    game's terms) and words the banner's first line must hold (the score, the seeds)."""

    winner: int | None
    words: str = ""


def rows_of(text: str) -> list[str]:
    """A board position's rows, from the top."""
    return text.lower().split("/")


def line_maker(rows: Sequence[str], k: int) -> set[str]:
    """The marks with k in a row somewhere on a plain grid: rows, columns and both diagonals
    scanned."""
    found = set()
    height, width = len(rows), len(rows[0])
    for row in range(height):
        for col in range(width):
            mark = rows[row][col]
            if mark == ".":
                continue
            for step_row, step_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + step_row * at, col + step_col * at) for at in range(k)]
                if all(0 <= r < height and 0 <= c < width and rows[r][c] == mark for r, c in cells):
                    found.add(mark)
    return found


def last_mover(moves: Sequence[str]) -> int:
    """The seat that made the last move of a game whose seats strictly alternate, First moving
    first."""
    return (len(moves) - 1) % 2


class Referee:
    """One game family's end, judged without the code under test's winner, outcome or result
    words."""

    def verdict(self, game: AnyGame, moves: Sequence[str], state: Any) -> Verdict:
        """The winner (and the banner's words) of the finished game ending in `state` after
        `moves`."""
        raise NotImplementedError

    def plies_left(self, game: AnyGame, state: Any) -> int | None:
        """The most plies the game can still last from `state`, or None where no useful bound is
        known."""
        raise NotImplementedError

    def middle(self, words: str, game: AnyGame, state: Any) -> list[str] | None:
        """Game words that start at `state`, or None where the game's words name no position."""
        return [*shlex.split(words), "--position", game.format_position(state)]


@dataclass(frozen=True)
class Lines(Referee):
    """m,n,k games, gravity and Connect Four: k in a row on the grid wins; a full board is a
    draw."""

    k: int
    marks: str = "xo"

    def verdict(self, game: AnyGame, moves: Sequence[str], state: Any) -> Verdict:
        rows = rows_of(game.format_position(state))
        made = line_maker(rows, self.k)
        assert len(made) == 1 or (not made and "." not in "".join(rows)), f"not an end: {rows}"
        return Verdict(self.marks.index(made.pop()) if made else None)

    def plies_left(self, game: AnyGame, state: Any) -> int | None:
        return game.format_position(state).count(".")


@dataclass(frozen=True)
class Counters(Referee):
    """Simple-Nim, Nim and Split-Nim: the last mover wins (normal play, and Split-Nim, where the
    side to move cannot split) or loses (misère). A move takes at least one counter, or a split
    makes one pile more."""

    kind: str
    misere: bool = True

    def verdict(self, game: AnyGame, moves: Sequence[str], state: Any) -> Verdict:
        piles = self.piles(game, state)
        assert all(pile <= (2 if self.kind == "split-nim" else 0) for pile in piles), (
            f"not an end: {piles}"
        )
        last = last_mover(moves)
        return Verdict(1 - last if self.misere and self.kind != "split-nim" else last)

    def plies_left(self, game: AnyGame, state: Any) -> int | None:
        piles = self.piles(game, state)
        return sum(max(pile - 1, 0) for pile in piles) if self.kind == "split-nim" else sum(piles)

    @staticmethod
    def piles(game: AnyGame, state: Any) -> list[int]:
        return [int(pile) for pile in game.format_position(state).split(",")]

    def middle(self, words: str, game: AnyGame, state: Any) -> list[str] | None:
        name, *rest = shlex.split(words)
        options = [word for word in rest if word.startswith("--")]
        max_take = (
            rest[rest.index("--max-take") : rest.index("--max-take") + 2]
            if "--max-take" in rest
            else []
        )
        flags = [word for word in options if word != "--max-take"]
        return [name, game.format_position(state), *max_take, *flags]

    def mover_wins(self, piles: Sequence[int], max_take: int = 3) -> bool:
        """Theory's answer (tests/theory.py) for the side to move."""
        if self.kind == "split-nim":
            return split_nim_mover_wins(piles)
        if self.kind == "simple-nim":
            return simple_nim_mover_wins(piles[0], max_take, misere=self.misere)
        return nim_mover_wins(piles, misere=self.misere)


class Seeds(Referee):
    """Kalah: once a row is empty each side keeps its store and the seeds on its own row; more seeds
    wins."""

    @staticmethod
    def rows(text: str) -> list[tuple[list[int], int]]:
        """South's and North's (pits, store) from `SOUTH_PITS:STORE/NORTH_PITS:STORE/SIDE`."""
        sides = []
        for part in text.split("/")[:2]:
            pits, store = part.split(":")
            sides.append(([int(seeds) for seeds in pits.split(",")], int(store)))
        return sides

    def verdict(self, game: AnyGame, moves: Sequence[str], state: Any) -> Verdict:
        sides = self.rows(game.format_position(state))
        assert any(not any(pits) for pits, _ in sides), f"not an end: {sides}"
        south, north = (store + sum(pits) for pits, store in sides)
        if south == north:
            return Verdict(None, f"Draw {south}–{north}")
        winner = int(north > south)
        return Verdict(winner, f"wins {max(south, north)}–{min(south, north)}")

    def plies_left(self, game: AnyGame, state: Any) -> int | None:
        # Each move puts a seed in a store or moves the sown seeds nearer their row's store (the sum
        # of those distances, at most seeds x pits, falls); so at most S + S * N * (S + 1) plies are
        # left.
        sides = self.rows(game.format_position(state))
        seeds, pits = sum(sum(row) for row, _ in sides), len(sides[0][0])
        return seeds + seeds * pits * (seeds + 1)


@dataclass(frozen=True)
class Tiles(Referee):
    """2048: the score is what the merges made, Σ (log2 t - 1) t over the tiles less 4 for each 4
    that spawned (it was never merged), less that sum over a `start` position's tiles (a merge of
    two t adds 2t to the sum, a spawned 4 adds 4); the game is over when no cell is empty and no
    neighbours are equal."""

    goal: int = 2048
    start: str = ""

    def verdict(self, game: AnyGame, moves: Sequence[str], state: Any) -> Verdict:
        grid = [
            [int(tile) for tile in row.split(",")] for row in game.format_position(state).split("/")
        ]
        tiles = [tile for row in grid for tile in row]
        lines = [*grid, *(list(column) for column in zip(*grid, strict=True))]
        assert all(tiles) and not any(a == b for line in lines for a, b in pairwise(line)), (
            f"not an end: {grid}"
        )
        fours = sum(move.startswith("4@") for move in moves)
        given = (
            [int(tile) for tile in self.start.replace("/", ",").split(",")] if self.start else []
        )
        made_of = [*tiles, *(-tile for tile in given)]
        score = sum((abs(tile).bit_length() - 2) * tile for tile in made_of if tile) - 4 * fours
        best = max(tiles)
        made = best >= self.goal
        return Verdict(
            0 if made else None,
            f"scores {score:,}, best tile {best} ({self.goal} {'made' if made else 'not made'})",
        )

    def plies_left(self, game: AnyGame, state: Any) -> int | None:
        return None  # chance keeps adding tiles; no bound worth checking


@dataclass(frozen=True)
class Notes(Referee):
    """The plates game: A keeps the note of the last move; A can make sure of the middle note of the
    best plate (B hands over the two smallest of it)."""

    plates: tuple[tuple[int, ...], ...] = ((1, 20, 50), (5, 10, 100), (1, 5, 20))

    def verdict(self, game: AnyGame, moves: Sequence[str], state: Any) -> Verdict:
        assert len(moves) == 3, moves
        best = max(sorted(plate)[1] for plate in self.plates)
        return Verdict(None, f"keeps {int(moves[-1])}; best possible {best}")

    def plies_left(self, game: AnyGame, state: Any) -> int | None:
        text = game.format_position(state)
        return (
            0
            if text.startswith("A keeps")
            else 1
            if text.startswith("A holds")
            else 2
            if text.startswith("plate")
            else 3
        )

    def middle(self, words: str, game: AnyGame, state: Any) -> list[str] | None:
        return None


@dataclass(frozen=True)
class Takes(Referee):
    """The subtraction plugin: whoever cannot take an allowed amount loses, so the last mover
    wins."""

    takes: tuple[int, ...] = (1, 3, 4)

    def verdict(self, game: AnyGame, moves: Sequence[str], state: Any) -> Verdict:
        assert int(game.format_position(state).strip("()").split(",")[0]) < min(self.takes)
        return Verdict(last_mover(moves))

    def plies_left(self, game: AnyGame, state: Any) -> int | None:
        return int(game.format_position(state).strip("()").split(",")[0])

    def middle(self, words: str, game: AnyGame, state: Any) -> list[str] | None:
        name, *_ = shlex.split(words)
        counters = self.plies_left(game, state)
        return [name, str(counters), "--take", ",".join(map(str, self.takes))]


class LabLines(Lines):
    """The lab's tic-tac-toe plugin: its position is rows of X, O and '.'; it names no position in
    words."""

    def middle(self, words: str, game: AnyGame, state: Any) -> list[str] | None:
        return None


class Spiel(Referee):
    """OpenSpiel's games: the record's moves replayed on OpenSpiel's own state (no nimmax code), its
    returns naming the winner."""

    def verdict(self, game: AnyGame, moves: Sequence[str], state: Any) -> Verdict:
        import pyspiel

        spiel = pyspiel.load_game(
            shlex.split(game.spec)[0].removeprefix("openspiel:")
        ).new_initial_state()
        for text in moves:
            legal = (
                [a for a, _ in spiel.chance_outcomes()]
                if spiel.is_chance_node()
                else spiel.legal_actions()
            )
            spiel.apply_action(
                next(a for a in legal if spiel.action_to_string(spiel.current_player(), a) == text)
            )
        assert spiel.is_terminal(), f"not an end: {spiel}"
        returns = spiel.returns()
        return Verdict(None if returns[0] == returns[1] else int(returns[1] > returns[0]))

    def plies_left(self, game: AnyGame, state: Any) -> int | None:
        return str(state.spiel).count(".") if "tic_tac_toe" in game.spec else None

    def middle(self, words: str, game: AnyGame, state: Any) -> list[str] | None:
        return None


# The matrix: every game in its shapes, and who plays it.


@dataclass(frozen=True)
class Shape:
    """A game in one shape: its words, its referee, and the engines that play it (small limits,
    seeded)."""

    name: str
    words: str
    referee: Referee
    engines: dict[str, str]
    solve: tuple[str, ...] = ()
    """solve's limit for the middle position (none: it is solved exactly); a depth, so each run is
    the same."""
    extra: tuple[tuple[str, ...], ...] = field(default=())
    """Pairings played besides the standard ones."""


def engines(depth: int, iterations: int, rollout: str = "") -> dict[str, str]:
    """Every engine at a small depth (alpha-beta one deeper), Monte Carlo at a few seeded
    simulations."""
    return {
        "minimax": f"minimax:depth={depth}",
        "negamax": f"negamax:depth={depth}",
        "alphabeta": f"alphabeta:depth={depth + 1}",
        "expectimax": f"expectimax:depth={depth}",
        "mcts": f"mcts:iterations={iterations},seed=1" + (f",rollout={rollout}" if rollout else ""),
    }


SMALL = engines(3, 200)
CROWDED = "2,4,2,4/4,2,4,2/2,4,2,4/4,2,8,0"
BOARD = engines(2, 30)
EXAMPLES = ROOT / "examples"

SHAPES = (
    Shape("simple-nim-misere", "simple-nim 9", Counters("simple-nim"), SMALL),
    Shape(
        "simple-nim-normal",
        "simple-nim 9 --max-take 2 --normal",
        Counters("simple-nim", misere=False),
        SMALL,
    ),
    Shape("nim-misere", "nim 2 3 5", Counters("nim"), SMALL),
    Shape("nim-normal", "nim 1 2 3 --normal", Counters("nim", misere=False), SMALL),
    Shape("split-nim", "split-nim 9", Counters("split-nim"), SMALL),
    Shape("3x3", "tictactoe", Lines(3), SMALL),
    Shape("4x4-k3", "tictactoe --size 4 --k 3", Lines(3), engines(2, 100)),
    Shape(
        "7x7-k4-gravity", "tictactoe --size 7 --k 4 --gravity", Lines(4), BOARD, ("--depth", "5")
    ),
    Shape("connect4", "connect4", Lines(4), BOARD, ("--depth", "5")),
    Shape(
        "15x15-k5",
        "tictactoe --size 15 --k 5",
        Lines(5),
        engines(1, 10, rollout="heuristic"),
        ("--depth", "2"),
        # a narrowed search under a clock: issue 28's depth 4738
        extra=(("alphabeta:time=0.1", "random"),),
    ),
    Shape(
        "2048-3x3", "2048 --size 3", Tiles(), engines(1, 20), ("--algorithm", "expectimax:depth=2")
    ),
    # the shipped network: a 4x4 game from a crowded board (a few hundred plies), its hint, analysis
    # and solve
    Shape(
        "2048-learned",
        f"2048 --position {CROWDED}",
        Tiles(start=CROWDED),
        {"expectimax": "expectimax:depth=1,eval=ntuple"},
        ("--depth", "1"),
    ),
    Shape("kalah-3-3", "kalah --pits 3 --seeds 3", Seeds(), SMALL),
    Shape(
        "kalah-6-4",
        "kalah",
        Seeds(),
        engines(2, 30),
        ("--depth", "6"),
        extra=(("random", "alphabeta:time=0.05"),),
    ),
    Shape("plates", "plates", Notes(), SMALL),
    Shape(
        "lab-tictactoe",
        "examples/tictactoe.py:TicTacToe",
        LabLines(3),
        SMALL,
        extra=(("examples/greedy.py:Greedy:seed=3", "human"),),
    ),
    Shape("subtraction", "examples/subtraction.py:Subtraction 20 --take 1,3,4", Takes(), SMALL),
    Shape(
        "openspiel-tic-tac-toe",
        "openspiel:tic_tac_toe",
        Spiel(),
        {
            **SMALL,
            "expectimax": "openspiel-ab:depth=2",
            "mcts": "openspiel-mcts:simulations=50,seed=1",
        },
    ),
    Shape(
        "openspiel-pig",
        "'openspiel:pig(winscore=8,horizon=40)'",
        Spiel(),
        {
            "minimax": "expectimax:depth=2",
            "negamax": "openspiel-ab:depth=2",
            "alphabeta": "expectimax:depth=3",
            "expectimax": "expectimax:depth=2",
            "mcts": "openspiel-mcts:simulations=50,seed=1",
        },
        ("--algorithm", "expectimax:depth=3"),
    ),
)
BY_NAME = {shape.name: shape for shape in SHAPES}


def pairings(shape: Shape) -> list[tuple[str, ...]]:
    """Who plays: a person against alpha-beta (asking hint and why), each other engine against a
    person or `random`, in both seats, and two people at one board; a one-player game, each
    alone."""
    game = games.create(shape.words)
    if game.players == 1:
        return [("human",), ("random",), *((spec,) for spec in shape.engines.values())]
    specs = shape.engines
    return [
        ("human", specs["alphabeta"]),
        (specs["minimax"], "random"),
        ("random", specs["negamax"]),
        (specs["expectimax"], "human"),
        ("human", specs["mcts"]),
        ("human", "human"),
        *shape.extra,
    ]


CASES = [
    pytest.param(shape.name, seats, id=f"{shape.name}:{'-vs-'.join(seats)}")
    for shape in SHAPES
    for seats in pairings(shape)
]


# Playing a journey.


@dataclass
class Journey:
    """One game played through the CLI: the run, its record, the positions, the commands typed."""

    run: subprocess.CompletedProcess[str]
    record: dict[str, Any]
    path: Path
    game: AnyGame
    states: list[Any]
    asked: list[tuple[str, Any]]


JOURNEYS: dict[tuple[str, tuple[str, ...]], Journey] = {}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the records go: a folder of their own, not the one the plugins were named from."""
    return tmp_path_factory.mktemp("journeys")


def journey(folder: Path, name: str, seats: tuple[str, ...]) -> Journey:
    """Play (once per module) `seats` at `name`'s game with a record; people at a pipe answer random
    legal moves. Two people at one board type a game drawn here into a real process."""
    key = (name, seats)
    if key in JOURNEYS:
        return JOURNEYS[key]
    shape = BY_NAME[name]
    path = folder / f"{name}-{len(JOURNEYS)}.json"
    words = shlex.split(shape.words)
    players = ["--first", seats[0], *(["--second", seats[1]] if len(seats) > 1 else [])]
    args = ["play", *words, *players, "--seed", "1", "--time", PLAY_TIME, "--record", str(path)]
    game = games.create(shape.words)
    if all(seat == "human" for seat in seats) and len(seats) == 2:
        typed, asked = drawn_game(game, seed=7)
        run = nimmax(*args, stdin="".join(line + "\n" for line in typed))
    else:
        person = PipedPerson(shape.words, seed=7, asks=ASKED if "human" in seats else None)
        run = nimmax_in_process(*args, stdin=person, cwd=ROOT)
        asked = person.asked
    record = json.loads(path.read_text()) if path.exists() else {}
    states = replayed(game, record.get("moves", []))
    JOURNEYS[key] = Journey(run, record, path, game, states, asked)
    return JOURNEYS[key]


def drawn_game(game: AnyGame, seed: int) -> tuple[list[str], list[tuple[str, Any]]]:
    """A whole game of random legal moves for two people at one board, as typed, with `hint` asked
    at the second prompt; and what was asked where."""
    rng = random.Random(seed)
    state, typed, asked = game.initial_state(), list[str](), list[tuple[str, Any]]()
    while not game.is_terminal(state):
        if len(typed) == 1:
            typed.append("hint")
            asked.append(("hint", state))
        move = rng.choice(list(game.actions(state)))
        typed.append(game.format_move(move))
        state = game.result(state, move)
    return typed, asked


# What is read off the screen.


def banner(screen: str) -> list[str]:
    """The lines of the last panel on the screen (the result banner), its frame stripped."""
    lines = screen.splitlines()
    top = max(at for at, line in enumerate(lines) if line.startswith("╭"))
    bottom = next(at for at in range(top, len(lines)) if lines[at].startswith("╰"))
    return [line.strip("│ ").rstrip() for line in lines[top + 1 : bottom]]


def banner_winner(game: AnyGame, first: str) -> int | None:
    """The seat the banner's first line says won, or None (a draw, or no one "wins")."""
    if " wins" not in first:
        return None
    label = first.split(" wins")[0]
    named = [
        seat
        for seat, name in enumerate(game.player_names)
        if label == name or label.startswith(name + " (")
    ]
    assert len(named) == 1, f"the banner names no one seat: {first!r}"
    return named[0]


def why_values(screen: str) -> list[float]:
    """The values of `why`'s table, row by row (the played move's first), as numbers."""
    lines = screen.splitlines()
    start = next(
        (at for at, line in enumerate(lines) if re.match(r"^why .+ played \S+:$", line)), len(lines)
    )
    values = []
    for line in lines[start + 3 :]:
        if "│" not in line:
            break
        move, value, *_ = (cell.strip() for cell in line.split("│"))
        if move:  # not a continuation of a folded line
            values.append(float(value.split()[0].replace(",", "")))
    return values


DEPTH = re.compile(r"depth (\d+)")


def depths_within(shape: Shape, game: AnyGame, screen: str) -> list[str]:
    """Every depth the screen shows that is past the plies left where it was shown: a status line at
    the position before its move, a hint at the position it was asked in, `why` at the position
    before the engine's last move."""
    referee = shape.referee
    state, before_engine, wrong = game.initial_state(), game.initial_state(), []
    for line in screen.splitlines():
        shown = moves_shown(line)
        at = state
        if shown and " plays " in line and "nodes" in line:
            before_engine = state
        elif not shown and not line.startswith("hint:"):
            at = before_engine  # a row of the why table
        for depth in DEPTH.findall(line):
            left = referee.plies_left(game, at)
            if left is not None and int(depth) > left:
                wrong.append(f"depth {depth} with {left} plies left: {line.strip()}")
        if shown:
            state = game.result(state, game.parse_move(shown[0], state))
    return wrong


def named(shape: Shape) -> list[str]:
    """What a person adds to replay or analyze a plugin game's record: the plugin, named (issue 29:
    a record never runs code the person did not name), by a path that holds from the record's
    folder."""
    reference = shlex.split(shape.words)[0]
    return ["--plugin", str(ROOT / reference.split(":")[0])] if ".py:" in reference else []


# The tests.


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_a_whole_game_ends_with_the_right_banner_and_replays(
    folder: Path, name: str, seats: tuple[str, ...]
) -> None:
    """Played to its end: exit 0, the banner's winner the referee's, the record the same game, every
    depth within the game, hint and why answered; then the record replays to the same banner from
    its own folder."""
    shape = BY_NAME[name]
    played = journey(folder, name, seats)
    ran_clean(played.run)
    screen, game, states = played.run.stdout, played.game, played.states
    moves = played.record["moves"]
    assert moves_shown(screen) == moves, "the screen shows the game the record holds"
    assert game.is_terminal(states[-1]), "the game was played to its end"
    verdict = shape.referee.verdict(game, moves, states[-1])
    shown = banner(screen)
    assert banner_winner(game, shown[0]) == verdict.winner, shown
    assert verdict.words in shown[0]
    assert played.record["result"]["finished"] is True
    if not isinstance(shape.referee, Notes):  # the plates game has no winner, only the note A keeps
        assert played.record["result"]["winner"] == verdict.winner
    assert depths_within(shape, game, screen) == []
    for command, state in played.asked:
        if command == "hint":
            hint = re.search(r"^hint: (\S+)", screen, re.MULTILINE)
            assert hint is not None, "hint answered"
            assert game.parse_move(hint.group(1), state) in game.actions(state)
        if command == "why":
            assert re.search(
                r"^why .+ played \S+:$|^no engine has moved yet", screen, re.MULTILINE
            ), "why answered"
            values = why_values(screen)
            # Monte Carlo orders by its visits
            by_value = not re.search(r"^why .*\(mcts", screen, re.MULTILINE)
            assert not by_value or values[1:] == sorted(values[1:], reverse=True), (
                f"why's moves not best first: {values}"
            )
    replay = nimmax_in_process("replay", played.path.name, *named(shape), cwd=played.path.parent)
    ran_clean(replay)
    assert moves_shown(replay.stdout) == moves
    assert banner(replay.stdout) == shown


@pytest.mark.parametrize("name", [shape.name for shape in SHAPES])
def test_the_record_of_a_person_against_alphabeta_is_analysed(folder: Path, name: str) -> None:
    """`analyze --time 0.05` of a whole game: one row a move (chance's draws aside), the decisive
    ply one of them."""
    played = journey(folder, name, pairings(BY_NAME[name])[0])
    assert played.record, played.run.stderr
    run = nimmax_in_process(
        "analyze", played.path.name, "--time", "0.05", *named(BY_NAME[name]), cwd=played.path.parent
    )
    ran_clean(run)
    plies = [
        ply
        for ply, state in enumerate(played.states[:-1], start=1)
        if played.game.to_move(state) != CHANCE
    ]
    rows = re.findall(r"^│\s+(\d+) │", run.stdout, re.MULTILINE)
    assert [int(row) for row in rows] == plies
    decided = re.search(r"Decided at ply (\d+)", run.stdout)
    assert decided is None or int(decided.group(1)) in plies


def middle(shape: Shape, played: Journey) -> tuple[list[str], Any]:
    """Game words starting at the middle of the journey's game (a position where a player moves),
    and it."""
    game, states = played.game, played.states
    candidates = [
        at for at in range(len(states) // 2, len(states)) if not game.is_terminal(states[at])
    ]
    at = next(at for at in candidates if game.to_move(states[at]) != CHANCE)
    words = shape.referee.middle(shape.words, game, states[at])
    return (
        (words, states[at])
        if words is not None
        else (shlex.split(shape.words), game.initial_state())
    )


@pytest.mark.parametrize("name", [shape.name for shape in SHAPES])
def test_the_middle_position_is_solved_and_explained_best_move_first(
    folder: Path, name: str
) -> None:
    """`solve --explain` and `solve --json` of the middle position of a person's game against
    alpha-beta: the best move first in the table, the tree and the JSON; no depth past the plies
    left; Nim's values those of theory."""
    shape = BY_NAME[name]
    played = journey(folder, name, pairings(shape)[0])
    assert played.record, played.run.stderr
    words, state = middle(shape, played)
    game = games.create(words)
    left = shape.referee.plies_left(game, game.initial_state())
    explained = nimmax_in_process("solve", *words, *shape.solve, "--explain", cwd=ROOT)
    ran_clean(explained)
    best = best_listed_first(explained.stdout)
    branches = re.findall(r"^[├└]── (\S+)  .*?(best)?$", explained.stdout, re.MULTILINE)
    assert branches[0] == (best, "best"), (
        f"the tree's first branch is not the table's best: {branches[:3]}"
    )
    assert [move for move, marked in branches if marked] == [best]
    shown = [int(depth) for depth in DEPTH.findall(explained.stdout)]
    assert left is None or all(depth <= left for depth in shown), (
        f"depths {shown} with {left} plies left"
    )
    answer = nimmax_in_process("solve", *words, *shape.solve, "--json", cwd=ROOT)
    ran_clean(answer)
    solved = json.loads(answer.stdout)
    best_listed_first(answer.stdout)
    if not shape.solve:  # searched to the end both times: the same best
        assert solved["best_move"] == best
    assert left is None or solved["depth"] <= left
    if isinstance(shape.referee, Counters) and solved["exact"]:
        piles = Counters.piles(game, game.initial_state())
        max_take = int(words[words.index("--max-take") + 1]) if "--max-take" in words else 3
        assert (solved["value"] > 0) == shape.referee.mover_wins(piles, max_take)
