"""The lab's tic-tac-toe as a nimmax plugin: a Game subclass, nothing else.

nimmax play examples/tictactoe.py:TicTacToe
nimmax solve examples/tictactoe.py:TicTacToe
nimmax check examples/tictactoe.py:TicTacToe
"""

from nimmax import Game, IllegalMove

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe(Game[str, int]):
    """Three in a row on a 3x3 board. A state is the board as a 9-character string, "." empty."""

    name = "lab-tictactoe"
    player_names = ("X", "O")

    def initial_state(self) -> str:
        return "." * 9

    def to_move(self, state: str) -> int:
        return 0 if state.count("X") == state.count("O") else 1

    def line_made(self, state: str) -> bool:
        return any(state[a] != "." and state[a] == state[b] == state[c] for a, b, c in LINES)

    def actions(self, state: str) -> list[int]:
        if self.line_made(state):
            return []
        return [cell for cell in (4, 0, 2, 6, 8, 1, 3, 5, 7) if state[cell] == "."]

    def result(self, state: str, action: int) -> str:
        if action not in self.actions(state):
            raise IllegalMove(f"{self.format_move(action)} is not free")
        return state[:action] + "XO"[self.to_move(state)] + state[action + 1 :]

    def is_terminal(self, state: str) -> bool:
        return self.line_made(state) or "." not in state

    def utility(self, state: str, player: int) -> float:
        if not self.line_made(state):
            return 0
        last = 1 - self.to_move(state)  # the side that made the line moved last
        return 1 if player == last else -1

    def format_move(self, action: int) -> str:
        return "abc"[action % 3] + str(action // 3 + 1)  # column letter, row from the top

    def parse_move(self, text: str, state: str) -> int:
        text = text.strip().lower()
        if len(text) != 2 or text[0] not in "abc" or text[1] not in "123":
            raise IllegalMove(f"{text!r} is not a cell like b2")
        cell = (int(text[1]) - 1) * 3 + "abc".index(text[0])
        if cell not in self.actions(state):
            raise IllegalMove(f"{text} is taken")
        return cell

    def format_position(self, state: str) -> str:
        return "/".join(state[row : row + 3] for row in (0, 3, 6))
