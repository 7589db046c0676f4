"""The play session on a Rich console: boards, status lines and banners around the core's loop.

The core `Match` makes the moves; this module only shows them and asks people for theirs.
A person answers through a move reader (`ui.prompt`): the prompt_toolkit line at a
terminal, or a game's own reader from `prompt.READERS`, or plain lines from a pipe.
"""

from __future__ import annotations

import contextlib
import random
import shlex
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from itertools import islice
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from nimmax import games, interrupt
from nimmax.explain import lines
from nimmax.files import read_text, write_atomic
from nimmax.game import CHANCE, AnyGame, BadInput, IllegalMove
from nimmax.games.mnk import MNK
from nimmax.match import MAX_RECORD_BYTES, Abandon, BadRecord, GameRecord, Match, Ply, Rewind
from nimmax.numbers import MAX_DELAY, quoted
from nimmax.players import HumanPlayer, Player, SearchPlayer, Spec, check_fit, create, limited
from nimmax.search import SearchResult, engine_for
from nimmax.search.limits import override
from nimmax.ui import twenty48
from nimmax.ui.live import LiveSearch, value_text
from nimmax.ui.prompt import (
    COMMANDS,
    KEYS,
    LineReader,
    LineTooLong,
    MoveReader,
    command_of,
    controls,
    quiet_keys,
    refusal,
    short_words,
    terminal_reader,
)
from nimmax.ui.render import render
from nimmax.ui.results import ending, outcome
from nimmax.ui.rules import rules_of, title
from nimmax.ui.views import counted, outcome_word, signed
from nimmax.ui.why import why_table


def seat_labels(game: AnyGame, specs: Sequence[str]) -> list[str]:
    """How each seat is named on screen: "First (you)", "Second (alphabeta)"."""
    humans = sum(spec == "human" for spec in specs)
    labels = []
    for name, spec in zip(game.player_names, specs, strict=False):
        if spec == "human":
            labels.append(f"{name} (you)" if humans == 1 else name)
        else:
            labels.append(f"{name} ({spec})")
    return labels


def search_status(game: AnyGame, search: SearchResult, mover: int | None = None) -> str:
    """What an engine found, for the status line: value (proven, in the game's terms for `mover`, or an
    estimate at a depth), nodes, time."""
    if search.exact and not game.has_chance:
        value = f"{signed(search.value)} ({outcome_word(game, search.value, True, mover)}, proven)"
    else:
        value = value_text(game, search.value, search.exact, search.depth)
    return f"value {value} · {search.nodes:,} nodes · {search.seconds:.3f} s"


def engine_status(game: AnyGame, state: Any, move: Any, search: SearchResult) -> str:
    """What an engine found for the move it plays or hints in `state`: the game's own words where it has
    them (STATUSES: 2048's slide points, its heuristic apart), else `search_status`."""
    own = STATUSES.get(game.name) if not game.words else None
    return own(game, state, move, search) if own is not None else search_status(game, search, game.to_move(state))


def worth_drawing(game: AnyGame, state: Any) -> bool:
    """Whether to draw a position: not one waiting for a chance draw, which comes straight after."""
    return game.is_terminal(state) or game.to_move(state) != CHANCE


STATUSES: Mapping[str, Callable[[AnyGame, Any, Any, SearchResult], str]] = {"2048": twenty48.engine_status}
"""Game name to what an engine found, in the game's words, where `search_status` would mislead."""

STANDINGS: Mapping[str, Callable[[AnyGame, Any], str]] = {"2048": twenty48.standing}
"""Game name to how a game stands when left unfinished, where its banner says more than the moves made."""


