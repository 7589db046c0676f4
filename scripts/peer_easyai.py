"""The same m,n,k solves by easyAI, the fastest Python peer, for a side-by-side comparison.

easyAI is not a nimmax dependency: run this with a Python that has it, e.g.

    python -m venv /tmp/peer && /tmp/peer/bin/pip install easyAI
    /tmp/peer/bin/python scripts/peer_easyai.py

It solves each board by easyAI's iterative deepening with its transposition table, and
prints the value for the first player, the nodes (counted in `make_move`) and the time.
"""

from __future__ import annotations

import sys
import time

from easyAI import TranspositionTable, TwoPlayerGame, solve_with_iterative_deepening


class MNK(TwoPlayerGame):  # type: ignore[misc]
    """k in a row on rows x cols, written the easyAI way (list board, make/unmake)."""

    def __init__(self, rows: int, cols: int, k: int) -> None:
        self.rows, self.cols, self.k = rows, cols, k
        self.board = [0] * (rows * cols)
        self.current_player = 1
        self.players = None
        self.nodes = 0
        self.lines = []
        for row in range(rows):
            for col in range(cols):
                for down, right in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(row + down * i, col + right * i) for i in range(k)]
                    if all(0 <= r < rows and 0 <= c < cols for r, c in cells):
                        self.lines.append([r * cols + c for r, c in cells])

    def possible_moves(self) -> list[int]:
        return [index for index, cell in enumerate(self.board) if cell == 0]

    def make_move(self, move: int) -> None:
        self.nodes += 1
        self.board[move] = self.current_player

    def unmake_move(self, move: int) -> None:
        self.board[move] = 0

    def lose(self) -> bool:
        return any(
            all(self.board[cell] == self.opponent_index for cell in line) for line in self.lines
        )

    def is_over(self) -> bool:
        return self.lose() or 0 not in self.board

    def scoring(self) -> int:
        return -100 if self.lose() else 0

    def ttentry(self) -> tuple[int, ...]:
        return tuple(self.board)


def main() -> None:
    boards = [(3, 3, 3), (3, 4, 3), (4, 4, 3), (4, 4, 4)]
    if "--all" in sys.argv:
        boards.append((4, 5, 4))
    for rows, cols, k in boards:
        game = MNK(rows, cols, k)
        started = time.perf_counter()
        result, depth, move = solve_with_iterative_deepening(
            game,
            ai_depths=range(2, rows * cols + 1),
            win_score=90,
            tt=TranspositionTable(),
            verbose=False,
        )
        seconds = time.perf_counter() - started
        print(
            f"easyAI {rows}x{cols} k={k}: value {result:+d}  depth {depth}  move {move}  "
            f"nodes {game.nodes:,}  {seconds:.4f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
