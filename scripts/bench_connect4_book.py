"""Connect Four 7x6 with and without the opening books, against a perfect solver.

Run in a scratch environment holding `bitbully` (a C++ perfect solver, never a nimmax dependency)
and `bitbully-databases`, with nimmax on the path:

    PYTHONPATH=. nice /work/scratch/book/venv/bin/python scripts/bench_connect4_book.py

For each nimmax spec (default `alphabeta` with the books, and past them the game's own proof,
`nimmax/games/mnk/proof.py`; and `alphabeta:book=off`, without either):
- games against perfect play: nimmax first from the empty board and after each of the seven replies
  to d (every one a first-player win), and nimmax second after each of the seven first moves (draws
  after c and e, second-player wins after the others); the result and whether it is the position's
  game-theoretic outcome, seconds a move (mean, most);
- outcome kept: `--positions` seeded random positions at plies 0-30, nimmax's move valued by the
  solver, grouped by ply; won positions at plies 0-11 where the move found wins (hint's engine is
  the same default alphabeta);
- analyze: the first game nimmax lost as first player without the books, and games of perfect play
  given away at one ply past the books (ERRED), analysed by `nimmax analyze`'s library call with the
  spec; the decisive ply it names against the solver's (the last move that changed the outcome).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc
from collections.abc import Sequence

from bitbully import BitBully, Board

from nimmax.commands.analyze import analyze
from nimmax.games import connect4_book, create
from nimmax.match import GameRecord
from nimmax.player import decide
from nimmax.players import create as create_player
from nimmax.players import parse_spec

BUCKETS = ((0, 9), (10, 15), (16, 30))
"""Plies grouped as the issue measured them."""

ERRED = (13, 15, 17, 19, 21)
"""The plies a game analysed past the books is given away at."""

SOLVER = BitBully()
"""The perfect solver (with its own reading of the 12-stone book, for speed)."""


def scores(moves: Sequence[int]) -> dict[int, int]:
    """The solver's score of each legal column for the side to move (positive: a win)."""
    scored: dict[int, int] = SOLVER.score_all_moves(Board.from_moves(list(moves)))
    return scored


def sign(value: float) -> int:
    """-1, 0 or 1."""
    return (value > 0) - (value < 0)


def perfect_move(moves: Sequence[int]) -> int:
    """A perfect move: the best score (the quickest win, the slowest loss), the centre first among
    equals."""
    found = scores(moves)
    best = max(found.values())
    return min((col for col, score in found.items() if score == best), key=lambda col: abs(col - 3))


def play(spec: str, seat: int, opening: Sequence[int]) -> tuple[list[int], int, list[float]]:
    """A game of nimmax (`spec`, at `seat`) against perfect play after `opening`: the moves, the
    result for nimmax's seat (+1, 0, -1) and nimmax's seconds a move."""
    game = create(["connect4"])
    player = create_player(parse_spec(spec))
    state, moves, seconds = game.initial_state(), list(opening), []
    for move in opening:
        state = game.result(state, move)
    while not game.is_terminal(state):
        if game.to_move(state) == seat:
            start = time.perf_counter()
            move = decide(player, game, state).move
            seconds.append(time.perf_counter() - start)
        else:
            move = perfect_move(moves)
        state = game.result(state, move)
        moves.append(move)
    return moves, int(game.utility(state, seat)), seconds


def games(spec: str) -> tuple[list[str], list[float], list[list[int]]]:
    """The games against perfect play: a row of text each, every nimmax move's seconds, and the
    games nimmax lost from a won start."""
    rows, seconds, lost = [], [], []
    starts = (
        [(0, ())] + [(0, (3, reply)) for reply in range(7)] + [(1, (first,)) for first in range(7)]
    )
    for seat, opening in starts:
        expected = (
            max(scores(opening).values())
            if len(opening) % 2 == seat
            else -max(scores(opening).values())
        )
        moves, result, taken = play(spec, seat, opening)
        seconds += taken
        opening_text = "".join("abcdefg"[col] for col in opening) or "start"
        kept = result == sign(expected)
        rows.append(
            f"  {'X' if seat == 0 else 'O'} after {opening_text:6} result {result:+d} (theory "
            f"{sign(expected):+d})"
            f" {'kept' if kept else 'LOST'}; {len(moves)} plies; most {max(taken):.2f} s a move"
        )
        if seat == 0 and not kept:
            lost.append(moves)
    return rows, seconds, lost


def sample(seed: int, count: int) -> list[list[int]]:
    """`count` seeded random positions (games going on) at plies 0-30, uniformly."""
    rng, game = random.Random(seed), create(["connect4"])
    found: list[list[int]] = []
    while len(found) < count:
        plies, state, moves = rng.randint(0, 30), game.initial_state(), []
        for _ in range(plies):
            move = rng.choice(list(game.actions(state)))
            state = game.result(state, move)
            moves.append(move)
            if game.is_terminal(state):
                break
        if not game.is_terminal(state):
            found.append(moves)
    return found


