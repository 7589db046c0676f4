"""Plugins from the command line, as the README shows them: the examples play, solve, duel and pass
check; a broken plugin is one line; a plugin's own error names its line and keeps the record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from .cli_helpers import ENVIRONMENT, ROOT, nimmax, nimmax_in_process

TTT = "examples/tictactoe.py:TicTacToe"
SUBTRACTION = "examples/subtraction.py:Subtraction"
GREEDY = "examples/greedy.py:Greedy"


def run(*args: str, stdin: str = "") -> tuple[int, str, str]:
    result = nimmax_in_process(*args, stdin=stdin, cwd=ROOT)
    return result.returncode, result.stdout, result.stderr


def test_the_lab_tictactoe_plays_and_solves() -> None:
    code, out, err = run("play", TTT, "--second", "alphabeta", stdin="b2\na1\nc3\nquit\n")
    assert code == 0, err
    assert "O (alphabeta) plays" in out and "X/" not in out.split("O (alphabeta) plays")[0][-5:]
    code, out, err = run("solve", TTT, "--json")
    answer = json.loads(out)
    assert code == 0 and answer["value"] == 0 and answer["exact"] and len(answer["moves"]) == 9


def test_subtraction_with_words_solves_by_its_period() -> None:
    for counters in range(1, 15):
        code, out, err = run("solve", SUBTRACTION, str(counters), "--take", "1,3,4", "--json")
        assert code == 0, err
        # take 1, 3 or 4, whoever cannot move loses: lost exactly at 0 and 2 modulo 7
        assert (json.loads(out)["value"] < 0) == (counters % 7 in (0, 2))
    code, out, err = run("solve", SUBTRACTION, "x")
    assert code == 2 and "whole numbers" in err


def test_the_greedy_player_duels_alike_with_one_job_and_two() -> None:
    results = []
    for jobs in ("1", "2"):
        code, out, err = run(
            "duel",
            GREEDY,
            "random",
            "--game",
            "tictactoe",
            "--games",
            "20",
            "--seed",
            "4",
            "--jobs",
            jobs,
            "--json",
        )
        assert code == 0, err
        record = json.loads(out)
        results.append((record["wins"], record["draws"]))
    assert results[0] == results[1]
    wins = results[0][0]
    # it wins at once and blocks at once; only a fork beats it
    assert wins[GREEDY] > 3 * wins["random"]


def test_plugins_pass_check_and_a_broken_one_fails() -> None:
    for game in (TTT, SUBTRACTION):
        code, out, err = run("check", game, "--playouts", "20")
        assert code == 0 and "Every law holds." in out, err


def test_a_plugin_draws_its_own_board() -> None:
    """Subtraction's `render` draws the heap, not the state's repr `(10, 0)`."""
    code, out, err = run(
        "play", SUBTRACTION, "10", "--first", "human", "--second", "human", stdin="3\nquit\n"
    )
    assert code == 0, err
    boards = [line for line in out.splitlines() if "left" in line]
    assert boards[0] == "● " * 10 + "10 left" and boards[1] == "● " * 7 + "7 left, 3 just taken"
    assert "(10, 0)" not in out and "(7, 1)" not in out


def test_a_plugin_without_a_render_shows_whose_turn_it_is_and_the_moves(tmp_path: Path) -> None:
    """A plugin whose position is a bare tuple is still drawn readably: the turn, the last move, the
    moves."""
    (tmp_path / "heap.py").write_text(
        textwrap.dedent(
            """
            from nimmax import Game

            class Heap(Game):
                def initial_state(self):
                    return (5, 0)

                def to_move(self, state):
                    return state[1]

                def actions(self, state):
                    return [take for take in (1, 2) if take <= state[0]]

                def result(self, state, action):
                    return (state[0] - action, 1 - state[1])

                def is_terminal(self, state):
                    return state[0] == 0

                def utility(self, state, player):
                    return -1 if player == state[1] else 1
            """
        )
    )
    code, out, err = run(
        "play", f"{tmp_path}/heap.py:Heap", "--first", "human", "--second", "human", stdin="2\n"
    )
    assert code == 0, err
    rows = [" ".join(line.strip("│ ").split()) for line in out.splitlines()]
    assert "to move First" in rows and "moves 1, 2" in rows  # the start: 5 left, both takes legal
    assert "last move 2" in rows and "to move Second" in rows


def test_a_broken_plugin_is_one_line_exit_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("class Game(:\n")
    for words in (
        [f"{broken}:Game"],
        [f"{tmp_path}/none.py:Game"],
        ["examples/tictactoe.py:Nothing"],
    ):
        result = nimmax("play", *words)
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "syntax error" in nimmax("solve", f"{broken}:Game").stderr


def test_an_error_in_plugin_code_names_its_line_and_keeps_the_record(tmp_path: Path) -> None:
    buggy = tmp_path / "buggy.py"
    buggy.write_text(
        textwrap.dedent(
            f"""\
            import sys
            sys.path.insert(0, {str(ROOT / "examples")!r})
            from tictactoe import TicTacToe

            class Buggy(TicTacToe):
                def actions(self, state):
                    if state.count(".") == 7:
                        raise ValueError("the student's bug")
                    return super().actions(state)
            """
        )
    )
    record = tmp_path / "game.json"
    result = nimmax("play", f"{buggy}:Buggy", "--record", str(record), stdin="b2\n")
    assert result.returncode == 2
    assert f"{buggy}:8: ValueError: the student's bug" in result.stderr
    assert result.stderr.count("\n") == 1
    assert json.loads(record.read_text())["moves"] == ["b2"]
    full = nimmax("--traceback", "play", f"{buggy}:Buggy", stdin="b2\n")
    # nimmax's own crash exit
    assert "Traceback (most recent call last)" in full.stderr and full.returncode == 1


@pytest.fixture
def installed(tmp_path: Path) -> Path:
    """A package installed the way pip leaves one, on the path of a subprocess."""
    (tmp_path / "toy_nimmax_games.py").write_text(
        textwrap.dedent(
            f"""\
            import sys
            sys.path.insert(0, {str(ROOT / "examples")!r})
            from subtraction import Subtraction

            def subtraction(words):
                return Subtraction.from_words(words)
            """
        )
    )
    info = tmp_path / "toy_nimmax_games-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-nimmax-games\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[nimmax.games]\ntoy-subtraction = toy_nimmax_games:subtraction\n"
    )
    return tmp_path


def test_an_installed_game_is_listed_and_played(installed: Path) -> None:
    def with_package(*args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": f"{installed}{os.pathsep}{ROOT}", **ENVIRONMENT}
        command = [sys.executable, "-m", "nimmax", *args]
        return subprocess.run(
            command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=60
        )

    listed = json.loads(with_package("games", "--json").stdout)
    assert {
        "kind": "game",
        "name": "toy-subtraction",
        "target": "toy_nimmax_games:subtraction",
    } in listed["plugins"]
    assert "toy-subtraction" in with_package("games").stdout
    solved = with_package("solve", "toy-subtraction", "9", "--json")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["value"] == -1  # 9 = 7 + 2: lost for the side to move
