"""m,n,k games and Connect Four: rules, notation, positions, published results, and an
independent solver (plain recursion over lists of strings, sharing no nimmax code) that
every engine must agree with."""

from __future__ import annotations

import itertools
import json
import pickle
import time
from collections.abc import Sequence
from functools import cache
from math import inf
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text

from nimmax import games
from nimmax.game import BadGameSpec, IllegalMove, winner_of
from nimmax.games import mnk
from nimmax.games.mnk import BEAM, MNK, Board
from nimmax.search import search
from nimmax.search.alphabeta import AlphaBeta
from nimmax.search.deepening import iterate
from nimmax.ui.render import render

from .cli_helpers import nimmax

# -- the independent solver ----------------------------------------------------------------
# A position is a tuple of row strings from the top, cells 'x', 'o', '.'; x moves first.


def oracle_lines(rows: int, cols: int, k: int) -> list[list[tuple[int, int]]]:
    """Every k cells in a row, column or diagonal."""
    found = []
    for row, col in itertools.product(range(rows), range(cols)):
        for down, right in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cells = [(row + down * step, col + right * step) for step in range(k)]
            if all(0 <= r < rows and 0 <= c < cols for r, c in cells):
                found.append(cells)
    return found


def oracle_won(board: tuple[str, ...], mark: str, k: int) -> bool:
    return any(
        all(board[r][c] == mark for r, c in line)
        for line in oracle_lines(len(board), len(board[0]), k)
    )


def oracle_mover(board: tuple[str, ...]) -> str:
    text = "".join(board)
    return "x" if text.count("x") == text.count("o") else "o"


def oracle_moves(board: tuple[str, ...], gravity: bool) -> list[tuple[int, int]]:
    """Empty cells; under gravity only the lowest empty cell of each column."""
    rows, cols = len(board), len(board[0])
    if gravity:
        moves = []
        for col in range(cols):
            empty = [row for row in range(rows) if board[row][col] == "."]
            if empty:
                moves.append((max(empty), col))
        return moves
    return [(r, c) for r in range(rows) for c in range(cols) if board[r][c] == "."]


def oracle_play(board: tuple[str, ...], cell: tuple[int, int]) -> tuple[str, ...]:
    row, col = cell
    line = board[row]
    return board[:row] + (line[:col] + oracle_mover(board) + line[col + 1 :],) + board[row + 1 :]


def oracle_over(board: tuple[str, ...], k: int) -> bool:
    return oracle_won(board, "x", k) or oracle_won(board, "o", k) or "." not in "".join(board)


@cache
def oracle_value(board: tuple[str, ...], k: int, gravity: bool) -> int:
    """+1, 0 or -1 for the side to move, by trying every move."""
    if oracle_won(board, "x", k) or oracle_won(board, "o", k):
        return -1  # the side that just moved made the line
    moves = oracle_moves(board, gravity)
    if not moves:
        return 0
    return max(-oracle_value(oracle_play(board, cell), k, gravity) for cell in moves)


def oracle_positions(rows: int, cols: int, k: int, gravity: bool) -> set[tuple[str, ...]]:
    """Every position reachable from the empty board."""
    start = tuple("." * cols for _ in range(rows))
    seen, todo = {start}, [start]
    while todo:
        board = todo.pop()
        if oracle_over(board, k):
            continue
        for cell in oracle_moves(board, gravity):
            child = oracle_play(board, cell)
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def create_mnk(words: str) -> MNK:
    """An m,n,k game from its words, typed as one."""
    game = games.create(words)
    assert isinstance(game, MNK)
    return game


def game_for(rows: int, cols: int, k: int, gravity: bool) -> MNK:
    words = f"tictactoe --rows {rows} --cols {cols} --k {k}" + (" --gravity" if gravity else "")
    return create_mnk(words)


def cell_name(game: MNK, cell: tuple[int, int]) -> str:
    """The oracle's cell in nimmax notation (a column letter under gravity)."""
    row, col = cell
    return "abcdefghijklmnopqrstuvwxyz"[col] + ("" if game.geometry.gravity else str(row + 1))


# -- published results and the 3x3 tree -----------------------------------------------------


def test_plain_minimax_visits_the_whole_3x3_tree_and_finds_a_draw() -> None:
    game = create_mnk("tictactoe")
    result = search(game, game.initial_state(), "minimax", cache=False, time=inf)
    assert result.nodes == 549_946
    assert result.value == 0 and result.exact


def test_every_engine_agrees_on_every_opening_move_of_3x3() -> None:
    game = create_mnk("tictactoe")
    state = game.initial_state()
    truth = {
        cell_name(game, cell): -oracle_value(oracle_play(("...",) * 3, cell), 3, False)
        for cell in oracle_moves(("...",) * 3, False)
    }
    assert set(truth.values()) == {0}
    for engine in ("minimax", "negamax", "alphabeta", "expectimax"):
        result = search(game, state, engine, every_move=True, cache=True, time=inf)
        assert result.value == 0
        assert {game.format_move(move): value for move, value in result.moves} == truth


@pytest.mark.parametrize(
    ("words", "value"),
    [
        ("tictactoe", 0),  # 3x3 k=3: draw
        ("tictactoe --rows 3 --cols 4 --k 3", 1),  # 4x3 k=3: first player wins
        ("tictactoe --size 4 --k 3", 1),  # 4x4 k=3: first player wins
        ("tictactoe --size 4", 0),  # 4x4 k=4: draw
        ("connect4 --rows 4 --cols 4", 0),  # Connect Four 4x4: draw
        ("connect4 --rows 4 --cols 5", 0),  # Connect Four 4 rows x 5 columns: draw
    ],
)
def test_published_results(words: str, value: int) -> None:
    game = create_mnk(words)
    result = search(game, game.initial_state(), "alphabeta", time=inf)
    assert result.exact and result.value == value


