"""Where 2048's learned networks live and which one plays: the one `nimmax train 2048` keeps in
the user's cache folder, once it has seen as many games as the one nimmax ships, else the shipped
one. Each is loaded once per process (read-only thereafter)."""

from __future__ import annotations

from pathlib import Path

from nimmax import cache
from nimmax.learn import store
from nimmax.learn.ntuple import Network

SHIPPED = Path(__file__).resolve().parent / "data" / "2048.ntuple"
"""The network that comes with nimmax (trained by scripts/train_2048.py)."""
TRAINED = "2048.ntuple"
"""The name of the network `nimmax train 2048` keeps in the cache folder."""

_loaded: dict[Path, Network | None] = {}


def trained_path() -> Path:
    """The path of the network `nimmax train 2048` keeps (and resumes)."""
    return cache.folder() / TRAINED


def load_once(path: Path, quiet: bool = False) -> Network | None:
    """The network at `path`, loaded once per process; None (with one line, unless `quiet`) when
    it cannot be trusted, or silently when there is none."""
    if path not in _loaded:
        network = None
        try:
            network = store.load(path)
        except store.BadNetwork as error:
            if not quiet and path.exists():
                cache.say(f"{error}: not used")
        _loaded[path] = network
    return _loaded[path]


def learned() -> Network | None:
    """The network 2048 plays with: the cache's (see the module docstring), else the shipped one;
    None when neither can be read."""
    trained = trained_path()
    if trained.is_file() and not trained.is_symlink():
        games = store.games_in(trained)
        shipped = store.games_in(SHIPPED) if SHIPPED.is_file() else 0
        if games is not None and games >= (shipped or 0):
            network = load_once(trained)
            if network is not None:
                return network
    return load_once(SHIPPED)
