"""A subtraction game with words: `N` counters, each move takes one of the allowed amounts,
and whoever cannot move loses. It draws its own board (`render`).

    nimmax play examples/subtraction.py:Subtraction 20 --take 1,3,4
    nimmax solve examples/subtraction.py:Subtraction 20
"""

from nimmax import BadGameSpec, Game, IllegalMove

SHOWN = 30
"""Counters drawn at most; a bigger heap is drawn cut short, its count beside it."""


class Subtraction(Game[tuple[int, int], int]):
    """Take one of the allowed amounts from the heap (1, 3 or 4 unless told); whoever cannot move
    loses.

    A state is (counters left, seat to move); a move is the number taken. The first paragraph of
    this docstring is the rules nimmax's in-game help shows.
    """

    name = "subtraction"

    def __init__(self, counters: int = 20, takes: tuple[int, ...] = (1, 3, 4)) -> None:
        self.counters, self.takes = counters, takes

    @classmethod
    def from_words(cls, words: list[str]) -> "Subtraction":
        """`N [--take A,B,...]`: nimmax passes the words after the game's name."""
        try:
            if "--take" in words:
                at = words.index("--take")
                takes = tuple(sorted({int(part) for part in words[at + 1].split(",")}))
                words = words[:at] + words[at + 2 :]
            else:
                takes = (1, 3, 4)
            (counters,) = [int(word) for word in words] or [20]
        except (ValueError, IndexError):
            raise BadGameSpec("subtraction takes N [--take A,B,...], whole numbers") from None
        if not 0 <= counters <= 10_000 or not takes or min(takes) < 1:
            raise BadGameSpec("subtraction: N from 0 to 10000, takes of at least 1")
        return cls(counters, takes)

    def initial_state(self) -> tuple[int, int]:
        return (self.counters, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        return state[1]

    def actions(self, state: tuple[int, int]) -> list[int]:
        return [take for take in reversed(self.takes) if take <= state[0]]

    def result(self, state: tuple[int, int], action: int) -> tuple[int, int]:
        if action not in self.actions(state):
            raise IllegalMove(f"cannot take {action}; legal: {self.actions(state)}")
        return (state[0] - action, 1 - state[1])

    def is_terminal(self, state: tuple[int, int]) -> bool:
        return not self.actions(state)

    def utility(self, state: tuple[int, int], player: int) -> float:
        return -1 if player == state[1] else 1  # the side to move cannot move: it lost

    def key(self, state: tuple[int, int]) -> int:
        return state[0]  # the value for the side to move depends on the counters alone

    def parse_move(self, text: str, state: tuple[int, int]) -> int:
        try:
            return int(text)
        except ValueError:
            raise IllegalMove(f"{text!r} is not a number of counters") from None

    def render(self, state: tuple[int, int], last_move: int | None) -> str:
        """The board play and replay draw: the heap as counters, what was just taken, whose turn it
        is.

        A string is printed as it is; any Rich renderable (a Table, a Panel) works too.
        """
        counters, seat = state
        heap = "● " * min(counters, SHOWN) + ("… " if counters > SHOWN else "")
        taken = f", {last_move} just taken" if last_move is not None else ""
        turn = "game over" if self.is_terminal(state) else f"{self.player_names[seat]} to move"
        takes = ", ".join(map(str, self.takes))
        return f"{heap}{counters} left{taken}\n{turn} (takes {takes})"
