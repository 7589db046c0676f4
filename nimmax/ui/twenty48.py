"""2048 on the terminal: the board in the original game's colours, and a one-key move reader.

`render` draws a position (score and best tile above the board; a grid of lines where the
console shows no colour); `read_key` waits for one
key press (arrow keys, w/a/s/d, h/j/k/l slide; `?` or F1 help, F2 hint, `u` or F3 undo, `q`
quit) and answers at once, no Enter. No key is read as a word: `h` is always a slide. Its rules,
and its results in points and its best tile.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from nimmax.game import AnyGame, IllegalMove, winner_of
from nimmax.games.twenty48 import Position, Spawn, Twenty48
from nimmax.ui.presentation import COMMANDS, Outcome, Rules
from nimmax.ui.text import signed

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from nimmax.claim import Claim
    from nimmax.search.result import SearchResult

TILE_COLOURS = MappingProxyType(
    {
        0: ("#cdc1b4", "#cdc1b4"),
        2: ("#eee4da", "#776e65"),
        4: ("#ede0c8", "#776e65"),
        8: ("#f2b179", "#f9f6f2"),
        16: ("#f59563", "#f9f6f2"),
        32: ("#f67c5f", "#f9f6f2"),
        64: ("#f65e3b", "#f9f6f2"),
        128: ("#edcf72", "#f9f6f2"),
        256: ("#edcc61", "#f9f6f2"),
        512: ("#edc850", "#f9f6f2"),
        1024: ("#edc53f", "#f9f6f2"),
        2048: ("#edc22e", "#f9f6f2"),
    }
)
"""Tile value to (background, text) colour, as in Gabriele Cirulli's original game."""

SUPER_TILE = ("#3c3a32", "#f9f6f2")
"""Tiles beyond 2048 share the original's dark colour."""

BOARD_COLOUR = "#bbada0"
CELL_WIDTH = 7

KEYS = MappingProxyType(
    {
        "up": "up",
        "down": "down",
        "left": "left",
        "right": "right",
        "w": "up",
        "a": "left",
        "s": "down",
        "d": "right",
        "k": "up",
        "h": "left",
        "j": "down",
        "l": "right",
        "?": "help",
        "f1": "help",
        "f2": "hint",
        "u": "undo",
        "f3": "undo",
        "q": "quit",
        "c-d": "quit",
    }
)
"""Key (prompt_toolkit's name) to what it means: a slide, or a command (help, hint, undo, quit)."""

HINT = "arrows / wasd / hjkl slide · ? / F1 help · F2 hint · u / F3 undo · q quit"


def tile_style(value: int) -> str:
    """The Rich style of a tile: bold text on the tile's colour."""
    background, text = TILE_COLOURS.get(value, SUPER_TILE)
    return f"bold {text} on {background}"


def render(game: AnyGame, state: Any, last_move: Any = None, bottom: int = 0) -> RenderableType:
    """The board with the score, the best tile and the last move above it."""
    assert isinstance(game, Twenty48) and isinstance(state, Position)
    values = [1 << rank if rank else 0 for rank in game.ranks(state.board)]
    header = Text.assemble(
        ("Score ", "bold"),
        (str(state.score), "bold cyan"),
        "   ",
        ("Best tile ", "bold"),
        (str(max(values)), "bold cyan"),
    )
    if last_move is not None:
        header.append(f"   last: {game.format_move(last_move)}", style="dim")
    if winner_of(game, state) == 0:
        header.append(f"   {game.goal} made!", style="bold green")
    spawned = last_move.cell if isinstance(last_move, Spawn) else None
    return Group(header, Board(game.size, values, spawned))


def engine_status(game: AnyGame, state: Any, move: Any, search: SearchResult, claim: Claim) -> str:
    """An engine's slide: the points it scores now, and the search's value apart: with the learned
    network, the final score it expects; with the heuristic, which past its horizon adds a worth of
    the board (some 1.6 million on an empty one), not points."""
    assert isinstance(state, Position)
    figures = f"{search.nodes:,} nodes · {search.seconds:.3f} s"
    if claim.exact:
        return (
            f"expected score gain {signed(search.value - state.score)} to the end (proven) · "
            f"{figures}"
        )
    gain = signed(game.result(state, move).score - state.score)
    estimate = f"{search.value:,.0f}" + (f" at depth {search.depth}" if search.depth else "")
    if isinstance(game, Twenty48) and game.network() is not None:
        depth = f" at depth {search.depth}" if search.depth else ""
        return (
            f"scores {gain} now · expects {search.value:,.0f} points in all{depth} (learned) · "
            f"{figures}"
        )
    return f"scores {gain} now · heuristic {estimate} (not points) · {figures}"


def rules(game: AnyGame) -> Rules:
    """2048's rules, with its goal and board size."""
    assert isinstance(game, Twenty48)
    return Rules(
        "A slide moves every tile up, down, left or right; two equal tiles that meet merge into "
        "one, "
        "scoring its value; then a 2 (one time in ten a 4) appears on an empty cell. Make a "
        f"{game.goal} tile; "
        "the game ends when no slide moves a tile.",
        "up, down, left, right (also typed u, d, l, r or w, a, s)",
        f"{game.size}x{game.size}, goal {game.goal}",
    )


