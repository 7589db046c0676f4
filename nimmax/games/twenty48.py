"""2048: slide the tiles, equal neighbours merge, a new tile spawns after every move.

The board is one integer of 4-bit exponents (0 empty, 1 for a 2, ..., 15 for a 32768), cell
(row, column) in nibble `row * size + column`, so a row is `4 * size` consecutive bits and a
slide is one table lookup per row; up and down slide the rows of the transposed board. The
tables are filled lazily, one entry per row value first met, so any size starts at once.

Chance is part of the state: `spawns` counts the tiles still to appear before the player
moves. The start is the empty board with two spawns pending (a chance node, so a seed or a
game record fixes the first tiles like every other spawn); `--position` starts at a player
node. A spawn is written `2@b3` (tile, then column letter and row number from the top).

The payoff is the score, in points; reaching the goal tile counts as the win (`winner`), and
play goes on until no move is legal. Two 32768 tiles do not merge: the 4-bit cells stop there.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from math import pow
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal, NamedTuple

from nimmax.errors import quoted
from nimmax.game import CHANCE, BadGameSpec, Capability, Game, IllegalMove, legal_text
from nimmax.games.twenty48_rows import TOP_RANK, Slides, pack, transpose4
from nimmax.games.words import Option, Signature
from nimmax.numbers import MAX_SEED, parse_int

if TYPE_CHECKING:
    from nimmax.games.ntuple.network import Network

MOVES = ("left", "up", "right", "down")
"""The four slides, in the order the search tries them."""

ALIASES = MappingProxyType(
    {"u": "up", "d": "down", "l": "left", "r": "right", "w": "up", "a": "left", "s": "down"}
)
"""What a person may type for a slide besides its name: first letters, and w/a/s. A typed `d`
is down (the first letter); the single-key reader of `ui/twenty48.py` maps the key d to right."""

FOUR_PROBABILITY = 0.1
"""A spawned tile is a 4 with this probability, else a 2."""

MIN_SIZE, MAX_SIZE = 2, 8
"""Board sides: an 8x8 board is 256 bits, a slide still a few table lookups."""

TWENTY48 = Signature(
    "2048",
    options=(
        Option("--size", int, None, "N", MIN_SIZE, MAX_SIZE),
        Option("--goal", int, 2048, "TILE", 4, 1 << TOP_RANK),
        Option("--seed", int, None, "N", 0, MAX_SEED),
        Option("--position", str, None, "2,2,0,0/0,0,0,0/0,0,0,0/0,0,0,4"),
    ),
)
"""2048's words: the board side (4 unless given), the goal tile, the seed of the spawns, a
position."""


class Position(NamedTuple):
    """A 2048 position: the board's exponents, the points scored, and the spawns still due."""

    board: int
    score: int
    spawns: int


class Spawn(NamedTuple):
    """A chance outcome: a tile of exponent `rank` (1 for a 2, 2 for a 4) appears on `cell`."""

    cell: int
    rank: int


Action = str | Spawn


