"""The `book` capability and Connect Four 7x6's opening books, against independent truths: a
small exact solver written here, the books' consistency with each other, and the published
facts of Connect Four (the first player wins, only by starting in the centre, in 41 plies)."""

from __future__ import annotations

import functools
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict

import pexpect
from hypothesis import given, settings
from hypothesis import strategies as st

from nimmax.game import Capability, Known, winner_of
from nimmax.games import connect4_book, create
from nimmax.games.mnk import MNK, Board
from nimmax.search import SCALE, search
from nimmax.search.alphabeta import AlphaBeta
from nimmax.search.deepening import search_root
from nimmax.search.minimax import Negamax
from nimmax.search.score import FULL_DEPTH, split

from .cli_helpers import ROOT, nimmax_in_process
from .test_play_pty import shown, spawn


def create_mnk(words: list[str]) -> MNK:
    """An m,n,k game from its words, typed as one."""
    game = create(words)
    assert isinstance(game, MNK)
    return game


CONNECT4 = create_mnk(["connect4"])
ROWS, COLUMNS = 6, 7


def played(moves: str, game: MNK = CONNECT4) -> Board:
    """The position after `moves`, columns as letters."""
    state = game.initial_state()
    for letter in moves:
        state = game.result(state, "abcdefg".index(letter))
    return state


# -- an independent reading of the books' codes, and a small exact solver ------------------


def decode(code: int, bits: int) -> list[str]:
    """The columns (bottom first, 'x' and 'o') a book code names: 10 is x, 11 is o, 0 ends a
    column."""
    text = format(code & (1 << bits) - 1, f"0{bits}b")
    columns, column, at = list[str](), "", 0
    while len(columns) < COLUMNS:
        if text[at] == "0":
            columns.append(column)
            column, at = "", at + 1
        else:
            column += "x" if text[at + 1] == "0" else "o"
            at += 2
    return columns


def position_text(columns: list[str]) -> str:
    """The `--position` text (rows from the top) of columns given bottom first."""
    return "/".join(
        "".join(column[row] if row < len(column) else "." for column in columns)
        for row in reversed(range(ROWS))
    )


