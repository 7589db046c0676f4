"""Results that read right: finished Kalah, plates and 2048 games, word for word, in play, replay,
solve and duel; won/drawn/lost games say win/draw/loss.

The expected lines are worked out by hand from the rules (the sowing, the plates' minimax value,
the 2048 score), never copied from what the code printed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from unittest import mock

import pytest

from nimmax import games
from nimmax.ui.results import outcome, value_words

from .cli_helpers import nimmax_in_process


def banner_line(stdout: str) -> str:
    """The result line of the panel at the end of a session (the line under it says why it
    ended)."""
    lines = stdout.splitlines()
    top = max(index for index, line in enumerate(lines) if line.startswith("╭"))
    return lines[top + 1].strip("│ ").strip()


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        # South: store 14, no seeds left; North: store 4 and 1+2+3 swept = 10.
        ("0,0,0:14/1,2,3:4/n", "South (you) wins 14–10"),
        # North: store 15, none left; South: store 6 and 3 swept = 9.
        ("0,0,3:6/0,0,0:15/s", "North (alphabeta) wins 15–9"),
        # 12 each: store 9 and 1+1+1 swept against store 12.
        ("1,1,1:9/0,0,0:12/s", "Draw 12–12"),
    ],
)
def test_a_finished_kalah_game_says_the_seeds_each_side_ends_with(
    position: str, expected: str
) -> None:
    run = nimmax_in_process("play", "kalah", "--pits", "3", "--seeds", "4", "--position", position)
    assert run.returncode == 0, run.stderr
    assert banner_line(run.stdout) == expected


def test_a_kalah_game_played_out_says_the_score_its_record_holds(tmp_path: Path) -> None:
    """Kalah(3,3) played out by two engines: the banner's seeds are the record's margin split over
    18 seeds."""
    record = tmp_path / "game.json"
    run = nimmax_in_process(
        "play",
        "kalah",
        "--pits",
        "3",
        "--seeds",
        "3",
        "--first",
        "alphabeta",
        "--second",
        "random:seed=5",
        "--record",
        str(record),
    )
    assert run.returncode == 0, run.stderr
    # South's seeds minus North's
    margin = int(json.loads(record.read_text())["result"]["utilities"][0])
    south, north = (18 + margin) // 2, (18 - margin) // 2
    if margin > 0:
        expected = f"South (alphabeta) wins {south}–{north}"
    elif margin < 0:
        expected = f"North (random:seed=5) wins {north}–{south}"
    else:
        expected = "Draw 9–9"
    assert banner_line(run.stdout) == expected
    replayed = nimmax_in_process("replay", str(record), "--delay", "0")
    assert replayed.returncode == 0 and banner_line(replayed.stdout) == expected


@pytest.mark.parametrize(
    ("moves", "expected"),
    [
        # The textbook tree: plate 1 lets B hand at worst 1+20, so A can make sure of 20, its value.
        ("1\n20\n", "A (you) keeps 20; best possible 20"),
        ("3\n1\n", "A (you) keeps 1; best possible 20"),
        ("2\n10\n", "A (you) keeps 10; best possible 20"),
    ],
)
def test_a_plates_game_says_the_note_kept_beside_the_best_possible(
    moves: str, expected: str, tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    run = nimmax_in_process("play", "plates", "--record", str(record), stdin=moves)
    assert run.returncode == 0, run.stderr
    assert banner_line(run.stdout) == expected
    assert "wins by" not in run.stdout
    replayed = nimmax_in_process("replay", str(record), "--delay", "0")
    assert banner_line(replayed.stdout) == expected


def test_a_2048_game_says_the_score_and_the_best_tile(tmp_path: Path) -> None:
    # 2 4 / 4 2: no slide changes it, so the game is over before a move; no merge, so no points.
    run = nimmax_in_process("play", "2048", "--size", "2", "--position", "2,4/4,2")
    assert (
        banner_line(run.stdout) == "Game over: Player (you) scores 0, best tile 4 (2048 not made)"
    )
    # 4 4 / 2 8 with the goal 16: sliding left merges the 4s into an 8 (8 points); then 2048 rules
    # go on.
    record = tmp_path / "game.json"
    run = nimmax_in_process(
        "play",
        "2048",
        "--size",
        "2",
        "--goal",
        "16",
        "--position",
        "4,4/2,8",
        "--first",
        "random:seed=1",
        "--seed",
        "7",
        "--record",
        str(record),
    )
    assert run.returncode == 0, run.stderr
    saved = json.loads(record.read_text())
    score = int(saved["result"]["utilities"][0])
    game = games.create(saved["game"])
    state = game.initial_state()
    for move in saved["moves"]:
        state = game.result(state, game.parse_move(move, state))
    tiles = [int(tile) for tile in re.split("[,/]", game.format_position(state))]
    made = "16 made" if max(tiles) >= 16 else "16 not made"
    expected = (
        f"Game over: Player (random:seed=1) scores {score:,}, best tile {max(tiles)} ({made})"
    )
    assert banner_line(run.stdout) == expected
    assert score >= 8  # the first slide alone merged two 4s


def test_won_and_lost_games_say_win_draw_loss() -> None:
    nim = games.create("simple-nim 5")
    assert [value_words(nim, value) for value in (1, 0, -1)] == ["win", "draw", "loss"]
    run = nimmax_in_process(
        "play", "simple-nim", "4", "--first", "alphabeta", "--second", "alphabeta"
    )
    # Misère, take 1 to 3: 4 is not 1 mod 4, so the first player wins.
    assert banner_line(run.stdout) == "First (alphabeta) wins"
    tictactoe = games.create("tictactoe --position xox/xoo/oxx")
    assert outcome(tictactoe, tictactoe.initial_state(), ["X", "O"]) == ("Draw", None)


def test_solve_reads_a_kalah_margin_in_seeds() -> None:
    """The issue's position, by hand: North sows its 1 seed into its empty pit 2 and captures
    South's 2 (store 3); South's last pit goes to its store (4) and ends the game; North sweeps 2:
    5-4, +1."""
    run = nimmax_in_process("solve", "kalah", "--position", "0,2,1:3/1,0,2:0/n")
    assert run.returncode == 0, run.stderr
    lines = [line.strip() for line in run.stdout.splitlines()]
    assert "value +1 (win by 1 seed, proven)" in lines and "best line 1 3" in lines
    # no bare "win" for +1
    assert "win" not in [cell.strip() for line in lines for cell in line.split("│")]


def test_solve_reads_a_plates_value_as_the_note_kept() -> None:
    # the other moves keep their bounds
    with mock.patch("nimmax.commands.solve.others_budget", lambda answer: 0.0):
        run = nimmax_in_process("solve", "plates")
    lines = [line.strip() for line in run.stdout.splitlines()]
    assert "value +20 (A keeps 20, proven)" in lines and "best line 1 1+20 20" in lines
    # a bound
    assert any(re.fullmatch(r"│ 3 +│ +≤ \+5 │ no better than A keeps 5 +│", line) for line in lines)
    valued = [line.strip() for line in nimmax_in_process("solve", "plates").stdout.splitlines()]
    # valued in the proof's time
    assert any(re.fullmatch(r"│ 3 +│ +\+5 │ A keeps 5 +│", line) for line in valued)
    every = [
        line.strip() for line in nimmax_in_process("solve", "plates", "--all").stdout.splitlines()
    ]
    assert any(re.fullmatch(r"│ 3 +│ +\+5 │ A keeps 5 +│", line) for line in every)


def test_a_duel_of_a_scoring_game_says_the_margin_in_its_terms() -> None:
    run = nimmax_in_process(
        "duel",
        "alphabeta",
        "random:seed=3",
        "--game",
        "kalah --pits 3 --seeds 3",
        "--games",
        "4",
        "--seed",
        "1",
    )
    assert run.returncode == 0, run.stderr
    assert "seeds ahead per game" in run.stdout


def test_play_status_lines_read_the_engine_value_in_the_game_terms() -> None:
    """B's best reply to plate 3 hands over 1+5, leaving A 5 at best: the status says so, not "-5
    (proven)"."""
    run = nimmax_in_process("play", "plates", stdin="3\n1\n")
    assert "B (alphabeta) plays 1+5   value -5 (A keeps 5, proven)" in run.stdout
    # Kalah(3,1) between two engines that prove every move: every status line in seeds.
    run = nimmax_in_process(
        "play",
        "kalah",
        "--pits",
        "3",
        "--seeds",
        "1",
        "--first",
        "alphabeta",
        "--second",
        "alphabeta",
    )
    statuses = [line for line in run.stdout.splitlines() if " plays " in line]
    assert statuses and all(
        re.search(r"value ([+-][0-9]+ \((win|loss) by [0-9]+ seeds?|0 \(draw), proven\)", line)
        for line in statuses
    )


