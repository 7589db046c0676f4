"""2048: the rules pinned with real rows and an independent list-based slide, seeded games,
the position notation, the expectimax player's values, the renderer and the key reader."""

from __future__ import annotations

import json
import random
import re
from math import inf

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from nimmax import games, players
from nimmax.claim import Proofs
from nimmax.game import CHANCE, BadGameSpec, IllegalMove, outcomes, winner_of
from nimmax.games.twenty48 import Position, Spawn, Twenty48
from nimmax.match import GameRecord, plies
from nimmax.players import parse_spec
from nimmax.search import search
from nimmax.ui.render import render
from nimmax.ui.twenty48 import engine_status, read_key

from .cli_helpers import nimmax, nimmax_in_process


def slide_row(row: list[int]) -> tuple[list[int], int]:
    """Independent truth: one row of tile values slid towards index 0, as the original game does."""
    tiles = [tile for tile in row if tile]
    out: list[int] = []
    points = 0
    while tiles:
        if len(tiles) > 1 and tiles[0] == tiles[1]:
            out.append(tiles[0] * 2)
            points += tiles[0] * 2
            tiles = tiles[2:]
        else:
            out.append(tiles.pop(0))
    return out + [0] * (len(row) - len(out)), points


def slide_grid(grid: list[list[int]], move: str) -> tuple[list[list[int]], int]:
    """The reference slide of a whole grid: rows for left/right, columns for up/down."""
    size = len(grid)
    lines = (
        grid if move in ("left", "right") else [list(column) for column in zip(*grid, strict=True)]
    )
    slid, points = [], 0
    for line in lines:
        forward = line if move in ("left", "up") else line[::-1]
        moved, gained = slide_row(forward)
        slid.append(moved if move in ("left", "up") else moved[::-1])
        points += gained
    result = slid if move in ("left", "right") else [list(row) for row in zip(*slid, strict=True)]
    assert len(result) == size
    return result, points


def position(text: str) -> tuple[Twenty48, Position]:
    game = games.create(["2048", "--position", text])
    assert isinstance(game, Twenty48)
    return game, game.initial_state()


def grid_of(game: Twenty48, state: Position) -> list[list[int]]:
    text = game.format_position(state)
    return [[int(tile) for tile in row.split(",")] for row in text.split("/")]


def text_of(grid: list[list[int]]) -> str:
    return "/".join(",".join(map(str, row)) for row in grid)


@pytest.mark.parametrize(
    ("row", "slid", "points"),
    [
        ("2,2,2,2", "4,4,0,0", 8),  # each tile merges at most once
        ("2,2,4,4", "4,8,0,0", 12),
        ("4,4,4,0", "8,4,0,0", 8),  # the pair nearest the wall merges first
        ("2,0,0,2", "4,0,0,0", 4),
        ("8,8,16,0", "16,16,0,0", 16),  # a merged tile does not merge again in the same move
        ("0,0,0,2", "2,0,0,0", 0),
        ("2,4,2,4", None, 0),  # nothing moves: left is not legal
    ],
)
def test_rows_slide_left_like_the_original(row: str, slid: str | None, points: int) -> None:
    game, state = position(f"{row}/0,0,0,0/0,0,0,0/0,0,0,0")
    if slid is None:
        assert "left" not in game.actions(state)
        with pytest.raises(IllegalMove, match="changes nothing"):
            game.result(state, "left")
        return
    after = game.result(state, "left")
    assert game.format_position(after) == f"{slid}/0,0,0,0/0,0,0,0/0,0,0,0"
    assert after.score == points
    assert game.to_move(after) == CHANCE


grids = st.integers(2, 5).flatmap(
    lambda size: st.lists(
        st.lists(
            st.sampled_from([0, 0, 0, 2, 2, 4, 4, 8, 16, 1024, 32768]), min_size=size, max_size=size
        ),
        min_size=size,
        max_size=size,
        # a position holds a tile (an empty one is refused)
    ).filter(lambda grid: any(any(row) for row in grid))
)


@given(grids)
def test_every_slide_matches_an_independent_list_model(grid: list[list[int]]) -> None:
    game, state = position(text_of(grid))
    for move in ("up", "down", "left", "right"):
        expected, points = slide_grid(grid, move)
        if any(32768 * 2 in row for row in expected):
            continue  # two 32768 tiles do not merge on the 4-bit board (documented limit)
        if expected == grid:
            assert move not in game.actions(state)
            continue
        after = game.result(state, move)
        assert grid_of(game, after) == expected
        assert after.score == points


@given(grids)
def test_positions_print_as_they_are_read(grid: list[list[int]]) -> None:
    game, state = position(text_of(grid))
    assert game.format_position(state) == text_of(grid)
    again = games.create(game.spec)
    assert again.initial_state() == state


