"""Kalah against the rules and an independent solver written here, on lists, sharing no code.

The point of the game in nimmax: a player may move twice in a row, so every engine must read
the side to move from the state and flip no sign between two plies of the same side.
"""

from __future__ import annotations

import copy
import json
import pickle
import re
from math import inf

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from nimmax import games, match, players
from nimmax.game import BadGameSpec, IllegalMove, winner_of
from nimmax.games.kalah import Kalah
from nimmax.games.kalah_position import Position, parse_position
from nimmax.players import parse_spec
from nimmax.search import Table, search
from nimmax.ui.render import render

from .cli_helpers import nimmax
from .theory import kalah_margin as final_margin
from .theory import kalah_over as over
from .theory import kalah_solved as solved
from .theory import kalah_sow as sow


def start(pits: int, seeds: int) -> tuple[int, ...]:
    row = [seeds] * pits + [0]
    return tuple(row + row)


SMALL = [(pits, seeds) for pits in (2, 3, 4) for seeds in (1, 2, 3) if (pits, seeds) != (4, 3)]
"""Boards the independent solver finishes quickly (Kalah(4,3) has 5 million positions: see the
bench)."""

TINY = [(2, 1), (2, 2), (2, 3), (3, 1)]
"""Boards whose whole tree plain minimax walks without a cache."""


def kalah(pits: int, seeds: int) -> Kalah:
    game = games.create(f"kalah --pits {pits} --seeds {seeds}")
    assert isinstance(game, Kalah)
    return game


def at(text: str) -> Position:
    return parse_position(text)


# --- Rules pinned with real positions -----------------------------------------------------------


def test_start_position_and_notation_round_trip() -> None:
    game = kalah(3, 2)
    state = game.initial_state()
    assert game.format_position(state) == "2,2,2:0/2,2,2:0/s"
    assert game.to_move(state) == 0 and sorted(game.actions(state)) == [1, 2, 3]
    again = games.create(game.spec)
    assert again.initial_state() == state
    default = games.create("kalah")
    assert default.format_position(default.initial_state()) == "4,4,4,4,4,4:0/4,4,4,4,4,4:0/s"


def test_extra_turn_keeps_the_mover_and_the_next_move_is_theirs() -> None:
    game = kalah(6, 4)
    state = game.initial_state()
    after = game.result(state, 3)  # 4 seeds from pit 3: pits 4, 5, 6, then the store
    assert game.format_position(after) == "4,4,0,5,5,5:1/4,4,4,4,4,4:0/s"
    assert game.to_move(after) == 0 and after.again
    second = game.result(after, 6)  # 5 seeds from pit 6: the store, then North's pits 1-4
    assert game.format_position(second) == "4,4,0,5,5,0:2/5,5,5,5,4,4:0/n"
    assert game.to_move(second) == 1 and not second.again


def test_capture_takes_the_last_seed_and_the_opposite_pit() -> None:
    game = Kalah(3, 1)
    # South sows pit 1 (1 seed) into empty pit 2, which faces North's pit 2 (5 seeds).
    after = game.result(at("1,0,2:0/1,5,1:0/s"), 1)
    assert game.format_position(after) == "0,0,2:6/1,0,1:0/n"
    # North's pit 1 faces South's pit 3: North sows pit 2 (1 seed) into its empty pit 3 facing
    # South's pit 1.
    north = game.result(at("4,1,1:0/2,1,0:3/n"), 2)
    assert game.format_position(north) == "0,1,1:0/2,0,0:8/s"


def test_no_capture_opposite_an_empty_pit() -> None:
    game = Kalah(3, 1)
    after = game.result(at("1,0,2:0/1,0,1:4/s"), 1)
    assert game.format_position(after) == "0,1,2:0/1,0,1:4/n"


def test_no_capture_in_the_opponents_pits() -> None:
    game = Kalah(3, 1)
    # 3 seeds from South's pit 3: the store, North's pits 1 and 2; North's pit 2 was empty.
    after = game.result(at("1,1,3:0/1,0,1:0/s"), 3)
    assert game.format_position(after) == "1,1,0:1/2,1,1:0/n"


