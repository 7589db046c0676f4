"""Where 2048's learned networks live and which one plays: the one `nimmax train 2048` keeps in
the user's cache folder, once it has seen as many games as the one nimmax ships, else the shipped
one. The game that evaluates with it keeps it (its search copies share it)."""

from __future__ import annotations

from pathlib import Path

from nimmax import cache
from nimmax.games.ntuple import store
from nimmax.games.ntuple.network import Network

SHIPPED = Path(__file__).resolve().parent / "data" / "2048.ntuple"
"""The network that comes with nimmax (trained by scripts/train_2048.py)."""
TRAINED = "2048.ntuple"
"""The name of the network `nimmax train 2048` keeps in the cache folder."""


def trained_path() -> Path:
    """The path of the network `nimmax train 2048` keeps (and resumes)."""
    return cache.folder() / TRAINED


def _load(path: Path) -> Network | None:
    """The network at `path`; None, with one line, when it cannot be trusted, or silently when
    there is none."""
    try:
        return store.load(path)
    except store.BadNetwork as error:
        if path.exists():
            cache.say(f"{error}: not used")
        return None


def learned() -> Network | None:
    """The network 2048 plays with: the cache's (see the module docstring), else the shipped one;
    None when neither can be read."""
    trained = trained_path()
    if trained.is_file() and not trained.is_symlink():
        games = store.games_in(trained)
        shipped = store.games_in(SHIPPED) if SHIPPED.is_file() else 0
        if games is not None and games >= (shipped or 0):
            network = _load(trained)
            if network is not None:
                return network
    return _load(SHIPPED)