def four(columns: list[list[str]], col: int, mark: str) -> bool:
    """Whether `mark` dropped into column `col` makes four in a row."""
    row = len(columns[col])
    for step_col, step_row in ((1, 0), (0, 1), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            c, r = col + sign * step_col, row + sign * step_row
            while 0 <= c < COLUMNS and 0 <= r < len(columns[c]) and columns[c][r] == mark:
                count, c, r = count + 1, c + sign * step_col, r + sign * step_row
        if count >= 4:
            return True
    return False


def wins_within(columns: list[list[str]], mark: str, plies: int) -> bool:
    """Whether `mark`, to move, forces four in a row within `plies` plies (its own last stone
    included)."""
    other = "o" if mark == "x" else "x"
    open_columns = [col for col in range(COLUMNS) if len(columns[col]) < ROWS]
    if plies < 1:
        return False
    if any(four(columns, col, mark) for col in open_columns):
        return True
    if plies < 3:
        return False
    for col in open_columns:
        columns[col].append(mark)
        replies = [reply for reply in range(COLUMNS) if len(columns[reply]) < ROWS]
        forced = bool(replies)
        for reply in replies:
            if four(columns, reply, other):
                forced = False
            else:
                columns[reply].append(other)
                forced = wins_within(columns, mark, plies - 2)
                columns[reply].pop()
            if not forced:
                break
        columns[col].pop()
        if forced:
            return True
    return False


def loses_within(columns: list[list[str]], mark: str, plies: int) -> bool:
    """Whether every move of `mark`, to move, lets the other side force a four within `plies` plies
    of now."""
    other = "o" if mark == "x" else "x"
    for col in range(COLUMNS):
        if len(columns[col]) < ROWS:
            if four(columns, col, mark):
                return False
            columns[col].append(mark)
            lost = wins_within(columns, other, plies - 1)
            columns[col].pop()
            if not lost:
                return False
    return True


def test_short_wins_and_losses_of_the_12_stone_book_agree_with_a_small_solver() -> None:
    book = connect4_book.twelve()
    rng = random.Random(31)
    checked = 0
    while checked < 24:
        index = rng.randrange(len(book.keys))
        value = book.values[index] - 256 if book.values[index] > 127 else book.values[index]
        plies = 100 - abs(value)
        if value == 0 or plies > 6:
            continue
        columns = decode(book.keys[index], 32)
        assert sum(map(len, columns)) == 12
        known = CONNECT4.book(CONNECT4.notation.read_position(position_text(columns)))
        assert known == Known(1.0 if value > 0 else -1.0, plies, True)
        grid = [list(column) for column in columns]
        if value > 0:
            assert wins_within(grid, "x", plies) and not wins_within(grid, "x", plies - 2)
        else:
            assert loses_within(grid, "x", plies) and not loses_within(grid, "x", plies - 2)
        checked += 1


def four_plies_on(state: Board) -> float:
    """The payoff for the side to move of an 8-stone position, by plain minimax over four plies
    down to the 12-stone book (the 8-stone book left unread)."""
    game = CONNECT4
    if game.is_terminal(state):
        return game.utility(state, game.to_move(state))
    if (state.x | state.o).bit_count() == 12:
        known = game.book(state)
        assert known is not None and (known.exact or known.payoff == 1)
        return known.payoff
    return max(-four_plies_on(game.result(state, move)) for move in game.actions(state))


def test_the_8_stone_book_agrees_with_four_plies_of_the_12_stone_book() -> None:
    eight = connect4_book.eight()
    rng = random.Random(8)
    for wanted in (0.0, -1.0):  # the book lists draws and losses for X
        for index in rng.sample(
            [i for i in range(len(eight.keys)) if -(eight.keys[i] & 3) == wanted], 4
        ):
            state = CONNECT4.notation.read_position(
                position_text(decode(eight.keys[index] & ~3, 24))
            )
            known = CONNECT4.book(state)
            assert known is not None and known.payoff == wanted
            assert four_plies_on(state) == wanted
    for _ in range(4):  # and a position it lacks is a win
        state = played("".join(rng.choice("abcdefg") for _ in range(8)))
        known = CONNECT4.book(state) if not CONNECT4.is_terminal(state) else None
        if known is not None and known.payoff == 1:
            assert four_plies_on(state) == 1


def test_the_books_answer_for_a_position_and_its_mirror_image_alike() -> None:
    rng = random.Random(12)
    for _ in range(40):
        moves = "".join(rng.choice("abcdefg") for _ in range(12))
        mirror = "".join("gfedcba"["abcdefg".index(letter)] for letter in moves)
        try:
            state, image = played(moves), played(mirror)
        except ValueError:
            continue
        if not CONNECT4.is_terminal(state):
            assert CONNECT4.book(state) == CONNECT4.book(image) is not None


def test_the_books_are_asked_only_at_8_and_12_stones() -> None:
    assert CONNECT4.book(played("")) is None
    assert CONNECT4.book(played("dddc")) is None
    assert CONNECT4.book(played("ddddcccc")) is not None
    assert (
        create_mnk(["connect4", "--rows", "5"]).book(
            played("ddddcccc", create_mnk(["connect4", "--rows", "5"]))
        )
        is None
    )


def test_the_12_stone_book_loads_in_under_a_second_into_compact_arrays() -> None:
    code = (
        "import time, resource; from nimmax.games import connect4_book as book;"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; start = time.perf_counter();"
        "twelve = book.twelve(); took = time.perf_counter() - start;"
        "grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before;"
        "print(took, grown, len(twelve.keys))"
    )
    output = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    ).stdout.split()
    seconds, kilobytes, entries = float(output[0]), int(output[1]), int(output[2])
    assert entries == 4_200_899
    assert seconds < 1.0
    assert kilobytes < 80 * 1024


# -- the published facts --------------------------------------------------------------------