def test_sowing_skips_the_opponents_store() -> None:
    game = Kalah(2, 1)
    # 7 seeds from South's pit 2: store, North 1, North 2, (North's store skipped), South 1, 2,
    # store, North 1.
    after = game.result(at("1,7:0/1,1:5/s"), 2)
    assert game.format_position(after) == "2,1:2/3,2:5/n"
    # North sowing 6 from its pit 1: North 2, its store, South 1, South 2, (South's store skipped),
    # North 1, North 2.
    north = game.result(at("1,1:4/6,1:0/n"), 1)
    assert game.format_position(north) == "2,2:4/1,3:1/s"


def test_a_full_lap_ends_in_the_emptied_pit_and_captures() -> None:
    game = Kalah(2, 1)
    # 5 seeds from South's pit 1 go all the way round (2n+1 places) back into pit 1, now empty.
    after = game.result(at("5,0:0/1,1:0/s"), 1)
    assert game.format_position(after) == "0,1:4/2,0:0/n"  # pit 1's seed and North's pit 2 captured


def test_end_of_game_sweep_gives_each_side_its_own_seeds() -> None:
    game = Kalah(3, 1)
    # South's last seed goes to the store: South's row is empty, North keeps its 4 seeds.
    after = game.result(at("0,0,1:5/3,0,1:2/s"), 3)
    assert game.format_position(after) == "0,0,0:6/0,0,0:6/s"
    assert game.is_terminal(after) and game.actions(after) == []
    assert game.utility(after, 0) == 0 and winner_of(game, after) is None
    # South sows its last seed into North's row: South's row is empty, North sweeps everything.
    won = game.result(at("0,0,2:3/1,0,0:0/s"), 3)
    assert game.format_position(won) == "0,0,0:4/0,0,0:2/n"
    assert game.utility(won, 0) == 2 and game.utility(won, 1) == -2 and winner_of(game, won) == 0


def test_illegal_moves_and_notation() -> None:
    game = Kalah(3, 1)
    state = at("1,0,2:0/1,0,1:4/s")
    assert game.parse_move(" 3 ", state) == 3
    for text in ("2", "0", "4", "x", ""):
        with pytest.raises(IllegalMove, match="legal: 3, 1"):
            game.parse_move(text, state)
    with pytest.raises(IllegalMove):
        game.result(state, 2)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "1,2:0/1,2:0",
        "1,2:0/1,2:0/x",
        "1,2/1,2:0/s",
        "1,2:0/1,2,3:0/s",
        "a,2:0/1,2:0/s",
        "1,-2:0/1,2:0/s",
        "1,2:0:1/1,2:0/s",
    ],
)
def test_bad_positions_are_bad_game_specs(text: str) -> None:
    with pytest.raises(BadGameSpec):
        games.create(["kalah", "--position", text])


@pytest.mark.parametrize(
    "words",
    [
        "kalah --pits 0",
        "kalah --seeds 0",
        "kalah --pits x",
        "kalah 3",
        "kalah --pits 4 --position 1,1:0/1,1:0/s",
        "kalah --pits 99",
    ],
)
def test_bad_game_words(words: str) -> None:
    with pytest.raises(BadGameSpec):
        games.create(words)


def boards(most_pits: int, most_seeds: int) -> st.SearchStrategy[tuple[list[int], int, int]]:
    """(cells in sowing order, side to move, pits a side) with up to `most_seeds` in a cell."""
    return st.integers(1, most_pits).flatmap(
        lambda pits: st.tuples(
            st.lists(st.integers(0, most_seeds), min_size=2 * pits + 2, max_size=2 * pits + 2),
            st.integers(0, 1),
            st.just(pits),
        )
    )


any_board = boards(6, 15)
"""Big enough for sowings that lap the board."""
positions = boards(3, 3)
"""Small enough for every engine to solve in milliseconds."""