class Twenty48(Game[Position, Action]):
    """The original 2048: a size x size board, spawns of 2 (p 0.9) or 4 (p 0.1), goal tile 2048."""

    name = "2048"
    player_names = ("Player",)
    players = 1
    capabilities = frozenset({Capability.CHANCE, Capability.EVALUATION})
    evaluations = ("heuristic", "ntuple")

    def __init__(
        self, size: int = 4, goal: int = 2048, seed: int | None = None, start: int | None = None
    ) -> None:
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise BadGameSpec(f"2048: --size must be from {MIN_SIZE} to {MAX_SIZE}, not {size}")
        if goal < 4 or goal & (goal - 1) or goal > 1 << TOP_RANK:
            raise BadGameSpec(
                f"2048: --goal must be a power of two from 4 to {1 << TOP_RANK}, not {goal}"
            )
        self.size, self.goal, self.seed, self.start = size, goal, seed, start
        self.goal_rank = goal.bit_length() - 1
        self.cells = size * size
        self.slides = Slides(size)
        self.row_bits = 4 * size
        self.transpose = transpose4 if size == 4 else self._transpose
        self.heuristics: dict[int, tuple[float, int]] = {}
        """Memo of `line_score` and the largest exponent by line value, filled as lines are met."""
        self.ones = pack([1] * self.cells)
        self.evaluation = "auto"
        """What `evaluate` reads (`evaluated`): auto (the learned network where one loads), ntuple,
        heuristic."""
        self._network: Network | Literal[False] | None = None
        self._spawns = [(Spawn(cell, 1), Spawn(cell, 2)) for cell in range(self.cells)]

    @property
    def spec(self) -> str:
        if self.start is not None:  # the position gives the size
            return TWENTY48.spec(
                goal=self.goal, seed=self.seed, position=self.format_board(self.start)
            )
        return TWENTY48.spec(
            size=self.size if self.size != 4 else None, goal=self.goal, seed=self.seed
        )

    # --- the board -------------------------------------------------------------------------

    def ranks(self, board: int) -> list[int]:
        """Every cell's exponent, row by row from the top left."""
        return [(board >> (4 * cell)) & 15 for cell in range(self.cells)]

    def _transpose(self, board: int) -> int:
        size, result = self.size, 0
        for row in range(size):
            for column in range(size):
                result |= ((board >> (4 * (row * size + column))) & 15) << (
                    4 * (column * size + row)
                )
        return result

    def slide(self, board: int, move: str) -> tuple[int, int]:
        """The board after a slide (no spawn) and the points it scores."""
        vertical = move in ("up", "down")
        if vertical:
            board = self.transpose(board)
        table = self.slides.slide_left if move in ("left", "up") else self.slides.slide_right
        bits, mask = self.row_bits, self.slides.row_mask
        slid, points = 0, 0
        for row in range(self.size):
            shift = bits * row
            new_row, gained = table((board >> shift) & mask)
            slid |= new_row << shift
            points += gained
        return (self.transpose(slid) if vertical else slid), points

    def occupied(self, board: int) -> int:
        """Bit 0 of each nibble set where the cell holds a tile."""
        return (board | board >> 1 | board >> 2 | board >> 3) & self.ones

    def empty_cells(self, board: int) -> list[int]:
        """The cells with no tile."""
        occupied = self.occupied(board)
        return [cell for cell in range(self.cells) if not (occupied >> (4 * cell)) & 1]

    def best_rank(self, board: int) -> int:
        """The exponent of the largest tile (0 on an empty board)."""
        return max(self.ranks(board))

    # --- the protocol ----------------------------------------------------------------------

    def initial_state(self) -> Position:
        if self.start is not None:
            return Position(self.start, 0, 0)
        return Position(0, 0, 2)

    def to_move(self, state: Position) -> int:
        return CHANCE if state.spawns else 0

    def actions(self, state: Position) -> Sequence[Action]:
        """The slides that change the board; at a chance node, the possible spawns."""
        if state.spawns:
            return [outcome for _, outcome in self.chance_outcomes(state)]
        return [move for move in MOVES if self.slide(state.board, move)[0] != state.board]

    def chance_outcomes(self, state: Position) -> Sequence[tuple[float, Action]]:
        """Every (empty cell, 2 or 4) with its probability; the cells are equally likely."""
        empty = self.empty_cells(state.board)
        if not state.spawns or not empty:
            return []
        two, four = (1 - FOUR_PROBABILITY) / len(empty), FOUR_PROBABILITY / len(empty)
        spawns = self._spawns
        return [(two, spawns[cell][0]) for cell in empty] + [
            (four, spawns[cell][1]) for cell in empty
        ]

    def result(self, state: Position, action: Action) -> Position:
        board, score, spawns = state
        if spawns:
            if (
                not isinstance(action, Spawn)
                or action.rank not in (1, 2)
                or not 0 <= action.cell < self.cells
            ):
                raise IllegalMove(
                    f"{quoted(self.format_move(action))} is not a spawn; the board waits for a "
                    "new tile"
                )
            if (board >> (4 * action.cell)) & 15:
                raise IllegalMove(
                    f"cell {self.cell_name(action.cell)} is taken; a tile spawns on an empty cell"
                )
            return Position(board | (action.rank << (4 * action.cell)), score, spawns - 1)
        if action not in MOVES:
            raise IllegalMove(
                f"{quoted(self.format_move(action))} is not a slide; legal: "
                f"{legal_text(self, state)}"
            )
        slid, points = self.slide(board, action)
        if slid == board:
            raise IllegalMove(
                f"{action} changes nothing, so it is not legal; legal: {legal_text(self, state)}"
            )
        return Position(slid, score + points, 1)

    def is_terminal(self, state: Position) -> bool:
        """Over when the player is to move and no slide changes the board."""
        if state.spawns:
            return False
        board = state.board
        if self.occupied(board) != self.ones:
            return False
        return all(self.slide(board, move)[0] == board for move in ("left", "up"))

    def utility(self, state: Position, player: int) -> float:
        """The points scored."""
        return state.score

    def winner(self, state: Position) -> int | None:
        """The player wins by making the goal tile, whatever the final score."""
        return 0 if self.best_rank(state.board) >= self.goal_rank else None

    def evaluated(self, name: str) -> Twenty48:
        """This game valued at a horizon by `name`: `auto` (the learned network where one loads,
        else the heuristic), `heuristic` (hand-made) or `ntuple` (the learned network; BadGameSpec
        when there is none to read, or the board is not 4x4). The network is loaded here, before a
        search's clock starts, once by this game: every game evaluated from it shares it."""
        if name != "heuristic":
            self._learned()
        chosen = self
        if name != self.evaluation:
            chosen = copy.copy(self)
            chosen.evaluation = name
        if name == "ntuple" and chosen.network() is None:
            why = "learns 4x4 boards only" if self.size != 4 else "could not be read (see above)"
            raise BadGameSpec(f"2048: eval=ntuple: the learned network {why}; use eval=heuristic")
        return chosen

    def network(self) -> Network | None:
        """The learned network this game evaluates with (`evaluation`), or None for the
        heuristic."""
        return None if self.evaluation == "heuristic" else self._learned()

    def _learned(self) -> Network | None:
        """The learned network, read on its first use (not at start-up) and kept; None on a board
        it does not value, or where none can be read."""
        if self._network is None and self.size == 4:
            from nimmax.games.ntuple.networks import learned

            self._network = learned() or False
        return self._network or None

    def evaluate(self, state: Position, player: int) -> float:
        """Points scored plus what is still to come: the learned network's value of the board after
        the best slide (at a chance node: of the board as it is), else `heuristic`'s bonus."""
        network = self.network()
        if network is None:
            return state.score + max(1.0, self.heuristic(state.board))
        board = state.board
        if state.spawns:
            return state.score + network.value(board)
        best = 0.0
        for move in MOVES:
            slid, points = self.slide(board, move)
            if slid != board:
                best = max(best, points + network.value(slid))
        return state.score + best

    def heuristic(self, board: int) -> float:
        """Positional bonus in point-sized units: each row and column is scored by `line_score`,
        and the largest tile earns a bonus in a corner."""
        bits, mask, size = self.row_bits, self.slides.row_mask, self.size
        lines = self.heuristics
        total, best = 0.0, 0
        for turned in (board, self.transpose(board)):
            for row in range(size):
                line = (turned >> (bits * row)) & mask
                known = lines.get(line)
                if known is None:
                    ranks = [(line >> (4 * index)) & 15 for index in range(size)]
                    known = lines[line] = (line_score(ranks), max(ranks))
                total += known[0]
                if known[1] > best:
                    best = known[1]
        last = self.cells - 1
        if best and any(
            (board >> (4 * cell)) & 15 == best for cell in (0, size - 1, last - size + 1, last)
        ):
            total += CORNER_WEIGHT * best
        return total

    # --- notation --------------------------------------------------------------------------

    def cell_name(self, cell: int) -> str:
        """`b3`: column letter from the left, row number from the top."""
        return f"{chr(ord('a') + cell % self.size)}{cell // self.size + 1}"

    def format_move(self, action: Action) -> str:
        if isinstance(action, Spawn):
            return f"{1 << action.rank}@{self.cell_name(action.cell)}"
        return str(action)

    def parse_move(self, text: str, state: Position) -> Action:
        """A slide (`up`, `u`, `w`, `k`, ...) at a player node, a spawn (`2@b3`) at a chance
        node."""
        wanted = text.strip().lower()
        if state.spawns:
            match = re.fullmatch(r"([24])\s*@\s*([a-z])\s*(\S+)", wanted)
            if match is None:
                raise IllegalMove(
                    f"{quoted(text.strip())} is not a spawn such as 2@a1 (tile @ column row)"
                )
            column = ord(match[2]) - ord("a")
            if column >= self.size:
                last = chr(ord("a") + self.size - 1)
                raise IllegalMove(
                    f"column must be a letter from a to {last}, not {quoted(match[2])}"
                )
            row = parse_int(match[3], "row", 1, self.size, IllegalMove) - 1
            spawn = Spawn(row * self.size + column, int(match[1]).bit_length() - 1)
            if (state.board >> (4 * spawn.cell)) & 15:
                raise IllegalMove(
                    f"cell {self.cell_name(spawn.cell)} is taken; a tile spawns on an empty cell"
                )
            return spawn
        move = wanted if wanted in MOVES else ALIASES.get(wanted, "")
        legal = self.actions(state)
        if move not in legal:
            why = "changes nothing" if move in MOVES else "is not a slide (up, down, left, right)"
            shown = legal_text(self, state) or "none, the game is over"
            raise IllegalMove(f"{quoted(text.strip())} {why}; legal: {shown}")
        return move

    def format_board(self, board: int) -> str:
        """Rows from the top joined by `/`, tiles comma-separated, 0 for an empty cell."""
        ranks = self.ranks(board)
        return "/".join(
            ",".join(
                str(1 << rank if rank else 0)
                for rank in ranks[row * self.size : (row + 1) * self.size]
            )
            for row in range(self.size)
        )

    def format_position(self, state: Position) -> str:
        """The board (the score is not part of the position notation)."""
        return self.format_board(state.board)