def test_4x3_transposed_is_the_same_game() -> None:
    game = create_mnk("tictactoe --rows 4 --cols 3 --k 3")
    assert search(game, game.initial_state(), "alphabeta", time=inf).value == 1


# -- agreement with the independent solver ---------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "cols", "k", "gravity"), [(3, 3, 3, False), (2, 4, 2, False), (3, 3, 3, True)]
)
def test_alphabeta_agrees_with_the_oracle_on_every_position(
    rows: int, cols: int, k: int, gravity: bool
) -> None:
    game = game_for(rows, cols, k, gravity)
    for board in oracle_positions(rows, cols, k, gravity):
        state = game.notation.read_position("/".join(board))
        assert game.is_terminal(state) == oracle_over(board, k)
        if game.is_terminal(state):
            continue
        result = search(game, state, "alphabeta", time=inf)
        assert result.value == oracle_value(board, k, gravity), board
        best = game.format_move(result.move)
        best_cells = [
            cell for cell in oracle_moves(board, gravity) if cell_name(game, cell) == best
        ]
        assert -oracle_value(oracle_play(board, best_cells[0]), k, gravity) == result.value


Case = tuple[tuple[int, int, int, bool], tuple[str, ...], list[tuple[int, int]]]


@st.composite
def midgame(draw: st.DrawFn) -> Case:
    """A board shape, a position reached by random moves from the empty board, and those moves."""
    shape = draw(
        st.sampled_from(
            [
                (4, 4, 3, False),
                (3, 4, 3, False),
                (4, 4, 4, False),
                (4, 5, 4, True),
                (4, 4, 3, True),
                (5, 5, 4, False),
            ]
        )
    )
    rows, cols, k, gravity = shape
    board, played = tuple("." * cols for _ in range(rows)), list[tuple[int, int]]()
    # At most 8 empty cells left, so that the plain-recursion oracle stays quick.
    for _ in range(draw(st.integers(rows * cols - 8, rows * cols - 1))):
        if oracle_over(board, k):
            break
        cell = draw(st.sampled_from(oracle_moves(board, gravity)))
        board, played = oracle_play(board, cell), played + [cell]
    return shape, board, played


@given(midgame())
def test_every_root_move_agrees_with_the_oracle_midgame(case: Case) -> None:
    (rows, cols, k, gravity), board, _ = case
    game = game_for(rows, cols, k, gravity)
    state = game.notation.read_position("/".join(board))
    if game.is_terminal(state):
        return
    result = search(game, state, "alphabeta", every_move=True, time=inf)
    truth = {
        cell_name(game, cell): -oracle_value(oracle_play(board, cell), k, gravity)
        for cell in oracle_moves(board, gravity)
    }
    assert {game.format_move(move): value for move, value in result.moves} == truth
    assert result.value == oracle_value(board, k, gravity)


# -- representation ---------------------------------------------------------------------------


def oracle_symmetries(board: tuple[str, ...], gravity: bool) -> list[tuple[str, ...]]:
    mirrored = tuple(row[::-1] for row in board)
    images = [board, mirrored]
    if not gravity:
        images += [board[::-1], mirrored[::-1]]
        if len(board) == len(board[0]):
            transposed = tuple("".join(column) for column in zip(*board, strict=True))
            images += [
                transposed,
                tuple(row[::-1] for row in transposed),
                transposed[::-1],
                tuple(row[::-1] for row in transposed[::-1]),
            ]
    return images


@given(midgame())
def test_symmetric_positions_share_a_key_and_threats_are_kept_right(case: Case) -> None:
    (rows, cols, k, gravity), board, played = case
    game = game_for(rows, cols, k, gravity)
    state = game.notation.read_position("/".join(board))
    for image in oracle_symmetries(board, gravity):
        assert game.key(game.notation.read_position("/".join(image))) == game.key(state)
    # The threats `result` keeps up move by move match a count from scratch.
    replayed = game.initial_state()
    for row, col in played:
        replayed = game.result(replayed, col if gravity else game.geometry.bit(row, col))
    assert replayed.x == state.x and replayed.o == state.o and replayed.outcome == state.outcome
    if not game.is_terminal(replayed):
        assert replayed.x_threats == game.geometry.threats_of(state.x, state.o)
        assert replayed.o_threats == game.geometry.threats_of(state.o, state.x)
        assert replayed.images == state.images


@given(midgame())
def test_remembered_moves_are_the_empty_cells_and_a_game_pickles_without_them(case: Case) -> None:
    """Small boards remember each set of taken cells' moves for a search: asked again, or asked
    of a copy sent to another process, a position gets the very moves the oracle lists."""
    (rows, cols, k, gravity), board, _ = case
    bare = game_for(rows, cols, k, gravity)
    game = bare.for_search()
    state = game.notation.read_position("/".join(board))
    expected = (
        set()
        if oracle_over(board, k)
        else {cell_name(game, cell) for cell in oracle_moves(board, gravity)}
    )
    first, again = game.actions(state), game.actions(state)
    assert (
        first == again
        and {game.format_move(move) for move in first} == expected
        and len(first) == len(expected)
    )
    copy = pickle.loads(pickle.dumps(bare))
    assert not copy.rules._moves and copy.actions(state) == first


