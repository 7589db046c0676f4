"""What a game shows around its board: the seats' labels, an engine's status line and the result
banner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.panel import Panel
from rich.text import Text

from nimmax.claim import Claim
from nimmax.game import CHANCE, AnyGame
from nimmax.ui.claims import claim_text
from nimmax.ui.games import presentation
from nimmax.ui.results import ending, outcome
from nimmax.ui.text import counted

if TYPE_CHECKING:
    from nimmax.search.result import SearchResult


def seat_labels(game: AnyGame, specs: Sequence[str]) -> list[str]:
    """How each seat is named on screen: "First (you)", "Second (alphabeta)"."""
    humans = sum(spec == "human" for spec in specs)
    labels = []
    for name, spec in zip(game.player_names, specs, strict=False):
        if spec == "human":
            labels.append(f"{name} (you)" if humans == 1 else name)
        else:
            labels.append(f"{name} ({spec})")
    return labels


def search_status(
    game: AnyGame, search: SearchResult, claim: Claim, mover: int | None = None
) -> str:
    """What an engine found, for the status line: its claim on the position (the session's: a
    proof an earlier search made stays proven, a depth is clamped to the plies left) in the one
    wording, nodes, time."""
    return (
        f"value {claim_text(game, claim, mover)} · {search.nodes:,} nodes · {search.seconds:.3f} s"
    )


def engine_status(game: AnyGame, state: Any, move: Any, search: SearchResult, claim: Claim) -> str:
    """What an engine found for the move it plays or hints in `state`: the game's own words where it
    has them (its presentation's `status`: 2048's slide points, its heuristic apart), else
    `search_status`."""
    own = presentation(game).status
    if own is not None:
        return own(game, state, move, search, claim)
    return search_status(game, search, claim, game.to_move(state))


def worth_drawing(game: AnyGame, state: Any) -> bool:
    """Whether to draw a position: not one waiting for a chance draw, which comes straight after."""
    return game.is_terminal(state) or game.to_move(state) != CHANCE


def banner(
    game: AnyGame,
    state: Any,
    labels: Sequence[str],
    humans: set[int],
    moves: int,
    last: int | None = None,
    value: float | None = None,
) -> Panel:
    """The result of the game in one panel, in the game's own terms (`results.outcome`, given the
    game's `value` where its result is read against it), and why it ended (`results.ending`; `last`
    made the last move), or that it was left unfinished after `moves` moves; green when it went well
    for the person playing, red when not."""
    if not game.is_terminal(state):
        left = Text(f"Game left unfinished after {counted(moves, 'move')}", style="bold yellow")
        own = presentation(game).standing
        if own is not None:
            left.append(f"\n{own(game, state)}", style="default")
        return Panel(left, expand=False)
    text, went_well = outcome(game, state, labels, value)
    if went_well is None or not humans or len(humans) == game.players:
        style = "cyan"
    else:
        style = "green" if went_well in humans else "red"
    shown = Text(text, style=f"bold {style}")
    shown.append(f"\n{ending(game, state, game.player_names, last)}", style="default")
    return Panel(shown, border_style=style, expand=False)


def facing(humans: set[int]) -> int:
    """The seat whose side a board keeps nearest the viewer: the one person's, else the first
    seat's."""
    return next(iter(humans)) if len(humans) == 1 else 0


def last_mover(game: AnyGame, states: Sequence[Any]) -> int | None:
    """The seat that made the last move of a game (chance's draws aside), or None before any."""
    movers = [game.to_move(state) for state in states[:-1]]
    return next((seat for seat in reversed(movers) if seat != CHANCE), None)
