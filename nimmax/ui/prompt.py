"""How a person's moves are read: a prompt_toolkit line at a terminal, plain lines from a pipe.

A move reader is any callable `(game, state, prompt) -> str` that returns one answer: a
move in any notation `game.parse_move` reads, or a command (COMMANDS). It raises EOFError
at the end of input and lets KeyboardInterrupt through. The play session parses the answer,
so a reader need not validate. A game that wants other input (2048 reads single keys)
names the factory of its own reader in its presentation (`ui.games`), one reader per session.
"""

from __future__ import annotations

import contextlib
import termios
from collections.abc import Iterator
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any, TextIO

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition, is_searching
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.search import stop_search
from prompt_toolkit.validation import ValidationError, Validator

from nimmax.game import AnyGame, BadInput, Capability, legal_text, part
from nimmax.ui.games import presentation
from nimmax.ui.presentation import COMMANDS, MoveReader, move_examples, notation_order

KEYS = MappingProxyType({"f1": "help", "f2": "hint", "f3": "undo", "f4": "why"})
"""Function keys that answer a command at the terminal prompt without typing it."""

SHORT = MappingProxyType({"?": "help", "u": "undo", "q": "quit"})
"""One-character words for commands; `?` everywhere, the letters where no move is written so."""


def short_words(game: AnyGame) -> dict[str, str]:
    """The short words that answer a command in `game`: `?` always, `u` and `q` unless a move is
    written so (a Connect Four board of 21 columns has a column u)."""
    # 2048's `u` is up, though not at first
    state, letters = game.initial_state(), presentation(game).letters
    words = {}
    for word, command in SHORT.items():
        if word == "?" or not (word in letters or _is_move(game, word, state)):
            words[word] = command
    return words


def _is_move(game: AnyGame, text: str, state: Any) -> bool:
    """Whether `text` reads as a move of `state`."""
    try:
        game.parse_move(text, state)
    except Exception:  # noqa: BLE001 - a plugin's parser may refuse a non-move any way it likes
        return False
    return True


def command_of(text: str, shortcuts: dict[str, str]) -> str | None:
    """The command an answer asks for (`help` for `?` or `help`), or None for a move."""
    word = text.strip().lower()
    return word if word in COMMANDS else shortcuts.get(word)


def controls(shortcuts: dict[str, str], keys: bool = False, why: bool = False) -> str:
    """The commands that work, for the banner, each with its short word and (`keys`: at a terminal
    prompt) its function key: "Type a move, or: ? / F1 / help · F2 / hint · u / F3 / undo · q /
    quit"; `why` where an engine plays, whose moves it explains."""
    short = {command: word for word, command in shortcuts.items()}
    function = {command: key.upper() for key, command in KEYS.items()} if keys else {}
    parts = []
    for command in ("help", "hint", *(("why",) if why else ()), "undo", "quit"):
        names = [name for name in (short.get(command), function.get(command)) if name]
        parts.append(" / ".join([*names, command]))
    return "Type a move, or: " + " · ".join(parts)


def refusal(game: AnyGame, state: Any, error: BadInput) -> str:
    """Why an answer is not a move, naming the legal moves."""
    message = str(error)
    return message if "legal" in message else f"{message}; legal: {legal_text(game, state)}"


COMPLETED_MOVES = 1000
"""Most moves Tab offers: a pile of millions has millions of takes, none worth scrolling to."""


class MoveCompleter(Completer):
    """Completes the legal moves of one position and the commands."""

    def __init__(self, game: AnyGame, state: Any) -> None:
        self.moves = move_examples(game, state, COMPLETED_MOVES)
        # a big board: the stones' neighbours first
        if (narrowing := part(game, Capability.NARROWING)) is not None:
            shown = {
                game.format_move(action) for action in narrowing.heuristic_actions(state) or ()
            }
            self.moves = [
                *sorted(shown, key=notation_order),
                *(move for move in self.moves if move not in shown),
            ]

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        typed = document.text_before_cursor
        wanted = typed.lstrip().lower()
        for word, meta in [*((move, "move") for move in self.moves), *COMMANDS.items()]:
            if word.lower().startswith(wanted):
                yield Completion(word, start_position=-len(typed), display_meta=meta)


class MoveValidator(Validator):
    """Accepts a legal move or a command; anything else is refused with the legal moves."""

    def __init__(self, game: AnyGame, state: Any, shortcuts: dict[str, str]) -> None:
        self.game, self.state, self.shortcuts = game, state, shortcuts

    def validate(self, document: Document) -> None:
        text = document.text.strip()
        if not text:
            raise ValidationError(
                message=f"type a move ({legal_text(self.game, self.state, 8)}) or ? for help"
            )
        if command_of(text, self.shortcuts) is not None:
            return
        try:
            self.game.parse_move(text, self.state)
        except BadInput as error:
            raise ValidationError(
                len(document.text), refusal(self.game, self.state, error)
            ) from None


