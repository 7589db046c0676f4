"""Benchmark `nimmax duel` against the issues' speed targets and print the figures.

1. `nimmax duel alphabeta random --games 1000` on the default game (3x3 tic-tac-toe) beside
   a bare loop playing the same games through the same engines in this process (each move one
   `Engine.search` call or the random player's draw, `game.result`, the duel's seeds, a table
   per block as the duel's players keep): target the CLI within 1.5x of the loop, `--jobs 1`
   (the default) and `--jobs 2`. The cases alternate, round after round; medians of wall and
   CPU seconds (a busy machine stretches wall time far more than CPU time), load printed.
2. The same duel: target under 10 s.
3. A duel lasting over 20 s on one process, then the same on two: target `--jobs 2` at
   least 1.6x as fast, and the very same games (the JSON without its clock readings).

Each figure is the wall time of the real command, Python start-up included. On a shared
machine the wall times say little, so the CPU seconds of every process of each run are read
from /proc too, with the speed-up they predict on two idle cores. Run from the checkout:
`python scripts/bench_duel.py [--game "GAME ARGS"] [--rounds 5] [--seconds 20] [--loop-only]`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nimmax import duel  # noqa: E402
from nimmax.game import CHANCE, winner_of  # noqa: E402
from nimmax.match import draw_outcome  # noqa: E402
from nimmax.players import limited, parse_spec  # noqa: E402
from nimmax.search.limits import override  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
SPECS = ("alphabeta", "random")
MIN_GAMES = 10
BYTECODE = Path(tempfile.mkdtemp(prefix="nimmax-bytecode-"))
"""Where the CLI runs keep their compiled bytecode (as an installed nimmax does), no checkout
written to."""


def process_times() -> dict[int, tuple[int, float]]:
    """Every process's parent and CPU seconds so far, from /proc (empty where there is none)."""
    times = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        times[int(entry.parent.name)] = (
            int(fields[1]),
            (int(fields[11]) + int(fields[12])) / TICKS,
        )
    return times


def descendants(root: int, times: dict[int, tuple[int, float]]) -> set[int]:
    """`root` and every process below it."""
    found, grown = {root}, True
    while grown:
        more = {pid for pid, (parent, _) in times.items() if parent in found} - found
        found |= more
        grown = bool(more)
    return found


def run_duel(
    game: str, games: int, jobs: int, seed: int = 1
) -> tuple[float, dict[str, Any], dict[int, float]]:
    """Wall seconds, JSON record and CPU seconds per process (the last /proc reading before
    each ended) of one `nimmax duel alphabeta random` run."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable,
        "-m",
        "nimmax",
        "duel",
        "alphabeta",
        "random",
        "--game",
        game,
        "--games",
        str(games),
        "--jobs",
        str(jobs),
        "--seed",
        str(seed),
        "--json",
    ]
    started = time.perf_counter()
    cpu: dict[int, float] = {}
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env) as child:
        while child.poll() is None:
            times = process_times()
            for pid in descendants(child.pid, times):
                cpu[pid] = times[pid][1] if pid in times else cpu.get(pid, 0.0)
            time.sleep(0.2)
        output = child.stdout.read() if child.stdout else ""
    if child.returncode:
        raise SystemExit(f"duel failed with exit code {child.returncode}")
    return time.perf_counter() - started, json.loads(output), cpu


def seeded(seed: int, pairing: int, index: int, stream: str) -> random.Random:
    """The generator the duel draws a game's random moves and chance outcomes from (`duel.play`)."""
    return random.Random(f"{seed}:{pairing}:{index}:{stream}")


