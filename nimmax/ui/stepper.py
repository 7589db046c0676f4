"""`replay` at a terminal: a stepper through a record's positions, one key a step (prompt_toolkit
key bindings, as the play session's), the stored analysis of a ply, and play going on from one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from nimmax import games, recorded
from nimmax.files import read_text
from nimmax.game import CHANCE
from nimmax.match import MAX_RECORD_BYTES, BadRecord, GameRecord
from nimmax.recorded import analysis_of, plies
from nimmax.ui.banner import banner, facing, last_mover, seat_labels, worth_drawing
from nimmax.ui.keys import read_one_key
from nimmax.ui.render import render

KEYS = MappingProxyType(
    {
        "right": "next",
        "l": "next",
        "n": "next",
        "left": "back",
        "h": "back",
        "p": "back",
        "home": "home",
        "end": "end",
        "g": "go",
        "a": "analysis",
        "r": "resume",
        "q": "quit",
        "c-d": "quit",
    }
)
"""Key (prompt_toolkit's name) to what it does in the stepper."""

HINT = "→ / ← (l / h, n / p) step · Home / End · g go to ply · a analysis · r play on · q quit"


def read_key(input: Input | None = None, output: Output | None = None) -> str:
    """Wait for one of the stepper's keys, and say what it does; Ctrl-C raises KeyboardInterrupt."""
    return read_one_key(KEYS, HINT, input=input, output=output)


class Stepper:
    """A record's positions shown one at a time, moved through with keys."""

    def __init__(
        self,
        record: GameRecord,
        console: Console,
        analysis: Mapping[int, Mapping[str, Any]],
        value: float | None = None,
    ) -> None:
        self.record, self.console, self.analysis, self.value = record, console, analysis, value
        self.game = games.create(record.game)
        self.states = record.positions()
        self.labels = seat_labels(self.game, record.players)
        self.humans = {seat for seat, spec in enumerate(record.players) if spec == "human"}
        self.ply = 0

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def run(self) -> int | None:
        """Step until the person quits (None) or asks to play on from a ply (its number)."""
        self.show()
        while True:
            action = read_key()
            if action == "quit":
                return None
            if action == "resume":
                if not self.game.is_terminal(self.states[self.ply]):
                    return self.ply
                self.console.print(
                    "[yellow]the game is over here: step back to play on from an earlier "
                    "ply[/yellow]"
                )
            elif action == "analysis":
                self.console.print(analysis_line(self.analysis, self.ply))
            else:
                self.move(action)

    def move(self, action: str) -> None:
        """Go to the ply an action names, and show it."""
        if action == "go":
            text = PromptSession[str]().prompt(f"go to ply (0-{self.last}): ").strip()
            if not (text.isdigit() and int(text) <= self.last):
                self.console.print(f"[yellow]a ply is a number from 0 to {self.last}[/yellow]")
                return
            wanted = int(text)
        else:
            steps = {"next": self.ply + 1, "back": self.ply - 1, "home": 0, "end": self.last}
            wanted = min(max(steps[action], 0), self.last)
        if wanted != self.ply:
            self.ply = wanted
            self.show()

    def show(self) -> None:
        """The position at this ply: the move that led to it, the board, and at the end the
        result."""
        game, ply, states = self.game, self.ply, self.states
        header = f"ply {ply} of {self.last}"
        if ply == 0:
            self.console.print(Text(f"{header}: the start", style="bold"))
        else:
            text, before = self.record.moves[ply - 1], states[ply - 1]
            seat = game.to_move(before)
            who = "chance" if seat == CHANCE else self.labels[seat]
            self.console.print(
                f"[bold]{header}:[/bold] {escape(who)} plays [bold cyan]{escape(text)}[/bold cyan]"
            )
        if worth_drawing(game, states[ply]):
            last_move = (
                game.parse_move(self.record.moves[ply - 1], states[ply - 1]) if ply else None
            )
            self.console.print(render(game, states[ply], last_move, facing(self.humans)))
        if game.is_terminal(states[ply]):
            moves_made = sum(game.to_move(state) != CHANCE for state in states[:-1])
            self.console.print(
                banner(
                    game,
                    states[ply],
                    self.labels,
                    self.humans,
                    moves_made,
                    last_mover(game, states),
                    self.value,
                )
            )


def analysis_line(analysis: Mapping[int, Mapping[str, Any]], ply: int) -> str:
    """The stored analysis of the move that led to `ply`, in one line (or how to store one)."""
    if not analysis:
        return (
            "[yellow]no analysis stored: nimmax analyze FILE --write stores it in the "
            "record[/yellow]"
        )
    found = analysis.get(ply)
    if found is None:
        return f"[dim]ply {ply}: no move of a player analysed here[/dim]"
    kind = "proven" if found.get("exact") else "estimate"
    said = (
        f"ply {ply}: {found.get('move')} is {found.get('verdict')}; value "
        f"{found.get('value_before')} before, "
        f"{found.get('value_after')} after ({kind}); best {found.get('best_move')} "
        f"({found.get('best_value')})"
    )
    return escape(said)


def step(record: GameRecord, path: Path, console: Console, value: float | None = None) -> None:
    """Step through a record (its stored analysis at hand; `value`, the game's from its start, where
    the result is read against it); `r` plays on from the ply shown, as `play --resume` does, the
    game kept (not written over the record) when it is left again."""
    from nimmax.ui.play import play  # the session loads only where play goes on

    text = read_text(path, MAX_RECORD_BYTES, "a record", BadRecord)
    ply = Stepper(record, console, analysis_of(text), value).run()
    if ply is None:
        return
    cut = replace(record, moves=record.moves[:ply], winner=None, utilities=(), finished=False)
    play(games.create(record.game), recorded.players(record), console, history=plies(cut))
