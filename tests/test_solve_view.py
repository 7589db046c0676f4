"""solve's output that fits: the best line in full (cut past LINE_MOVES, with its count), headers
that fit 80 columns, the best moves of a big board (--all for every one)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from nimmax import games
from nimmax.game import winner_of
from nimmax.ui.views import LINE_MOVES

from .cli_helpers import ROOT, nimmax_in_process


def solve_lines(*args: str) -> list[str]:
    """`nimmax solve ARGS` at 80 columns, as a terminal of the classic width shows it; its lines
    stripped."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80", "NO_COLOR": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "nimmax", "solve", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return [line.rstrip() for line in run.stdout.splitlines()]


def test_a_line_without_a_table_is_played_on_to_the_end() -> None:
    """Plain minimax keeps no table, yet the line runs to the end of the game. Misère Simple-Nim
    (take 1-3): a pile of 1 mod 4 loses for the mover, so the winner always leaves one (9, 5, 1) and
    the loser takes the last counter."""
    run = nimmax_in_process(
        "solve", "simple-nim", "12", "--algorithm", "minimax:cache=off", "--json"
    )
    line = [int(move) for move in json.loads(run.stdout)["pv"]]
    # the second player takes the last counter, and loses
    assert sum(line) == 12 and len(line) % 2 == 0
    left = [12 - sum(line[: ply + 1]) for ply in range(len(line))]
    # after each of the first player's moves
    assert all(counters % 4 == 1 for counters in left[0::2])
    text = solve_lines("simple-nim", "12", "--algorithm", "minimax:cache=off")
    assert "best line " + " ".join(map(str, line)) in text


def test_a_proven_tictactoe_line_is_a_whole_drawn_game() -> None:
    run = nimmax_in_process("solve", "tictactoe", "--algorithm", "minimax:cache=off", "--json")
    record = json.loads(run.stdout)
    game = games.create("tictactoe")
    state = game.initial_state()
    for move in record["pv"]:
        state = game.result(state, game.parse_move(move, state))
    assert record["value"] == 0 and game.is_terminal(state) and winner_of(game, state) is None


def test_headers_keep_their_phrases_whole_at_80_columns() -> None:
    lines = solve_lines("plates")
    assert lines[:3] == [
        "plates 1,20,50 5,10,100 1,5,20",
        "A to move",
        "position 1,20,50/5,10,100/1,5,20",
    ]
    assert all(len(line) <= 80 for line in lines)


def test_a_big_board_shows_its_best_ten_moves_and_all_on_asking() -> None:
    best = solve_lines("tictactoe", "--size", "15", "--k", "5", "--depth", "1")
    rows = [line for line in best if line.startswith("│")]
    assert len(rows) == 10 and "and 215 more moves, none valued higher (--all shows them)" in best
    every = solve_lines("tictactoe", "--size", "15", "--k", "5", "--depth", "1", "--all")
    assert len([line for line in every if line.startswith("│")]) == 225
    assert not any("more moves" in line for line in every)
    small = solve_lines("nim", "2", "3", "5")  # ten moves: all of them, no note
    assert len([line for line in small if line.startswith("│")]) == 10 and not any(
        "more" in line for line in small
    )


def nim_end(piles: tuple[int, ...], normal: bool) -> tuple[int, int]:
    """(value, plies to the end) of a Nim position for the mover, by plain recursion: the winner
    ends the game as soon as it can, the loser holds out as long as it can."""
    if not any(piles):
        return (1 if not normal else -1), 0  # the last counter was taken by the other side
    outcomes = []
    for index, pile in enumerate(piles):
        for take in range(1, pile + 1):
            value, plies = nim_end((*piles[:index], pile - take, *piles[index + 1 :]), normal)
            outcomes.append((-value, plies + 1))
    return max(outcomes, key=lambda pair: (pair[0], -pair[1] if pair[0] > 0 else pair[1]))


def test_every_view_puts_the_best_move_first_and_orders_by_the_engines_key() -> None:
    """Nim 1 2 3 (normal play): every move loses (nim-sum 0), so the engine picks the slowest
    loss. The tree of --explain marked 3:3 best while the table and --json chose 3:1 (issue 28):
    now the table, --json `moves` and the tree all start with best_move, then go by the same
    key, the payoff and then the plies to the end (the slowest loss first)."""
    record = json.loads(
        nimmax_in_process("solve", "nim", "1", "2", "3", "--normal", "--all", "--json").stdout
    )
    moves = [entry["move"] for entry in record["moves"]]
    assert moves[0] == record["best_move"] == record["pv"][0]

    def key(move: str) -> tuple[int, int]:
        pile, take = map(int, move.split(":"))
        piles = [1, 2, 3]
        piles[pile - 1] -= take
        value, plies = nim_end(tuple(piles), normal=True)
        return -value, plies + 1  # for the mover of 1 2 3

    keys = [key(move) for move in moves]
    assert all(value == -1 for value, _ in keys)  # Bouton: every move loses
    assert [plies for _, plies in keys] == sorted((plies for _, plies in keys), reverse=True)
    text = solve_lines("nim", "1", "2", "3", "--normal", "--explain")
    # not the tree
    rows = [
        line.split("│")[1].strip() for line in text if line.startswith("│ ") and line.endswith("│")
    ]
    assert rows[0] == f"{record['best_move']}  ← best" and [row.split()[0] for row in rows] == moves
    branches = [line for line in text if line.startswith(("├── ", "└── "))]
    assert branches[0].split()[1] == record["best_move"] and branches[0].endswith("best")
    assert [branch.split()[1] for branch in branches] == moves


def test_an_mcts_solve_lists_its_choice_first() -> None:
    """MCTS chooses by visits, not by mean: its table listed b2 +0.05 first and marked a2 best
    (issue 28). Its choice comes first, in the table and in --json."""
    spec = "mcts:iterations=3000,seed=1"
    record = json.loads(
        nimmax_in_process("solve", "tictactoe", "--algorithm", spec, "--json").stdout
    )
    assert record["moves"][0]["move"] == record["best_move"]
    rows = [line for line in solve_lines("tictactoe", "--algorithm", spec) if line.startswith("│")]
    assert rows[0].split("│")[1].strip() == f"{record['best_move']}  ← best"


def test_a_long_best_line_is_cut_with_the_count_of_its_moves() -> None:
    """Misère Simple-Nim of 5,000 (take 1-3): the first player takes 3, leaving 1 mod 4, and
    restores it every round of two moves; 4,996 / 4 rounds later the loser takes the last counter:
    2,500 moves."""
    run = nimmax_in_process("solve", "simple-nim", "5000")
    assert run.returncode == 0, run.stderr
    (line,) = [line for line in run.stdout.splitlines() if line.startswith("best line ")]
    shown, count = line.removeprefix("best line ").split(" … ")
    assert shown.split()[0] == "3" and len(shown.split()) == LINE_MOVES
    assert count == f"({1 + 2 * (4996 // 4) + 1:,} moves in all)"
    assert len(run.stdout.splitlines()) < 30
