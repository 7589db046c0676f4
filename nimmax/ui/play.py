"""The play session on a Rich console: boards, status lines and banners around the core's session.

The core's `GameSession` (`commands/play.py`) makes the moves, hints and explanations; this module
only shows what it hands back and asks people for theirs.
A person answers through a move reader (`ui.prompt`): the prompt_toolkit line at a
terminal, or a game's own reader (its presentation's), or plain lines from a pipe. What a person
types becomes a value the match acts on: a move, or a command (`TakeBack`, `Abandon`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from nimmax import games, interrupt
from nimmax.commands.play import GameSession
from nimmax.errors import quoted
from nimmax.game import CHANCE, AnyGame, BadInput, IllegalMove, legal_text
from nimmax.match import Abandon, Command, GameRecord, Ply, TakenBack
from nimmax.numbers import MAX_DELAY
from nimmax.ui.banner import banner, engine_status, facing, last_mover, seat_labels, worth_drawing
from nimmax.ui.games import presentation
from nimmax.ui.live import LiveSearch
from nimmax.ui.presentation import COMMANDS, MoveReader, move_examples
from nimmax.ui.prompt import (
    KEYS,
    LineReader,
    LineTooLong,
    command_of,
    controls,
    quiet_keys,
    refusal,
    short_words,
    terminal_reader,
)
from nimmax.ui.records import write_record
from nimmax.ui.render import render
from nimmax.ui.resume import keep_to_resume
from nimmax.ui.rules import rules_of, title
from nimmax.ui.why import why_table

if TYPE_CHECKING:
    from nimmax.players import Spec


class PlaySession:
    """One game between players given by spec, shown on a console; people answer through a
    reader."""

    def __init__(
        self,
        game: AnyGame,
        specs: Sequence[Spec],
        console: Console,
        reader: MoveReader | None = None,
        seed: int | None = None,
        delay: float = 0.0,
        time_limit: float | None = None,
        history: Sequence[Ply] = (),
    ) -> None:
        self.game, self.console, self.delay = game, console, delay
        self.live = LiveSearch(game, console)
        self.session = GameSession(game, specs, self.ask, self.live, seed, time_limit, history)
        self.match = self.session.match
        self.labels = seat_labels(game, self.session.specs)
        self.humans = self.session.humans
        self.bottom = facing(self.humans)
        self.reader = reader
        self.engines = self.session.engines
        """Whether an engine plays: `why` and F4 are offered only then."""
        self.interactive = reader is None and sys.stdin.isatty() and console.is_terminal
        if self.interactive and self.humans:
            self.reader = terminal_reader(game, why=self.engines)
        self.shortcuts = short_words(game) if self.humans else {}

    def play(self) -> GameRecord:
        """Play the game out (or until a person quits) and show the result."""
        game = self.game
        self.console.print(Text(title(game, self.labels), style="bold"))
        notice = presentation(game).notice
        if notice is not None and (said := notice(game)) is not None:
            self.console.print(Text(said, style="dim"))
        if self.humans:
            self.console.print(Text(self.controls(), style="dim"))
        if self.match.history:
            self.console.print(Text(f"going on from ply {len(self.match.history)}", style="dim"))
        if worth_drawing(game, self.match.state):
            self.console.print(render(game, self.match.state, bottom=self.bottom))
        moves = self.session.run()
        with quiet_keys(sys.stdin) if self.interactive and self.humans else nullcontext():
            while True:  # a Ctrl-C ends it: main() says so in one line, with what was kept
                with self.thinking():
                    made = next(moves, None)
                if made is None:
                    break
                if isinstance(made, TakenBack):
                    self.taken_back(made)
                    continue
                self.show(made)
                # SIGTERM or SIGHUP made the engine move now: the game ends here
                interrupt.raise_pending()
        moves_made = sum(ply.seat != CHANCE for ply in self.match.history)
        last = next((ply.seat for ply in reversed(self.match.history) if ply.seat != CHANCE), None)
        state = self.match.state
        shown = banner(
            game,
            state,
            self.labels,
            self.humans,
            moves_made,
            last,
            self.session.end_value(presentation(game).valued),
        )
        self.console.print(shown)
        return self.match.record()

    def thinking(self) -> AbstractContextManager[object]:
        """While an engine searches: its live line, and Ctrl-C as "move now"."""
        seat = self.session.searching()
        if seat is None:
            return nullcontext()
        return self.live.watching(f"{self.labels[seat]} is thinking")

    def show(self, ply: Ply) -> None:
        """One ply: who played what (with the engine's figures), then the board."""
        game = self.game
        move = escape(game.format_move(ply.move))
        if ply.seat == CHANCE:
            self.console.print(f"[dim]chance: {move}[/dim]")
        else:
            line = (
                f"[bold]{escape(self.labels[ply.seat])}[/bold] plays [bold cyan]{move}[/bold cyan]"
            )
            if ply.search is not None:
                claim = self.session.claim(ply.before, ply.search)
                status = engine_status(game, ply.before, ply.move, ply.search, claim)
                line += f"   [dim]{escape(status)}[/dim]"
                if self.live.interrupted:
                    line += "   [yellow]moved now at Ctrl-C (twice ends the game)[/yellow]"
            elif ply.seat not in self.humans:
                line += f"   [dim]{ply.seconds:.3f} s[/dim]"
            self.console.print(line)
        if worth_drawing(game, ply.after):
            self.console.print(render(game, ply.after, ply.move, self.bottom))
        if self.delay > 0 and ply.seat not in self.humans and ply.seat != CHANCE:
            # the CLI refuses more; a caller's inf must not overflow sleep
            time.sleep(min(self.delay, MAX_DELAY))

    def controls(self) -> str:
        """The banner's line naming the commands that work in this game with this reader."""
        return str(
            getattr(self.reader, "controls", "")
            or controls(self.shortcuts, self.interactive, self.engines)
        )

    def read(self, game: AnyGame, state: Any, prompt: str) -> str:
        """One answer from the person to move; without a terminal, the reader is made at the first
        human turn."""
        if self.reader is None:
            # Output piped away but a person typing: the prompt goes to stderr, which they see.
            self.reader = LineReader(sys.stdin, sys.stderr if sys.stdin.isatty() else None)
        return self.reader(game, state, prompt)

    def ask(self, game: AnyGame, state: Any) -> Any | Command:
        """A human player's move, or the command the match acts on (take back, quit); other commands
        are answered here until the person gives one of those."""
        prompt = f"{game.player_names[game.to_move(state)]} › "
        while True:
            interrupt.raise_pending()  # a SIGTERM a hint's search answered ends the game here
            try:
                text = self.read(game, state, prompt)
            except EOFError:
                self.console.print("[dim]end of input[/dim]")
                return Abandon()
            except LineTooLong as error:
                self.console.print(f"[red]{escape(str(error))}[/red]")
                continue
            command = "quit" if text.strip().lower() == "exit" else command_of(text, self.shortcuts)
            if command == "quit":
                return Abandon()
            if command == "undo":
                return self.session.take_back()
            if command == "hint":
                self.hint(state)
            elif command == "why":
                self.why()
            elif command == "moves":
                self.console.print(f"legal moves: {escape(legal_text(game, state, 200))}")
            elif command == "help":
                self.help(state)
            else:
                try:
                    move = game.parse_move(text, state)
                    # a plugin's parser may read a move it cannot make
                    if move not in game.actions(state):
                        raise IllegalMove(f"{quoted(text.strip())} is not a legal move here")
                    return move
                except BadInput as error:
                    self.console.print(f"[red]{escape(refusal(game, state, error))}[/red]")

    def taken_back(self, taken: TakenBack) -> None:
        """What a person's take-back took back (the match has gone back), and the board it
        leaves."""
        if not taken.plies:
            self.console.print("[yellow]nothing to take back yet[/yellow]")
            return
        whose = [
            f"{self.game.player_names[ply.seat]}'s" if ply.seat != CHANCE else "chance's"
            for ply in taken.plies
        ]
        moves = ", ".join(self.game.format_move(ply.move) for ply in taken.plies)
        moves += f" ({' and '.join(whose)})"
        self.console.print(f"[yellow]took back {escape(moves)}[/yellow]")
        history = self.match.history
        self.console.print(
            render(self.game, self.match.state, history[-1].move if history else None, self.bottom)
        )

    def hint(self, state: Any) -> None:
        """The best move by the opponent's engine (or a quick search), with its value for the mover
        (2048: the slide's points now, the search's heuristic estimate apart)."""
        with self.live.watching("hint"):
            search = self.session.hint(state)
        move = escape(self.game.format_move(search.move))
        claim = self.session.claim(state, search)
        status = engine_status(self.game, state, search.move, search, claim)
        self.console.print(f"hint: [bold green]{move}[/bold green]   [dim]{escape(status)}[/dim]")

    def why(self) -> None:
        """The engine's last move with its line, and every other move's value with the line that
        refutes it, searched again by that engine (its table still warm)."""
        ply = self.session.last_searched()
        if ply is None:
            self.console.print(
                "[yellow]no engine has moved yet; hint shows the best move here[/yellow]"
            )
            return
        with self.live.watching("why"):
            why = self.session.why(ply)
        move = escape(self.game.format_move(ply.move))
        self.console.print(
            f"why [bold]{escape(self.labels[ply.seat])}[/bold] played [bold cyan]{move}[/bold "
            "cyan]:"
        )
        self.console.print(why_table(self.game, ply.before, why.lines, ply.move))

    def help(self, state: Any) -> None:
        """The game's rules and move notation in short, with moves of this position; then the
        commands with their short words and keys."""
        game = self.game
        keyed = str(getattr(self.reader, "keys", ""))
        rules = rules_of(game)
        examples = ", ".join(move_examples(game, state, 3))
        self.console.print(f"[bold]Rules:[/bold] {escape(rules.rules)}")
        # a key reader: one key a move, no words typed, so the keys that act, not the typed notation
        if keyed:
            self.console.print(f"[bold]Keys:[/bold] {escape(keyed)}")
            for name in ("help", "hint", "undo", "quit"):
                self.console.print(f"  [bold]{name:<6}[/bold] {COMMANDS[name]}")
            return
        self.console.print(f"[bold]Notation:[/bold] {escape(rules.notation)}")
        self.console.print(f"Moves look like: {escape(examples)}  (type moves for all of them)")
        short = {command: word for word, command in self.shortcuts.items()}
        keys = {command: key.upper() for key, command in KEYS.items()} if self.interactive else {}
        for name, meaning in COMMANDS.items():
            if name == "why" and not self.engines:
                continue
            shown = " / ".join(other for other in (short.get(name), keys.get(name), name) if other)
            self.console.print(f"  [bold]{escape(shown):<16}[/bold] {meaning}")
        if self.interactive:
            self.console.print(
                "[dim]At the prompt: Tab completes, ↑ recalls earlier answers, Ctrl-D quits.[/dim]"
            )


def play(
    game: AnyGame,
    specs: Sequence[Spec],
    console: Console,
    *,
    seed: int | None = None,
    delay: float = 0.0,
    record: Path | None = None,
    reader: MoveReader | None = None,
    time_limit: float | None = None,
    history: Sequence[Ply] = (),
) -> GameRecord:
    """Play one game on the console (on from `history`, a resumed game's plies); the record is
    written even when the game is cut short, and a game a person quits is kept to resume.

    `time_limit` is the seconds a move for every engine whose spec sets no limit of its own.
    """
    if record is not None and not record.parent.is_dir():
        raise BadInput(f"cannot write the record to {record}: no such directory {record.parent}")
    if record is not None and record.is_dir():
        raise BadInput(f"cannot write the record to {record}: it is a directory")
    session = PlaySession(game, specs, console, reader, seed, delay, time_limit, history)
    try:
        return session.play()
    finally:
        if record is not None:
            write_record(session.match.record(), record, console)
        if session.humans:
            keep_to_resume(session.match.record(), record, console)


def replay(
    record: GameRecord, console: Console, delay: float = 0.0, value: float | None = None
) -> None:
    """Show every position of a recorded game in turn, each move named, then the result (read
    against `value`, the game's from its start, where the game reads it so)."""
    game = games.create(record.game)
    states = record.positions()
    labels = seat_labels(game, record.players)
    humans = {seat for seat, spec in enumerate(record.players) if spec == "human"}
    bottom = facing(humans)
    console.print(Text(title(game, labels), style="bold"))
    if worth_drawing(game, states[0]):
        console.print(render(game, states[0], bottom=bottom))
    for number, (text, before, after) in enumerate(
        zip(record.moves, states, states[1:], strict=False), start=1
    ):
        seat = game.to_move(before)
        if seat == CHANCE:
            console.print(f"[dim]chance: {escape(text)}[/dim]")
        else:
            # the CLI refuses more; a caller's inf must not overflow sleep
            time.sleep(min(delay, MAX_DELAY))
            console.print(
                f"{number}. [bold]{escape(labels[seat])}[/bold] plays [bold "
                f"cyan]{escape(text)}[/bold cyan]"
            )
        if worth_drawing(game, after):
            console.print(render(game, after, game.parse_move(text, before), bottom))
    moves_made = sum(game.to_move(state) != CHANCE for state in states[:-1])
    console.print(
        banner(game, states[-1], labels, humans, moves_made, last_mover(game, states), value)
    )