def test_chance_node_lists_every_empty_cell_with_a_2_or_a_4() -> None:
    game, state = position("2,2,2,2/0,0,0,0/0,0,0,0/0,0,0,4")
    after = game.result(state, "left")  # 4,4,0,0 / ... / 4,0,0,0: 13 empty cells
    outcomes = game.chance_outcomes(after)
    assert sum(probability for probability, _ in outcomes) == pytest.approx(1.0)
    assert len(outcomes) == 2 * 13
    for probability, spawn in outcomes:
        assert isinstance(spawn, Spawn)
        assert probability == pytest.approx((0.9 if spawn.rank == 1 else 0.1) / 13)
        assert (after.board >> (4 * spawn.cell)) & 15 == 0
    spawned = game.result(after, game.parse_move("4@d4", after))
    assert game.format_position(spawned) == "4,4,0,0/0,0,0,0/0,0,0,0/4,0,0,4"
    assert game.to_move(spawned) == 0
    with pytest.raises(IllegalMove, match="taken"):
        game.parse_move("2@a1", after)


def test_the_game_starts_with_two_spawns_on_an_empty_board() -> None:
    game = games.create("2048")
    start = game.initial_state()
    assert game.to_move(start) == CHANCE and len(outcomes(game, start)) == 32
    after_one = game.result(start, Spawn(0, 1))
    assert game.to_move(after_one) == CHANCE and len(outcomes(game, after_one)) == 30
    assert game.to_move(game.result(after_one, Spawn(5, 2))) == 0


def test_game_over_on_a_full_board_without_merges() -> None:
    game, state = position("2,4,2,4/4,2,4,2/2,4,2,4/4,2,4,2")
    assert game.is_terminal(state) and game.actions(state) == []
    assert game.utility(state, 0) == 0 and winner_of(game, state) is None
    game, state = position("2,4,2,4/4,2,4,2/2,4,2,4/4,2,8,8")  # one merge left
    assert not game.is_terminal(state) and set(game.actions(state)) == {"left", "right"}


def test_reaching_the_goal_wins_and_play_goes_on() -> None:
    game, state = position("1024,1024,0,0/0,0,0,0/0,0,0,0/0,0,0,0")
    after = game.result(state, "left")
    assert winner_of(game, after) == 0 and after.score == 2048 and not game.is_terminal(after)
    small = games.create("2048 --goal 8 --position 4,4/0,0")
    assert (
        isinstance(small, Twenty48)
        and winner_of(small, small.result(small.initial_state(), "right")) == 0
    )


def test_humans_may_type_letters() -> None:
    game, state = position("2,0,0,0/0,0,0,0/0,0,0,0/0,0,0,2")
    typed = [game.parse_move(text, state) for text in ("R", "d", "w", "s", "right")]
    assert typed == ["right", "down", "up", "down", "right"]
    corner, start = position("2,0/0,0")
    with pytest.raises(IllegalMove, match="changes nothing"):
        corner.parse_move("l", start)
    with pytest.raises(IllegalMove, match="not a slide"):
        corner.parse_move("jump", start)


def test_seeded_games_are_reproducible_move_for_move() -> None:
    def play(seed: int) -> list[str]:
        game = games.create(f"2048 --seed {seed}")
        moves = [
            game.format_move(ply.move)
            for ply in plies(game, [players.create(parse_spec("random:seed=1"))])
        ]
        return moves

    first = play(5)
    assert first == play(5) and first != play(6)
    assert all("@" in move for move in first[:2])  # the two starting tiles are chance moves too


def test_a_game_record_replays_the_spawns() -> None:
    game = games.create("2048 --seed 3 --size 3")
    history = list(plies(game, [players.create(parse_spec("random:seed=2"))]))
    record = GameRecord.from_json(GameRecord.of(game, ["random:seed=2"], history).to_json())
    assert record.positions()[-1] == history[-1].after
    assert json.loads(record.to_json())["result"]["utilities"] == [history[-1].after.score]


@pytest.mark.parametrize(
    "words",
    [
        "2048 --position 2,2,2/0,0,0",  # not square
        "2048 --position 3,0/0,0",  # not a power of two
        "2048 --position 2,x/0,0",
        "2048 --position 65536,0/0,0",  # beyond the 4-bit cells
        "2048 --position 0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0",  # no tile: no slide, yet not over
        "2048 --size 4 --position 2,0/0,0",
        "2048 --size 1",
        "2048 --size 9",
        "2048 --goal 100",
        "2048 extra",
    ],
)
def test_bad_game_words_are_refused(words: str) -> None:
    with pytest.raises(BadGameSpec):
        games.create(words)


