"""What `nimmax games` lists, as one value its table and its JSON both render: the games of the
registry, the player kinds with their options, and the plugins installed packages register."""

from __future__ import annotations

from dataclasses import dataclass

from nimmax.games import GAMES, GameInfo
from nimmax.games.openspiel import Listed
from nimmax.players import PLAYERS, PlayerKind
from nimmax.plugins import installed


@dataclass(frozen=True)
class Catalog:
    """Every game, every player kind, every installed plugin (its kind, name, target and any load
    error)."""

    games: tuple[GameInfo, ...]
    players: tuple[PlayerKind, ...]
    plugins: tuple[dict[str, str], ...]
    openspiel: tuple[Listed, ...] = ()
    """OpenSpiel's games nimmax plays (`openspiel:NAME(params)`), where OpenSpiel is installed."""

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
            "openspiel": [
                {
                    "name": f"openspiel:{listed.name}",
                    "summary": listed.long_name,
                    "parameters": listed.parameters,
                }
                for listed in self.openspiel
            ],
        }


def catalog() -> Catalog:
    """The catalog as installed now (loading each plugin once, to say which fail)."""
    from nimmax.games import openspiel

    players = tuple(PLAYERS.values())
    return Catalog(GAMES, players, tuple(installed()), openspiel.catalog())
