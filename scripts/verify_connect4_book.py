"""Checks nimmax's reading of the Connect Four books against an independent perfect solver.

Run in a scratch environment holding `bitbully` (a C++ solver, never a nimmax dependency) and
`bitbully-databases`, with nimmax on the path:

    PYTHONPATH=. /work/scratch/book/venv/bin/python scripts/verify_connect4_book.py --positions 200

Random seeded games are played to 8 and to 12 stones (X to move, game not over); for each, the
book's payoff (and plies, where the book knows them exactly) is compared with the solver's
value, computed without any opening book. Prints the agreement per stone count.
"""

from __future__ import annotations

import argparse
import random
import time

from bitbully import BitBully, Board

from nimmax.game import Capability, Known, part
from nimmax.games import create


def position(rng: random.Random, stones: int) -> list[int] | None:
    """A random game of `stones` plies still going (columns 0-6), or None where it ended."""
    game = create(["connect4"])
    state, moves = game.initial_state(), []
    for _ in range(stones):
        if game.is_terminal(state):
            return None
        move = rng.choice(list(game.actions(state)))
        state = game.result(state, move)
        moves.append(move)
    return None if game.is_terminal(state) else moves


def known(moves: list[int]) -> Known | None:
    """What nimmax's reading of the books says of the position after `moves`."""
    game = create(["connect4"])
    state = game.initial_state()
    for move in moves:
        state = game.result(state, move)
    booked = part(game, Capability.BOOK)
    return booked.book(state) if booked is not None else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200, help="positions per stone count")
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    solver = BitBully(opening_book=None)
    for stones in (12, 8):
        agree = plies_agree = plies_checked = 0
        start = time.perf_counter()
        for _ in range(args.positions):
            moves = None
            while moves is None:
                moves = position(rng, stones)
            board = Board.from_moves(moves)
            score = solver.mtdf(board)
            payoff = (score > 0) - (score < 0)
            left = BitBully.score_to_moves_left(score, board)
            hit = known(moves)
            assert hit is not None, moves
            if hit.payoff == payoff:
                agree += 1
            else:
                print("disagree:", "".join(map(str, moves)), hit, "solver", score, left)
            if hit.exact and payoff != 0:
                plies_checked += 1
                plies_agree += hit.plies == left
                if hit.plies != left:
                    print("plies differ:", "".join(map(str, moves)), hit, "solver", score, left)
            elif not hit.exact and payoff != 0 and left > hit.plies:
                print("bound broken:", "".join(map(str, moves)), hit, "solver", score, left)
        seconds = time.perf_counter() - start
        print(
            f"{stones} stones: payoff agrees in {agree}/{args.positions}; plies agree in"
            f" {plies_agree}/{plies_checked} exact wins and losses ({seconds:.0f} s)"
        )


if __name__ == "__main__":
    main()
