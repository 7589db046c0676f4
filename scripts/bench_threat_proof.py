"""What m,n,k's threat proofs cost a search, and what they prove: fixed-depth alpha-beta on ordinary
positions with the proofs and without them (nodes, CPU seconds, nodes a second), and the wins by
threats `solve --time 1` answers (value, exact, seconds).

    python scripts/bench_threat_proof.py

CPU seconds drift with the machine's load: compare the two columns of one run.
"""

from __future__ import annotations

import time
from unittest import mock

import nimmax.games.mnk as mnk
from nimmax import games
from nimmax.search import ENGINES
from nimmax.search.limits import Limits

ORDINARY = (
    ("tictactoe --size 15 --k 5", "h8 i9 g7 j9 h10", 4),
    ("tictactoe --size 15 --k 5", "h8 i9 g7 j9 h10", 5),
    ("tictactoe --size 9 --k 5", "e5 d4 f6", 4),
    ("tictactoe --size 7 --k 4", "d4 c3", 5),
)
"""(game words, moves played, depth): positions with no win by threats in sight."""
WON = (
    ("open four", "h8 h7 i7 g7 g9 i8 j10 k11 e8 f8 k9 h10"),
    ("four-three", "h8 g8 i8 c3 j8 m13 k6 b14 k7 n2"),
)
"""15x15 k=5 games whose mover wins by threats."""


def searched(words: str, moves: str, depth: int | None, seconds: float | None) -> tuple[str, float]:
    """A search of the position after `moves`: its figures as text, and the CPU seconds it took."""
    game = games.create(words)
    state = game.initial_state()
    for move in moves.split():
        state = game.result(state, game.parse_move(move, state))
    started = time.process_time()
    result = ENGINES["alphabeta"].search(game, state, Limits(depth, seconds))
    spent = time.process_time() - started
    shown = f"{result.value:+.3f} {'exact' if result.exact else 'estimate'} depth {result.depth}"
    return (
        f"{shown:30} {result.nodes:8,} nodes {spent:6.2f} s "
        f"{result.nodes / max(spent, 1e-9):8,.0f}/s"
    ), spent


def main() -> None:
    print("fixed depth, ordinary positions: with the threat proof / without")
    for words, moves, depth in ORDINARY:
        with_proof, spent = searched(words, moves, depth, None)
        with mock.patch.object(mnk, "proves", lambda gravity, k, cells: False):
            without, bare = searched(words, moves, depth, None)
        print(
            f"  {words} after {moves!r}, depth {depth}:\n    with    {with_proof}\n    without "
            f"{without}"
        )
        print(f"    cost: {spent / max(bare, 1e-9):.2f}x the CPU seconds")
    print("wins by threats, 1 s:")
    for name, moves in WON:
        figures, _ = searched("tictactoe --size 15 --k 5", moves, None, 1.0)
        print(f"  {name:12} {figures}")


if __name__ == "__main__":
    main()
