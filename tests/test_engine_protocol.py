"""`nimmax engine` driven as another program would drive it: a subprocess, one line at a time."""

from __future__ import annotations

import json
import os
import queue
import random
import subprocess
import sys
import threading
import time
from functools import reduce
from operator import xor

from nimmax import games
from nimmax.commands.solve import solve

from .cli_helpers import ENVIRONMENT, ROOT, nimmax


class Engine:
    """A running `nimmax engine`, its answers read on a thread so a test can time them."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), **ENVIRONMENT}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "nimmax", "engine"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=ROOT,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.lines.put(raw.decode())
        self.lines.put("")  # the end of its output

    def send(self, text: str | bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((text if isinstance(text, bytes) else text.encode()) + b"\n")
        self.process.stdin.flush()

    def until(self, start: str, timeout: float = 30) -> tuple[list[str], str]:
        """The lines before the first that starts with `start`, and that line."""
        before: list[str] = []
        while True:
            line = self.lines.get(timeout=timeout)
            assert line, f"the engine ended before {start!r}; it said {before}"
            if line.startswith(start):
                return before, line.strip()
            before.append(line.strip())

    def close(self) -> int:
        self.send("quit")
        return self.process.wait(timeout=10)


def test_a_scripted_transcript_of_nim_connect_four_and_kalah_agrees_with_theory_and_solve() -> None:
    engine = Engine()
    try:
        engine.send("game nim 2 3 5\nlegal\ngo infinite")
        _, legal = engine.until("legal")
        nim = games.create("nim 2 3 5")
        assert legal.split()[1:] == [
            nim.format_move(move) for move in nim.actions(nim.initial_state())
        ]
        infos, best = engine.until("bestmove")
        move, value = best.split()[1], best.split()[3]
        assert value == "+1" and infos[-1].startswith("info depth") and " proven " in infos[-1]
        after = nim.result(nim.initial_state(), nim.parse_move(move, nim.initial_state()))
        # Bouton: nim-sum zero
        assert reduce(xor, after.piles if hasattr(after, "piles") else after[0], 0) == 0
        engine.send(f"moves {move}\nturn\nmoves 9:9\nturn")
        assert engine.until("turn")[1] == "turn 1"
        before, turn = engine.until("turn")
        # the illegal move changed nothing
        assert before[0].startswith("error") and turn == "turn 1"
        for words, moves in (
            ("connect4 --rows 4 --cols 5", ["c", "c"]),
            ("kalah --pits 3 --seeds 3", ["1"]),
        ):
            game = games.create(words)
            state = game.initial_state()
            for text in moves:
                state = game.result(state, game.parse_move(text, state))
            engine.send(f"game {words}\nmoves {' '.join(moves)}\ngo infinite")
            infos, best = engine.until("bestmove")
            proven = solve(game, state)
            assert proven.exact and " proven " in infos[-1]
            assert best == f"bestmove {game.format_move(proven.move)} value {shown(proven.value)}"
        engine.send("game kalah --pits 3 --seeds 3\nposition 0,0,0:5/0,0,0:7/s\nturn")
        assert engine.until("turn")[1] == "turn over winner 1"
        engine.send("go\nisready")
        assert engine.until("bestmove")[1] == "bestmove none" and engine.until("readyok")
    finally:
        assert engine.close() == 0


def shown(value: float) -> str:
    return "0" if value == 0 else f"{value:+.0f}"


def test_bestmove_is_solve_json_best_where_proven() -> None:
    solved = json.loads(nimmax("solve", "connect4", "--rows", "4", "--cols", "4", "--json").stdout)
    run = nimmax("engine", stdin="game connect4 --rows 4 --cols 4\ngo infinite\n")
    assert run.returncode == 0 and run.stderr == ""
    assert (
        f"bestmove {solved['best_move']} value {shown(solved['value'])}" in run.stdout.splitlines()
    )


def test_stop_during_go_infinite_answers_within_a_fifth_of_a_second() -> None:
    engine = Engine()
    try:
        engine.send("game connect4 --rows 6 --cols 8\nisready")
        engine.until("readyok")
        engine.send("go infinite")
        time.sleep(0.5)
        engine.send("position start")  # refused while thinking without end
        assert engine.until("error")[1].startswith("error position: thinking until stop")
        started = time.perf_counter()
        engine.send("stop")
        _, best = engine.until("bestmove")
        assert time.perf_counter() - started < 0.2
        assert best.split()[1] in "abcdefgh"
    finally:
        assert engine.close() == 0


def test_two_hundred_fuzzed_lines_never_end_the_engine() -> None:
    rng = random.Random(43)
    words = [
        "go",
        "moves",
        "position",
        "legal",
        "turn",
        "stop",
        "isready",
        "time",
        "depth",
        "nodes",
        "infinite",
    ]
    words += [
        "start",
        "-1",
        "0",
        "1",
        "2",
        "3:4",
        "1:1",
        "x",
        "1e999",
        "nan",
        "--rows",
        "é",
        "\t",
        "game",
        "nim",
    ]
    engine = Engine()
    try:
        engine.send("game nim 2 3 5")
        for _ in range(200):
            if rng.random() < 0.1:
                engine.send(
                    bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 30))).replace(
                        b"\n", b""
                    )
                )
            else:
                engine.send(" ".join(rng.choice(words) for _ in range(rng.randrange(0, 6))))
        engine.send("isready\nquit")
        said = []
        while line := engine.lines.get(timeout=30):
            said.append(line.strip())
        assert engine.process.wait(timeout=10) == 0 and said[-1] == "readyok"
        known = ("info", "bestmove", "legal", "turn", "readyok", "error")
        assert all(line.startswith(known) for line in said)
        assert sum(line.startswith("error") for line in said) > 50
    finally:
        engine.process.kill()


def test_the_example_client_plays_a_game_to_its_end() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "examples/engine_client.py", "nim", "1", "2"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    # 1 xor 2 is not zero: the first seat wins
    assert run.stdout.splitlines()[-1].startswith("over winner 0")