@given(midgame())
def test_remembered_children_are_the_positions_the_rules_make(case: Case) -> None:
    """Small boards make each child once in a search: a replay served from the search's memo
    reaches the position read from the board, as the first replay did; the game keeps none."""
    (rows, cols, k, gravity), board, played = case
    bare = game_for(rows, cols, k, gravity)
    game = bare.for_search()
    state = game.notation.read_position("/".join(board))
    for _ in range(2):
        replayed = game.initial_state()
        for row, col in played:
            replayed = game.result(replayed, col if gravity else game.geometry.bit(row, col))
        assert (replayed.x, replayed.o, replayed.player, replayed.outcome) == (
            state.x,
            state.o,
            state.player,
            state.outcome,
        )
        if not game.is_terminal(state):
            assert replayed == state
    assert bare.rules._children is None
    if game.geometry.cells > mnk.REMEMBERED_CELLS:
        assert game.rules._children is None
    elif played:
        assert game.rules._children and not pickle.loads(pickle.dumps(bare)).rules._children


def test_remembered_children_stay_within_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mnk.rules, "REMEMBERED_CHILDREN", 10)
    game, seen = create_mnk("tictactoe").for_search(), 0
    state = game.initial_state()
    for move in game.actions(state):
        game.result(game.result(state, move), next(iter(game.actions(game.result(state, move)))))
        seen = max(seen, len(game.rules._children or {}))
    assert 0 < seen <= 10


def test_different_positions_get_different_keys() -> None:
    game = game_for(3, 3, 3, False)
    boards = oracle_positions(3, 3, 3, False)
    classes = {min(oracle_symmetries(board, False)) for board in boards}
    keys = {game.key(game.notation.read_position("/".join(board))) for board in boards}
    assert len(keys) == len(classes)


@given(
    st.sampled_from(["tictactoe --size 7 --k 5", "tictactoe --size 15 --k 5", "connect4"]),
    st.data(),
)
def test_heuristic_stays_inside_the_payoffs(words: str, data: st.DataObject) -> None:
    game = create_mnk(words)
    state = game.initial_state()
    for _ in range(data.draw(st.integers(0, 30))):
        if game.is_terminal(state):
            break
        state = game.result(state, data.draw(st.sampled_from(list(game.actions(state)))))
    for seat in (0, 1):
        assert -1 < game.evaluate(state, seat) < 1
    assert game.evaluate(state, 0) == -game.evaluate(state, 1)


# -- rules: gravity, notation, positions -----------------------------------------------------


def test_gravity_stacks_stones_and_a_full_column_is_not_a_move() -> None:
    game = create_mnk("connect4 --rows 3 --cols 4 --k 3")
    state = game.initial_state()
    for _ in range(3):
        state = game.result(state, 2)
    assert game.format_position(state) == "..x./..o./..x."
    assert 2 not in game.actions(state)
    with pytest.raises(IllegalMove, match="full"):
        game.result(state, 2)
    with pytest.raises(IllegalMove, match="legal: b, a, d"):
        game.parse_move("c", state)
    assert game.parse_move("d", state) == game.parse_move("4", state) == 3


def test_connect_four_is_six_by_seven_with_gravity() -> None:
    game = create_mnk("connect4")
    shape = game.geometry
    assert (shape.rows, shape.cols, shape.k, shape.gravity) == (6, 7, 4, True)
    assert [game.format_move(move) for move in game.actions(game.initial_state())] == list(
        "dcebfag"
    )
    assert games.create("c4").spec == "connect4"
    small = games.create("connect4 --position ..../..../.xo.")
    assert isinstance(small, MNK) and (
        small.geometry.rows,
        small.geometry.cols,
        small.geometry.gravity,
    ) == (3, 4, True)
    assert games.create(small.spec).initial_state() == small.initial_state()
    assert games.create("connect4 --rows 5").spec == "connect4 --rows 5 --cols 7"


def test_vertical_four_wins_under_gravity() -> None:
    game = create_mnk("connect4")
    state = game.initial_state()
    for move in "dedede":
        state = game.result(state, game.parse_move(move, state))
    assert not game.is_terminal(state)
    state = game.result(state, game.parse_move("d", state))
    assert game.is_terminal(state) and winner_of(game, state) == 0


def test_move_notation() -> None:
    game = create_mnk("tictactoe --rows 3 --cols 4 --k 3")
    state = game.initial_state()
    move = game.parse_move("b3", state)
    assert game.format_move(move) == "b3"
    assert (
        game.parse_move("3,2", state)
        == game.parse_move("3 2", state)
        == game.parse_move(" B3 ", state)
        == move
    )
    after = game.result(state, move)
    assert game.format_position(after) == "..../..../.x.."
    for bad in ("b3", "e1", "a4", "0,1", "zz", ""):
        with pytest.raises(IllegalMove, match="legal: "):
            game.parse_move(bad, after)


def test_positions_round_trip_and_set_the_side_to_move() -> None:
    game = create_mnk("tictactoe --position xo./.x./...")
    state = game.initial_state()
    assert game.format_position(state) == "xo./.x./..." and game.to_move(state) == 1
    assert game.spec == "tictactoe --position xo./.x./..."
    assert games.create(game.spec).initial_state() == state
    over = games.create("tictactoe --position xxx/oo./...").initial_state()
    assert (
        games.create("tictactoe").is_terminal(over)
        and winner_of(games.create("tictactoe"), over) == 0
    )


