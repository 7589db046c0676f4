"""What `nimmax games` lists, as one value its table and its JSON both render: the games of the
registry, the player kinds with their options, and the plugins installed packages register."""

from __future__ import annotations

from dataclasses import dataclass

from nimmax.games import GAMES, GameInfo
from nimmax.numbers import Option
from nimmax.players import OPTIONS, SUMMARIES
from nimmax.plugins import installed


@dataclass(frozen=True)
class PlayerKind:
    """A kind of player a spec names (`alphabeta`), what it is, and the options it takes."""

    name: str
    summary: str
    options: tuple[Option, ...]

    def as_json(self) -> dict[str, object]:
        """The kind as `games --json` prints it."""
        return {
            "name": self.name,
            "summary": self.summary,
            "options": [
                {"name": option.name, "type": option.kind.__name__, "default": option.default, "help": option.help}
                for option in self.options
            ],
        }


@dataclass(frozen=True)
class Catalog:
    """Every game, every player kind, every installed plugin (its kind, name, target and any load error)."""

    games: tuple[GameInfo, ...]
    players: tuple[PlayerKind, ...]
    plugins: tuple[dict[str, str], ...]

    def as_json(self) -> dict[str, object]:
        """The catalog as `games --json` prints it."""
        return {
            "games": [
                {
                    "name": info.name,
                    "aliases": list(info.aliases),
                    "usage": info.usage,
                    "summary": info.summary,
                    "example": info.example,
                }
                for info in self.games
            ],
            "players": [kind.as_json() for kind in self.players],
            "plugins": list(self.plugins),
        }


def catalog() -> Catalog:
    """The catalog as installed now (loading each plugin once, to say which fail)."""
    players = tuple(PlayerKind(kind, SUMMARIES[kind], options) for kind, options in OPTIONS.items())
    return Catalog(GAMES, players, tuple(installed()))
