"""The engine protocol: one command a line in, one answer a line out, so that other programs (a GUI,
a notebook, a tournament manager, a student's bot) drive nimmax's engines as UCI and GTP drive
theirs. `docs/ENGINE.md` is its page. The search runs on its own thread, so `stop` is read while
it thinks; bad input gets one `error` line and the session goes on.
"""

from __future__ import annotations

import shlex
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from nimmax import cache, games
from nimmax.game import CHANCE, AnyGame, BadInput, winner_of
from nimmax.numbers import parse_float, parse_int
from nimmax.players import SearchPlayer, suggested
from nimmax.search.limits import Limits
from nimmax.search.result import Progress, SearchResult

MAX_LINE = 10_000
"""The longest command read, in characters; a longer one is refused, not parsed."""

INFO_EVERY = 1.0
"""Seconds between `info` lines of progress within one depth (each finished depth has its own)."""

GO_WORDS = ("time", "depth", "nodes")

KNOWN = "game, position, moves, go, stop, legal, turn, isready, quit"
"""The protocol's commands, as an unknown one's error names them."""


def shown_value(value: float) -> str:
    """A value as the protocol writes it: +1, -3, 0, +0.25."""
    if value == 0:
        return "0"
    return f"{value:+.0f}" if value == int(value) else f"{value:+.2f}"


def claim(game: AnyGame, result: SearchResult) -> str:
    """What a search says of the position, as `info` words: depth, value, proven or estimate, nodes,
    speed and line; the one place the protocol words a result."""
    rate = int(result.nodes / result.seconds) if result.seconds > 0 else 0
    pv = " ".join(game.format_move(move) for move in result.pv)
    said = (
        f"depth {result.depth} value {shown_value(result.value)} "
        f"{'proven' if result.exact else 'estimate'}"
    )
    said += f" nodes {result.nodes} nps {rate} time {result.seconds:.3f}"
    return f"{said} pv {pv}" if pv else said


def go_limits(words: list[str]) -> Limits | None:
    """The limits `go` names: `time S`, `depth N`, `nodes N`; None for `infinite` (until `stop` or
    the proof). With no words at all, the engine's own limits for play."""
    if words == ["infinite"]:
        return None
    values: dict[str, Any] = {}
    rest = list(words)
    while rest:
        word = rest.pop(0).lower()
        if word == "infinite":
            raise BadInput("go infinite takes no other limit")
        if word not in GO_WORDS:
            raise BadInput(f"go takes time S, depth N, nodes N or infinite, not {word!r}")
        if not rest or word in values:
            raise BadInput(f"go {word} needs one number" if not rest else f"go names {word} twice")
        text = rest.pop(0)
        if word == "time":
            values[word] = parse_float(text, "go time", 0.001, 10**6, BadInput)
        else:
            values[word] = parse_int(text, f"go {word}", 1, 10**12, BadInput)
    return Limits(**values)


