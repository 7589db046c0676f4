"""Strength of a 2048 player over seeded games: how often it makes 2048, 4096 and 8192.

    python scripts/bench_2048.py --player expectimax:time=0.1 --games 16 python
    scripts/bench_2048.py --player expectimax:time=0.1,eval=heuristic --games 16 --jobs 2

Game i is `2048 --seed (first_seed + i)`, so every player meets the same spawn streams (the spawns
depend on the moves too, so two players' games part ways after their first difference). A time
budget is wall-clock time: on a loaded machine a player searches less. Each finished game prints one
line; the summary follows: reach rates, score, moves a second, the slowest move (wall clock, and in
CPU seconds of the player's process: a move over its limit in CPU seconds did work its clock could
not stop, one over it only on the wall clock waited for a core), and the mean depth a move reached
by how full the board was (a time limit searches deeper as the board fills, since fewer spawns are
possible). Each worker runs its games inside the interpreter policy the CLI enters
(`search.stack.interpreter`: the collector paused), as `play` does.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nimmax import games, players  # noqa: E402
from nimmax.game import CHANCE  # noqa: E402
from nimmax.games.ntuple.networks import learned  # noqa: E402
from nimmax.games.twenty48 import Twenty48  # noqa: E402
from nimmax.match import plies  # noqa: E402
from nimmax.search.stack import interpreter  # noqa: E402

FULLNESS = ((0, 5), (6, 10), (11, 16))
"""Bands of tiles on the board, for the depth a move reached."""


def play_one(spec: str, seed: int, max_moves: int | None) -> dict[str, Any]:
    """Play `2048 --seed seed` to its end (or `max_moves`); the figures of the game."""
    game = games.create(f"2048 --seed {seed}")
    assert isinstance(game, Twenty48)
    player = players.create(players.parse_spec(spec), seed=seed)
    moves, nodes, thinking, slowest, slowest_cpu = 0, 0, 0.0, 0.0, 0.0
    depths: dict[int, list[int]] = {band: [] for band in range(len(FULLNESS))}
    state = game.initial_state()
    # the network is read once a process, before the first move's clock (not a move's cost)
    learned()
    with interpreter():
        cpu = time.process_time()
        for ply in plies(game, [player]):
            state = ply.after
            if ply.seat == CHANCE:
                cpu = time.process_time()  # the player's move starts after chance's draw
                continue
            slowest_cpu = max(slowest_cpu, time.process_time() - cpu)
            moves += 1
            thinking += ply.seconds
            slowest = max(slowest, ply.seconds)
            if ply.search is not None:
                nodes += ply.search.nodes
                tiles = game.cells - len(game.empty_cells(ply.before.board))
                band = next(
                    index for index, (low, high) in enumerate(FULLNESS) if low <= tiles <= high
                )
                depths[band].append(ply.search.depth)
            if max_moves is not None and moves >= max_moves:
                break
    return {
        "seed": seed,
        "score": state.score,
        "best": 1 << game.best_rank(state.board),
        "moves": moves,
        "seconds": thinking,
        "slowest": slowest,
        "slowest_cpu": slowest_cpu,
        "nodes": nodes,
        "depths": depths,
    }


def _play(task: tuple[str, int, int | None]) -> dict[str, Any]:
    return play_one(*task)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--player", default="expectimax:time=0.1", help="player spec")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument(
        "--max-moves", type=int, default=None, help="stop each game after this many moves"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="games played at once (each is one process); all cores",
    )
    arguments = parser.parse_args()
    print(
        f"player {arguments.player}, {arguments.games} games, seeds {arguments.first_seed}.., "
        f"{arguments.jobs} at once",
        flush=True,
    )
    results = []
    started = time.perf_counter()
    tasks = [
        (arguments.player, arguments.first_seed + index, arguments.max_moves)
        for index in range(arguments.games)
    ]
    pool = multiprocessing.Pool(arguments.jobs)
    for figures in pool.imap_unordered(_play, tasks):
        results.append(figures)
        print(
            f"seed {figures['seed']:>3}: best {figures['best']:>5}  score {figures['score']:>6}  "
            f"moves {figures['moves']:>5}  "
            f"{figures['moves'] / max(figures['seconds'], 1e-9):6.1f} moves/s  "
            f"slowest move {figures['slowest'] * 1000:5.0f} ms "
            f"({figures['slowest_cpu'] * 1000:4.0f} ms CPU)  "
            f"{figures['nodes'] / max(figures['seconds'], 1e-9):8.0f} nodes/s",
            flush=True,
        )
    pool.close()
    count = len(results)
    moves = sum(result["moves"] for result in results)
    seconds = sum(result["seconds"] for result in results)
    print(
        f"\n{arguments.player}: {count} games in {time.perf_counter() - started:.0f} s wall clock"
    )
    for tile in (1024, 2048, 4096, 8192, 16384):
        reached = sum(result["best"] >= tile for result in results)
        print(f"  reached {tile:>5}: {reached}/{count} ({100 * reached / count:.0f}%)")
    print(
        f"  mean score {statistics.mean(result['score'] for result in results):.0f}, "
        f"median {statistics.median(result['score'] for result in results):.0f}"
    )
    print(
        f"  {moves} moves, {moves / seconds:.1f} moves/s, "
        f"{sum(r['nodes'] for r in results) / seconds:.0f} nodes/s, "
        f"slowest move {max(result['slowest'] for result in results) * 1000:.0f} ms, "
        f"{max(result['slowest_cpu'] for result in results) * 1000:.0f} ms CPU"
    )
    for band, (low, high) in enumerate(FULLNESS):
        reached = [depth for result in results for depth in result["depths"][band]]
        if reached:
            print(
                f"  {low:>2}-{high:<2} tiles: mean depth {statistics.mean(reached):.1f} plies "
                f"over {len(reached)} moves"
            )


if __name__ == "__main__":
    main()