CORNER_WEIGHT = 1000.0
LOST_PENALTY = 200_000.0
MONOTONICITY_POWER, MONOTONICITY_WEIGHT = 4.0, 47.0
SUM_POWER, SUM_WEIGHT = 3.5, 11.0
MERGES_WEIGHT, EMPTY_WEIGHT, SMOOTHNESS_WEIGHT = 700.0, 270.0, 10.0


def line_score(ranks: Sequence[int]) -> float:
    """The heuristic worth of one row or column (weights after nneonneo's 2048 AI).

    Rewards empty cells and equal neighbours (merges to come); penalises large tiles (they are
    spent space), lines that are not monotone (the big tiles belong at one end) and jumps
    between neighbours (smoothness). The constant keeps a live board worth more than a lost one.
    """
    empty = ranks.count(0)
    merges, previous, counter = 0, 0, 0
    for rank in ranks:
        if not rank:
            continue
        if rank == previous:
            counter += 1
        elif counter:
            merges += 1 + counter
            counter = 0
        previous = rank
    if counter:
        merges += 1 + counter
    towards_start = towards_end = 0.0
    roughness = 0
    for before, after in zip(ranks, ranks[1:], strict=False):
        if before > after:
            towards_start += pow(before, MONOTONICITY_POWER) - pow(after, MONOTONICITY_POWER)
        else:
            towards_end += pow(after, MONOTONICITY_POWER) - pow(before, MONOTONICITY_POWER)
        if before and after:
            roughness += abs(before - after)
    spent = sum(pow(rank, SUM_POWER) for rank in ranks)
    return (
        LOST_PENALTY
        + EMPTY_WEIGHT * empty
        + MERGES_WEIGHT * merges
        - SUM_WEIGHT * spent
        - MONOTONICITY_WEIGHT * min(towards_start, towards_end)
        - SMOOTHNESS_WEIGHT * roughness
    )


