"""Benchmark: seeded ladders at a fixed time a move on the issue's four games, and its targets.

Runs the real command, `nimmax ladder GAME --players ... --time S --games N --openings N --seed N
--json`, on Connect Four 7x6, 9x9 k=5, 15x15 k=5 and Kalah(6,4), and prints each game's standings
(score, its 95% interval, relative Elo, nodes or simulations a second), its openings and the
targets: the best engine scores at least 90% against `alphabeta:depth=2`, and on 15x15 k=5 at least
75% against the alpha-beta of the issue's day, which tried every cell (`alphabeta:near=off` at the
same time a move). Each game has its field (`FIELDS`: alphabeta and alphabeta:depth=2 everywhere,
mcts:rollout=heuristic on the big boards, alphabeta:near=off on 15x15); `--players` replaces them
all. First it prints the depth `alphabeta:time=S` completes at each of the first ten moves of a
15x15 k=5 self-play game (target: 4 or more at 1 s). Run from the checkout: `python
scripts/bench_ladder.py [--games 6] [--time 1] [--only connect4] [--no-depths]`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nimmax.player import decide  # noqa: E402
from nimmax.search import ENGINES  # noqa: E402

GAMES = {
    "connect4": "connect4",
    "9x9": "tictactoe --size 9 --k 5",
    "15x15": "tictactoe --size 15 --k 5",
    "kalah": "kalah",
}
SHALLOW = "alphabeta:depth=2"
WIDE = "alphabeta:near=off"
"""Alpha-beta trying every empty cell, as it played big boards when the issue was written."""
FIELDS = {
    "connect4": ["alphabeta", SHALLOW],
    "9x9": ["alphabeta", SHALLOW, "mcts:rollout=heuristic"],
    "15x15": ["alphabeta", SHALLOW, "mcts:rollout=heuristic", WIDE],
    "kalah": ["alphabeta", SHALLOW],
}


def run_ladder(
    words: str, players: str, seconds: float, games: int, openings: int, seed: int, jobs: int
) -> dict[str, Any]:
    """One `nimmax ladder --json` run's record."""
    command = [sys.executable, "-m", "nimmax", "ladder", *words.split(), "--players", players]
    command += ["--time", str(seconds), "--games", str(games), "--openings", str(openings)]
    command += ["--seed", str(seed), "--jobs", str(jobs), "--json"]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.strip()}")
    record: dict[str, Any] = json.loads(done.stdout)
    return record


def share_against(record: dict[str, Any], player: str, opponent: str) -> tuple[float, int] | None:
    """`player`'s score (a draw 1/2) against `opponent`, and the games; None if they did not
    meet."""
    cell = record["crosstable"].get(player, {}).get(opponent)
    if cell is None:
        return None
    games = cell["wins"] + cell["draws"] + cell["losses"]
    return ((cell["wins"] + cell["draws"] / 2) / games if games else 0.0), games


def report(name: str, record: dict[str, Any], seconds: float) -> None:
    """Print one game's standings and its targets."""
    print(
        f"\n{record['game']}  ({record['games']} games, {seconds:g} s a move, seed "
        f"{record['seed']})"
    )
    print(f"  openings ({record['opening_plies']} plies): {'; '.join(record['openings'])}")
    print(f"  load: {os.getloadavg()[0]:.2f} (1 min) at the end")
    print(
        f"  {'player':<36} {'W-D-L':>9} {'score':>6} {'95% interval':>13} {'Elo':>6} "
        f"{'nodes/s':>10}"
    )
    for row in record["standings"]:
        low, high = row["score_interval"]
        speed = f"{row['nodes_per_second']:,.0f}" if row["nodes"] else "-"
        wdl = f"{row['wins']}-{row['draws']}-{row['losses']}"
        print(
            f"  {row['player']:<36} {wdl:>9} {row['score']:>6.0%} {f'{low:.0%}-{high:.0%}':>13} "
            f"{row['elo']:>+6.0f} {speed:>10}"
        )
    best = record["standings"][0]["player"]
    shallow = next((player for player in record["players"] if player.startswith(SHALLOW)), None)
    if shallow is not None and best != shallow:
        found = share_against(record, best, shallow)
        if found is not None:
            mark = "met" if found[0] >= 0.9 else "NOT met"
            print(
                f"  target: {best} scores {found[0]:.0%} of {found[1]} games against {shallow} "
                f"(90%: {mark})"
            )
    plain = next((player for player in record["players"] if player.startswith(WIDE)), None)
    if name == "15x15" and plain is not None and best != plain:
        found = share_against(record, best, plain)
        if found is not None:
            mark = "met" if found[0] >= 0.75 else "NOT met"
            print(
                f"  target: {best} scores {found[0]:.0%} of {found[1]} games against {plain} "
                f"(75%: {mark})"
            )


def depth_figures(seconds: float, moves: int = 10) -> None:
    """The depth `alphabeta:time=S` completes on 15x15 k=5 at each of a self-play game's first
    moves."""
    from nimmax import games, players

    game = games.create("tictactoe --size 15 --k 5")
    player, state, reached = (
        players.create(players.parse_spec(f"alphabeta:time={seconds:g}")),
        game.initial_state(),
        [],
    )
    for _ in range(moves):
        decision = decide(player, game, state)
        assert decision.search is not None
        reached.append(
            (game.format_move(decision.move), decision.search.depth, decision.search.nodes)
        )
        state = game.result(state, decision.move)
    shown = ", ".join(f"{move} d{depth} ({nodes:,} nodes)" for move, depth, nodes in reached)
    print(f"alphabeta:time={seconds:g} on 15x15 k=5, self-play: {shown}")
    print(f"  depth reached: least {min(depth for _, depth, _ in reached)}, target 4")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--players", help="comma-separated player specs (default: each game's FIELDS)"
    )
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move")
    parser.add_argument("--games", type=int, default=6, help="games per pairing")
    parser.add_argument(
        "--openings", type=int, default=4, help="random plies each pair of games starts from"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--only", action="append", choices=sorted(GAMES), help="a game to run (repeatable)"
    )
    parser.add_argument("--no-depths", action="store_true", help="skip the 15x15 depth figures")
    options = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f} (1 min)")
    if not options.no_depths:
        depth_figures(options.time)
    for name in options.only or list(GAMES):
        started = time.perf_counter()
        players = options.players or ",".join(
            spec for spec in FIELDS[name] if spec.split(":")[0] in ENGINES
        )
        record = run_ladder(
            GAMES[name],
            players,
            options.time,
            options.games,
            options.openings,
            options.seed,
            options.jobs,
        )
        report(name, record, options.time)
        print(f"  {time.perf_counter() - started:.0f} s wall")


if __name__ == "__main__":
    main()