class Watching:
    """Sees the search on its thread: stops it when `stop` came, and says its progress as `info`
    lines."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.next_info = time.perf_counter() + INFO_EVERY
        self.said: SearchResult | None = None

    def tick(self, searcher: Progress) -> None:
        if self.session.stopping.is_set():
            searcher.budget.stop()
        elif time.perf_counter() >= self.next_info:
            self.next_info = time.perf_counter() + INFO_EVERY
            budget = searcher.budget
            rate = int(budget.nodes / budget.elapsed) if budget.elapsed > 0 else 0
            self.session.say(f"info nodes {budget.nodes} nps {rate} time {budget.elapsed:.3f}")

    def reached(self, result: SearchResult) -> None:
        self.said = result
        self.session.say(f"info {claim(self.session.game, result)}")


class Session:
    """One engine session: the game, its position, and at most one search thinking on its own
    thread."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write, self._lock = write, threading.Lock()
        self.known: tuple[AnyGame, Any] | None = None
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None
        self.infinite = False

    @property
    def game(self) -> AnyGame:
        """The game being played; BadInput before `game` named one."""
        if self.known is None:
            raise BadInput("no game yet: name one first, e.g. game connect4")
        return self.known[0]

    @property
    def state(self) -> Any:
        """The position the next `go` thinks on."""
        return self.known[1] if self.known is not None else None

    @state.setter
    def state(self, state: Any) -> None:
        self.known = (self.game, state)

    def say(self, line: str) -> None:
        """One answer line, whole, whichever thread says it."""
        with self._lock:
            self._write(line)

    @property
    def thinking(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def handle(self, line: str) -> bool:
        """Answer one command; False once the session should end (`quit`)."""
        if len(line) > MAX_LINE:
            self.say(f"error a command is at most {MAX_LINE:,} characters")
            return True
        words = line.split()
        if not words:
            return True
        command, rest = words[0].lower(), words[1:]
        try:
            return self.answer(command, rest, line.strip()[len(words[0]) :].strip())
        except BadInput as error:
            self.say(f"error {' '.join(str(error).split())}")
        except Exception as error:  # a plugin game's own failure: the session outlives it
            self.say(f"error {type(error).__name__}: {' '.join(str(error).split())}")
        return True

    def answer(self, command: str, rest: list[str], text: str) -> bool:
        """Act on one command (its words after the command, and its text as typed)."""
        if command == "quit":
            self.stop()
            return False
        if command == "isready":
            self.say("readyok")
        elif command == "stop":
            self.stop()
        elif command == "legal":
            self.wait()
            self.legal()
        elif command == "turn":
            self.wait()
            self.turn()
        elif command in ("game", "position", "moves", "go") and self.thinking and self.infinite:
            raise BadInput(f"{command}: thinking until stop (go infinite); send stop first")
        elif command == "game":
            self.wait()
            self.new_game(text)
        elif command == "position":
            self.wait()
            self.position(text)
        elif command == "moves":
            self.wait()
            self.play(rest)
        elif command == "go":
            limits = go_limits(rest)
            self.wait()
            self.go(limits)
        else:
            raise BadInput(f"unknown command {command[:40]!r}; commands: {KNOWN}")
        return True

    def new_game(self, text: str) -> None:
        if not text:
            raise BadInput("game needs game words, e.g. game connect4")
        try:
            words = shlex.split(text)
        except ValueError as error:
            raise BadInput(f"cannot read game words: {error}") from None
        game = games.create(words)
        self.known = (game, game.initial_state())

    def position(self, text: str) -> None:
        if text.lower() == "start":
            self.state = self.game.initial_state()
            return
        if not text:
            raise BadInput("position needs start or a position, e.g. position start")
        from nimmax.check import position_reader

        try:
            spec = shlex.split(self.game.spec)
        except ValueError:
            spec = []
        reader = position_reader(spec)
        if reader is None:
            raise BadInput(
                f"{self.game.name} takes no position of its own: name it in the game words, or "
                "play moves"
            )
        self.state = reader(text)

    def play(self, moves: list[str]) -> None:
        """Play moves (chance outcomes included) from the position; none is played unless all are
        legal."""
        state = self.state
        for text in moves:
            if self.game.is_terminal(state):
                raise BadInput(f"{text[:40]!r}: the game is over")
            state = self.game.result(state, self.game.parse_move(text, state))
        self.state = state

    def legal(self) -> None:
        state = self.state
        moves = [] if self.game.is_terminal(state) else self.game.actions(state)
        self.say(" ".join(["legal", *(self.game.format_move(move) for move in moves)]))

    def turn(self) -> None:
        """Whose turn it is: `turn 0` or `turn 1` (the seat), `turn chance`, or `turn over` with the
        winner."""
        game, state = self.game, self.state
        if game.is_terminal(state):
            winner = winner_of(game, state)
            self.say("turn over draw" if winner is None else f"turn over winner {winner}")
        else:
            seat = game.to_move(state)
            self.say("turn chance" if seat == CHANCE else f"turn {seat}")

    def go(self, limits: Limits | None) -> None:
        """Start thinking on the position; `bestmove` ends the answer (`bestmove none` where the
        game is over)."""
        game, state = self.game, self.state
        if game.is_terminal(state):
            self.say("bestmove none")
            return
        if game.to_move(state) == CHANCE:
            raise BadInput(
                "the position is a chance node: play its outcome with moves (legal lists them)"
            )
        spec = suggested(game)
        if limits is None or limits.limited:  # else no limit named: the engine's own for play
            spec = spec.limited(limits if limits is not None else Limits())
        watching = Watching(self)
        player = SearchPlayer(spec, watching)
        self.stopping.clear()
        self.infinite = limits is None
        self.thread = threading.Thread(
            target=self.think, args=(game, state, player, watching), daemon=True
        )
        self.thread.start()

    def think(self, game: AnyGame, state: Any, player: SearchPlayer, watching: Watching) -> None:
        """The search on its thread, then its answer."""
        from nimmax.search.stack import deep

        try:
            # `stop` stops a book being made too
            working = cache.at_work(game, halted=self.stopping.is_set)
            result = deep(lambda: player.search(working, state))
        # a plugin's failure, or a search too deep: said, and the session goes on
        except Exception as error:
            self.say(f"error {type(error).__name__}: {' '.join(str(error).split())}")
            return
        finally:
            # answered: a command after the answer waits for this thread's end, not for stop
            self.infinite = False
        if result.move is None:
            self.say("bestmove none")
            return
        said = watching.said
        if said is None or (said.depth, said.nodes, said.pv) != (
            result.depth,
            result.nodes,
            result.pv,
        ):
            self.say(f"info {claim(game, result)}")
        self.say(f"bestmove {game.format_move(result.move)} value {shown_value(result.value)}")

    def stop(self) -> None:
        """Make the search answer now with its best so far, and wait for that answer."""
        self.stopping.set()
        self.wait()

    def wait(self) -> None:
        """Let a limited search finish (commands are answered in order, as they came)."""
        if self.thread is not None:
            self.thread.join()
            self.thread = None


def serve(lines: Iterable[str], write: Callable[[str], None]) -> None:
    """Run a session over `lines` (stdin) until `quit` or their end, answering through `write`."""
    session = Session(write)
    try:
        for line in lines:
            if not session.handle(line):
                return
    finally:
        session.stop()
