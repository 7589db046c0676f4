"""Strength of a 2048 player over seeded games: how often it makes 2048, 4096 and 8192.

    python scripts/bench_2048.py --player expectimax:time=0.1 --games 20
    python scripts/bench_2048.py --player alphabeta:time=0.1 --games 20 --first-seed 1

Game i is `2048 --seed (first_seed + i)`, so every player meets the same spawn streams (the
spawns depend on the moves too, so two players' games part ways after their first
difference). A time budget is wall-clock time: on a loaded machine a player searches less.
Each finished game prints one line; the summary follows.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nimmax import games, players  # noqa: E402
from nimmax.game import CHANCE  # noqa: E402
from nimmax.games.twenty48 import Twenty48  # noqa: E402
from nimmax.match import plies  # noqa: E402


def play_one(spec: str, seed: int, max_moves: int | None) -> dict[str, float]:
    """Play `2048 --seed seed` to its end (or `max_moves`); the figures of the game."""
    game = games.create(f"2048 --seed {seed}")
    assert isinstance(game, Twenty48)
    player = players.create(spec, seed=seed)
    moves, nodes, thinking, slowest = 0, 0, 0.0, 0.0
    state = game.initial_state()
    for ply in plies(game, [player]):
        state = ply.after
        if ply.seat == CHANCE:
            continue
        moves += 1
        thinking += ply.seconds
        slowest = max(slowest, ply.seconds)
        nodes += ply.search.nodes if ply.search is not None else 0
        if max_moves is not None and moves >= max_moves:
            break
    return {
        "seed": seed,
        "score": state.score,
        "best": 1 << game.best_rank(state.board),
        "moves": moves,
        "seconds": thinking,
        "slowest": slowest,
        "nodes": nodes,
    }


def _play(task: tuple[str, int, int | None]) -> dict[str, float]:
    return play_one(*task)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--player", default="expectimax:time=0.1", help="player spec")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--max-moves", type=int, default=None, help="stop each game after this many moves")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (each is one process)")
    arguments = parser.parse_args()
    print(
        f"player {arguments.player}, {arguments.games} games, seeds {arguments.first_seed}.., {arguments.jobs} at once",
        flush=True,
    )
    results = []
    started = time.perf_counter()
    tasks = [(arguments.player, arguments.first_seed + index, arguments.max_moves) for index in range(arguments.games)]
    pool = multiprocessing.Pool(arguments.jobs)
    for figures in pool.imap_unordered(_play, tasks):
        results.append(figures)
        print(
            f"seed {figures['seed']:>3}: best {figures['best']:>5}  score {figures['score']:>6}  "
            f"moves {figures['moves']:>5}  {figures['moves'] / max(figures['seconds'], 1e-9):6.1f} moves/s  "
            f"slowest move {figures['slowest'] * 1000:5.0f} ms  "
            f"{figures['nodes'] / max(figures['seconds'], 1e-9):8.0f} nodes/s",
            flush=True,
        )
    pool.close()
    count = len(results)
    moves = sum(result["moves"] for result in results)
    seconds = sum(result["seconds"] for result in results)
    print(f"\n{arguments.player}: {count} games in {time.perf_counter() - started:.0f} s wall clock")
    for tile in (1024, 2048, 4096, 8192):
        reached = sum(result["best"] >= tile for result in results)
        print(f"  reached {tile:>5}: {reached}/{count} ({100 * reached / count:.0f}%)")
    print(
        f"  mean score {statistics.mean(result['score'] for result in results):.0f}, "
        f"median {statistics.median(result['score'] for result in results):.0f}"
    )
    print(
        f"  {moves} moves, {moves / seconds:.1f} moves/s, {sum(r['nodes'] for r in results) / seconds:.0f} nodes/s, "
        f"slowest move {max(result['slowest'] for result in results) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