def test_expectimax_averages_the_spawns_on_a_hand_computed_position() -> None:
    # 0,16/4,32 on a 2x2 board. Up: 4,16/0,32, then a 2 (p 0.9) ends the game at 0 points; a 4
    # (p 0.1) lets the 4s merge for 8 points, after which every spawn ends it: 0.1 * 8 = 0.8.
    # Left: 16,0/4,32, and neither spawn leaves a merge: 0.
    game, state = position("0,16/4,32")
    result = search(game, state, "expectimax", every_move=True, time=inf)
    assert result.exact and result.move == "up"
    assert {move: round(value, 3) for move, value in result.moves} == {"up": 0.8, "left": 0.0}
    # the worst-spawn model sees 0 for both: chance always plays the 2
    assert search(game, state, "alphabeta", time=inf).value == 0


def exact_value(game: Twenty48, state: Position) -> float:
    """Independent expectimax over the game's moves: plain recursion, no table, no ageing."""
    if game.is_terminal(state):
        return state.score
    if game.to_move(state) == CHANCE:
        return sum(
            p * exact_value(game, game.result(state, o)) for p, o in game.chance_outcomes(state)
        )
    return max(exact_value(game, game.result(state, move)) for move in game.actions(state))


@pytest.mark.parametrize("text", ["0,16/4,32", "0,16/16,16", "16,8/0,16"])
def test_expectimax_is_exact_on_small_boards(text: str) -> None:
    game, state = position(text)
    assert search(game, state, "expectimax", time=inf).value == pytest.approx(
        exact_value(game, state), abs=1e-3
    )


def test_limited_expectimax_answers_on_the_full_board() -> None:
    game, state = position("2,2,4,8/0,4,0,0/0,0,0,2/0,0,0,0")
    result = search(game, state, "expectimax", depth=3)
    assert result.move in game.actions(state) and not result.exact
    timed = search(game, state, "expectimax", time=0.05)
    assert timed.move in game.actions(state) and timed.seconds < 0.5


def test_expectimax_plays_well_enough_to_reach_256() -> None:
    game = games.create("2048 --seed 7")
    final = None
    for ply in plies(game, [players.create(parse_spec("expectimax:depth=2"))]):
        final = ply.after
    assert final is not None and isinstance(game, Twenty48)
    assert 1 << game.best_rank(final.board) >= 256  # random play rarely passes 128


