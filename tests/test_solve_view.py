"""solve's output that fits: the best line in full (cut past LINE_MOVES, with its count), headers that
fit 80 columns, the best moves of a big board (--all for every one)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from nimmax import games
from nimmax.ui.views import LINE_MOVES

from .cli_helpers import ROOT, nimmax_in_process


def solve_lines(*args: str) -> list[str]:
    """`nimmax solve ARGS` at 80 columns, as a terminal of the classic width shows it; its lines stripped."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80", "NO_COLOR": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "nimmax", "solve", *args], capture_output=True, text=True, env=env, timeout=120
    )
    assert run.returncode == 0, run.stderr
    return [line.rstrip() for line in run.stdout.splitlines()]


def test_a_line_without_a_table_is_played_on_to_the_end() -> None:
    """Plain minimax keeps no table, yet the line runs to the end of the game. Misère Simple-Nim (take 1-3):
    a pile of 1 mod 4 loses for the mover, so the winner always leaves one (9, 5, 1) and the loser takes
    the last counter."""
    run = nimmax_in_process("solve", "simple-nim", "12", "--algorithm", "minimax:cache=off", "--json")
    line = [int(move) for move in json.loads(run.stdout)["pv"]]
    assert sum(line) == 12 and len(line) % 2 == 0  # the second player takes the last counter, and loses
    left = [12 - sum(line[: ply + 1]) for ply in range(len(line))]
    assert all(counters % 4 == 1 for counters in left[0::2])  # after each of the first player's moves
    text = solve_lines("simple-nim", "12", "--algorithm", "minimax:cache=off")
    assert "best line " + " ".join(map(str, line)) in text


def test_a_proven_tictactoe_line_is_a_whole_drawn_game() -> None:
    run = nimmax_in_process("solve", "tictactoe", "--algorithm", "minimax:cache=off", "--json")
    record = json.loads(run.stdout)
    game = games.create("tictactoe")
    state = game.initial_state()
    for move in record["pv"]:
        state = game.result(state, game.parse_move(move, state))
    assert record["value"] == 0 and game.is_terminal(state) and game.winner(state) is None


def test_headers_keep_their_phrases_whole_at_80_columns() -> None:
    lines = solve_lines("plates")
    assert lines[:3] == ["plates 1,20,50 5,10,100 1,5,20", "A to move", "position 1,20,50/5,10,100/1,5,20"]
    assert all(len(line) <= 80 for line in lines)


def test_a_big_board_shows_its_best_ten_moves_and_all_on_asking() -> None:
    best = solve_lines("tictactoe", "--size", "15", "--k", "5", "--depth", "1")
    rows = [line for line in best if line.startswith("│")]
    assert len(rows) == 10 and "and 215 more moves, none valued higher (--all shows them)" in best
    every = solve_lines("tictactoe", "--size", "15", "--k", "5", "--depth", "1", "--all")
    assert len([line for line in every if line.startswith("│")]) == 225
    assert not any("more moves" in line for line in every)
    small = solve_lines("nim", "2", "3", "5")  # ten moves: all of them, no note
    assert len([line for line in small if line.startswith("│")]) == 10 and not any("more" in line for line in small)


def test_a_long_best_line_is_cut_with_the_count_of_its_moves() -> None:
    """Misère Simple-Nim of 5,000 (take 1-3): the first player takes 3, leaving 1 mod 4, and restores it
    every round of two moves; 4,996 / 4 rounds later the loser takes the last counter: 2,500 moves."""
    run = nimmax_in_process("solve", "simple-nim", "5000")
    assert run.returncode == 0, run.stderr
    (line,) = [line for line in run.stdout.splitlines() if line.startswith("best line ")]
    shown, count = line.removeprefix("best line ").split(" … ")
    assert shown.split()[0] == "3" and len(shown.split()) == LINE_MOVES
    assert count == f"({1 + 2 * (4996 // 4) + 1:,} moves in all)"
    assert len(run.stdout.splitlines()) < 30