def test_the_first_player_wins_only_by_starting_in_the_centre() -> None:
    """The books know the payoff, and the plies only as the most the game can last: the win is
    proven, its distance (41 plies, X's 21st stone) bounded by the 42 cells."""
    start = CONNECT4.initial_state()
    result = search(CONNECT4, start, "alphabeta", every_move=True, time=float("inf"))
    assert result.exact and result.moves_proven
    assert result.value == 1 and CONNECT4.format_move(result.move) == "d"
    assert {CONNECT4.format_move(move): value for move, value in result.moves} == {
        "d": 1,
        "c": 0,
        "e": 0,
        "a": -1,
        "b": -1,
        "f": -1,
        "g": -1,
    }
    assert not result.distance_exact
    searcher = AlphaBeta(CONNECT4)
    best, move, _ = search_root(searcher, start, FULL_DEPTH, every_move=False)
    assert CONNECT4.format_move(move) == "d"
    payoff, plies = split(best)
    assert payoff == 1 and 41 <= plies <= 42 and searcher.rough


# -- engines with a book equal engines without it -------------------------------------------


class Booked(MNK):
    """Tic-tac-toe on 4x3 (k=3) with a book of its own at `stones` stones: the exact values by
    the small solver below, or the payoff alone (the plies then the most the game can last)."""

    def __init__(self, stones: int, exact: bool) -> None:
        super().__init__(3, 4, 3)
        self.capabilities = self.capabilities | {Capability.BOOK}
        self.stones, self.exact = stones, exact

    def book(self, state: Board) -> Known | None:
        taken = (state.x | state.o).bit_count()
        if taken != self.stones or state.outcome:
            return None
        payoff, plies = solved(self, state)
        return Known(
            payoff, plies if self.exact else self.geometry.cells - taken, self.exact or payoff == 0
        )


class Ranged(Booked):
    """Booked, declaring its payoff range: every end is a win, a draw or a loss (+1, 0, -1)."""

    def __init__(self, stones: int, exact: bool) -> None:
        super().__init__(stones, exact)
        self.capabilities = self.capabilities | {Capability.BOUNDS}

    def utility_bounds(self, state: Board) -> tuple[float, float]:
        return -1.0, 1.0


def solved(game: MNK, state: Board) -> tuple[float, int]:
    """The payoff for the side to move and the plies to the end with best play (the quickest win,
    the slowest loss), by plain negamax over the rules."""
    return _solved(game.geometry.rows, game.geometry.cols, game.geometry.k, state)


@functools.cache
def _solved(rows: int, cols: int, k: int, state: Board) -> tuple[float, int]:
    game = MNK(rows, cols, k)
    if game.is_terminal(state):
        return game.utility(state, game.to_move(state)), 0
    best: tuple[float, int] | None = None
    for move in game.actions(state):
        payoff, plies = _solved(rows, cols, k, game.result(state, move))
        mine = (-payoff, plies + 1)
        rank = (mine[0], -mine[1] if mine[0] > 0 else mine[1])
        if best is None or rank > (best[0], -best[1] if best[0] > 0 else best[1]):
            best = mine
    assert best is not None
    return best


def scored(searcher_type: Callable[..., Any], game: MNK, state: Board) -> float:
    """The root's best score (payoff and distance together) by a straight exact search."""
    best, _, _ = search_root(searcher_type(game), state, FULL_DEPTH, every_move=False)
    return best