@given(any_board)
def test_rules_match_the_independent_sowing(position: tuple[list[int], int, int]) -> None:
    """Every legal move of every position gives the board and mover the literal rules give."""
    cells, player, pits = position
    game = Kalah(pits, 1)
    state = Position(tuple(cells), player)
    assert parse_position(game.format_position(state)) == state
    if over(state.board):
        assert game.is_terminal(state) and game.utility(state, player) == final_margin(
            state.board, player
        )
        return
    legal = [pit for pit in range(1, pits + 1) if cells[player * (pits + 1) + pit - 1] > 0]
    assert sorted(game.actions(state)) == legal
    for pit in legal:
        after = game.result(state, pit)
        assert (after.board, after.player) == sow(state.board, player, pit)
        assert after.again == (after.player == player and not game.is_terminal(after))
        assert after.left == sum(after.board) - after.store(0) - after.store(1)  # kept, not counted
        assert after.over == over(after.board)


@given(boards(2, 40))
def test_sowings_of_several_laps_match_the_independent_sowing(
    position: tuple[list[int], int, int],
) -> None:
    """Two pits a side and up to 40 seeds a pit: sowings lap the board three times and more."""
    cells, player, pits = position
    game = Kalah(pits, 1)
    state = Position(tuple(cells), player)
    for pit in game.actions(state):
        after = game.result(state, pit)
        assert (after.board, after.player) == sow(state.board, player, pit)


@pytest.mark.parametrize("move", [0, 4, 2, -1, 1.5, "1", None, (1,)])
def test_result_refuses_every_move_actions_does_not_offer(move: object) -> None:
    game = Kalah(3, 1)
    state = at("1,0,2:0/1,0,1:4/s")
    assert move not in game.actions(state)
    with pytest.raises(IllegalMove):
        game.result(state, move)  # type: ignore[arg-type]
    finished = at("1,0,2:0/0,0,0:5/s")  # North's pits are empty: the game is over
    assert game.is_terminal(finished) and game.actions(finished) == []
    with pytest.raises(IllegalMove):
        game.result(finished, 1)


def test_positions_equal_and_hash_alike_whatever_the_extra_turn_flag() -> None:
    board = (1, 0, 2, 0, 1, 0, 1, 4)
    assert Position(board, 0, again=True) == Position(board, 0)
    assert (Position(board, 0, again=True) != Position(board, 0)) is False
    assert hash(Position(board, 0, again=True)) == hash(Position(board, 0))
    assert Position(board, 0) != Position(board, 1) and Position(board, 0) != (board, 0, False)


def test_positions_copy_and_replace_with_their_flag_and_seed_count() -> None:
    """`again` is the class's, not a field: a copy, a pickle and `_replace` keep it, and the
    seeds in the pits and whether the game is over follow the board."""
    state = Position((1, 0, 2, 0, 1, 0, 1, 4), 0, again=True)
    assert state.left == 5 and not state.over and state.again and not Position(state.board, 0).again
    for twin in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert twin == state and twin.again and twin.left == 5
    moved = state._replace(board=(0, 0, 0, 3, 1, 0, 1, 4))
    assert moved.left == 2 and moved.over and moved.again and moved.player == 0
    assert repr(state) == "Position(board=(1, 0, 2, 0, 1, 0, 1, 4), player=0, again=True)"


# --- The table key: equal keys, equal values for the mover --------------------------------------


