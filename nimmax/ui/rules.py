"""A game's rules and move notation in a few words, for in-game help: the game as set up
(its k, its goal, misère or normal play), so the words match the board on the screen.

A built-in game's rules come from its presentation (`ui.games`). A plugin's rules are its
class docstring's first paragraph; its notation is shown by example.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence

from nimmax.game import AnyGame
from nimmax.plugins.guard import unguarded
from nimmax.ui.games import presentation
from nimmax.ui.presentation import Rules
from nimmax.ui.text import words_shown


def title(game: AnyGame, labels: Sequence[str]) -> str:
    """A game's title line: its words, its setup where they leave some to a default, and who
    plays."""
    setup = rules_of(game).setup
    return f"{words_shown(game)}{f' ({setup})' if setup else ''}: " + " vs ".join(labels)


def rules_of(game: AnyGame) -> Rules:
    """The rules and notation of `game`; a plugin's rules from its docstring, its notation by
    example."""
    own = presentation(game).rules
    if own is not None:
        return own(game)
    described = inspect.cleandoc(type(unguarded(game)).__doc__ or "")  # the plugin class's own
    first = described.split("\n\n")[0].replace("\n", " ")
    return Rules(first or "(the game says nothing of its rules)", "as the game writes its moves")