def command_keys(why: bool = True) -> KeyBindings:
    """F1 help, F2 hint, F3 undo, F4 why (only where an engine plays: `why`), and `?` (no move has
    one) for help: answer the prompt with the command at once, whatever mode the prompt is in."""
    bindings = KeyBindings()
    for key, command in {**KEYS, "?": "help"}.items():
        if command == "why" and not why:
            continue

        def answer(event: KeyPressEvent, command: str = command) -> None:
            # else the next prompt would open inside the closed search field
            if event.app.layout.is_searching:
                stop_search()
            event.app.exit(result=command)

        bindings.add(key)(answer)

    @bindings.add("c-d", filter=is_searching)
    def quit_while_searching(event: KeyPressEvent) -> None:
        """Ctrl-D quits from the history search too, as it does from an empty line."""
        stop_search()
        if not event.app.current_buffer.text:
            event.app.exit(exception=EOFError)

    return bindings


def refused_answers_replaced() -> KeyBindings:
    """A refused answer stays shown with its refusal, to be corrected (arrows, backspace), but the
    first character typed over it untouched starts a new answer instead of being appended to the
    refused one."""
    bindings = KeyBindings()
    refused = Condition(lambda: get_app().current_buffer.validation_error is not None)

    @bindings.add(Keys.Any, filter=refused)
    def replace(event: KeyPressEvent) -> None:
        event.current_buffer.text = ""
        if event.data.isprintable():
            event.current_buffer.insert_text(event.data)

    return bindings


TOOLBAR = " Tab: moves · ? or F1 help · F2 hint · F3 undo · F4 why · Ctrl-D quit "
"""The prompt's toolbar where an engine plays; TOOLBAR_PEOPLE where only people do (no `why`)."""
TOOLBAR_PEOPLE = TOOLBAR.replace(" · F4 why", "")


class LinePrompt:
    """The default reader at a terminal: one line with completion, validation, history and keys."""

    def __init__(self, why: bool = True) -> None:
        self.session: PromptSession[str] = PromptSession(
            history=InMemoryHistory(),
            key_bindings=merge_key_bindings([command_keys(why), refused_answers_replaced()]),
            bottom_toolbar=TOOLBAR if why else TOOLBAR_PEOPLE,
        )
        self.shortcuts: dict[str, str] = {}

    def __call__(self, game: AnyGame, state: Any, prompt: str) -> str:
        self.shortcuts = self.shortcuts or short_words(game)
        return self.session.prompt(
            prompt,
            completer=MoveCompleter(game, state),
            validator=MoveValidator(game, state, self.shortcuts),
            validate_while_typing=False,
        )


LONGEST_LINE = 1000
"""The most characters read as one typed answer: far more than any move or command (a record's move
holds 100)."""

ENDLESS = 1_000_000
"""Characters of one typed line skipped, past LONGEST_LINE, before it is taken for a line without
end (/dev/zero)."""


class LineTooLong(BadInput):
    """A typed line longer than LONGEST_LINE: refused as a move is, the game goes on."""


class LineReader:
    """The reader without a full terminal: the next non-blank line of a stream, prompts shown if
    asked."""

    def __init__(self, stream: TextIO, prompts: TextIO | None = None) -> None:
        self.stream, self.prompts = stream, prompts

    def __call__(self, game: AnyGame, state: Any, prompt: str) -> str:
        if self.prompts is not None:
            self.prompts.write(prompt)
            self.prompts.flush()
        while line := self.stream.readline(LONGEST_LINE + 1):
            if len(line.rstrip("\r\n")) > LONGEST_LINE:  # never read whole: a line may have no end
                self._skip_line()
                raise LineTooLong(
                    f"a typed line is longer than {LONGEST_LINE:,} characters: no move or command "
                    "is"
                )
            if line.strip():
                return line.strip()
        raise EOFError

    def _skip_line(self) -> None:
        """Read past the rest of an over-long line, LONGEST_LINE characters at a time; BadInput (the
        input ends here) when no end comes within ENDLESS characters."""
        for _ in range(ENDLESS // LONGEST_LINE):
            part = self.stream.readline(LONGEST_LINE)
            if not part or part.endswith("\n"):
                return
        raise BadInput(f"a typed line has no end within {ENDLESS:,} characters")


def terminal_reader(game: AnyGame, why: bool = True) -> MoveReader:
    """A new reader for a person at a terminal playing `game`: its presentation's own, else
    LinePrompt (offering `why` and F4 only where an engine plays). A reader that reads single keys
    as moves says so in its `controls` attribute, the banner's line."""
    own = presentation(game).reader
    return own() if own is not None else LinePrompt(why)


@contextmanager
def quiet_keys(stream: TextIO) -> Iterator[None]:
    """For a game at a terminal: keys pressed between prompts are neither echoed (an arrow would
    show as `^[[D` among the board) nor held back until Enter; they wait for the next prompt to read
    them. Ctrl-C still interrupts. The terminal's settings are put back at the end."""
    try:
        descriptor = stream.fileno()
        saved = termios.tcgetattr(descriptor)
    except (OSError, ValueError, termios.error):  # not a terminal: nothing to quiet
        yield
        return
    quiet = list(saved)
    quiet[3] &= ~(termios.ECHO | termios.ICANON)  # local modes; ISIG stays, so Ctrl-C still signals
    try:
        termios.tcsetattr(descriptor, termios.TCSADRAIN, quiet)
        yield
    finally:
        # a terminal that hung up has nothing to put back
        with contextlib.suppress(OSError, termios.error):
            termios.tcsetattr(descriptor, termios.TCSADRAIN, saved)
