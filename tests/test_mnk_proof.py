"""Connect Four's own exact search (`nimmax.games.mnk.proof`) against an exhaustive search written
here on plain column lists, on positions near the end of real games (where its follow-up rules,
claimeven and baseinverse, fire), and the book reading it past the opening books."""

from __future__ import annotations

import functools
import random

from nimmax.game import Known
from nimmax.games.mnk import Board
from nimmax.games.mnk.proof import Proof
from nimmax.search import search

from .test_book import COLUMNS, CONNECT4, ROWS, four, played

EMPTY = 11
"""Empty cells at most in a position the exhaustive search below values (a fraction of a second)."""


@functools.cache
def exhaustive(columns: tuple[str, ...], mark: str) -> int:
    """The payoff for `mark`, to move, by plain negamax over every move to the end (+1, 0, -1)."""
    other = "o" if mark == "x" else "x"
    grid = [list(column) for column in columns]
    open_columns = [col for col in range(COLUMNS) if len(grid[col]) < ROWS]
    if not open_columns:
        return 0
    if any(four(grid, col, mark) for col in open_columns):
        return 1
    best = -1
    for col in open_columns:
        grid[col].append(mark)
        best = max(best, -exhaustive(tuple("".join(column) for column in grid), other))
        grid[col].pop()
        if best == 1:
            break
    return best


def columns_of(state: Board) -> tuple[str, ...]:
    """The columns of a 7x6 position, bottom first, as 'x' and 'o'."""
    text = CONNECT4.format_position(state).split("/")
    return tuple(
        "".join(row[col] for row in reversed(text) if row[col] != ".") for col in range(COLUMNS)
    )


def endings(seed: int, count: int) -> list[Board]:
    """Positions with at most EMPTY empty cells, no four on the board and none the mover completes
    at once, from seeded random games (each game's positions from EMPTY cells on)."""
    rng, found = random.Random(seed), list[Board]()
    while len(found) < count:
        state = CONNECT4.initial_state()
        while not CONNECT4.is_terminal(state):
            taken = state.x | state.o
            mine = state.o_threats if state.player else state.x_threats
            if ROWS * COLUMNS - taken.bit_count() <= EMPTY and not mine & (
                taken + CONNECT4.geometry.bottom
            ):
                found.append(state)
            state = CONNECT4.result(state, rng.choice(list(CONNECT4.actions(state))))
    return found[:count]