@settings(max_examples=60)
@given(positions, st.integers(0, 3))
def test_key_folds_seats_and_store_offsets_soundly(
    position: tuple[list[int], int, int], shift: int
) -> None:
    """The mirrored position (rows swapped, the other seat to move), with both stores raised
    alike, has the same key and the same perfect-play margin for its mover."""
    cells, player, pits = position
    game = Kalah(pits, 1)
    state = Position(tuple(cells), player)
    south, north = cells[: pits + 1], cells[pits + 1 :]
    south[-1] += shift
    north[-1] += shift
    mirror = Position(tuple(north + south), 1 - player)
    assert game.key(mirror) == game.key(state)
    assert game.evaluate(mirror, mirror.player) == game.evaluate(state, player)
    # Same key, same moves, and children with the same keys and the same turn order:
    # by induction the two game trees are one, so the distance to the end is the same too.
    assert game.actions(mirror) == game.actions(state)
    for move in game.actions(state):
        child, mirrored_child = game.result(state, move), game.result(mirror, move)
        assert game.key(mirrored_child) == game.key(child)
        assert (mirrored_child.player == mirror.player) == (child.player == player)
    assert solved(mirror.board, mirror.player) == solved(state.board, state.player)
    assert (
        search(game, mirror, "alphabeta", time=inf).value
        == search(game, state, "alphabeta", time=inf).value
        == solved(state.board, player)
    )


# --- Engines against the independent solver -----------------------------------------------------


@pytest.mark.parametrize(("pits", "seeds"), SMALL)
def test_alphabeta_values_every_first_move_exactly(pits: int, seeds: int) -> None:
    game = kalah(pits, seeds)
    state = game.initial_state()
    result = search(game, state, "alphabeta", every_move=True, time=inf)
    assert result.exact and result.value == solved(state.board, 0)
    for move, value in result.moves:
        after = game.result(state, move)
        expected = solved(after.board, after.player) * (1 if after.player == 0 else -1)
        assert value == expected, (move, value, expected)


@pytest.mark.parametrize(("pits", "seeds"), SMALL)
def test_iterative_deepening_with_a_shared_table_reaches_the_exact_value(
    pits: int, seeds: int
) -> None:
    game = kalah(pits, seeds)
    state = game.initial_state()
    table = Table()
    deepened = search(game, state, "alphabeta", nodes=10**8, table=table)
    assert deepened.exact and deepened.value == solved(state.board, 0)
    # answered from the warm table
    again = search(game, state, "alphabeta", table=table, every_move=True, time=inf)
    assert again.value == deepened.value


@pytest.mark.parametrize(("pits", "seeds"), TINY)
@pytest.mark.parametrize("engine", ["minimax", "negamax"])
def test_plain_minimax_and_negamax_walk_the_whole_tree_correctly(
    engine: str, pits: int, seeds: int
) -> None:
    game = kalah(pits, seeds)
    state = game.initial_state()
    result = search(game, state, engine, every_move=True, time=inf)
    assert result.exact and result.value == solved(state.board, 0)
    for move, value in result.moves:
        after = game.result(state, move)
        assert value == solved(after.board, after.player) * (1 if after.player == 0 else -1)


@pytest.mark.parametrize(("pits", "seeds"), [(2, 3), (3, 2), (3, 3), (4, 1)])
@pytest.mark.parametrize("engine", ["minimax", "negamax"])
def test_cached_minimax_and_negamax_agree_with_the_solver(
    engine: str, pits: int, seeds: int
) -> None:
    game = kalah(pits, seeds)
    state = game.initial_state()
    result = search(game, state, engine, cache=True, time=inf)
    assert result.exact and result.value == solved(state.board, 0)


@settings(max_examples=40)
@given(positions)
def test_every_engine_values_mid_game_positions_for_the_side_to_move(
    position: tuple[list[int], int, int],
) -> None:
    """North to move, mid-extra-turn, lopsided stores: the value is the mover's margin."""
    cells, player, pits = position
    game = Kalah(pits, 1)
    state = Position(tuple(cells), player)
    expected = solved(state.board, player)
    assert search(game, state, "alphabeta", time=inf).value == expected
    assert search(game, state, "negamax", cache=True, time=inf).value == expected
    assert search(game, state, "minimax", cache=True, time=inf).value == expected


@pytest.mark.parametrize(("pits", "seeds"), [(3, 2), (3, 3), (4, 2)])
def test_depth_limited_alphabeta_equals_depth_limited_minimax(pits: int, seeds: int) -> None:
    """At a horizon both score with `evaluate`, so pruning must not change the value. The endgame
    book is left out: a line it proves may meet a horizon elsewhere in minimax's full tree and
    none in alpha-beta's pruned one, and only a proven value is read as a whole payoff."""
    game = kalah(pits, seeds)
    state = game.initial_state()
    for depth in (1, 2, 3, 5):
        assert (
            search(game, state, "alphabeta", depth=depth, book=False).value
            == search(game, state, "minimax", depth=depth, cache=False, book=False).value
        )