def parse_position(text: str, size: int | None) -> tuple[int, int]:
    """A board in the `--position` notation and its size; BadGameSpec says what is wrong."""
    rows = [row.strip() for row in text.strip().split("/")]
    count = len(rows)
    if size is not None and count != size:
        raise BadGameSpec(f"2048: the position has {count} rows but --size is {size}")
    if not MIN_SIZE <= count <= MAX_SIZE:
        raise BadGameSpec(
            f"2048: a position has {MIN_SIZE} to {MAX_SIZE} rows joined by '/', not {count}; "
            f"usage: {TWENTY48.usage}"
        )
    ranks: list[int] = []
    for number, row in enumerate(rows, start=1):
        tiles = row.split(",")
        if len(tiles) != count:
            raise BadGameSpec(
                f"2048: row {number} of the position has {len(tiles)} tiles, not {count} (square "
                "boards)"
            )
        for tile in tiles:
            value = parse_int(tile, f"2048: a tile in row {number}", 0, 1 << TOP_RANK, BadGameSpec)
            if value and (value < 2 or value & (value - 1)):
                raise BadGameSpec(
                    f"2048: {value} in row {number} is not a tile: 0 or a power of two from 2 to "
                    "32768"
                )
            ranks.append(value.bit_length() - 1 if value else 0)
    if not any(ranks):  # no slide moves an empty board, yet it is not lost: a position with no move
        raise BadGameSpec(
            "2048: the position has no tile; give at least one (the game itself starts by "
            "spawning two)"
        )
    return pack(ranks), count


def create(argv: Sequence[str]) -> Twenty48:
    """2048 from its words (TWENTY48); a position sets the size."""
    words = TWENTY48.parse(argv)
    size = words["size"]
    if words["position"] is None:
        return Twenty48(size if size is not None else 4, words["goal"], words["seed"])
    board, size = parse_position(words["position"], size)
    return Twenty48(size, words["goal"], words["seed"], board)