def completed(stones: set[tuple[int, int]], empty: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The empty cells (column, row) that would complete four of `stones`, by trying every line
    through each."""
    found = set()
    for col, row in empty:
        for step_col, step_row in ((1, 0), (0, 1), (1, 1), (1, -1)):
            for start in range(-3, 1):
                line = [
                    (col + (start + at) * step_col, row + (start + at) * step_row)
                    for at in range(4)
                ]
                if all(cell == (col, row) or cell in stones for cell in line):
                    found.add((col, row))
    return found


def test_the_four_completing_cells_of_one_board_and_of_boards_side_by_side() -> None:
    proof, rng, stride = Proof(ROWS, COLUMNS), random.Random(3), ROWS + 1
    bit = {(col, row): 1 << col * stride + row for col in range(COLUMNS) for row in range(ROWS)}
    for _ in range(30):
        boards = []
        for _ in range(COLUMNS):  # a board per column, as `ordered` lays them
            heights = [rng.randint(0, ROWS) for _ in range(COLUMNS)]
            taken = {(col, row) for col in range(COLUMNS) for row in range(heights[col])}
            stones = {cell for cell in taken if rng.random() < 0.6}
            boards.append(
                (sum(bit[cell] for cell in stones), proof.board ^ sum(bit[cell] for cell in taken))
            )
            truth = sum(bit[cell] for cell in completed(stones, set(bit) - taken))
            assert proof.winning(*boards[-1]) == truth
        side_by_side = proof.winning(
            sum(stones << lane * proof.lane for lane, (stones, _) in enumerate(boards)),
            sum(empty << lane * proof.lane for lane, (_, empty) in enumerate(boards)),
        )
        assert [side_by_side >> lane * proof.lane & proof.board for lane in range(COLUMNS)] == [
            proof.winning(*pair) for pair in boards
        ]
        mine, empty = boards[0]
        possible = (proof.board ^ empty) + proof.bottom & proof.board
        # every move ranked by the cells it makes, as the move on its own board makes them
        if possible:
            ranked = proof.ordered(mine, proof.board ^ empty, possible)
            assert sorted(move for *_, move, _ in ranked) == sorted(
                c & possible for c in proof.columns if c & possible
            )
            for cells, _, move, made in ranked:
                assert made == proof.winning(mine | move, empty ^ move)
                assert cells == -made.bit_count() or len(ranked) == 1
            assert [cells for cells, *_ in ranked] == sorted(cells for cells, *_ in ranked)


def test_the_proof_agrees_with_an_exhaustive_search_near_the_end() -> None:
    proof = Proof(ROWS, COLUMNS)
    payoffs = set()
    for state in endings(31, 60):
        taken, mine = state.x | state.o, state.o if state.player else state.x
        proof.limit = proof.stop = 1 << 40
        score = proof.negamax(mine, taken, -1, 1)
        truth = exhaustive(columns_of(state), "o" if state.player else "x")
        assert (score > 0) - (score < 0) == truth, CONNECT4.format_position(state)
        payoffs.add(truth)
    assert payoffs == {-1, 0, 1}


def test_the_follow_up_rules_bound_the_value_truly() -> None:
    proof, fired = Proof(ROWS, COLUMNS), 0
    for state in endings(7, 400):
        taken, mine = state.x | state.o, state.o if state.player else state.x
        high = proof.follow_up(
            mine, taken, taken.bit_count() % 2, proof.winning(mine ^ taken, proof.board ^ taken)
        )
        if high is not None:  # the rule proved the mover cannot win (0) or loses (-1)
            fired += 1
            assert exhaustive(columns_of(state), "o" if state.player else "x") <= high
    assert fired >= 20


def test_past_the_books_a_search_proves_what_its_own_search_proves() -> None:
    # X to move with 14 stones: d wins at once (three x's stand in d)
    state = played("dcdcdcbaabeebf")
    assert CONNECT4.book(state) is None  # past the books the game itself knows nothing
    searching = CONNECT4.for_search()  # a search's copy proves
    assert searching.book(state) == Known(1.0, 1, True)
    for ending in endings(5, 8):
        # a search begins: the first position asked is one of its root's children
        searching = CONNECT4.for_search()
        # asked again, with more nodes each time
        answers = [searching.book(ending) for _ in range(6)]
        truth = exhaustive(columns_of(ending), "o" if ending.player else "x")
        left = ROWS * COLUMNS - (ending.x | ending.o).bit_count()
        assert answers[-1] == Known(float(truth), left, truth == 0)
    proof = searching.proof
    assert proof is not None
    # consecutive plies of one game mostly
    for first, deeper in zip(endings(9, 20), endings(9, 20)[1:], strict=False):
        if (deeper.x | deeper.o).bit_count() > (first.x | first.o).bit_count():
            # a new search: `first` is one of its root's children, `deeper` lies below
            searching.for_search()
            searching.book(first)
            searching.book(deeper)
            key = (deeper.o if deeper.player else deeper.x) + (deeper.x | deeper.o)
            assert key not in proof.asked  # answered from the table, never searched


def test_the_moves_a_root_needs_keep_its_payoff() -> None:
    narrowed = 0
    for ending in endings(17, 30):
        searching = CONNECT4.for_search()
        proof = searching.proof
        assert proof is not None
        mover, other = ("o", "x") if ending.player else ("x", "o")
        truth = exhaustive(columns_of(ending), mover)
        taken, mine = ending.x | ending.o, ending.o if ending.player else ending.x
        # asked at the root of three searches, from the 12-stone book's payoff if it had one
        for _ in range(3):
            searching.for_search()
            proof.read = True  # as in a search that reads the book
            cells = proof.best_moves(mine, taken, functools.partial(int, truth))
            narrowed += bool(cells)
            for col in searching.actions(ending):
                if cells & searching.geometry.column_masks[col]:
                    child = searching.result(ending, col)
                    value = 1 if child.outcome else -exhaustive(columns_of(child), other)
                    assert value >= truth, (CONNECT4.format_position(ending), col)
    assert narrowed >= 30  # most roots narrowed to what they need


def test_a_root_the_book_says_is_won_is_proven_however_shallow_the_search() -> None:
    # X to move with 12 stones after a perfect defence: the win lies 27 plies away
    state = played("daefedcbddee")
    known = CONNECT4.book(state)
    assert known is not None and known.payoff == 1
    result = search(CONNECT4, state, "alphabeta", depth=1)  # its question counts nodes, asked first
    assert result.exact and result.value == 1


def test_one_stone_past_the_book_the_mover_is_owed_the_negation_of_the_position_before() -> None:
    rng, owed = random.Random(13), 0
    while owed < 10:
        state = played("".join(rng.choice("abcdefg") for _ in range(12)))
        if CONNECT4.is_terminal(state) or (state.x | state.o).bit_count() != 12:
            continue
        known = CONNECT4.book(state)
        assert known is not None
        # each move of X leaves O at least the negation of X's payoff
        for col in CONNECT4.actions(state):
            child = CONNECT4.result(state, col)
            if not CONNECT4.is_terminal(child):
                assert CONNECT4.least(child) >= -known.payoff
                owed += CONNECT4.least(child) == 1