def test_an_extra_turn_is_no_sign_flip() -> None:
    """South's only sensible line is two moves in a row; a sign flip would rate it as a loss."""
    game = Kalah(3, 1)
    state = at("0,2,1:0/1,0,0:0/s")  # pits 3, 2, 3: each move ends in the store
    assert solved(state.board, 0) == 2
    for engine in ("minimax", "negamax", "alphabeta"):
        result = search(game, state, engine, every_move=True, time=inf)
        assert result.value == 2 and result.move == 3 and dict(result.moves) == {3: 2, 2: 0}
    # The line is followed through the table, so engines without one report only its first move.
    assert search(game, state, "alphabeta", time=inf).pv == (3, 2, 3)
    assert (
        search(game, state, "negamax", cache=True, time=inf).pv
        == search(game, state, "minimax", cache=True, time=inf).pv
        == (3, 2, 3)
    )


@pytest.mark.parametrize(("pits", "seeds"), SMALL)
def test_principal_variation_replays_legally_to_the_value(pits: int, seeds: int) -> None:
    game = kalah(pits, seeds)
    state = game.initial_state()
    result = search(game, state, "alphabeta", time=inf)
    assert result.pv and result.pv[0] == result.move
    position = state
    for move in result.pv:
        assert move in game.actions(position)
        expected = solved(position.board, position.player)
        after = game.result(position, move)
        # Each move of the line keeps the value: it is a best move for whoever makes it.
        keeps = solved(after.board, after.player) * (1 if after.player == position.player else -1)
        assert keeps == expected
        position = after
    if game.is_terminal(position):
        assert game.utility(position, 0) == result.value


def test_a_whole_game_on_the_full_board_keeps_the_mover_on_extra_turns() -> None:
    """Depth-limited alpha-beta (the heuristic at the horizon) against random on Kalah(6,4):
    every ply is made by the seat the state names, some seat moves twice running, and the
    record replays to the same final position."""
    game = games.create("kalah")
    seats = [
        players.create(parse_spec("alphabeta:depth=3")),
        players.create(parse_spec("random:seed=5")),
    ]
    history = list(match.plies(game, seats))
    assert all(ply.seat == game.to_move(ply.before) for ply in history)
    assert any(
        first.seat == second.seat for first, second in zip(history, history[1:], strict=False)
    )
    assert all(
        ply.after.again == (ply.after.player == ply.seat and not game.is_terminal(ply.after))
        for ply in history
    )
    final = history[-1].after
    assert game.is_terminal(final) and sum(final.board) == 48
    record = match.GameRecord.of(game, ["alphabeta:depth=3", "random:seed=5"], history)
    assert match.GameRecord.from_json(record.to_json()).positions()[-1] == final
    assert record.utilities == (game.utility(final, 0), -game.utility(final, 0))
    assert record.winner == 0  # three plies of lookahead on the heuristic beat random play


# --- The command line end to end ----------------------------------------------------------------


def test_cli_solve_json() -> None:
    done = nimmax("solve", "kalah", "--pits", "3", "--seeds", "2", "--json")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    board = start(3, 2)
    assert record["value"] == solved(board, 0)
    assert record["position"] == "2,2,2:0/2,2,2:0/s" and record["to_move"] == 0 and record["exact"]
    for entry in record["moves"]:  # each move's own value, or (not exact) an upper bound of it
        after, mover = sow(board, 0, int(entry["move"]))
        truth = solved(after, mover) * (1 if mover == 0 else -1)
        assert (
            entry["value"] == truth
            if entry["exact"]
            else entry["value"] >= truth and entry["bound"] == "upper"
        )


