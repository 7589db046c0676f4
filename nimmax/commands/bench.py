"""Enlarge the board and watch minimax: exact searches over a grid of board sizes, each run
bounded by a time limit, as rows of (board, algorithm, value, nodes, seconds).

A family (a registry entry's `family`) turns size parameters into game words (`simple-nim` 10
-> "simple-nim 10", `tictactoe` 4 with k 3 -> "tictactoe --size 4 --k 3"). Each run is one exact
search to the end of the game (no iterative deepening) aborted at the deadline: a run that
overruns is reported over the limit, and one deeper than the stack allows is reported too deep.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from nimmax import games
from nimmax.errors import quoted
from nimmax.game import AnyGame, BadInput
from nimmax.games import Family
from nimmax.games.mnk import MAX_SIDE
from nimmax.numbers import parse_int
from nimmax.players import BadPlayerSpec, Spec
from nimmax.search import ENGINES, Limits, TooDeep, deep
from nimmax.search.engines import Settings

DONE, OVER, TOO_DEEP, SKIPPED = "done", "over the limit", "too deep", "skipped"
"""A run's status: finished; stopped at the time limit; refused, since the game is longer than
the stack lets a search recurse; not run, since a smaller board of the same series already went
over the limit or too deep."""


def families() -> tuple[Family, ...]:
    """The game families bench runs: each registry entry's that names one."""
    return tuple(info.family for info in games.GAMES if info.family is not None)


@dataclass(frozen=True)
class Board:
    """One board of the grid: its game words and the size parameters that made them."""

    words: str
    size: int
    k: int | None
    game: AnyGame


@dataclass(frozen=True)
class Row:
    """One run: the value for the side to move, nodes visited and time taken (so far, when over)."""

    board: str
    size: int
    k: int | None
    algorithm: str
    status: str
    value: float | None
    nodes: int
    seconds: float

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def record(self) -> dict[str, object]:
        """The row as `bench --json` prints it."""
        return {
            "board": self.board,
            "size": self.size,
            "k": self.k,
            "algorithm": self.algorithm,
            "status": self.status,
            "value": self.value,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "nodes_per_second": round(self.nodes_per_second),
        }


def family(name: str) -> Family:
    """The family of that name; BadInput lists them."""
    for known in families():
        if known.name == name.lower():
            return known
    raise BadInput(
        f"unknown game family {quoted(name)}; families: "
        f"{', '.join(known.name for known in families())}"
    )


def parse_sizes(chosen: Family, option: str, text: str | None) -> tuple[int, ...]:
    """The numbers of `--sizes` or `--k` ("3,4"), each read by `numbers.parse_int` within the
    family's range (a k within the largest side); none when the option is not given."""
    if text is None:
        return ()
    largest = chosen.largest if option == "--sizes" else MAX_SIDE
    return tuple(parse_int(part, f"each of {option}", 1, largest) for part in text.split(","))


def plan(
    chosen: Family, sizes: Sequence[int] = (), ks: Sequence[int] = ()
) -> list[tuple[str, int, int | None]]:
    """The grid as (game words, size, k), smallest first; k larger than the size is skipped."""
    if ks and not chosen.takes_k:
        raise BadInput(f"--k is for tictactoe, not {chosen.name}")
    grid = []
    for size in sorted(set(sizes or chosen.sizes)):
        for k in sorted(set(ks or [size])) if chosen.takes_k else [None]:
            if k is None or k <= size:
                grid.append((chosen.words(size, k if k is not None else size), size, k))
    if not grid:
        raise BadInput(f"{chosen.name}: no board left: every k is larger than every size")
    return grid


def boards(chosen: Family, sizes: Sequence[int] = (), ks: Sequence[int] = ()) -> list[Board]:
    """The grid's games, built from their words (BadGameSpec when the game is not available)."""
    return [
        Board(words, size, k, games.create(words)) for words, size, k in plan(chosen, sizes, ks)
    ]


def split_algorithms(text: str) -> list[str]:
    """Each engine's words in "minimax:cache=off,alphabeta": a comma before an engine's name starts
    the next."""
    names = "|".join(ENGINES)
    return [item.strip() for item in re.split(rf",(?=\s*(?:{names})\b)", text)]


def algorithms(specs: Sequence[Spec]) -> list[Spec]:
    """The engines a bench runs, checked: search engines with no option but `cache=on|off` and
    `table=1000`."""
    for spec in specs:
        if spec.engine is None:
            raise BadPlayerSpec(
                f"bench runs the engines {', '.join(ENGINES)}, not {quoted(spec.kind)}"
            )
        extra = sorted(set(spec.named) - {"cache", "table"})
        if extra:
            raise BadPlayerSpec(
                f"{spec}: bench searches to the end under --time; drop {', '.join(extra)}"
            )
    return list(specs)


def searching(algorithm: Spec) -> Settings:
    """The engine's settings with no book: a bench measures the search, and a theory (Nim's) answers
    at once."""
    return replace(algorithm.settings, book=False)