def ending_line(stdout: str) -> str:
    """The line under the result in the panel at the end of a session: why the game ended."""
    lines = stdout.splitlines()
    top = max(index for index, line in enumerate(lines) if line.startswith("╭"))
    return lines[top + 2].strip("│ ").strip()


@pytest.mark.parametrize(
    ("words", "moves", "expected"),
    [
        # X drops four stones in column g of a 6-row board: rows 6, 5, 4, 3 from the top.
        (["connect4"], "g f g f g f g", "X made 4 in a row: g3, g4, g5, g6"),
        # 7x7 k=4 with gravity: X fills the bottom row a to d (row 7), O stacks on a.
        (
            ["tictactoe", "--size", "7", "--k", "4", "--gravity"],
            "a a b a c a d",
            "X made 4 in a row: a7, b7, c7, d7",
        ),
        # A rising diagonal on Connect Four: X at a6, b5, c4, d3 (rows from the top), O fills under
        # it.
        (["connect4"], "a b b c c d c d d g d", "X made 4 in a row: a6, b5, c4, d3"),
    ],
)
def test_a_gravity_win_names_the_cells_of_its_line(
    words: list[str], moves: str, expected: str, tmp_path: Path
) -> None:
    """A Connect Four or gravity win ended in an IndexError (a column letter read as a cell): the
    banner names the cells of the line, as the board labels them, in play, replay and analyze."""
    record = tmp_path / "game.json"
    stdin = "\n".join(moves.split()) + "\n"
    humans = ("--first", "human", "--second", "human")
    run = nimmax_in_process("play", *words, *humans, "--record", str(record), stdin=stdin)
    assert run.returncode == 0, run.stderr
    assert banner_line(run.stdout) == "X wins"
    assert ending_line(run.stdout) == expected
    replayed = nimmax_in_process("replay", str(record), "--delay", "0")
    assert replayed.returncode == 0, replayed.stderr
    assert banner_line(replayed.stdout) == "X wins" and ending_line(replayed.stdout) == ending_line(
        run.stdout
    )
    analysed = nimmax_in_process("replay", str(record), "--delay", "0", "--analyze")
    assert analysed.returncode == 0 and "Traceback" not in analysed.stderr