def test_cli_solve_a_position_with_north_to_move() -> None:
    done = nimmax("solve", "kalah", "--position", "0,2,1:3/1,0,2:0/n", "--json")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["to_move"] == 1 and record["value"] == solved((0, 2, 1, 3, 1, 0, 2, 0), 1)


@pytest.mark.parametrize(
    "words", [["--pits", "0"], ["--position", "1,2:0/1:0/s"], ["--seeds", "many"]]
)
def test_cli_bad_game_words_exit_2_with_one_line(words: list[str]) -> None:
    done = nimmax("solve", "kalah", *words)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr


# --- The board as people draw it ----------------------------------------------------------------


def drawn(game: Kalah, state: Position, last_move: object = None, bottom: int = 0) -> list[str]:
    console = Console(width=100, record=True, color_system=None)
    console.print(render(game, state, last_move, bottom))
    return [line.rstrip() for line in console.export_text().splitlines()]


def digits(line: str) -> list[int]:
    return [
        int(word)
        for word in line.replace("│", " ").replace("├", " ").replace("┤", " ").split()
        if word.isdigit()
    ]


def test_renderer_draws_the_bottom_side_near_and_stores_at_the_ends() -> None:
    game = Kalah(3, 1)
    state = at("1,2,3:7/4,5,6:9/n")
    lines = drawn(game, state, bottom=1)
    assert "South's pits" in lines[0] and "North's pits" in lines[6]
    assert digits(lines[0])[:3] == [3, 2, 1] and digits(lines[6])[:3] == [1, 2, 3]
    # South's pits seen from North: its pit 1 faces North's pit 3
    assert digits(lines[2]) == [3, 2, 1]
    assert digits(lines[3]) == [7, 9]  # South's store on North's left, North's on its right
    assert digits(lines[4]) == [4, 5, 6]
    assert lines[-1] == "North to move"


def test_renderer_keeps_south_at_the_bottom_when_north_is_to_move() -> None:
    """The board does not turn with the turn: South stays near unless drawn for North."""
    game = Kalah(3, 1)
    lines = drawn(game, at("1,2,3:7/4,5,6:9/n"))
    assert "North's pits" in lines[0] and "South's pits" in lines[6]
    assert digits(lines[2]) == [6, 5, 4] and digits(lines[4]) == [1, 2, 3]
    assert digits(lines[3]) == [9, 7]  # North's store on South's left, South's on its right
    assert lines[-1] == "North to move"


def boards_bottoms(screen: str) -> list[str]:
    """The side at the bottom of every Kalah board drawn on a screen: the owner named under the near
    row."""
    return re.findall(r"^ +1 +2 +3 +(\w+)'s pits$", screen, flags=re.MULTILINE)


@pytest.mark.parametrize(
    ("first", "second", "near"), [("random", "human", "North"), ("random", "random", "South")]
)
def test_play_keeps_the_persons_side_at_the_bottom_else_souths(
    first: str, second: str, near: str
) -> None:
    # some refused (empty pits); every board is drawn all the same
    moves = "\n".join(["1", "2", "3"] * 20)
    done = nimmax(
        "play",
        "kalah",
        "--pits",
        "3",
        "--seeds",
        "2",
        "--first",
        first,
        "--second",
        second,
        "--seed",
        "4",
        stdin=moves,
    )
    assert done.returncode == 0, done.stderr
    bottoms = boards_bottoms(done.stdout)
    assert len(bottoms) > 3 and set(bottoms) == {near}


def test_renderer_announces_the_extra_turn_and_the_end() -> None:
    game = Kalah(3, 2)
    after = game.result(game.initial_state(), 2)
    assert (
        "Extra turn" in drawn(game, after, 2)[-1]
        and "South moves again" in drawn(game, after, 2)[-1]
    )
    assert "Extra turn" not in drawn(game, game.result(after, 1), 1)[-1]
    finished = game.result(at("0,0,2:3/1,0,0:0/s"), 3)
    # store 3+1; North's 2 swept to its store
    assert drawn(game, finished)[-1] == "Game over: South wins 4–2"
