"""The player contract, as `game.py` is the game's: a player picks a move, bare or as a `Decision`
carrying the search behind it, so the play loop, duels and hints receive the engine's figures as a
value. It imports nothing at run time: the plugin guard and the match loop stand on it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from nimmax.game import AnyGame
    from nimmax.search.result import SearchResult


@dataclass(frozen=True)
class Decision:
    """A player's move, with the search that chose it when there was one."""

    move: Any
    search: SearchResult | None = None


class Player(Protocol):
    """Anything that picks a move: a bare move or a Decision."""

    spec: str

    def choose(self, game: AnyGame, state: Any) -> Any: ...


def decide(player: Player, game: AnyGame, state: Any) -> Decision:
    """Ask `player` for its move at `state`, as a Decision whatever it returned."""
    return as_decision(player.choose(game, state))


def as_decision(answer: Any) -> Decision:
    """A player's move as a Decision: a bare move wrapped, a Decision as it is."""
    return answer if isinstance(answer, Decision) else Decision(answer)