def kept(
    spec: str, positions: list[list[int]]
) -> tuple[dict[tuple[int, int], list[int]], list[int], list[float]]:
    """Per ply bucket, [kept, positions]; won opening positions [winning move found, positions];
    seconds."""
    game = create(["connect4"])
    buckets = {bucket: [0, 0] for bucket in BUCKETS}
    opening, seconds = [0, 0], []
    for moves in positions:
        state = game.initial_state()
        for move in moves:
            state = game.result(state, move)
        start = time.perf_counter()
        move = decide(create_player(parse_spec(spec)), game, state).move
        seconds.append(time.perf_counter() - start)
        found = scores(moves)
        good = sign(found[move]) == sign(max(found.values()))
        if not good:
            print(
                f"  missed: {''.join('abcdefg'[col] for col in moves)} (played {'abcdefg'[move]})"
            )
        bucket = next(bucket for bucket in BUCKETS if bucket[0] <= len(moves) <= bucket[1])
        buckets[bucket][0] += good
        buckets[bucket][1] += 1
        if len(moves) <= 11 and max(found.values()) > 0:
            opening[0] += found[move] > 0
            opening[1] += 1
    return buckets, opening, seconds


def decisive(moves: list[int]) -> int | None:
    """The solver's decisive ply (from 1): the last move that changed the outcome for its mover."""
    last = None
    for ply in range(len(moves)):
        found = scores(moves[:ply])
        if sign(found[moves[ply]]) < sign(max(found.values())):
            last = ply + 1
    return last


def analysed(spec: str, moves: list[int]) -> tuple[int | None, int | None, bool]:
    """nimmax analyze's decisive ply of a game, the solver's, and whether nimmax's verdict there is
    proven."""
    record = GameRecord(
        "connect4", ("a", "b"), tuple("abcdefg"[col] for col in moves), None, (), True
    )
    analysis = analyze(record, parse_spec(spec))
    named = analysis.decisive
    return (named.ply if named else None), decisive(moves), bool(named and named.exact)


def erred(ply: int) -> list[int]:
    """A game of perfect play but for the mover at `ply` (from 1), who plays a move giving its
    outcome away (the worst such, the quickest loss), then perfect play to the end; [] if no move
    there does."""
    game, moves = create(["connect4"]), list[int]()
    state = game.initial_state()
    while not game.is_terminal(state):
        found = scores(moves)
        worse = [col for col, score in found.items() if sign(score) < sign(max(found.values()))]
        if len(moves) + 1 == ply and not worse:
            return []
        move = (
            min(worse, key=lambda col: found[col]) if len(moves) + 1 == ply else perfect_move(moves)
        )
        state = game.result(state, move)
        moves.append(move)
    return moves


def report(
    spec: str, count: int, seed: int, lost_games: list[list[int]], only: str | None
) -> list[list[int]]:
    """Print one spec's figures (`only` the games or the positions, else both); the games it lost as
    first player."""
    print(f"\n== {spec}")
    start, lost = time.perf_counter(), list[list[int]]()
    if only != "positions":
        rows, seconds, lost = games(spec)
        print("games against perfect play:")
        print("\n".join(rows))
        print(f"  seconds a move: mean {statistics.mean(seconds):.2f}, most {max(seconds):.2f}")
    if only != "games":
        buckets, opening, taken = kept(spec, sample(seed, count))
        shown = ", ".join(
            f"plies {low}-{high}: {good}/{total}" for (low, high), (good, total) in buckets.items()
        )
        print(f"outcome kept ({count} positions, seed {seed}): {shown}")
        print(f"  won positions at plies 0-11, winning move found: {opening[0]}/{opening[1]}")
        print(f"  seconds a move: mean {statistics.mean(taken):.2f}, most {max(taken):.2f}")
    for moves in lost_games[:1]:
        named, truth, proven = analysed(spec, moves)
        print(
            f"analyze of a lost game ({len(moves)} plies): names ply {named} (proven: {proven}); "
            f"solver: ply {truth}"
        )
    if only is None and not spec.endswith("book=off"):
        print("analyze of a game given away past the books (perfect play but at that ply):")
        for ply in ERRED:
            moves = erred(ply)
            if moves:
                named, truth, proven = analysed(spec, moves)
                print(
                    f"  at ply {ply} ({len(moves)} plies): names ply {named} (proven: {proven}); "
                    f"solver: ply {truth}"
                )
    print(f"({time.perf_counter() - start:.0f} s)")
    return lost


def load() -> None:
    """Print what reading the 12-stone book costs: seconds, and the memory it keeps and peaks at."""
    tracemalloc.start()
    start = time.perf_counter()
    entries = len(connect4_book.twelve().keys)
    took = time.perf_counter() - start
    kept, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    megabytes = f"keeps {kept / 2**20:.0f} MB, peak {peak / 2**20:.0f} MB"
    print(f"12-stone book: {entries:,} entries read in {took:.2f} s; {megabytes}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument(
        "--spec", action="append", help="nimmax specs (default: alphabeta, alphabeta:book=off)"
    )
    parser.add_argument(
        "--only", choices=("games", "positions"), help="run only the games or only the positions"
    )
    args = parser.parse_args()
    specs: list[str] = args.spec or ["alphabeta:book=off", "alphabeta"]
    load()
    lost: list[list[int]] = []
    for spec in specs:
        lost = report(spec, args.positions, args.seed, lost, args.only) or lost


if __name__ == "__main__":
    main()
