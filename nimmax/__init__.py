"""nimmax: a command-line game console for perfect-play adversarial search."""

__version__ = "0.1.0"
