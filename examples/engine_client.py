"""Two `nimmax engine` processes play one game against each other, speaking the engine protocol.

Run: python examples/engine_client.py connect4 --rows 5 --cols 5   (any two-player game words)
"""

from __future__ import annotations

import subprocess
import sys


def start() -> subprocess.Popen[str]:
    """One engine process, its stdin and stdout as text lines."""
    command = [sys.executable, "-m", "nimmax", "engine"]
    return subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )


def ask(engine: subprocess.Popen[str], commands: str, answer: str) -> str:
    """Send command lines; the first line that starts with `answer` (info lines are passed over)."""
    assert engine.stdin is not None and engine.stdout is not None
    engine.stdin.write(commands + "\n")
    while not (line := engine.stdout.readline()).startswith(answer):
        if not line or line.startswith("error"):
            raise SystemExit(f"the engine said {line.strip()!r} to {commands!r}")
    return line.removeprefix(answer).strip()


def main(words: list[str], seconds: float = 0.1) -> None:
    engines, moves = [start(), start()], list[str]()
    for engine in engines:
        ask(engine, f"game {' '.join(words)}\nisready", "readyok")
    while (
        turn := ask(engines[0], f"position start\nmoves {' '.join(moves)}\nturn", "turn")
    ).isdigit():
        said = ask(
            engines[int(turn)],
            f"position start\nmoves {' '.join(moves)}\ngo time {seconds}",
            "bestmove",
        )
        moves.append(said.split()[0])
        print(f"{len(moves)}. seat {turn} plays {said}")
    print(f"{turn} after {len(moves)} moves")
    for engine in engines:
        engine.communicate("quit\n")


if __name__ == "__main__":
    main(sys.argv[1:] or ["connect4", "--rows", "5", "--cols", "5"])