def banner(
    game: AnyGame, state: Any, labels: Sequence[str], humans: set[int], moves: int, last: int | None = None
) -> Panel:
    """The result of the game in one panel, in the game's own terms (`results.outcome`), and why it
    ended (`results.ending`; `last` made the last move), or that it was left unfinished after `moves`
    moves; green when it went well for the person playing, red when not."""
    if not game.is_terminal(state):
        left = Text(f"Game left unfinished after {counted(moves, 'move')}", style="bold yellow")
        own = STANDINGS.get(game.name) if not game.words else None
        if own is not None:
            left.append(f"\n{own(game, state)}", style="default")
        return Panel(left, expand=False)
    text, went_well = outcome(game, state, labels)
    if went_well is None or not humans or len(humans) == game.players:
        style = "cyan"
    else:
        style = "green" if went_well in humans else "red"
    shown = Text(text, style=f"bold {style}")
    shown.append(f"\n{ending(game, state, game.player_names, last)}", style="default")
    return Panel(shown, border_style=style, expand=False)


def facing(humans: set[int]) -> int:
    """The seat whose side a board keeps nearest the viewer: the one person's, else the first seat's."""
    return next(iter(humans)) if len(humans) == 1 else 0


def last_mover(game: AnyGame, states: Sequence[Any]) -> int | None:
    """The seat that made the last move of a game (chance's draws aside), or None before any."""
    movers = [game.to_move(state) for state in states[:-1]]
    return next((seat for seat in reversed(movers) if seat != CHANCE), None)