@pytest.mark.parametrize(
    "words",
    [
        "tictactoe --k 4",  # k longer than both sides
        "tictactoe --rows 2 --cols 2 --k 3",
        "tictactoe --position xxx/o../...",  # counts off by two
        "tictactoe --position oo./x../...",  # o moved first
        "tictactoe --position xxx/ooo/...",  # both have a line
        "tictactoe --position xx./ooo/xx.",  # o's line, but x moved last
        "tictactoe --position xq./.../...",  # unknown cell
        "tictactoe --size 3 --position xo/..",  # wrong shape
        "tictactoe --position xo./..../...",  # ragged rows
        "tictactoe --gravity --position x../.../...",  # floating stone
        "tictactoe --size 4 --rows 3",
        "tictactoe --size 27",
        "tictactoe --k x",
        "tictactoe 3",
        "connect4 --rows 3 --cols 3",
    ],
)
def test_impossible_games_and_positions_are_refused(words: str) -> None:
    with pytest.raises(BadGameSpec):
        games.create(words)


def test_k_may_exceed_one_side() -> None:
    game = create_mnk("tictactoe --rows 3 --cols 8 --k 4")
    state = game.initial_state()
    for move in ("a1", "a2", "b1", "b2", "c1", "c2"):
        state = game.result(state, game.parse_move(move, state))
    state = game.result(state, game.parse_move("d1", state))
    assert winner_of(game, state) == 0
    tall = games.create("tictactoe --rows 3 --cols 8 --k 4").initial_state()
    assert not games.create("tictactoe --rows 3 --cols 8 --k 4").is_terminal(tall)


def test_search_narrows_to_the_win_or_the_block() -> None:
    game = create_mnk("tictactoe --position xx./oo./...")
    assert [game.format_move(move) for move in game.search_actions(game.initial_state())] == ["c1"]
    game = create_mnk("tictactoe --position xx./o../o..")
    assert [game.format_move(move) for move in game.search_actions(game.initial_state())] == ["c1"]
    game = create_mnk("tictactoe --position xx./.../o..")
    assert [game.format_move(move) for move in game.search_actions(game.initial_state())] == ["c1"]


# -- time limit, rendering, CLI ---------------------------------------------------------------


def test_time_limited_move_on_a_big_board_keeps_its_budget() -> None:
    game = create_mnk("tictactoe --size 15 --k 5")
    state = game.initial_state()
    for move in ("h8", "h9", "i8"):
        state = game.result(state, game.parse_move(move, state))
    started = time.perf_counter()
    result = search(game, state, "alphabeta", time=0.2)
    assert time.perf_counter() - started < 0.2 + 0.1
    assert result.move in game.actions(state)


def test_time_limited_connect_four_blocks_and_wins() -> None:
    game = create_mnk("connect4 --position ......./......./......./......./o....../oxxx..o")
    state = game.initial_state()
    # x wins at once
    assert game.format_move(search(game, state, "alphabeta", time=0.2).move) == "e"
    game = create_mnk("connect4 --position ......./......./......./......./x....../xooo.xx")
    state = game.initial_state()
    assert game.format_move(search(game, state, "alphabeta", time=0.2).move) == "e"  # x must block


def styles_of_cells(game: MNK, text: Text) -> dict[str, str]:
    """The style of each cell's character, by its name in the notation."""
    console, lines, styles = Console(), text.plain.splitlines(), {}
    offset = len(lines[0]) + 1
    for row in range(game.geometry.rows):
        line = lines[row + 1]
        start = len(line) - (2 * game.geometry.cols - 1)
        for col in range(game.geometry.cols):
            styles["abc"[col] + str(row + 1)] = str(
                text.get_style_at_offset(console, offset + start + 2 * col)
            )
        offset += len(line) + 1
    return styles


def test_renderer_names_rows_and_columns_and_marks_the_line_and_the_last_move() -> None:
    game = create_mnk("tictactoe --position xo./ox./..x")
    drawn = render(game, game.initial_state(), game.geometry.bit(2, 2))  # the last move was c3
    assert isinstance(drawn, Text)
    lines = drawn.plain.splitlines()
    assert lines[0].split() == ["a", "b", "c"]
    assert [line.split()[0] for line in lines[1:4]] == ["1", "2", "3"]
    assert lines[2].split()[1:] == ["o", "x", "."] and "X wins" in drawn.plain
    styles = styles_of_cells(game, drawn)
    assert [cell for cell, style in styles.items() if "on green" in style] == ["a1", "b2", "c3"]
    game = create_mnk("tictactoe --position x../.o./...")
    drawn = render(game, game.initial_state(), game.geometry.bit(1, 1))  # after b2
    assert isinstance(drawn, Text)
    styles = styles_of_cells(game, drawn)
    assert [cell for cell, style in styles.items() if "reverse" in style] == ["b2"]


def test_cli_solves_tictactoe_4x4_k3() -> None:
    finished = nimmax("solve", "tictactoe", "--size", "4", "--k", "3", "--json")
    assert finished.returncode == 0, finished.stderr
    record = json.loads(finished.stdout)
    assert record["value"] == 1 and record["exact"] and len(record["moves"]) == 16
    assert record["game"] == "tictactoe --size 4 --k 3" and record["best_move"] in {
        "b2",
        "b3",
        "c2",
        "c3",
    }


