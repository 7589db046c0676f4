"""Each built-in game type's presentation, registered once; any other game (a plugin) gets the
generic one.

Adding a game's = its drawing and wording functions in its own `ui/` module and one entry in
PRESENTATIONS below, keyed by the game's class. A plugin game reaches nimmax behind the guard
(`guard.PluginGame`), a type of its own, so it is shown generically whatever name it takes, by its
own `render` where it has one.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from nimmax.game import AnyGame
from nimmax.games.kalah import Kalah
from nimmax.games.mnk import MNK
from nimmax.games.nim import Nim, SimpleNim, SplitNim
from nimmax.games.openspiel import OpenSpielChanceGame, OpenSpielGame
from nimmax.games.plates import Plates
from nimmax.games.twenty48 import ALIASES, Twenty48
from nimmax.plugins.guard import unguarded
from nimmax.ui import boards, kalah, nim, openspiel, plates, twenty48
from nimmax.ui.presentation import Presentation

GENERIC = Presentation()
"""The presentation of a game nimmax does not know: every part generic."""

PRESENTATIONS: Mapping[type[AnyGame], Presentation] = MappingProxyType(
    {
        SimpleNim: Presentation(
            nim.render_simple_nim, nim.simple_nim_rules, ending=nim.counter_ending
        ),
        Nim: Presentation(nim.render_nim, nim.nim_rules, ending=nim.counter_ending),
        SplitNim: Presentation(nim.render_split_nim, nim.split_nim_rules, ending=nim.split_ending),
        MNK: Presentation(
            boards.render_board,
            boards.mnk_rules,
            ending=boards.line_ending,
            notice=boards.books_notice,
        ),
        Twenty48: Presentation(
            twenty48.render,
            twenty48.rules,
            twenty48.outcome,
            value=twenty48.value_words,
            ending=twenty48.ending,
            status=twenty48.engine_status,
            standing=twenty48.standing,
            reader=twenty48.KeyReader,
            letters=frozenset(ALIASES),
        ),
        Kalah: Presentation(
            kalah.render_kalah,
            kalah.kalah_rules,
            kalah.kalah_outcome,
            value=kalah.kalah_value,
            margin="seeds ahead per game",
            ending=kalah.kalah_ending,
        ),
        Plates: Presentation(
            plates.render_plates,
            plates.plates_rules,
            plates.plates_outcome,
            valued=True,
            value=plates.plates_value,
            margin="note per game (as B, minus A's)",
            ending=plates.plates_ending,
        ),
        OpenSpielGame: Presentation(openspiel.render, openspiel.rules),
        OpenSpielChanceGame: Presentation(openspiel.render, openspiel.rules),
    }
)
"""A game's class to its presentation (Tic-tac-toe and Connect Four are both MNK)."""


def presentation(game: AnyGame) -> Presentation:
    """How `game` is shown: its type's presentation (behind the guard, its own: OpenSpiel's games),
    or the generic one (every plugin's)."""
    return PRESENTATIONS.get(type(unguarded(game)), GENERIC)
