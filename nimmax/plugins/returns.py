"""What each Game member may return: the checks the plugin boundary (`guard`) runs on a
plugin game's answers, the laws `nimmax check` tries, each taking (game, value, args) and giving
the value to use, or raising Broken with why."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sized
from numbers import Integral, Real
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from nimmax.game import CHANCE, BadInput, has_chance

if TYPE_CHECKING:
    from nimmax.plugins.guard import PluginGame

MAX_PAYOFF = 10**12
"""The largest payoff (or estimate) a plugin may give, either sign: what a record holds
(`match.MAX_RECORD_NUMBER`), and far inside what a search's scores and a float keep exactly."""

MESSAGE_LIMIT = 200
"""At most this many characters of a plugin's own message or value appear in the line."""


class Broken(Exception):
    """Why a value a plugin returned breaks the protocol (turned into PluginFailed by the guard)."""


def one_line(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`text` as one line of at most `limit` characters (a plugin's message may be anything)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def shown(value: object) -> str:
    """A value a plugin returned, as a short repr for a message."""
    return one_line(repr(value), 60)


def _hashable(value: Any, what: str) -> Any:
    try:
        hash(value)
    except Exception:  # noqa: BLE001 - a __hash__ of the plugin's may raise anything
        raise Broken(
            f"returned {shown(value)}, {what} that is not hashable (law rebuilt: states hash)"
        ) from None
    return value


def _real(value: object) -> bool:
    """Whether `value` is a real number (Python's or another library's: numbers.Real)."""
    # the ABC's test is slow
    return type(value) is int or type(value) is float or isinstance(value, Real)


def _whole(value: object) -> bool:
    """Whether `value` is a whole number (numbers.Integral)."""
    return type(value) is int or isinstance(value, Integral)


def _number(value: Any, what: str) -> Any:
    if not (_real(value) and -MAX_PAYOFF <= value <= MAX_PAYOFF):  # NaN compares False
        raise Broken(
            f"returned {shown(value)}, not {what}: a finite number within ±10^12 (law zero-sum)"
        )
    return value


# --- what each member may return: a check taking (game, value, args) and giving the value to use
# ---


def _state(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    return _hashable(value, "a state")


def _seat(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    if _whole(value) and (0 <= value < game.players or (value == CHANCE and has_chance(game))):
        return int(value)
    chance = " or CHANCE" if has_chance(game) else ""
    raise Broken(f"returned {shown(value)}, not a seat 0..{game.players - 1}{chance} (law to-move)")


def _moves(value: Any) -> Any:
    """Moves as a sequence engines and views may take the length of: a list or a lazy sequence as
    it is, any other iterable (a generator) listed; each move hashable."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise Broken(f"returned {shown(value)}, not an iterable of moves (law actions)")
    if not (isinstance(value, Sized) and hasattr(value, "__getitem__")):
        value = tuple(value)
    if type(value) is list or type(value) is tuple:
        try:
            hash(tuple(value))  # every move hashed in C: the boundary costs a plugin game little
        except TypeError:
            unhashable = next(move for move in value if not isinstance(move, Hashable))
            raise Broken(
                f"gave the move {shown(unhashable)}, which is not hashable (law legal)"
            ) from None
    return value


def _actions(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    moves = _moves(value)
    if (
        len(moves) == 0
        and not game.inner.is_terminal(args[0])
        and game.inner.to_move(args[0]) != CHANCE
    ):
        raise Broken("returned no moves at a position that is not over (law actions)")
    return moves


def _search_actions(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    return _moves(value)


def _heuristic_actions(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    return None if value is None else _moves(value)


def _terminal(game: PluginGame, value: Any, args: tuple[Any, ...]) -> bool:
    return value if value is True or value is False else bool(value)


def _payoff(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    return _number(value, "a payoff")


def _estimate(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    return _number(value, "an estimate")


def _bounds(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    if value is None:
        return None
    if not (isinstance(value, tuple) and len(value) == 2):
        raise Broken(f"returned {shown(value)}, not None or a pair (least, most)")
    low, high = (_number(bound, "a payoff bound") for bound in value)
    if low > high:
        raise Broken(f"returned {shown(value)}: the least is above the most")
    return value


def _outcomes(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise Broken(f"returned {shown(value)}, not a list of (probability, outcome) (law chance)")
    pairs = list(value)
    if not pairs:
        raise Broken("returned no outcomes at a chance node (law chance)")
    for pair in pairs:
        if not (isinstance(pair, tuple) and len(pair) == 2 and _real(pair[0]) and 0 < pair[0] <= 1):
            raise Broken(
                f"gave {shown(pair)}, not a (probability, outcome) pair, 0 < probability <= 1 "
                "(law chance)"
            )
        if not isinstance(pair[1], Hashable):
            raise Broken(f"gave the outcome {shown(pair[1])}, which is not hashable")
    return pairs


def _key(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    return _hashable(value, "a key")


def _move(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    return _hashable(value, "a move")


def _text(game: PluginGame, value: Any, args: tuple[Any, ...]) -> str:
    if not isinstance(value, str):
        raise Broken(f"returned {shown(value)}, not a str (law notation)")
    return value


def _winner(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    if value is None or (_whole(value) and 0 <= value < game.players):
        return value
    raise Broken(f"returned {shown(value)}, not None or a seat 0..{game.players - 1}")


Check = Callable[["PluginGame", Any, tuple[Any, ...]], Any]

CHECKS: Mapping[str, tuple[Check, tuple[type[BaseException], ...]]] = MappingProxyType(
    {
        "initial_state": (_state, ()),
        "to_move": (_seat, ()),
        "actions": (_actions, ()),
        "search_actions": (_search_actions, ()),
        "heuristic_actions": (_heuristic_actions, ()),
        "utility_bounds": (_bounds, ()),
        "result": (_state, (BadInput,)),  # IllegalMove is the protocol's answer to an illegal move
        "is_terminal": (_terminal, ()),
        "utility": (_payoff, ()),
        "chance_outcomes": (_outcomes, ()),
        "evaluate": (_estimate, ()),
        "key": (_key, ()),
        "parse_move": (_move, (BadInput,)),  # a refusal of the text typed, IllegalMove
        "format_move": (_text, ()),
        "format_position": (_text, ()),
        "winner": (_winner, ()),
    }
)
"""Each protocol member's check of what it returns, and the errors it may raise as the protocol's
own answer."""