def test_solve_on_the_command_line() -> None:
    done = nimmax(
        "solve",
        "2048",
        "--position",
        "2,2,2,2/0,0,0,0/0,0,0,0/0,0,0,4",
        "--algorithm",
        "expectimax:depth=2",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    values = {m["move"]: m["value"] for m in answer["moves"]}
    assert set(values) == {"left", "right", "up", "down"} and answer["exact"] is False
    assert values[answer["best_move"]] == max(values.values())
    pretty = nimmax("solve", "twenty48", "--position", "0,16/4,32", "--algorithm", "expectimax")
    assert pretty.returncode == 0 and "up" in pretty.stdout
    bad = nimmax("solve", "2048", "--position", "2,2/2")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "row 2" in bad.stderr
    start = nimmax("solve", "2048")
    assert start.returncode == 2 and "chance" in start.stderr


@pytest.mark.parametrize("command", [("play", "--first", "random"), ("solve",)])
def test_an_empty_position_is_refused_where_it_is_read(command: tuple[str, ...]) -> None:
    """No slide moves an empty board, and it is not over either: a position nobody can move from."""
    done = nimmax(command[0], "2048", "--position", "0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0", *command[1:])
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "no tile" in done.stderr


def test_renderer_shows_score_best_tile_and_colours() -> None:
    game, state = position("2,4,0,0/0,2048,0,0/0,0,0,0/0,0,0,4096")
    console = Console(record=True, width=80, color_system="truecolor")
    console.print(render(game, state, "left"))
    text = console.export_text(clear=False)
    assert "Score 0" in text and "Best tile 4096" in text and "2048 made" in text
    assert "#edc22e" in console.export_html()  # 2048's gold, as in the original


def press(game: Twenty48, state: Position, keys: str) -> object:
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        return read_key(game, state, input=pipe, output=DummyOutput())


@pytest.mark.parametrize(
    ("keys", "meaning"),
    [
        ("\x1b[A", "up"),
        ("\x1b[B", "down"),
        ("\x1b[D", "left"),
        ("\x1b[C", "right"),
        ("w", "up"),
        ("a", "left"),
        ("s", "down"),
        ("d", "right"),
        ("k", "up"),
        ("h", "left"),
        ("j", "down"),
        ("l", "right"),
        ("u", "undo"),
        ("q", "quit"),
    ],
)
def test_one_key_moves_without_enter(keys: str, meaning: str) -> None:
    game, state = position("0,0,0,0/0,2,0,0/0,0,0,0/0,0,0,0")
    assert press(game, state, keys) == meaning


def test_keys_for_slides_that_change_nothing_are_ignored() -> None:
    game, state = position("2,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0")  # only right and down move
    assert press(game, state, "aw\x1b[Ad") == "right"


def test_random_and_alphabeta_play_2048_to_the_end() -> None:
    game = games.create("2048 --seed 2 --size 3")
    for spec in ("random:seed=4", "alphabeta:depth=2"):
        history = list(plies(game, [players.create(parse_spec(spec))]))
        assert game.is_terminal(history[-1].after)


def test_the_search_never_sees_a_different_state_for_equal_keys() -> None:
    game = Twenty48(seed=1)
    rng = random.Random(1)
    state = game.initial_state()
    for _ in range(30):
        if game.to_move(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            state = game.result(state, rng.choice(outcomes)[1])
        else:
            state = game.result(state, rng.choice(list(game.actions(state))))
        assert game.key(state) == state  # the key keeps the score: values include points made


def test_the_cutoff_option_reaches_the_engine() -> None:
    game, state = position("2,2,4,8/0,4,0,0/0,0,0,2/0,0,0,0")
    everything = players.create(parse_spec("expectimax:depth=3,cutoff=0.0000001"))
    pruned = players.create(parse_spec("expectimax:depth=3,cutoff=0.5"))  # cuts below every spawn
    assert isinstance(everything, players.SearchPlayer) and isinstance(pruned, players.SearchPlayer)
    assert pruned.search(game, state).nodes < everything.search(game, state).nodes
    with pytest.raises(players.BadPlayerSpec):
        players.create(parse_spec("alphabeta:cutoff=0.1"))


def test_control_c_while_waiting_for_a_key_interrupts() -> None:
    game, state = position("0,0/0,2")
    with pytest.raises(KeyboardInterrupt):
        press(game, state, "\x03")


def test_the_hint_gives_the_slides_points_and_the_final_score_the_network_expects() -> None:
    """With the learned network the search's value is points: the final score it expects."""
    grid = [[2, 2, 4, 4], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]
    done = nimmax_in_process("play", "2048", "--position", text_of(grid), stdin="hint\n")
    assert done.returncode == 0, done.stderr
    hint = re.search(
        r"hint: (\w+) +scores (\S+) now · expects ([\d,]+) points in all at depth \d+", done.stdout
    )
    assert hint is not None, done.stdout
    slide, points, expected = hint.groups()
    assert int(points.lstrip("+")) == slide_grid(grid, slide)[1]
    # a final score, not the heuristic's constant
    assert 0 < int(expected.replace(",", "")) < 1_000_000
    assert "heuristic" not in done.stdout


def test_the_heuristic_value_is_kept_apart_from_points() -> None:
    """The heuristic's value on a board scoring 0 is some 1.6 million, never shown as points."""
    game, state = position("2,2,4,4/0,0,0,0/0,0,0,0/0,0,0,2")
    heuristic = game.evaluated("heuristic")
    found = players.create(parse_spec("expectimax:depth=1,eval=heuristic"))
    assert isinstance(found, players.SearchPlayer)
    search = found.search(heuristic, state)
    said = Proofs().claimed(heuristic, state, search)
    line = engine_status(heuristic, state, search.move, search, said)
    assert "(not points)" in line and search.value > 1_000_000


def test_without_colour_the_board_is_a_grid_of_its_tiles() -> None:
    """NO_COLOR (or a pipe): cells told apart by colour alone would be blank, so the tiles sit in a
    grid."""
    grid = [[2, 4, 0, 0], [0, 2048, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4096]]
    # NO_COLOR=1
    done = nimmax_in_process("play", "2048", "--position", text_of(grid), stdin="quit\n")
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("│")][:4]
    assert len(rows) == 4, done.stdout
    assert [
        [int(cell) if cell.strip() else 0 for cell in row.strip("│").split("│")] for row in rows
    ] == grid
    assert done.stdout.count("┼") == 3 * 3  # the inner corners of a 4x4 grid, one board drawn


def test_an_unfinished_game_gives_its_score_and_best_tile() -> None:
    grid = [[4, 4, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    done = nimmax_in_process("play", "2048", "--position", text_of(grid), stdin="left\nquit\n")
    assert done.returncode == 0, done.stderr
    # 8,0,0,0 / 2,... : the spawn, a 2 or a 4, stays below 8
    slid, points = slide_grid(grid, "left")
    assert (
        f"Score {points:,}, best tile {max(map(max, slid))}"
        in done.stdout.split("unfinished after 1 move")[1]
    )