def outcome(
    game: AnyGame, state: Any, labels: Sequence[str], value: float | None = None
) -> Outcome:
    """The score and the best tile, and whether the goal tile was made."""
    assert isinstance(game, Twenty48)
    best = 1 << game.best_rank(state.board)
    made = winner_of(game, state) == 0
    goal = f"{game.goal} made" if made else f"{game.goal} not made"
    return (
        f"Game over: {labels[0]} scores {state.score:,}, best tile {best} ({goal})",
        0 if made else None,
    )


def value_words(game: AnyGame, value: float, mover: int | None) -> str:
    """A value of 2048 is the score expected with chance's draws."""
    return f"expected score {value:,.0f}"


def ending(game: AnyGame, state: Any, labels: Sequence[str], last: int | None) -> str:
    """2048: no slide changes the board."""
    return "no slide changes the board"


def standing(game: AnyGame, state: Any) -> str:
    """How a game stands, for the banner of one left unfinished: the score and the best tile."""
    assert isinstance(game, Twenty48) and isinstance(state, Position)
    best = game.best_rank(state.board)
    return f"Score {state.score:,}, best tile {1 << best if best else 0}"


class Board:
    """The tiles of a board: coloured cells, three lines a row, where the console shows colour; a
    grid of lines where it does not (NO_COLOR, a pipe), since blank cells on no colour show
    nothing."""

    def __init__(self, size: int, values: list[int], spawned: int | None) -> None:
        self.size, self.values, self.spawned = size, values, spawned

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.grid() if console.no_color or console.color_system is None else self.tiles()

    def tiles(self) -> Text:
        """Each tile in its colour, the new one marked in its bottom line."""
        size, values = self.size, self.values
        gap = Text(" ", style=f"on {BOARD_COLOUR}")
        edge = Text(" " * (size * (CELL_WIDTH + 1) + 1), style=f"on {BOARD_COLOUR}")
        lines: list[Text] = [edge]
        for row in range(size):
            for band in range(3):
                line = gap.copy()
                for column in range(size):
                    cell = row * size + column
                    value = values[cell]
                    label = str(value) if value and band == 1 else ""
                    if cell == self.spawned and band == 2:
                        label = "new"
                    style = (
                        tile_style(value)
                        if cell != self.spawned or band != 2
                        else tile_style(value) + " dim"
                    )
                    line.append(label.center(CELL_WIDTH), style=style)
                    line.append_text(gap)
                lines.append(line)
            lines.append(edge)
        return Text("\n").join(lines)

    def grid(self) -> Text:
        """The tiles in a grid of box lines, one line a row, the new tile marked `new`."""
        size, rule = self.size, "─" * CELL_WIDTH
        lines = ["┌" + "┬".join([rule] * size) + "┐"]
        for row in range(size):
            cells = []
            for column in range(size):
                cell = row * size + column
                label = str(self.values[cell]) if self.values[cell] else ""
                cells.append((f"{label} new" if cell == self.spawned else label).center(CELL_WIDTH))
            lines.append("│" + "│".join(cells) + "│")
            lines.append(
                ("├" + "┼".join([rule] * size) + "┤")
                if row < size - 1
                else "└" + "┴".join([rule] * size) + "┘"
            )
        return Text("\n".join(lines))


def read_key(
    game: AnyGame, state: Any, input: Input | None = None, output: Output | None = None
) -> Any:
    """Wait for one key: a legal slide at once (no Enter), or a command ("help", "hint", "undo",
    "quit").

    Keys for slides that change nothing are ignored (the terminal bell rings). Ctrl-C raises
    KeyboardInterrupt. Without a terminal (input piped in), a line is read instead: a move in any
    notation `parse_move` takes, or `undo` / `quit`.
    """
    # prompt_toolkit loaded for play only, not for every view of 2048
    from nimmax.ui.keys import read_one_key

    legal = set(game.actions(state))
    if input is None and not sys.stdin.isatty():
        return _read_line(game, state)
    return read_one_key(
        KEYS, HINT, lambda meaning: meaning in COMMANDS or meaning in legal, input, output
    )


class KeyReader:
    """The play session's move reader for 2048 (its presentation's `reader`): one key per move."""

    controls = "Slide with the arrows, wasd or hjkl · ? / F1 help · F2 hint · u / F3 undo · q quit"
    """The banner's line: the keys it reads as moves, and those that answer commands."""
    keys = HINT
    """The keys in short, for help."""

    def __call__(self, game: AnyGame, state: Any, prompt: str) -> str:
        return str(read_key(game, state))


def _read_line(game: AnyGame, state: Any) -> Any:
    """One typed line as a move, `undo` or `quit` (end of input quits); asks again on a bad line."""
    while True:
        try:
            line = sys.stdin.readline()
        except KeyboardInterrupt:
            raise
        if not line:
            return "quit"
        word = line.strip().lower()
        if word in ("undo", "quit"):
            return word
        try:
            return game.parse_move(word, state)
        except IllegalMove as error:
            print(error, file=sys.stderr)