class Cached(TypedDict, total=False):
    """The cache option `search` takes by keyword."""

    cache: bool


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 11), min_size=4, max_size=7), st.integers(5, 9), st.booleans())
def test_engines_with_a_book_equal_engines_without_it(
    moves: list[int], stones: int, exact: bool
) -> None:
    plain, booked = MNK(3, 4, 3), Booked(stones, exact)
    state = plain.initial_state()
    # each drawn number picks one of the legal moves: at least 4 stones, a small tree
    for move in moves:
        if plain.is_terminal(state):
            break
        legal = list(plain.actions(state))
        state = plain.result(state, legal[move % len(legal)])
    if plain.is_terminal(state):
        return
    payoff, plies = solved(plain, state)
    truth = payoff * SCALE - plies if payoff > 0 else payoff * SCALE + plies if payoff < 0 else 0.0
    # Negamax, the oracle, searches on below a bounded distance; alpha-beta proves the payoff
    # and reads the distance at the book's bound (so its scores may differ in distance alone).
    assert scored(Negamax, plain, state) == scored(Negamax, booked, state) == truth
    assert scored(AlphaBeta, plain, state) == truth
    assert split(scored(AlphaBeta, booked, state))[0] == payoff
    if exact:
        assert scored(AlphaBeta, booked, state) == truth
    runs: tuple[tuple[str, Cached], ...] = (
        ("alphabeta", {}),
        ("negamax", {}),
        ("minimax", {"cache": False}),
    )
    for spec, options in runs:
        without = search(plain, state, spec, every_move=True, time=float("inf"), **options)
        with_book = search(booked, state, spec, every_move=True, time=float("inf"), **options)
        assert with_book.exact and with_book.value == without.value == payoff
        assert dict(with_book.moves) == dict(without.moves)
        assert with_book.moves == without.moves or not with_book.distance_exact
        limited = search(booked, state, spec, depth=3, **options)  # a payoff is proven at the book
        if limited.exact:
            assert limited.value == payoff
    monte = search(booked, state, "mcts", iterations=20_000, seed=1)
    # A root settled as won or lost stops at once, its value the bound that decides it: without the
    # game's payoff range that bound is exact only where the bounds met; with it (-1 to +1), always.
    assert monte.value == payoff and (monte.exact or (payoff != 0 and monte.nodes < 20_000))
    ranged = search(Ranged(stones, exact), state, "mcts", iterations=20_000, seed=1)
    assert ranged.value == payoff and ranged.exact


def test_mcts_marks_a_book_position_proven_at_once() -> None:
    state = played("dddcccc")  # O's move leads to 8 stones, every child a book position
    result = search(CONNECT4, state, "mcts", iterations=200, seed=1)
    off = search(CONNECT4, state, "mcts", iterations=200, seed=1, book=False)
    assert result.exact and not off.exact


def test_book_off_searches_connect_four_node_for_node_as_a_game_without_a_book() -> None:
    bookless = create(["connect4"])
    bookless.capabilities = bookless.capabilities - {Capability.BOOK}  # the instance's declaration
    state = played("ddcc")
    for engine in ("alphabeta", "negamax"):
        off = search(CONNECT4, state, engine, depth=4, book=False)
        plain = search(bookless, state, engine, depth=4)
        assert (off.nodes, off.value, off.move) == (plain.nodes, plain.value, plain.move)
    with_book = search(CONNECT4, state, "alphabeta", depth=4)
    assert with_book.exact and with_book.value == 1


def test_a_limited_search_proves_the_outcome_of_every_opening_position_it_can_reach() -> None:
    for moves in ("", "d", "dd", "dc", "ddd", "ddcc"):
        state = played(moves)
        result = search(CONNECT4, state, "alphabeta", time=2.0)
        assert result.exact, moves
        assert result.value == (1 if len(moves) % 2 == 0 else -1), moves


def test_solve_connect4_proves_the_start_and_prints_the_line_to_the_book() -> None:
    started = time.perf_counter()
    done = nimmax_in_process("solve", "connect4")
    assert done.returncode == 0, done.stderr
    assert time.perf_counter() - started < 60
    assert "value +1 (win, proven)" in done.stdout
    assert re.search(r"│ d +← best │ +\+1 │ win", done.stdout)
    line = re.search(r"best line ((?:[a-g] ?)+)", done.stdout)
    assert line is not None and len(line[1].split()) in (8, 12)  # to a book: 8 or 12 stones


# -- a game against a defender, and Connect Four without the books ---------------------------