def bare_loop(
    game_words: str, specs: tuple[str, str], games: int, seed: int
) -> tuple[int, int, int]:
    """Play the duel's games in a plain loop: the engine's `search` or the random player's draw for
    each move, `game.result`, the duel's seeds and blocks (a table per entrant and block); wins of
    each entrant and draws. Engines only: a random player's own `seed=` and plugins are not
    taken."""
    plan = duel.plan(
        game_words, [limited(parse_spec(spec), override(time=None)) for spec in specs], games, seed
    )
    game, wins, draws = plan.game, [0, 0], 0
    for block in plan.blocks():
        engines: list[tuple[Any, ...] | None] = []
        for spec in block.specs:
            engine = spec.engine
            # what a SearchPlayer holds: engine, limits, settings, its table, its game
            if engine is not None:
                settings = spec.settings
                engines.append(
                    (engine, spec.limits, settings, engine.new_table(settings), game.for_search())
                )
            else:
                engines.append(None)
        for index in range(block.start, block.start + block.count):
            first = index % 2
            seat_of = (first, 1 - first)  # entrant -> seat, and seat -> entrant
            draws_of = [
                seeded(block.seed, block.pairing, index, f"player{entrant}") for entrant in (0, 1)
            ]
            chance = seeded(block.seed, block.pairing, index, "chance")
            state = game.initial_state()
            for move in block.opening(index):
                state = game.result(state, move)
            while not game.is_terminal(state):
                seat = game.to_move(state)
                if seat == CHANCE:
                    move = draw_outcome(game, state, chance)
                elif (searching := engines[seat_of[seat]]) is not None:
                    engine, limits, settings, table, searched = searching
                    move = engine.search(
                        searched, state, limits, table=table, settings=settings
                    ).move
                else:
                    move = draws_of[seat_of[seat]].choice(list(game.actions(state)))
                state = game.result(state, move)
            winner = winner_of(game, state)
            if winner is None:
                draws += 1
            else:
                wins[seat_of[winner]] += 1
    return wins[0], wins[1], draws


