"""Each game's rules and move notation in a few words, for in-game help: the game as set up
(its k, its goal, misère or normal play), so the words match the board on the screen.

Adding a game's = a function `(game) -> Rules` here and one line in RULES. A plugin's rules
are its class docstring's first paragraph; its notation is shown by example.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from nimmax.game import AnyGame
from nimmax.guard import unguarded


class Rules(NamedTuple):
    """How a game is played, how its moves are written, and its setup in a few words for the title
    (what its words may leave to a default: the k of a 15x15 board)."""

    rules: str
    notation: str
    setup: str = ""


def _last_counter(game: Any) -> str:
    return "loses" if game.misere else "wins"


def simple_nim(game: Any) -> Rules:
    return Rules(
        f"One pile; a move takes 1 to {game.max_take:,} counters. Whoever takes the last counter "
        f"{_last_counter(game)}.",
        "the number of counters taken: 2",
        f"take 1 to {game.max_take:,}, the last counter {_last_counter(game)}",
    )


def nim(game: Any) -> Rules:
    return Rules(
        f"A move takes any number of counters from one pile. Whoever takes the last counter {_last_counter(game)}.",
        "pile:counters, 3:4 takes 4 from pile 3 (also typed 3 4)",
        f"the last counter {_last_counter(game)}",
    )


def split_nim(game: Any) -> Rules:
    return Rules(
        "A move splits one pile into two unequal piles (piles of 1 and 2 cannot be split). Whoever cannot move loses.",
        "pile:part+part, 1:4+2 splits pile 1 into 4 and 2 (also typed 1 4)",
    )


def mnk(game: Any) -> Rules:
    line = f"{game.k} in a row (across, down or diagonally) wins; a full board is a draw."
    setup = f"{game.rows}x{game.cols}, {game.k} in a row" + (", stones drop" if game.gravity else "")
    if game.gravity:
        return Rules(
            f"X and O take turns dropping a stone into a column of the {game.rows}x{game.cols} board; it falls "
            f"to the lowest empty cell. {line}",
            "a column by its letter: c (also typed 3)",
            setup,
        )
    return Rules(
        f"X and O take turns placing a stone on an empty cell of the {game.rows}x{game.cols} board. {line}",
        "a cell by column letter and row number from the top: b2 (also typed 2,2 or 2 2, row then column)",
        setup,
    )


def twenty48(game: Any) -> Rules:
    return Rules(
        "A slide moves every tile up, down, left or right; two equal tiles that meet merge into one, "
        f"scoring its value; then a 2 (one time in ten a 4) appears on an empty cell. Make a {game.goal} tile; "
        "the game ends when no slide moves a tile.",
        "up, down, left, right (also typed u, d, l, r or w, a, s)",
        f"{game.size}x{game.size}, goal {game.goal}",
    )


def kalah(game: Any) -> Rules:
    return Rules(
        "Empty one of your pits and sow its seeds one by one counter-clockwise, into your pits, your store "
        "and the opponent's pits (never their store). A last seed in your store: move again. A last seed "
        "in an empty pit of yours captures the seeds opposite. When a side's pits are empty, each side's "
        "seeds go to its own store; the most seeds in store wins.",
        f"a pit by its number from your left, 1 to {game.pits}: 3",
    )


def plates(game: Any) -> Rules:
    return Rules(
        "A picks a plate; B hands A two notes of that plate; A keeps one. A wants the largest note, B the smallest.",
        "A: a plate number (1); B: the two notes handed over (20+50, also typed 50 20); A: the note kept (20)",
    )


RULES: Mapping[str, Callable[[Any], Rules]] = {
    "simple-nim": simple_nim,
    "nim": nim,
    "split-nim": split_nim,
    "tictactoe": mnk,
    "connect4": mnk,
    "2048": twenty48,
    "kalah": kalah,
    "plates": plates,
}
"""Game name (the registry's) to its rules."""


WORDS_SHOWN = 60
"""Characters of a game's words a title shows: the words of thousands of piles are cut."""


def words_shown(game: AnyGame) -> str:
    """The game's words for a title, cut after WORDS_SHOWN characters."""
    spec = game.spec
    return spec if len(spec) <= WORDS_SHOWN else spec[: WORDS_SHOWN - 1] + "…"


def title(game: AnyGame, labels: Sequence[str]) -> str:
    """A game's title line: its words, its setup where they leave some to a default, and who plays."""
    setup = rules_of(game).setup
    return f"{words_shown(game)}{f' ({setup})' if setup else ''}: " + " vs ".join(labels)


def rules_of(game: AnyGame) -> Rules:
    """The rules and notation of `game`; a plugin's rules from its docstring, its notation by example."""
    own = RULES.get(game.name) if not game.words else None
    if own is not None:
        return own(game)
    described = inspect.cleandoc(type(unguarded(game)).__doc__ or "")  # the plugin class's own
    first = described.split("\n\n")[0].replace("\n", " ")
    return Rules(first or "(the game says nothing of its rules)", "as the game writes its moves")