def test_the_engine_as_first_player_wins_proven_from_the_first_move_within_2_s() -> None:
    child = spawn("play", "connect4", "--first", "alphabeta", "--second", "human")
    child.timeout = 60
    state, ply, seconds = CONNECT4.initial_state(), 0, []
    engine_line = r"^ ([a-g])\s+value (.*?) · [\d,]+ nodes · ([\d.]+) s"
    while True:
        # the engine's move, then the prompt for ours (or the end)
        child.expect(shown("X (alphabeta) plays"))
        ended = child.expect([shown("O ›"), pexpect.EOF])
        line = re.search(engine_line, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before))
        assert line is not None
        seconds.append(float(line[3]))
        # the first player's win, proven at every move
        assert line[2] == "+1 (win, proven)", (ply, line[2])
        state = CONNECT4.result(state, "abcdefg".index(line[1]))
        ply += 1
        if ended or CONNECT4.is_terminal(state):
            break
        reply = search(
            CONNECT4, state, "alphabeta", nodes=20_000
        ).move  # the defender: the books, then depth (counted, so the same game on any machine)
        child.send(f"{CONNECT4.format_move(reply)}\r")
        state = CONNECT4.result(state, reply)
        ply += 1
        if CONNECT4.is_terminal(state):
            break
    child.expect(pexpect.EOF)
    assert winner_of(CONNECT4, state) == 0
    assert max(seconds) <= 2.0


LOST = "ddddddcbaeebaeaabbeeebbffffffaaggggggcc"
"""A game X wins: X gives its win away at ply 9, O gives its own back at ply 12 (a perfect solver's
moves otherwise, written down here), so the game is decided at ply 12, where the 12-stone book
reaches."""


def book_outcome(state: Board) -> float:
    """The payoff for the side to move of a 12-stone position, or of a finished one: the book's, or
    the rules'."""
    if CONNECT4.is_terminal(state):
        return CONNECT4.utility(state, CONNECT4.to_move(state))
    known = CONNECT4.book(state)
    assert known is not None
    return known.payoff


def test_analyze_names_the_ply_the_books_prove_decided_a_lost_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    moves = "\n".join(LOST) + "\n"
    recorded = nimmax_in_process(
        "play",
        "connect4",
        "--first",
        "human",
        "--second",
        "human",
        "--record",
        str(path),
        stdin=moves,
    )
    assert recorded.returncode == 0 and winner_of(CONNECT4, played(LOST)) == 0
    # O to move, 11 stones: each reply's payoff for O from the 12-stone book
    before = played(LOST[:11])
    replies = {
        "abcdefg"[col]: -book_outcome(CONNECT4.result(before, col))
        for col in CONNECT4.actions(before)
    }
    assert max(replies.values()) == 1 and replies[LOST[11]] == -1  # O could win, and played a loss
    # One run of the whole game (some 5 s: past the books the proof's questions are counted in
    # nodes, not seconds).
    done = nimmax_in_process("analyze", str(path), "--time", "0.05")
    assert done.returncode == 0, done.stderr
    rows = {
        int(row[0]): row[1:]
        for row in re.findall(
            r"│ +(\d+) │ (\w) \(human\) │ (\w) +│ (\w+) +│ +(\S+)( ~)? │ *(\S*)", done.stdout
        )
    }
    assert [ply for ply, row in rows.items() if row[2] == "mistake"][-1] == 12
    # proven: no estimate's ~
    assert rows[12] == ("O", "b", "mistake", "-1", "", "e") and replies["e"] == 1
    assert (
        "Decided at ply 12: O played b (loss); e kept the win. Both outcomes proven." in done.stdout
    )


HIDDEN = """
import sys
class Hide:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.split(".")[0] == "bitbully_databases":
            raise ModuleNotFoundError(name)
sys.meta_path.insert(0, Hide)
from nimmax.cli import main
sys.exit(main(sys.argv[1:]))
"""


def hidden(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """nimmax run with the books' package hidden from the import system."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-c", HIDDEN, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_without_the_books_connect_four_plays_and_says_how_to_get_them() -> None:
    listed = hidden("games")
    assert listed.returncode == 0 and "pip install 'nimmax[books]'" in listed.stdout
    game = hidden(
        "play", "connect4", "--first", "alphabeta:depth=2", "--second", "alphabeta:depth=2"
    )
    assert game.returncode == 0, game.stderr
    assert (
        "Perfect play from the first move with the opening books: pip install 'nimmax[books]'"
        in game.stdout
    )
    assert re.search(r"(X|O) \(alphabeta:depth=2\) wins|draw", game.stdout)
    solved_line = hidden(
        "solve",
        "connect4",
        "--position",
        "......./......./......./......./......./...x...",
        "--depth",
        "3",
    )
    assert solved_line.returncode == 0 and "estimate" in solved_line.stdout