def cli_duel(
    game: str, games: int, jobs: int, seed: int, checkout: Path = ROOT
) -> tuple[float, float, dict[str, Any]]:
    """Wall and CPU seconds (every process's) and the JSON record of one `nimmax duel alphabeta
    random` of `checkout`'s nimmax."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env |= {"PYTHONPATH": str(checkout), "PYTHONPYCACHEPREFIX": str(BYTECODE)}
    command = [
        sys.executable,
        "-m",
        "nimmax",
        "duel",
        *SPECS,
        "--game",
        game,
        "--games",
        str(games),
    ]
    command += ["--jobs", str(jobs), "--seed", str(seed), "--json"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        command, stdout=subprocess.PIPE, text=True, env=env, cwd=checkout, check=True
    )
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return elapsed, cpu, json.loads(done.stdout)


def compare(game: str, games: int, rounds: int, against: Path | None = None, seed: int = 1) -> None:
    """The CLI duel (--jobs 1, --jobs 2; also `against`'s, another checkout) beside the bare loop,
    alternating, medians; the ratios."""
    checkouts = {"": ROOT} | ({f" ({against})": against} if against is not None else {})
    runs = [
        (f"CLI --jobs {jobs}{name}", jobs, checkout)
        for name, checkout in checkouts.items()
        for jobs in (1, 2)
    ]
    cases = ("bare loop", *(case for case, _, _ in runs))
    times: dict[str, list[tuple[float, float]]] = {case: [] for case in cases}
    outcomes: dict[str, tuple[int, int, int]] = {}
    for checkout in checkouts.values():
        cli_duel(game, MIN_GAMES, 1, seed, checkout)  # compile the bytecode first
    load = " ".join(f"{figure:.2f}" for figure in os.getloadavg())
    for _ in range(rounds):
        started, cpu = time.perf_counter(), time.process_time()
        outcomes["bare loop"] = bare_loop(game, SPECS, games, seed)
        times["bare loop"].append((time.perf_counter() - started, time.process_time() - cpu))
        for case, jobs, checkout in runs:
            elapsed, used, record = cli_duel(game, games, jobs, seed, checkout)
            times[case].append((elapsed, used))
            outcomes[case] = (*(record["wins"][spec] for spec in SPECS), record["draws"])
    after = " ".join(f"{figure:.2f}" for figure in os.getloadavg())
    print(
        f"duel {' '.join(SPECS)} --games {games} --game {game!r}, {rounds} rounds; load {load} "
        f"before, {after} after"
    )
    loop = [statistics.median(figures) for figures in zip(*times["bare loop"], strict=True)]
    for case in cases:
        wall, cpu = (statistics.median(figures) for figures in zip(*times[case], strict=True))
        wins = outcomes[case]
        line = f"  {case}: {wall:.2f} s wall"
        pooled = case.startswith("CLI --jobs 2")
        if not pooled:  # a pool's workers are the forkserver's children, not counted here
            line += f", {cpu:.2f} s CPU"
        if case != "bare loop":
            line += f" (ratio {wall / loop[0]:.2f} wall"
            line += ")" if pooled else f", {cpu / loop[1]:.2f} CPU; target <= 1.5)"
        print(f"{line}; wins {wins[0]}, {wins[1]}, draws {wins[2]}")
    print(f"  the same games everywhere: {len(set(outcomes.values())) == 1}")


def idle_estimate(
    alone_cpu: dict[int, float], pooled_cpu: dict[int, float], cores: int = 2
) -> float:
    """The speed-up the CPU seconds predict for `cores` idle cores: one process's work against
    the pool's busiest process, or all its processes' work shared by the cores."""
    if not alone_cpu or not pooled_cpu:
        return math.nan
    busiest = max(pooled_cpu.values())
    return sum(alone_cpu.values()) / max(busiest, sum(pooled_cpu.values()) / cores)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--game", default=duel.DEFAULT_GAME, help="game words (default: %(default)s)"
    )
    parser.add_argument(
        "--seconds", type=float, default=22.0, help="length of the one-process duel"
    )
    parser.add_argument(
        "--rounds", type=int, default=5, help="rounds of the loop-and-CLI comparison"
    )
    parser.add_argument(
        "--loop-only", action="store_true", help="only the comparison with the bare loop"
    )
    parser.add_argument(
        "--against", type=Path, help="another checkout whose CLI duel joins the comparison"
    )
    options = parser.parse_args()
    print(
        "cores available: "
        f"{len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}"
    )
    compare(
        options.game, 1000, options.rounds, options.against.resolve() if options.against else None
    )
    if options.loop_only:
        return

    elapsed, record, _ = run_duel(options.game, 1000, 1)
    verdict = "met" if elapsed < 10 else "NOT met"
    print(
        f"duel alphabeta random --games 1000 --game {options.game!r}: {elapsed:.2f} s "
        f"(target < 10 s: {verdict}); wins {record['wins']}, draws {record['draws']}"
    )

    games = max(1000, math.ceil(1000 * options.seconds / elapsed))
    alone, alone_record, alone_cpu = run_duel(options.game, games, 1)
    # the first estimate counted start-up; grow until the duel is long enough
    while alone < options.seconds:
        games = math.ceil(games * options.seconds * 1.1 / alone)
        alone, alone_record, alone_cpu = run_duel(options.game, games, 1)
    pooled, pooled_record, pooled_cpu = run_duel(options.game, games, 2)
    speedup = alone / pooled
    print(
        f"duel alphabeta random --games {games} --game {options.game!r}: --jobs 1 {alone:.2f} s, "
        f"--jobs 2 {pooled:.2f} s, speed-up {speedup:.2f}x (target >= 1.6x over a 20 s duel: "
        f"{'met' if speedup >= 1.6 and alone > 20 else 'NOT met'})"
    )
    shown = ", ".join(
        f"{seconds:.1f}" for seconds in sorted(pooled_cpu.values(), reverse=True) if seconds >= 0.05
    )
    print(
        f"CPU seconds: --jobs 1 {sum(alone_cpu.values()):.1f}; --jobs 2 "
        f"{sum(pooled_cpu.values()):.1f} "
        f"(per process: {shown}); speed-up these predict on 2 idle cores: "
        f"{idle_estimate(alone_cpu, pooled_cpu):.2f}x"
    )
    if os.getloadavg()[0] > 2:
        print(
            f"note: load average {os.getloadavg()[0]:.1f} on this machine: wall-clock figures are "
            "noisy"
        )
    same = duel.timeless(alone_record) == duel.timeless(pooled_record)
    print(f"--jobs 1 and --jobs 2 played the same games: {same}")


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(BYTECODE, ignore_errors=True)
