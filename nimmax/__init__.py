"""nimmax: a command-line game console for perfect-play adversarial search.

A game of your own subclasses `nimmax.Game` (see examples/ and the README's "Write your own game").
"""

from nimmax.game import CHANCE, BadGameSpec, BadInput, Game, IllegalMove

__all__ = ["CHANCE", "BadGameSpec", "BadInput", "Game", "IllegalMove", "__version__"]

__version__ = "0.1.0"