def test_cli_solves_a_connect_four_position() -> None:
    finished = nimmax(
        "solve", "connect4", "--rows", "4", "--cols", "4", "--position", "..../..../..../.x.."
    )
    assert finished.returncode == 0, finished.stderr
    assert "O to move" in finished.stdout and "draw" in finished.stdout


@pytest.mark.parametrize(
    "words",
    [
        ["tictactoe", "--k", "9"],
        ["tictactoe", "--position", "xxx/xxx/ooo"],
        ["ttt", "--position", "x?./.../..."],
        ["connect4", "--position", "x....../......./......./......./......./......."],
    ],
)
def test_cli_refuses_bad_games_with_exit_2(words: list[str]) -> None:
    finished = nimmax("solve", *words)
    assert finished.returncode == 2
    assert "Traceback" not in finished.stderr and len(finished.stderr.strip().splitlines()) == 1


# -- big boards: a limited search tries the cells near the stones; Connect Four's parity ------


def chebyshev_near(game: MNK, state: Board, reach: int) -> set[str]:
    """Empty cells within `reach` king steps of a stone, by row and column arithmetic."""
    cells = [(row, col) for row in range(game.geometry.rows) for col in range(game.geometry.cols)]
    marks = {cell: game.notation.stone_at(state, *cell) for cell in cells}
    stones = [cell for cell in cells if marks[cell] != "."]
    return {
        f"{'abcdefghijklmnopqrstuvwxyz'[col]}{row + 1}"
        for row, col in cells
        if marks[row, col] == "."
        and any(max(abs(row - r), abs(col - c)) <= reach for r, c in stones)
    }


@given(
    st.sampled_from(
        [
            "tictactoe --size 15 --k 5",
            "tictactoe --size 9 --k 5",
            "tictactoe --rows 8 --cols 10 --k 4",
        ]
    ),
    st.data(),
)
def test_a_limited_search_on_a_big_board_tries_near_cells_and_the_double_threats(
    words: str, data: st.DataObject
) -> None:
    """Within two steps of a stone; where the mover can make two threats at once, exactly
    those cells; where it wins by continuous fours, one cell that starts such a win; else at
    most BEAM cells, unless the opponent can make two threats at once (then every answer and
    every four of the mover is tried)."""
    game = create_mnk(words)
    state = game.initial_state()
    for _ in range(data.draw(st.integers(1, 30))):
        moves = [
            move for move in game.actions(state) if not game.is_terminal(game.result(state, move))
        ]
        state = game.result(state, data.draw(st.sampled_from(moves)))
        if game.is_terminal(state) or state.x_threats or state.o_threats:
            break
    tried = game.heuristic_actions(state)
    if game.is_terminal(state):
        assert tried is None
    # the forced move, which `search_actions` gives: nothing is left out
    elif state.x_threats or state.o_threats:
        assert tried is None and len(game.search_actions(state)) == 1
    else:
        # None: none left out
        names = [game.format_move(move) for move in tried or game.actions(state)]
        assert set(names) <= chebyshev_near(game, state, 2) and len(names) == len(set(names))
        doubles = double_threat_cells(game, state)
        mine, theirs = (state.o, state.x) if state.player else (state.x, state.o)
        if doubles:  # two threats at once win: only those moves
            assert sorted(names) == sorted(doubles)
        elif game.threats.vcf(mine, theirs):  # (vcf agrees with a plain search: see below)
            assert tried == (game.threats.vcf(mine, theirs).bit_length() - 1,)
        else:
            assert 1 <= len(names) <= BEAM or double_threat_cells(
                game, state._replace(player=1 - state.player)
            )


def test_small_boards_gravity_and_the_empty_board() -> None:
    assert (
        create_mnk("tictactoe --size 7 --k 5").heuristic_actions(
            create_mnk("tictactoe --size 7").start
        )
        is None
    )
    connect4 = create_mnk("connect4")
    assert connect4.heuristic_actions(connect4.initial_state()) is None
    big = create_mnk("tictactoe --size 15 --k 5")
    assert [big.format_move(move) for move in big.heuristic_actions(big.initial_state()) or ()] == [
        "h8"
    ]


class Traced(MNK):
    """An m,n,k game that counts the positions its own `result` makes."""

    made = 0

    def result(self, state: Board, action: int) -> Board:
        self.made += 1
        return super().result(state, action)


def test_a_subclass_keeps_its_own_members_in_a_search() -> None:
    """MNK binds the members a search calls at every node to its parts, but never over a
    subclass's own: a search of its copy makes every child through it."""
    game = Traced()
    searching = game.for_search()
    result = search(searching, game.initial_state(), "minimax", cache=False, time=inf)
    assert result.nodes == 549_946 and searching.made >= result.nodes - 1 and game.made == 0


