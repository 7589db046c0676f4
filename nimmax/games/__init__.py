"""The game registry: game words ("nim 2 3 5 --normal") to a Game, the same words the CLI takes.

Each entry also says how `bench` enlarges the game (its `family`, where it has one). How a game
is shown is registered once per game type on the presentation side (`nimmax.ui.games`), so the
core imports no presentation library.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from nimmax.errors import quoted
from nimmax.game import AnyGame, BadGameSpec
from nimmax.games import kalah, mnk, nim, plates, twenty48
from nimmax.games.words import Signature


@dataclass(frozen=True)
class Family:
    """How `nimmax bench` enlarges a game: its board sizes as game words, and the sizes tried by
    default."""

    name: str
    summary: str
    words: Callable[[int, int], str]
    """Game words for a size and a k (families without k ignore it)."""
    sizes: tuple[int, ...]
    largest: int
    """The largest size the family's game takes (Nim: piles, whose game words grow with them)."""
    takes_k: bool = False


@dataclass(frozen=True)
class GameInfo:
    """What the registry knows of one game: how to build it, how to describe it, how bench grows
    it."""

    name: str
    summary: str
    signature: Signature
    example: str
    factory: Callable[[Sequence[str]], AnyGame]
    aliases: tuple[str, ...] = ()
    family: Family | None = None

    @property
    def usage(self) -> str:
        """The game's usage line, from its words."""
        return self.signature.usage


GAMES: tuple[GameInfo, ...] = (
    GameInfo(
        "simple-nim",
        "One pile, take 1-3 counters; whoever takes the last counter loses.",
        nim.SIMPLE_NIM,
        "simple-nim 12",
        nim.create_simple_nim,
        ("simplenim",),
        Family(
            "simple-nim",
            "one pile of N counters",
            lambda size, k: f"simple-nim {size}",
            (8, 12, 16, 20),
            nim.MAX_PILE,
        ),
    ),
    GameInfo(
        "nim",
        "Several piles, take any number from one pile; "
        "misère (last counter loses) unless --normal.",
        nim.NIM,
        "nim 2 3 5",
        nim.create_nim,
        family=Family(
            "nim",
            "N piles of 1, 3, 5, ... counters (the pyramid)",
            lambda size, k: "nim " + " ".join(str(2 * pile + 1) for pile in range(size)),
            (2, 3, 4),
            1000,
        ),
    ),
    GameInfo(
        "split-nim",
        "Grundy's game: split a pile into two unequal piles; whoever cannot move loses.",
        nim.SPLIT_NIM,
        "split-nim 7",
        nim.create_split_nim,
        ("splitnim", "grundy"),
        Family(
            "split-nim",
            "one pile of N counters, Grundy's game",
            lambda size, k: f"split-nim {size}",
            (10, 15, 20, 25),
            nim.MAX_SPLIT_PILE,
        ),
    ),
    GameInfo(
        "tictactoe",
        "k in a row on any board (m,n,k games); default 3x3, k = min(rows, cols, 5); --gravity "
        "drops stones.",
        mnk.TICTACTOE,
        "tictactoe --size 4 --k 3",
        mnk.create_tictactoe,
        ("ttt", "mnk", "tic-tac-toe"),
        Family(
            "tictactoe",
            "N x N board, K in a row (K defaults to N; K > N skipped)",
            lambda size, k: f"tictactoe --size {size} --k {k}",
            (3,),
            mnk.MAX_SIDE,
            takes_k=True,
        ),
    ),
    GameInfo(
        "connect4",
        "Connect Four: 6 rows x 7 columns, stones drop, 4 in a row wins; perfect play with the "
        "opening"
        " books: pip install 'nimmax[books]'.",
        mnk.CONNECT4,
        "connect4 --rows 4 --cols 5",
        mnk.create_connect4,
        ("connect-four", "c4"),
    ),
    GameInfo(
        "2048",
        "Slide tiles on a 4x4 board; equal tiles merge; a 2 or 4 spawns after each move; "
        "make 2048.",
        twenty48.TWENTY48,
        "2048 --seed 1",
        twenty48.create,
        ("twenty48",),
    ),
    GameInfo(
        "kalah",
        "Mancala: sow seeds counter-clockwise; ending in your store earns another move.",
        kalah.KALAH,
        "kalah --pits 3 --seeds 2",
        kalah.create_kalah,
        ("mancala",),
    ),
    GameInfo(
        "plates",
        "A picks one of the plates of banknotes, B hands A two of its notes, A keeps one.",
        plates.PLATES,
        "plates 1,20,50 5,10,100 1,5,20",
        plates.create_plates,
    ),
)

_BY_NAME = MappingProxyType({name: info for info in GAMES for name in (info.name, *info.aliases)})


def lookup(name: str) -> GameInfo:
    """The registry entry for a game name or alias; BadGameSpec lists the games."""
    info = _BY_NAME.get(name.lower())
    if info is None:
        names = ", ".join(info.name for info in GAMES)
        raise BadGameSpec(f"unknown game {quoted(name)}; games: {names}")
    return info


def names_plugin(name: str) -> bool:
    """Whether the first of game words names a plugin (a reference, or a game an installed package
    registers) rather than one of nimmax's games; read from the names alone, nothing loaded."""
    if name.lower() in _BY_NAME:
        return False
    from importlib.metadata import entry_points

    from nimmax.plugins import GAME_GROUP, is_reference

    return is_reference(name) or any(point.name == name for point in entry_points(group=GAME_GROUP))


def create(words: str | Sequence[str]) -> AnyGame:
    """Build a game from its words, e.g. create("tictactoe --size 4 --k 3")."""
    if isinstance(words, str):
        try:
            words = shlex.split(words)
        except ValueError as error:
            raise BadGameSpec(f"cannot read game words: {error}") from None
    if not words:
        raise BadGameSpec("no game named; games: " + ", ".join(info.name for info in GAMES))
    name, rest = words[0], list(words[1:])
    if name.lower().startswith("openspiel:"):
        # OpenSpiel is loaded only when one of its games is named
        from nimmax.games import openspiel

        return openspiel.create(words)
    if name.lower() not in _BY_NAME:
        from nimmax import plugins  # a plugin runs code of its own: loaded only when named

        if plugins.is_reference(name):
            return plugins.create_game(name, rest)
        game = plugins.create_registered_game(name, rest)
        if game is not None:
            return game
    return lookup(name).factory(rest)