class PlaySession:
    """One game between players given by spec, shown on a console; people answer through a reader."""

    def __init__(
        self,
        game: AnyGame,
        specs: Sequence[str],
        console: Console,
        reader: MoveReader | None = None,
        seed: int | None = None,
        delay: float = 0.0,
        time_limit: float | None = None,
    ) -> None:
        self.game, self.console, self.delay = game, console, delay
        limits = override(time=time_limit)
        chosen = [limited(spec, limits) for spec in specs]
        for spec in chosen:
            check_fit(spec, game)
        self.live = LiveSearch(game, console)
        self.players: list[Player] = [
            create(spec, seed=None if seed is None else seed + seat, ask=self.ask, watcher=self.live)
            for seat, spec in enumerate(chosen)
        ]
        hint = Spec(engine_for(game).name)
        self.hint_spec = hint.limited(limits) if limits is not None else hint
        self.labels = seat_labels(game, [player.spec for player in self.players])
        self.humans = {seat for seat, player in enumerate(self.players) if isinstance(player, HumanPlayer)}
        self.bottom = facing(self.humans)
        self.match = Match(game, self.players, random.Random(game.seed if game.seed is not None else seed))
        self.reader = reader
        self.interactive = reader is None and sys.stdin.isatty() and console.is_terminal
        if self.interactive and self.humans:
            self.reader = terminal_reader(game)
        self.shortcuts = short_words(game) if self.humans else {}
        self.hinter: SearchPlayer | None = None

    def play(self) -> GameRecord:
        """Play the game out (or until a person quits) and show the result."""
        game = self.game
        self.console.print(Text(title(game, self.labels), style="bold"))
        if isinstance(game, MNK) and (missing := game.missing_books()) is not None:
            self.console.print(Text(missing, style="dim"))
        if self.humans:
            self.console.print(Text(self.controls(), style="dim"))
        if worth_drawing(game, self.match.state):
            self.console.print(render(game, self.match.state, bottom=self.bottom))
        moves = self.match.run()
        try:
            with quiet_keys(sys.stdin) if self.interactive and self.humans else nullcontext():
                while True:
                    with self.thinking():
                        ply = next(moves, None)
                    if ply is None:
                        break
                    self.show(ply)
                    interrupt.raise_pending()  # SIGTERM or SIGHUP made the engine move now: the game ends here
        except KeyboardInterrupt:
            self.console.print("[yellow]interrupted[/yellow]")
            raise
        moves_made = sum(ply.seat != CHANCE for ply in self.match.history)
        last = next((ply.seat for ply in reversed(self.match.history) if ply.seat != CHANCE), None)
        self.console.print(banner(game, self.match.state, self.labels, self.humans, moves_made, last))
        return self.match.record()

    def thinking(self) -> AbstractContextManager[Any]:
        """While an engine searches: its live line, and Ctrl-C as "move now"."""
        state = self.match.state
        seat = CHANCE if self.game.is_terminal(state) else self.game.to_move(state)
        if seat == CHANCE or not isinstance(self.players[seat], SearchPlayer):
            return nullcontext()
        return self.live.watching(f"{self.labels[seat]} is thinking")

    def show(self, ply: Ply) -> None:
        """One ply: who played what (with the engine's figures), then the board."""
        game = self.game
        move = escape(game.format_move(ply.move))
        if ply.seat == CHANCE:
            self.console.print(f"[dim]chance: {move}[/dim]")
        else:
            line = f"[bold]{escape(self.labels[ply.seat])}[/bold] plays [bold cyan]{move}[/bold cyan]"
            if ply.search is not None:
                line += f"   [dim]{escape(engine_status(game, ply.before, ply.move, ply.search))}[/dim]"
                if self.live.interrupted:
                    line += "   [yellow]moved now at Ctrl-C (twice ends the game)[/yellow]"
            elif ply.seat not in self.humans:
                line += f"   [dim]{ply.seconds:.3f} s[/dim]"
            self.console.print(line)
        if worth_drawing(game, ply.after):
            self.console.print(render(game, ply.after, ply.move, self.bottom))
        if self.delay > 0 and ply.seat not in self.humans and ply.seat != CHANCE:
            time.sleep(min(self.delay, MAX_DELAY))  # the CLI refuses more; a caller's inf must not overflow sleep

    def controls(self) -> str:
        """The banner's line naming the commands that work in this game with this reader."""
        engines = any(isinstance(player, SearchPlayer) for player in self.players)
        return str(getattr(self.reader, "controls", "") or controls(self.shortcuts, self.interactive, engines))

    def read(self, game: AnyGame, state: Any, prompt: str) -> str:
        """One answer from the person to move; without a terminal, the reader is made at the first human turn."""
        if self.reader is None:
            # Output piped away but a person typing: the prompt goes to stderr, which they see.
            self.reader = LineReader(sys.stdin, sys.stderr if sys.stdin.isatty() else None)
        return self.reader(game, state, prompt)

    def ask(self, game: AnyGame, state: Any) -> Any:
        """A human player's move: commands are answered here until the person gives a legal move."""
        prompt = f"{game.player_names[game.to_move(state)]} › "
        while True:
            interrupt.raise_pending()  # a SIGTERM a hint's search answered ends the game here
            try:
                text = self.read(game, state, prompt)
            except EOFError:
                self.console.print("[dim]end of input[/dim]")
                raise Abandon from None
            except LineTooLong as error:
                self.console.print(f"[red]{escape(str(error))}[/red]")
                continue
            command = "quit" if text.strip().lower() == "exit" else command_of(text, self.shortcuts)
            if command == "quit":
                raise Abandon
            if command == "undo":
                self.undo()
            elif command == "hint":
                self.hint(state)
            elif command == "why":
                self.why()
            elif command == "moves":
                self.console.print(f"legal moves: {escape(game.legal_text(state, 200))}")
            elif command == "help":
                self.help(state)
            else:
                try:
                    move = game.parse_move(text, state)
                    if move not in game.actions(state):  # a plugin's parser may read a move it cannot make
                        raise IllegalMove(f"{quoted(text.strip())} is not a legal move here")
                    return move
                except BadInput as error:
                    self.console.print(f"[red]{escape(refusal(game, state, error))}[/red]")

    def undo(self) -> None:
        """Take back the person's last move and everything after it; Rewind restarts the loop there."""
        taken = self.match.take_back(self.humans)
        if not taken:
            self.console.print("[yellow]nothing to take back yet[/yellow]")
            return
        moves = ", ".join(self.game.format_move(ply.move) for ply in taken)
        self.console.print(f"[yellow]took back {escape(moves)}[/yellow]")
        history = self.match.history
        self.console.print(render(self.game, self.match.state, history[-1].move if history else None, self.bottom))
        raise Rewind

    def hint(self, state: Any) -> None:
        """The best move by the opponent's engine (or a quick search), with its value for the mover
        (2048: the slide's points now, the search's heuristic estimate apart)."""
        if self.hinter is None:
            engines = [player for player in self.players if isinstance(player, SearchPlayer)]
            self.hinter = engines[0] if engines else SearchPlayer(self.hint_spec, self.live)
        with self.live.watching("hint"):
            search = self.hinter.search(self.game, state)
        move = escape(self.game.format_move(search.move))
        status = engine_status(self.game, state, search.move, search)
        self.console.print(f"hint: [bold green]{move}[/bold green]   [dim]{escape(status)}[/dim]")

    def why(self) -> None:
        """The engine's last move with its line, and every other move's value with the line that
        refutes it, searched again by that engine (its table still warm)."""
        ply = next((ply for ply in reversed(self.match.history) if ply.search is not None), None)
        if ply is None:
            self.console.print("[yellow]no engine has moved yet; hint shows the best move here[/yellow]")
            return
        player = self.players[ply.seat]
        assert isinstance(player, SearchPlayer)
        with self.live.watching("why"):
            result = player.search(self.game, ply.before, every_move=True)
            found = lines(self.game, ply.before, player, result)
        move = escape(self.game.format_move(ply.move))
        self.console.print(f"why [bold]{escape(self.labels[ply.seat])}[/bold] played [bold cyan]{move}[/bold cyan]:")
        self.console.print(why_table(self.game, ply.before, found, ply.move, result.depth))

    def help(self, state: Any) -> None:
        """The game's rules and move notation in short, with moves of this position; then the commands
        with their short words and keys."""
        game = self.game
        keyed = str(getattr(self.reader, "keys", ""))
        rules = rules_of(game)
        examples = ", ".join(game.format_move(action) for action in islice(game.actions(state), 3))
        self.console.print(f"[bold]Rules:[/bold] {escape(rules.rules)}")
        self.console.print(f"[bold]Notation:[/bold] {escape(rules.notation)}")
        if keyed:  # a key reader: one key a move, no words typed
            self.console.print(f"Keys: {escape(keyed)}")
            for name in ("help", "hint", "undo", "quit"):
                self.console.print(f"  [bold]{name:<6}[/bold] {COMMANDS[name]}")
            return
        self.console.print(f"Moves look like: {escape(examples)}  (type moves for all of them)")
        short = {command: word for word, command in self.shortcuts.items()}
        keys = {command: key.upper() for key, command in KEYS.items()} if self.interactive else {}
        for name, meaning in COMMANDS.items():
            shown = " / ".join(other for other in (short.get(name), keys.get(name), name) if other)
            self.console.print(f"  [bold]{escape(shown):<16}[/bold] {meaning}")
        if self.interactive:
            self.console.print("[dim]At the prompt: Tab completes, ↑ recalls earlier answers, Ctrl-D quits.[/dim]")