class Counted(MNK):
    """An m,n,k game that counts the calls of `heuristic_actions` (a search's copy counts with
    it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.counted = [0]

    @property
    def calls(self) -> int:
        return self.counted[0]

    @calls.setter
    def calls(self, calls: int) -> None:
        self.counted[0] = calls

    def heuristic_actions(self, state: Board) -> Sequence[int] | None:
        self.counted[0] += 1
        return super().heuristic_actions(state)


def wins_within_three(game: MNK, state: Board, move: int) -> bool:
    """Whether `move` wins by force within three plies: every reply leaves the mover a cell that
    completes a line (read from the stones alone, with game.geometry.lines as the only nimmax
    help)."""
    move_seat = state.player == 0

    def mine(board: Board) -> int:
        return board.x if move_seat else board.o

    after = game.result(state, move)
    if any(mine(after) & line == line for line in game.geometry.lines):
        return True
    for reply in game.actions(after):
        board = game.result(after, reply)
        stones, theirs = mine(board), board.o if move_seat else board.x
        free = [line for line in game.geometry.lines if not theirs & line]
        if not any((stones & line).bit_count() == game.geometry.k - 1 for line in free):
            return False
    return True


def test_a_limited_search_proves_a_win_where_only_the_winners_moves_were_left_out() -> None:
    """An unlimited search (solve's default) deepens with every move. A limited one narrows x's
    moves, but every reply of o is tried, so the win it finds is a win: x (e5) against o (a1),
    k=3 on 9x9, makes an open two and wins on its second move, and the search says so, at no
    depth past that line, rather than an estimate deepened to the deadline."""
    rows = ["." * 9] * 9
    rows[0], rows[4] = "o" + "." * 8, "." * 4 + "x" + "." * 4
    game = Counted(9, 9, 3, position="/".join(rows))
    unlimited = list(itertools.islice(iterate(AlphaBeta(game), game.initial_state()), 2))
    assert [result.depth for result in unlimited] == [1, 2] and game.calls == 0
    limited = search(game, game.initial_state(), "alphabeta", depth=40)
    assert game.calls > 0  # moves were left out
    assert limited.exact and limited.value == 1 and limited.depth <= 3
    assert wins_within_three(game, game.initial_state(), limited.move)


VCF_15X15 = "h8 g8 i7 g9 g7 h7 i6 i9 i5 i4 h6 f8 f6 g6 g5 j8"
"""A 15x15 k=5 game (issue 28's) where x, to move, wins by continuous fours in nine plies."""


def test_a_narrowed_search_stops_at_the_win_it_finds() -> None:
    """Once a narrowed search finds a forced win it stops deepening: a time-limited search
    answered "estimate at depth 4738" on a board of 225 cells (issue 28), deepening on table
    answers of the same few lines. The depth shown never passes the cells left."""
    game = create_mnk("tictactoe --size 15 --k 5")
    state = game.initial_state()
    for text in VCF_15X15.split():
        state = game.result(state, game.parse_move(text, state))
    result = search(game, state, "alphabeta", time=2.0)
    empty = game.geometry.cells - (state.x | state.o).bit_count()
    assert result.exact and result.value == 1
    # The line may end at a position the threat proof answers as a book: the depth is then its
    # plies.
    assert len(result.pv) <= result.depth <= empty and result.seconds < 1.0
    assert wins_by_vcf(game, state, (result.depth + 1) // 2)


def wins_by_vcf(game: MNK, state: Board, fours: int) -> bool:
    """Whether the side to move wins by continuous fours within `fours` of its moves: each of its
    moves makes a line lack one stone, so the other side must fill that cell (or lose at once),
    until two such cells are open at once. Read from the stones and game.geometry.lines alone."""
    stones, others = (state.o, state.x) if state.player else (state.x, state.o)
    empty = game.geometry.board & ~(stones | others)

    def open_cells(mine: int, theirs: int) -> set[int]:
        """The cells that complete one of `mine`'s lines free of `theirs`."""
        cells = set()
        for line in game.geometry.lines:
            if not theirs & line and (mine & line).bit_count() == game.geometry.k - 1:
                cells.add((line & ~mine).bit_length() - 1)
        return cells

    if open_cells(stones, others):
        return True
    if fours == 0 or open_cells(others, stones):
        return False
    for bit in range(empty.bit_length()):
        if not empty >> bit & 1:
            continue
        mine = stones | 1 << bit
        threats = open_cells(mine, others)
        if len(threats) >= 2:
            return True
        if len(threats) == 1:
            block = threats.pop()
            x, o = (others | 1 << block, mine) if state.player else (mine, others | 1 << block)
            after = Board(x, o, state.player, 0, 0, 0, 0)
            if wins_by_vcf(game, after, fours - 1):
                return True
    return False


ENDGAME_9X9 = (
    ".xxoxxxo./xxxoooxo./oxoxxxoxx/xxxooxooo/xooxxxooo/oxxxoxxxo/oooxooxxx/ooxooxox./.ooxoox.o"
)
"""A 9x9 k=5 game six moves from its end, o to move: a draw (plain minimax over all 720 orders
agrees)."""


def test_a_limited_search_proves_what_leaves_no_move_out() -> None:
    """Where every empty cell is near a stone and worth trying, the game leaves none out, so a
    search under a deadline proves the draw at once (six plies from the end) instead of deepening
    until its time runs out; a forced move leaves nothing out either."""
    game = create_mnk(f"tictactoe --size 9 --k 5 --position {ENDGAME_9X9}")
    state = game.initial_state()
    assert game.heuristic_actions(state) is None
    assert search(game, state, "minimax", time=inf, cache=False).value == 0
    result = search(game, state, "alphabeta", time=5)
    assert result.exact and result.value == 0 and result.depth <= 6 and result.seconds < 2
    forced = create_mnk(
        f"tictactoe --size 9 --k 5 --position {position(9, 'c3 d4 e5 f6', 'a1 a2 a3 i9')}"
    )
    assert (
        forced.initial_state().x_threats
        and forced.heuristic_actions(forced.initial_state()) is None
    )


@pytest.mark.parametrize("engine", ["alphabeta", "minimax", "negamax", "expectimax"])
def test_near_off_never_narrows(engine: str) -> None:
    """`near=off` keeps every move under any limit: the game is never asked for its near
    cells, and a depth-1 search on 15x15 values each of the 224 empty cells."""
    rows = ["." * 15] * 15
    rows[7] = "." * 7 + "x" + "." * 7
    game = Counted(15, 15, 5, position="/".join(rows))
    narrowed = search(game, game.initial_state(), engine, depth=1)
    assert game.calls > 0 and narrowed.nodes < 1 + 224
    game.calls = 0
    for limits in ({"depth": 1}, {"time": 0.05}, {"nodes": 500}):
        result = search(game, game.initial_state(), engine, near=False, **limits)
        assert game.calls == 0 and result.move in game.actions(game.initial_state())
    assert search(game, game.initial_state(), engine, depth=1, near=False).nodes == 1 + 224


BIG_OPENINGS = ["h8 h9 i8", "h8 i9 g7 j10 h7 h6", "h8 h9 i8 g8 i9 i7 j10 k11 g7 f6"]


@pytest.mark.parametrize("opening", BIG_OPENINGS)
def test_alphabeta_reaches_depth_four_on_15x15_within_a_modest_node_budget(opening: str) -> None:
    """Depth 4 within 60,000 nodes, about half a second's search on a laptop (a node budget,
    so the test holds on any machine); every empty cell searched, it takes millions."""
    game = create_mnk("tictactoe --size 15 --k 5")
    state = game.initial_state()
    for move in opening.split():
        state = game.result(state, game.parse_move(move, state))
    result = search(game, state, "alphabeta", nodes=60_000)
    assert result.depth >= 4 and not result.exact


def oracle_window_score(board: tuple[str, ...], k: int) -> float:
    """Every window free of the opponent, weighted 4 ** (stones - 1) for 1 to k - 1 stones: x's
    minus o's."""
    score = 0.0
    for line in oracle_lines(len(board), len(board[0]), k):
        marks = [board[row][col] for row, col in line]
        for mark, other, sign in (("x", "o", 1), ("o", "x", -1)):
            stones = marks.count(mark)
            if other not in marks and 1 <= stones < k:
                score += sign * 4.0 ** (stones - 1)
    return score


@given(
    st.sampled_from(
        ["tictactoe", "tictactoe --size 15 --k 5", "connect4", "tictactoe --rows 4 --cols 6 --k 3"]
    ),
    st.data(),
)
def test_window_scores_kept_stone_by_stone_equal_a_count_of_every_window(
    words: str, data: st.DataObject
) -> None:
    game = create_mnk(words)
    state = game.initial_state()
    for _ in range(data.draw(st.integers(1, 25))):
        if game.is_terminal(state):
            break
        board = tuple(game.format_position(state).split("/"))
        assert game.evaluation.window_score(state.x, state.o) == oracle_window_score(
            board, game.geometry.k
        )
        state = game.result(state, data.draw(st.sampled_from(list(game.actions(state)))))


def test_threats_count_by_row_parity() -> None:
    """X's threat on row 3 from the bottom (odd) outweighs one on row 2, and O's the other way."""
    game = create_mnk("connect4")
    # rows 3 and 2 from the bottom
    odd, even = 1 << game.geometry.bit(3, 0), 1 << game.geometry.bit(4, 0)
    assert game.evaluation.parity_score(odd, 0) > game.evaluation.parity_score(even, 0) > 0
    assert game.evaluation.parity_score(0, even) < game.evaluation.parity_score(0, odd) < 0


def test_depth_8_alphabeta_opens_connect_four_in_the_centre() -> None:
    """d is the only winning opening (Allis 1988; the exact solvers agree): a depth-8 search
    with the parity of threats finds it, from the CLI as from Python."""
    game = create_mnk("connect4")
    assert game.format_move(search(game, game.initial_state(), "alphabeta", depth=8).move) == "d"
    done = nimmax("solve", "connect4", "--algorithm", "alphabeta:depth=8", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["best_move"] == "d"


# -- big boards: threats ----------------------------------------------------------------------


def position(size: int, xs: str, os: str) -> str:
    """A size x size position with x and o on the cells named (`b2`: column b, row 2 from the
    top)."""
    rows = [["."] * size for _ in range(size)]
    for cells, mark in ((xs, "x"), (os, "o")):
        for cell in cells.split():
            rows[int(cell[1:]) - 1][ord(cell[0]) - ord("a")] = mark
    return "/".join("".join(row) for row in rows)


@pytest.mark.parametrize(
    ("size", "xs", "os", "best"),
    [
        (9, "c3 d4 e5 f6 a9", "a1 a2 a3 i9", ["b2", "g7"]),  # x wins on the diagonal at once
        # x blocks o's open four: a loss either way, the slowest
        (9, "a9 c9 e1 i1", "b4 c4 d4 e4", ["a4", "f4"]),
        (9, "a9 c9 e1 i1 a4", "b4 c4 d4 e4 a1", ["f4"]),  # a four closed at a4: the one block
        (15, "d4 e5 f6 g7 a15", "o1 o2 o3 n15", ["c3", "h8"]),
        (15, "a15 c15 e1 o1 o15", "f8 g8 h8 i8 a1", ["e8", "j8"]),
        (15, "a15 c15 e1 o1 e8", "f8 g8 h8 i8 a1", ["j8"]),
    ],
)
def test_time_limited_alphabeta_wins_in_one_and_blocks_a_loss_in_one_on_big_boards(
    size: int, xs: str, os: str, best: list[str]
) -> None:
    game = create_mnk(f"tictactoe --size {size} --k 5 --position {position(size, xs, os)}")
    state = game.initial_state()
    for engine in ("alphabeta:time=0.3", "alphabeta:depth=2"):
        kind, limit = engine.split(":")
        name, value = limit.split("=")
        if name == "time":
            result = search(game, state, kind, time=float(value))
        else:
            result = search(game, state, kind, depth=int(value))
        assert game.format_move(result.move) in best, engine


def double_threat_cells(game: MNK, state: Board) -> list[str]:
    """The cells where the side to move would make two winning threats at once, found by trying
    each empty cell and asking the rules which cells then complete a line (no `shapes`)."""
    found = []
    mover = state.player
    for move in game.actions(state):
        after = game.result(state, move)
        wins = 0
        for reply in game.actions(after):
            line = game.result(after._replace(player=mover, outcome=0), reply)
            wins += line.outcome == (1 if mover == 0 else 2)
        if wins >= 2:
            found.append(game.format_move(move))
    return found


def test_a_four_and_an_open_three_found_past_depth_two() -> None:
    """x (a closed three on row 8, a three on the diagonal k3-h6 closed at l2, a stone on h7)
    wins by a double threat: the open three i6 (g8 h7 i6) forces a block, then i8 makes a four
    on row 8 and a three on column i at once, and after the four is blocked the three becomes
    an open four. The search finds it within 60,000 nodes (and since `evaluate` values a
    victory by continuous fours, at depth 2 too: h8 forces i8, then x wins by fours from h6)."""
    words = (
        "tictactoe --size 15 --k 5 --position "
        f"{position(15, 'e8 f8 g8 h7 i5 j4 k3', 'd8 l2 a1 o1 a15 o15 a8')}"
    )
    game = create_mnk(words)
    state = game.initial_state()
    assert search(game, state, "alphabeta", depth=2).value > 0.85
    strong = search(game, state, "alphabeta", nodes=60_000)
    # The threat proof answers h8's reply as a book: h8 forces i8, then x wins by fours (checked
    # here).
    assert strong.value == 1 and strong.exact and wins_by_vcf(game, state, (strong.depth + 1) // 2)


# -- big boards: victory by continuous fours ------------------------------------------------


def plain_vcf(game: MNK, mine: int, theirs: int, fours: int) -> bool:
    """A victory by continuous fours for `mine`, to move with no four on the board, found by
    trying every empty cell and asking `threats` (a scan of every line) what it made."""
    if fours <= 0:
        return False
    for bit in game.geometry.cell_order:
        if (mine | theirs) >> bit & 1:
            continue
        if plain_wins_with(game, mine, theirs, 1 << bit, fours):
            return True
    return False


def plain_wins_with(game: MNK, mine: int, theirs: int, stone: int, fours: int) -> bool:
    """Whether `stone` makes two fours, or one whose only block leaves `mine` a victory by
    continuous fours (a block that makes a four must be stopped by the next stone, a four too)."""
    mine |= stone
    made = game.geometry.threats_of(mine, theirs)
    if not made:
        return False
    if made.bit_count() >= 2:
        return True
    theirs |= made
    answer = game.geometry.threats_of(theirs, mine)
    if answer:
        return (
            fours > 1
            and answer.bit_count() == 1
            and plain_wins_with(game, mine, theirs, answer, fours - 1)
        )
    return plain_vcf(game, mine, theirs, fours - 1)


@given(st.sampled_from(["tictactoe --size 7 --k 4", "tictactoe --size 9 --k 5"]), st.data())
def test_victory_by_continuous_fours_agrees_with_a_plain_search(
    words: str, data: st.DataObject
) -> None:
    game = create_mnk(words)
    state = game.initial_state()
    for _ in range(data.draw(st.integers(4, 24))):
        moves = [move for move in game.actions(state) if not game.result(state, move).outcome]
        after = game.result(state, data.draw(st.sampled_from(moves)))
        if after.x_threats or after.o_threats:
            break
        state = after
    mine, theirs = (state.o, state.x) if state.player else (state.x, state.o)
    found = game.threats.vcf(mine, theirs, 3)
    assert bool(found) == plain_vcf(game, mine, theirs, 3)
    if found:
        assert plain_wins_with(game, mine, theirs, found, 3)


def test_a_victory_by_continuous_fours_is_played_at_once() -> None:
    """x can make no two fours at once, but e5 makes a four on column e (closed at e6: the block is
    e1) and a three on row 5, which b5 or f5 then turns into an open four: the limited search
    opens with e5."""
    words = (
        "tictactoe --size 9 --k 5 --position "
        f"{position(9, 'e2 e3 e4 c5 d5 a9', 'e6 i1 i9 a1 b9 c9')}"
    )
    game = create_mnk(words)
    state = game.initial_state()
    assert not game.threats.shapes(state.x, state.o)[1]
    stone = game.threats.vcf(state.x, state.o)
    assert game.format_move(stone.bit_length() - 1) == "e5" and plain_wins_with(
        game, state.x, state.o, stone, 3
    )
    assert game.heuristic_actions(state) == (stone.bit_length() - 1,)
    result = search(game, state, "alphabeta", time=0.5)
    assert result.value > 0.85
    state = game.result(state, result.move)
    assert state.x_threats  # a four: o's reply is forced
