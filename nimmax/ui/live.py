"""A search as it runs: one Rich live line (depth, best move, value, nodes, nodes per second,
elapsed), and Ctrl-C turned into "answer now" for as long as the search runs.

`LiveSearch` is the search's `Watcher`. While `watching()` is open, a first Ctrl-C asks the
engine to stop and answer with the best move it has (the deepest depth done); a second one
raises KeyboardInterrupt as usual. The line is drawn only on a terminal.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from types import FrameType
from typing import Any, TypeVar

from rich.console import Console
from rich.live import Live
from rich.text import Text

from nimmax import cache, interrupt
from nimmax.claim import Claim, clamped
from nimmax.game import AnyGame
from nimmax.search.result import Progress, SearchResult
from nimmax.ui.building import building
from nimmax.ui.claims import claim_text

G = TypeVar("G")

REFRESH = 0.1
"""Seconds between redraws of the live line."""

DOUBLE_PRESS = 1.0
"""Seconds within which a second Ctrl-C counts as pressed twice, though the first already
made the engine move and the next search began."""


def value_text(game: AnyGame, value: float, exact: bool, depth: int) -> str:
    """A value as a status line shows it: "+1 (win, proven)" or "+0.12 (estimate at depth 7)"
    (the words are `ui/claims.py`'s, as every view's)."""
    return claim_text(game, Claim(value, "exact" if exact else "estimate", depth))


def rate(nodes: int, seconds: float, unit: str = "nodes") -> str:
    """Nodes (or another unit) per second, short: 250k nodes/s."""
    per_second = nodes / seconds if seconds > 0 else 0.0
    if per_second >= 1e6:
        return f"{per_second / 1e6:.1f}M {unit}/s"
    if per_second >= 1e3:
        return f"{per_second / 1e3:.0f}k {unit}/s"
    return f"{per_second:.0f} {unit}/s"


class LiveSearch:
    """Watches the searches made inside `watching()`: draws their progress, and moves on Ctrl-C."""

    def __init__(
        self, game: AnyGame, console: Console, stop_words: str = "Ctrl-C moves now"
    ) -> None:
        self.game, self.console, self.stop_words = game, console, stop_words
        self.interrupted = False
        self.state: Any = None
        """The position searched, where the caller says (its depths are clamped to the plies left
        there)."""
        self.last: SearchResult | None = None
        self.label = ""
        self._live: Live | None = None
        self._next_draw = 0.0
        self._pressed = -DOUBLE_PRESS

    def working(self, game: G) -> G:
        """`game` for the searches shown here: work for the cache (a book being made) shows its bar
        under this line and stops with the search, keeping what is done (`cache.at_work`)."""
        return cache.at_work(
            game, progress=partial(building, self.console), halted=lambda: self.interrupted
        )

    @contextmanager
    def watching(self, label: str) -> Iterator[LiveSearch]:
        """Show the searches made inside as `label`, and catch a first Ctrl-C as "stop now"."""
        self.interrupted, self.last, self.label, self._next_draw = False, None, label, 0.0
        previous = None
        if threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGINT, self._on_interrupt)
        try:
            # SIGTERM and SIGHUP: an answer now, as Ctrl-C
            with interrupt.answering(self._answer_now):
                if self.console.is_terminal:
                    with Live(
                        Text(f"{label}…", style="dim"), console=self.console, transient=True
                    ) as live:
                        self._live = live
                        yield self
                else:
                    yield self
        finally:
            self._live = None
            if previous is not None:
                signal.signal(signal.SIGINT, previous)

    def _on_interrupt(self, signum: int, frame: FrameType | None) -> None:
        now, pressed = time.perf_counter(), self._pressed
        self._pressed = now
        # twice: stop everything, as without a search
        if self.interrupted or now - pressed < DOUBLE_PRESS:
            raise KeyboardInterrupt
        self.interrupted = True

    def _answer_now(self) -> None:
        self.interrupted = True

    def tick(self, searcher: Progress) -> None:
        """Stop the search if Ctrl-C asked to; redraw the line every REFRESH seconds."""
        budget = searcher.budget
        if self.interrupted:
            budget.stop()
        if self._live is not None and time.perf_counter() >= self._next_draw:
            self._next_draw = time.perf_counter() + REFRESH
            self._live.update(self.line(searcher))

    def reached(self, result: SearchResult) -> None:
        """Keep the deepest answer so far."""
        self.last = result

    def line(self, searcher: Progress) -> Text:
        """The live line: what the search knows so far, then its speed (MCTS: in simulations)."""
        game, last, budget = self.game, self.last, searcher.budget
        simulating, root = (
            searcher.simulates,
            searcher.position if searcher.position is not None else self.state,
        )
        if last is not None and last.move is not None:
            depth = last.depth if root is None else clamped(game, root, last.depth)
            known = f"depth {depth} · best {game.format_move(last.move)} · "
            known += value_text(game, last.value, last.exact, depth)
        else:
            best = searcher.best_scored()
            if best is None:
                known = "searching"
            else:
                move, value, count = best
                known = (
                    ""
                    if simulating
                    else f"{count} root move{'s' if count != 1 else ''} searched · "
                )
                valued = value_text(game, value, searcher.unhorizoned(), 0)
                known += f"best so far {game.format_move(move)} {valued}"
        elapsed, unit = budget.elapsed, "simulations" if simulating else "nodes"
        return Text.assemble(
            (f"{self.label}: ", "bold"),
            (known, ""),
            (
                f" · {budget.nodes:,} {unit} · {rate(budget.nodes, elapsed, unit)} · "
                f"{elapsed:.1f} s",
                "dim",
            ),
            (f"   ({self.stop_words})", "dim italic"),
        )