def play(
    game: AnyGame,
    specs: Sequence[str],
    console: Console,
    *,
    seed: int | None = None,
    delay: float = 0.0,
    record: Path | None = None,
    reader: MoveReader | None = None,
    time_limit: float | None = None,
) -> GameRecord:
    """Play one game on the console; the record is written even when the game is cut short.

    `time_limit` is the seconds a move for every engine whose spec sets no limit of its own.
    """
    if record is not None and not record.parent.is_dir():
        raise BadInput(f"cannot write the record to {record}: no such directory {record.parent}")
    if record is not None and record.is_dir():
        raise BadInput(f"cannot write the record to {record}: it is a directory")
    session = PlaySession(game, specs, console, reader, seed, delay, time_limit)
    try:
        return session.play()
    finally:
        if record is not None:
            write_record(session.match.record(), record, console)


def write_record(record: GameRecord, path: Path, console: Console) -> None:
    """Save a record as JSON. The path was checked before the game (`files.check_writable`); if
    writing fails even so, the record goes to stdout instead (stderr when stdout fails too), so no move
    is lost, and one line says where it is: on stderr with exit 1, or in the note of the Ctrl-C or the
    output error that ended the game."""
    ending = sys.exc_info()[1]  # called from play()'s `finally`: a Ctrl-C or an output error may be on its way out
    carried = ending if isinstance(ending, KeyboardInterrupt | OSError) else None
    shown = quoted(str(path))
    text = record.located(path.parent).to_json() + "\n"  # a plugin's path from the record's folder
    try:
        write_atomic(path, text)
    except OSError as error:
        reason = error.strerror or str(error)
        where = _print_instead(text, console)
        if isinstance(carried, KeyboardInterrupt):  # main() says it on the interrupt's line, with its code
            carried.add_note(f"with the record {where}: it could not be written to {shown} ({reason})")
            return
        said = f"the record was not written to {shown}: {reason}; it is {where}"
        if carried is not None:  # stdout failed: main() says so, then this
            carried.add_note(said)
            return
        with contextlib.suppress(OSError):
            Console(stderr=True).print(f"nimmax: {said}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    try:
        console.print(f"[dim]record written to {escape(str(path))}[/dim]")
        if ending is None and record.moves:
            console.print(f"[dim]analyze: nimmax analyze {escape(shlex.quote(str(path)))}[/dim]")
    except OSError as error:  # stdout failed: main() says so, and where the record is
        if carried is None:
            error.add_note(f"the record is in {shown}")
            raise
    if isinstance(carried, KeyboardInterrupt):
        carried.add_note(f"with the record written to {shown}")
    elif carried is not None:
        carried.add_note(f"the record is in {shown}")


def _print_instead(text: str, console: Console) -> str:
    """Print a record that could not be written: on stdout, else on stderr; where it is now, or why it is lost."""
    try:
        console.print(text, markup=False, highlight=False, soft_wrap=True)
        return "printed above"
    except OSError as error:
        failed = f"stdout: {error.strerror or error}"
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except OSError as error:
        return f"lost, printed nowhere ({failed}; stderr: {error.strerror or error})"
    return f"printed on stderr above ({failed})"


def read_record(path: Path, plugin: str | None = None) -> GameRecord:
    """Load a record file, at most MAX_RECORD_BYTES of it; BadRecord says why it cannot be used.
    A plugin game's record needs the plugin named (`plugin`, `--plugin`): a record runs no code."""
    return GameRecord.from_json(read_text(path, MAX_RECORD_BYTES, "a record", BadRecord), path.parent, plugin)


def replay(record: GameRecord, console: Console, delay: float = 0.0) -> None:
    """Show every position of a recorded game in turn, each move named, then the result."""
    game = games.create(record.game)
    states = record.positions()
    labels = seat_labels(game, record.players)
    humans = {seat for seat, spec in enumerate(record.players) if spec == "human"}
    bottom = facing(humans)
    console.print(Text(title(game, labels), style="bold"))
    if worth_drawing(game, states[0]):
        console.print(render(game, states[0], bottom=bottom))
    for number, (text, before, after) in enumerate(zip(record.moves, states, states[1:], strict=False), start=1):
        seat = game.to_move(before)
        if seat == CHANCE:
            console.print(f"[dim]chance: {escape(text)}[/dim]")
        else:
            time.sleep(min(delay, MAX_DELAY))  # the CLI refuses more; a caller's inf must not overflow sleep
            console.print(f"{number}. [bold]{escape(labels[seat])}[/bold] plays [bold cyan]{escape(text)}[/bold cyan]")
        if worth_drawing(game, after):
            console.print(render(game, after, game.parse_move(text, before), bottom))
    moves_made = sum(game.to_move(state) != CHANCE for state in states[:-1])
    console.print(banner(game, states[-1], labels, humans, moves_made, last_mover(game, states)))
