"""Benchmark `analyze`: for a recorded game of each family, the share of plies a default analysis
proves and its time.

    python scripts/bench_analyze.py                 # each game's analysis given 60 s (the default)
    python scripts/bench_analyze.py --seconds 10    # a shorter whole-analysis budget for each game
    python scripts/bench_analyze.py --long 10000    # also a Simple-Nim record of 10,000 takes of 1

Targets (issue 40): Connect Four every ply proven, Kalah(6,4) proven from ply 11 on, plates ply 1 a
mistake of 10, the 15x15 game's last plies proven; (issue 39) a 10,000-move record within a minute.
The records are played here, deterministically: an engine at a small fixed depth against a seeded
random player. Times are wall-clock on whatever else the machine runs (the load is printed).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from unittest import mock

from nimmax import games
from nimmax.commands import analyze as analysis
from nimmax.game import CHANCE, has_chance, outcomes
from nimmax.match import GameRecord
from nimmax.search import search

FAMILIES = (
    ("tictactoe", 2),
    ("connect4", 4),
    ("kalah --pits 4 --seeds 3", 3),
    ("kalah --pits 6 --seeds 4", 3),
    ("nim 3 4 5", 2),
    ("tictactoe --size 15 --k 5", 1),
    ("2048 --seed 1", 1),
)
"""Each game with the depth of its engine side."""


def played(words: str, depth: int, seed: int = 1, most: int = 400) -> GameRecord:
    """A game of `words`: seat 0 by alpha-beta (expectimax where chance moves) at `depth`, seat 1
    (and chance) by a seeded random choice; at most `most` plies."""
    game = games.create(words)
    rng = random.Random(seed)
    state, moves = game.initial_state(), list[str]()
    engine = "expectimax" if has_chance(game) else "alphabeta"
    while not game.is_terminal(state) and len(moves) < most:
        mover = game.to_move(state)
        if mover == CHANCE:
            drawn = outcomes(game, state)
            move = rng.choices([o for _, o in drawn], [p for p, _ in drawn])[0]
        elif mover == 0:
            move = search(game, state, engine, depth=depth).move
        else:
            move = rng.choice(list(game.actions(state)))
        moves.append(game.format_move(move))
        state = game.result(state, move)
    return GameRecord(words, (f"{engine}:depth={depth}", "random"), tuple(moves), None, (), False)


def long_record(takes: int) -> GameRecord:
    """Simple-Nim of `takes` counters, one taken a ply: a record of `takes` moves."""
    return GameRecord(
        f"simple-nim {takes} --max-take 1", ("random", "random"), ("1",) * takes, None, (), False
    )


def measure(record: GameRecord, seconds: float) -> None:
    """Analyse `record` with the default engine and a whole-analysis budget of `seconds`; print the
    figures."""
    with mock.patch("nimmax.commands.analyze.GAME_SECONDS", seconds):
        start = time.perf_counter()
        done = analysis.analyze(record)
        elapsed = time.perf_counter() - start
    moves = done.moves
    proven = sum(move.exact for move in moves)
    total = len(moves) + getattr(done, "skipped", 0)
    first = next(
        (move.ply for move in moves if all(m.exact for m in moves if m.ply >= move.ply)), None
    )
    mistakes = [
        (move.ply, round(move.best_value - move.value_after, 3))
        for move in moves
        if move.verdict == "mistake"
    ]
    print(
        f"{record.game:<28} plies {total:>6}  proven {proven:>6} ({proven / max(total, 1):6.1%})"
        f"  proven from ply {first}  {elapsed:6.1f} s  mistakes {mistakes[:4]}"
    )


def main() -> None:
    """Play each family's record, analyse it, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="each analysis's whole budget")
    parser.add_argument(
        "--long", type=int, default=0, help="also a Simple-Nim record of this many moves"
    )
    parser.add_argument("--only", default="", help="only the families whose words contain this")
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.2f}; budget {args.seconds:g} s a game")
    measure(
        GameRecord("plates", ("human", "alphabeta"), ("2", "5+10"), None, (), False), args.seconds
    )
    for words, depth in FAMILIES:
        if args.only in words:
            measure(played(words, depth), args.seconds)
    if args.long:
        measure(long_record(args.long), 60.0)


if __name__ == "__main__":
    main()
