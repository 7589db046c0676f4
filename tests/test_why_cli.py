"""why, analyze and solve --explain from the command line: what a user sees, and that it is true."""

from __future__ import annotations

import json
from pathlib import Path

from .cli_helpers import nimmax, nimmax_in_process


def played(tmp_path: Path, game: list[str], moves: list[str]) -> Path:
    """A record of two people playing `moves`."""
    path = tmp_path / "game.json"
    result = nimmax_in_process(
        "play",
        *game,
        "--first",
        "human",
        "--second",
        "human",
        "--record",
        str(path),
        stdin="\n".join(moves) + "\n",
    )
    assert result.returncode == 0, result.stderr
    return path


def test_analyze_names_the_missed_block(tmp_path: Path) -> None:
    record = played(tmp_path, ["tictactoe"], ["b2", "a1", "c1", "b1", "a3"])
    result = nimmax_in_process("analyze", str(record))
    assert result.returncode == 0, result.stderr
    assert "Decided at ply 4: O played b1 (loss); a3 kept the draw." in result.stdout
    analysis = json.loads(nimmax_in_process("analyze", str(record), "--json").stdout)
    assert analysis["decisive_ply"] == 4
    assert [move["verdict"] for move in analysis["moves"]] == [
        "best",
        "best",
        "best",
        "mistake",
        "best",
    ]
    assert analysis["moves"][3] | {"value_before": 0.0} == {
        "ply": 4,
        "seat": 1,
        "move": "b1",
        "value_before": 0.0,
        "value_after": -1.0,
        "best_move": "a3",
        "best_value": 0.0,
        "verdict": "mistake",
        "exact": True,
        "loss": 1.0,
    }


def test_a_game_without_mistakes_has_no_decisive_ply(tmp_path: Path) -> None:
    # simple-nim 5 (take 1-3, the last counter loses): 5 = 4 + 1 is lost for the first player
    # whatever it takes; the second leaves it the last counter. Nobody errs.
    record = played(tmp_path, ["simple-nim", "5"], ["3", "1", "1"])
    analysis = json.loads(nimmax_in_process("analyze", str(record), "--json").stdout)
    verdicts = [move["verdict"] for move in analysis["moves"]]
    assert analysis["decisive_ply"] is None and set(verdicts) == {"best"}


def test_play_banner_says_why_the_game_ended_and_offers_the_analysis(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = nimmax_in_process(
        "play",
        "tictactoe",
        "--first",
        "human",
        "--second",
        "human",
        "--record",
        str(path),
        stdin="b2\na1\nc1\nb1\na3\n",
    )
    assert "X made 3 in a row: a3, b2, c1" in result.stdout
    assert f"analyze: nimmax analyze {path}" in result.stdout
    replayed = nimmax_in_process("replay", str(path), "--delay", "0", "--analyze")
    assert "X made 3 in a row" in replayed.stdout and "Decided at ply 4" in replayed.stdout


def test_why_after_the_engine_moves(tmp_path: Path) -> None:
    result = nimmax_in_process(
        "play", "tictactoe", "--second", "alphabeta:time=inf", stdin="a1\nwhy\nquit\n"
    )
    assert result.returncode == 0, result.stderr
    assert "why O (alphabeta:time=inf) played b2:" in result.stdout
    rows = [line for line in result.stdout.splitlines() if "(loss)" in line]
    assert len(rows) == 7  # every other reply to a corner loses for O
    before = nimmax_in_process("play", "tictactoe", stdin="why\nquit\n")
    assert "no engine has moved yet" in before.stdout


def test_solve_explain_draws_the_refutations() -> None:
    result = nimmax_in_process("solve", "simple-nim", "6", "--explain")
    assert result.returncode == 0, result.stderr
    # 6 counters, take 1-3, last counter loses: taking 1 leaves 5 = 4 + 1, a loss for the mover
    assert "1  +1 (win)  best" in result.stdout
    assert "3  -1 (loss)" in result.stdout and "2  -1 (loss)" in result.stdout


def test_analyze_refuses_a_corrupt_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        '{"game": "tictactoe", "players": ["human", "human"], "moves": ["b2", "b2"], "result": {}}'
    )
    result = nimmax("analyze", str(path))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_the_banner_says_why_each_game_ended() -> None:
    kalah = nimmax_in_process(
        "play", "kalah", "--pits", "3", "--seeds", "4", "--position", "0,0,0:14/1,2,3:4/n"
    )
    assert (
        "South's pits are empty, so each side keeps the seeds left on its own row" in kalah.stdout
    )
    nim = nimmax_in_process(
        "play", "nim", "1", "1", "--first", "human", "--second", "human", stdin="1:1\n2:1\n"
    )
    assert "Second took the last counter, and loses (misère play)" in nim.stdout
    normal = nimmax_in_process(
        "play", "nim", "1", "--normal", "--first", "human", "--second", "human", stdin="1:1\n"
    )
    assert "First took the last counter, and wins (normal play)" in normal.stdout
    split = nimmax_in_process(
        "play", "split-nim", "3", "--first", "human", "--second", "human", stdin="1:2+1\n"
    )
    assert "Second cannot split any pile into two unequal piles" in split.stdout
