"""nimmax: a command-line game console for perfect-play adversarial search.

A game of your own subclasses `nimmax.Game` (see examples/ and the README's "Write your own game").
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from nimmax.game import CHANCE, BadGameSpec, BadInput, Game, IllegalMove

__all__ = ["CHANCE", "BadGameSpec", "BadInput", "Game", "IllegalMove", "__version__"]

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """The protocol's names, imported on first use: `python -m nimmax` imports this package before
    its entry point can hold Ctrl-C back, so the package itself imports nothing."""
    if name in __all__:
        from nimmax import game

        return getattr(game, name)
    raise AttributeError(f"module 'nimmax' has no attribute {name!r}")