def measure(board: Board, algorithm: Spec, limit: float) -> Row:
    """One exact search of `board` from its start, stopped at `limit` seconds."""
    assert algorithm.engine is not None
    engine, limits, state = algorithm.engine, Limits(time=limit), board.game.initial_state()
    start = time.perf_counter()
    try:  # straight to the end, on a stack that holds it
        result = deep(
            lambda: engine.search(
                board.game, state, limits, deepen=False, settings=searching(algorithm)
            )
        )
    except TooDeep:  # a row of its own: the next board may well fit
        return Row(
            board.words,
            board.size,
            board.k,
            str(algorithm),
            TOO_DEEP,
            None,
            0,
            time.perf_counter() - start,
        )
    seconds = time.perf_counter() - start
    if not result.exact:
        return Row(
            board.words, board.size, board.k, str(algorithm), OVER, None, result.nodes, seconds
        )
    return Row(
        board.words, board.size, board.k, str(algorithm), DONE, result.value, result.nodes, seconds
    )


Starting = Callable[[Board, Spec], None]
"""Told of each run as it starts (the board and the engine), so a progress line can name it."""


def larger(board: Board, than: Board) -> bool:
    """Whether `board` is at least as much work as `than`: as large, and (tic-tac-toe) as long a
    line to make.

    A longer line to make leaves fewer games decided early, so 4x4 k=4 searches more than 4x4 k=3.
    """
    return board.size >= than.size and (board.k is None or than.k is None or board.k >= than.k)


def run_all(
    grid: Sequence[Board], chosen: Sequence[Spec], limit: float, starting: Starting | None = None
) -> Iterator[Row]:
    """Run every algorithm on every board, smallest board first, yielding each row when done.

    Once an algorithm goes over the limit or too deep on a board, every board at least as
    large (`larger`) is skipped for it: it only takes longer, or goes deeper.
    """
    ran_out: dict[str, list[Board]] = {str(algorithm): [] for algorithm in chosen}
    for board in grid:
        for algorithm in chosen:
            name = str(algorithm)
            if any(larger(board, smaller) for smaller in ran_out[name]):
                yield Row(board.words, board.size, board.k, name, SKIPPED, None, 0, 0.0)
                continue
            if starting is not None:
                starting(board, algorithm)
            row = measure(board, algorithm, limit)
            if row.status in (OVER, TOO_DEEP):
                ran_out[name].append(board)
            yield row


class Progress(Protocol):
    """Told of each run as it starts and as it ends (or is skipped), so a progress line can follow
    the bench."""

    def starting(self, board: Board, algorithm: Spec) -> None: ...

    def finished(self, row: Row) -> None: ...


@dataclass(frozen=True)
class Setup:
    """A bench as set up: the family, its boards smallest first, the engines, the seconds a run may
    take."""

    family: Family
    grid: tuple[Board, ...]
    engines: tuple[Spec, ...]
    limit: float

    @classmethod
    def of(
        cls,
        family_name: str,
        sizes: str | None,
        ks: str | None,
        engines: Sequence[Spec],
        limit: float,
    ) -> Setup:
        """The setup `bench FAMILY --sizes --k --algorithm --time` asks for; BadInput where it is
        wrong."""
        chosen = family(family_name)
        grid = boards(chosen, parse_sizes(chosen, "--sizes", sizes), parse_sizes(chosen, "--k", ks))
        return cls(chosen, tuple(grid), tuple(algorithms(engines)), limit)

    @property
    def runs(self) -> int:
        """Runs in all, skipped ones included."""
        return len(self.grid) * len(self.engines)


@dataclass(frozen=True)
class Bench:
    """A bench's rows: all of them, or those before the Ctrl-C or SIGTERM that cut it short."""

    setup: Setup
    rows: tuple[Row, ...]
    interruption: KeyboardInterrupt | None = field(default=None, compare=False)

    def record(self) -> dict[str, Any]:
        """The bench as `bench --json` prints it (`limit`: the old name of `time`, read one more
        release)."""
        limit, rows = self.setup.limit, [row.record() for row in self.rows]
        return {"family": self.setup.family.name, "time": limit, "limit": limit, "rows": rows}

    @property
    def kept(self) -> str:
        """What an interruption kept, as the note after "interrupted"."""
        return (
            f"after {len(self.rows)} of {self.setup.runs} runs; those are printed"
            if self.rows
            else "before any run ended"
        )


def bench(setup: Setup, progress: Progress | None = None) -> Bench:
    """Run the setup's grid (`run_all`), telling `progress` of each run; a Ctrl-C or SIGTERM keeps
    the rows so far."""
    rows: list[Row] = []
    try:
        for row in run_all(
            setup.grid, setup.engines, setup.limit, None if progress is None else progress.starting
        ):
            rows.append(row)
            if progress is not None:
                progress.finished(row)
    except KeyboardInterrupt as error:  # the caller shows the rows, then raises it
        return Bench(setup, tuple(rows), error)
    return Bench(setup, tuple(rows))
