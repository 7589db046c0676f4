"""The one boundary every call into a plugin goes through, as pytest's plugin manager calls every hook.

A plugin game is handed to nimmax wrapped in a `PluginGame` whose class has a guarded method for
each protocol member the plugin defines (and Game's own defaults for the rest, so `overrides` and
`check.defines` see what the plugin defines). Each guarded call checks what the plugin returned
against the protocol — the laws `nimmax check` tries — and turns any failure, `SystemExit`
included, into `PluginFailed`: one line, `FILE:LINE: ...`, the plugin's own place first. A plugin
player is wrapped the same way (`PluginPlayer`). Built-in games and players are never wrapped, so
they pay nothing; a plugin's calls to itself stay unguarded (it gets its own object back).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sized
from numbers import Integral, Real
from typing import Any

from nimmax.game import CHANCE, AnyGame, BadInput, Game

MAX_PAYOFF = 10**12
"""The largest payoff (or estimate) a plugin may give, either sign: what a record holds
(`match.MAX_RECORD_NUMBER`), and far inside what a search's scores and a float keep exactly."""

MESSAGE_LIMIT = 200
"""At most this many characters of a plugin's own message or value appear in the line."""


class PluginFailed(Exception):
    """A plugin's code raised, exited, or returned what the protocol forbids; the CLI says
    `a plugin failed: ` and this one line, exit 2."""


class _Broken(Exception):
    """Why a value a plugin returned breaks the protocol (turned into PluginFailed by the guard)."""


_THROUGH = (KeyboardInterrupt, PluginFailed, RecursionError, MemoryError)
"""Never a plugin's failure to name: Ctrl-C and SIGTERM, a failure already named (a plugin player
calling a plugin game), and a search out of stack or memory (the CLI blames the plugin's frame
when it is the deepest)."""


def one_line(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`text` as one line of at most `limit` characters (a plugin's message may be anything)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def place(cls: type, member: str | None = None) -> str:
    """`file:line` of a plugin class's member (its `def`), or of the class itself."""
    import inspect  # only when a plugin has failed

    found = inspect.getattr_static(cls, member, None) if member is not None else None
    code = getattr(getattr(found, "__func__", found), "__code__", None)
    if code is not None:
        return f"{code.co_filename}:{code.co_firstlineno}"
    try:
        return f"{inspect.getsourcefile(cls)}:{inspect.getsourcelines(cls)[1]}"
    except (OSError, TypeError):
        return f"{cls.__module__}.{cls.__qualname__}"


def failure(cls: type, member: str, error: BaseException) -> PluginFailed:
    """The one line for an error a plugin's code raised (or a `sys.exit` it called) in `member`:
    the plugin's deepest frame, else the member's own place."""
    from nimmax.plugins import blame

    if isinstance(error, SystemExit):
        return PluginFailed(f"{place(cls, member)}: {cls.__name__}.{member} called sys.exit({error.code!r})")
    where = blame(error)
    if where is None:
        where = f"{place(cls, member)}: {type(error).__name__}: {error}"
    return PluginFailed(one_line(where))


def broken(cls: type, member: str, why: str) -> PluginFailed:
    """The one line for a member that returned what the protocol forbids."""
    return PluginFailed(f"{place(cls, member)}: {cls.__name__}.{member} {why}")


def _shown(value: Any) -> str:
    return one_line(repr(value), 60)


def _hashable(value: Any, what: str) -> Any:
    try:
        hash(value)
    except Exception:  # noqa: BLE001 - a __hash__ of the plugin's may raise anything
        raise _Broken(f"returned {_shown(value)}, {what} that is not hashable (law rebuilt: states hash)") from None
    return value


def _real(value: Any) -> bool:
    """Whether `value` is a real number (Python's or another library's: numbers.Real)."""
    return type(value) is int or type(value) is float or isinstance(value, Real)  # the ABC's test is slow


def _whole(value: Any) -> bool:
    """Whether `value` is a whole number (numbers.Integral)."""
    return type(value) is int or isinstance(value, Integral)


def _number(value: Any, what: str) -> Any:
    if not (_real(value) and -MAX_PAYOFF <= value <= MAX_PAYOFF):  # NaN compares False
        raise _Broken(f"returned {_shown(value)}, not {what}: a finite number within ±10^12 (law zero-sum)")
    return value


# --- what each member may return: a check taking (game, value, args) and giving the value to use ---


def _state(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    return _hashable(value, "a state")


def _seat(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    if _whole(value) and (0 <= value < game.players or (value == CHANCE and game.has_chance)):
        return int(value)
    chance = " or CHANCE" if game.has_chance else ""
    raise _Broken(f"returned {_shown(value)}, not a seat 0..{game.players - 1}{chance} (law to-move)")


def _moves(value: Any) -> Any:
    """Moves as a sequence engines and views may take the length of: a list or a lazy sequence as
    it is, any other iterable (a generator) listed; each move hashable."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise _Broken(f"returned {_shown(value)}, not an iterable of moves (law actions)")
    if not (isinstance(value, Sized) and hasattr(value, "__getitem__")):
        value = tuple(value)
    if type(value) is list or type(value) is tuple:
        try:
            hash(tuple(value))  # every move hashed in C: the boundary costs a plugin game little
        except TypeError:
            unhashable = next(move for move in value if not isinstance(move, Hashable))
            raise _Broken(f"gave the move {_shown(unhashable)}, which is not hashable (law legal)") from None
    return value


def _actions(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    moves = _moves(value)
    if len(moves) == 0 and not game.inner.is_terminal(args[0]) and game.inner.to_move(args[0]) != CHANCE:
        raise _Broken("returned no moves at a position that is not over (law actions)")
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
        raise _Broken(f"returned {_shown(value)}, not None or a pair (least, most)")
    low, high = (_number(bound, "a payoff bound") for bound in value)
    if low > high:
        raise _Broken(f"returned {_shown(value)}: the least is above the most")
    return value


def _outcomes(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise _Broken(f"returned {_shown(value)}, not a list of (probability, outcome) (law chance)")
    pairs = list(value)
    if not pairs:
        raise _Broken("returned no outcomes at a chance node (law chance)")
    for pair in pairs:
        if not (isinstance(pair, tuple) and len(pair) == 2 and _real(pair[0]) and 0 < pair[0] <= 1):
            raise _Broken(f"gave {_shown(pair)}, not a (probability, outcome) pair, 0 < probability <= 1 (law chance)")
        if not isinstance(pair[1], Hashable):
            raise _Broken(f"gave the outcome {_shown(pair[1])}, which is not hashable")
    return pairs


def _key(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    return _hashable(value, "a key")


def _move(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    return _hashable(value, "a move")


def _text(game: PluginGame, value: Any, args: tuple[Any, ...]) -> str:
    if not isinstance(value, str):
        raise _Broken(f"returned {_shown(value)}, not a str (law notation)")
    return value


def _winner(game: PluginGame, value: Any, args: tuple[Any, ...]) -> Any:
    if value is None or (_whole(value) and 0 <= value < game.players):
        return value
    raise _Broken(f"returned {_shown(value)}, not None or a seat 0..{game.players - 1}")


Check = Callable[["PluginGame", Any, tuple[Any, ...]], Any]

CHECKS: dict[str, tuple[Check, tuple[type[BaseException], ...]]] = {
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
    "legal_text": (_text, ()),
}
"""Each protocol member's check of what it returns, and the errors it may raise as the protocol's own answer."""


def _guarded(member: str, check: Check, passes: tuple[type[BaseException], ...]) -> Callable[..., Any]:
    """The guarded method for `member`: the plugin's own, its failures named and its value checked."""

    def call(self: PluginGame, *args: Any) -> Any:
        try:
            return check(self, getattr(self.inner, member)(*args), args)  # a check may run a generator of the plugin's
        except _Broken as why:
            raise broken(type(self.inner), member, str(why)) from None
        except _THROUGH:
            raise
        except passes:
            raise
        except BaseException as error:  # SystemExit too: a plugin does not end nimmax
            raise failure(type(self.inner), member, error) from error

    call.__name__ = call.__qualname__ = member
    return call


def _named(game: PluginGame, member: str, error: BaseException) -> BaseException:
    """What an error raised in a plugin game's `member` becomes: itself where it passes the boundary."""
    return error if isinstance(error, _THROUGH) else failure(type(game.inner), member, error)


# The members every search calls at every node, each written out with its common case first (an
# int seat, a list of moves, a bool), so a plugin game pays about a microsecond a call for the
# boundary; anything else takes the member's full check in CHECKS.


def _hot_to_move(self: PluginGame, state: Any) -> Any:
    try:
        seat = self.inner.to_move(state)
    except BaseException as error:
        raise _named(self, "to_move", error) from error
    if type(seat) is int and 0 <= seat < self.players:
        return seat
    return _checked(self, "to_move", seat, (state,))


def _hot_actions(self: PluginGame, state: Any) -> Any:
    try:
        moves = self.inner.actions(state)
    except BaseException as error:
        raise _named(self, "actions", error) from error
    if type(moves) is list and moves:
        try:
            hash(tuple(moves))
            return moves
        except TypeError:  # an unhashable move: the full check names it
            pass
    return _checked(self, "actions", moves, (state,))


def _hot_result(self: PluginGame, state: Any, action: Any) -> Any:
    try:
        after = self.inner.result(state, action)
    except BadInput:
        raise
    except BaseException as error:
        raise _named(self, "result", error) from error
    try:
        hash(after)
        return after
    except TypeError:  # unhashable: the full check names it
        return _checked(self, "result", after, (state, action))


def _hot_is_terminal(self: PluginGame, state: Any) -> bool:
    try:
        over = self.inner.is_terminal(state)
    except BaseException as error:
        raise _named(self, "is_terminal", error) from error
    return over if over is True or over is False else _checked(self, "is_terminal", over, (state,))


def _hot_utility(self: PluginGame, state: Any, player: int) -> Any:
    try:
        payoff = self.inner.utility(state, player)
    except BaseException as error:
        raise _named(self, "utility", error) from error
    if (type(payoff) is int or type(payoff) is float) and -MAX_PAYOFF <= payoff <= MAX_PAYOFF:
        return payoff
    return _checked(self, "utility", payoff, (state, player))


def _checked(game: PluginGame, member: str, value: Any, args: tuple[Any, ...]) -> Any:
    """`value` through the member's full check in CHECKS (which may run the plugin's generator)."""
    try:
        return CHECKS[member][0](game, value, args)
    except _Broken as why:
        raise broken(type(game.inner), member, str(why)) from None
    except BaseException as error:
        raise _named(game, member, error) from error


HOT: dict[str, Callable[..., Any]] = {
    "to_move": _hot_to_move,
    "actions": _hot_actions,
    "result": _hot_result,
    "is_terminal": _hot_is_terminal,
    "utility": _hot_utility,
}


class PluginGame(Game[Any, Any]):
    """A plugin game behind the boundary; `inner` is the plugin's own object. Members that are not
    the protocol's (a plugin's `render`) are the plugin's own, reached through `__getattr__`."""

    inner: AnyGame

    def __init__(self, inner: AnyGame) -> None:
        self.inner = inner
        cls = type(inner)
        try:
            name, players, names = inner.name, inner.players, inner.player_names
            has_chance, seed = inner.has_chance, inner.seed
        except _THROUGH:
            raise
        except BaseException as error:
            raise failure(cls, "__init__", error) from error
        if not isinstance(name, str):
            raise broken(cls, "name", f"is {_shown(name)}, not a str")
        if players not in (1, 2) or isinstance(players, bool):
            raise broken(cls, "players", f"is {_shown(players)}, not 1 or 2")
        if not (isinstance(names, (tuple, list)) and len(names) >= players and all(isinstance(n, str) for n in names)):
            raise broken(cls, "player_names", f"is {_shown(names)}, not a name (str) for each of {players} seats")
        if not isinstance(has_chance, bool):
            raise broken(cls, "has_chance", f"is {_shown(has_chance)}, not True or False")
        if not (seed is None or isinstance(seed, int)):
            raise broken(cls, "seed", f"is {_shown(seed)}, not None or a whole number")
        self.name, self.players, self.player_names = name, players, tuple(names)
        self.has_chance, self.seed = has_chance, seed

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)


_CLASSES: dict[type, type[PluginGame]] = {}


def guard_game(inner: AnyGame) -> PluginGame:
    """`inner` behind the boundary: a guarded method for each protocol member its class defines."""
    cls = type(inner)
    guarded = _CLASSES.get(cls)
    if guarded is None:
        members = {
            member: HOT.get(member) or _guarded(member, check, passes)
            for member, (check, passes) in CHECKS.items()
            if getattr(cls, member, None) is not getattr(Game, member)
        }
        guarded = _CLASSES[cls] = type(f"Guarded{cls.__name__}", (PluginGame,), members)
    return guarded(inner)


def unguarded(game: AnyGame) -> AnyGame:
    """The plugin's own game behind a guarded one (`check` tries the laws on it); any other as it is."""
    return game.inner if isinstance(game, PluginGame) else game


class PluginPlayer:
    """A plugin player behind the boundary: `choose` named when it fails, its move checked legal."""

    def __init__(self, inner: Any, spec: str) -> None:
        self.inner, self.spec = inner, spec

    def choose(self, game: AnyGame, state: Any) -> Any:
        cls = type(self.inner)
        try:
            chosen = self.inner.choose(game, state)
        except _THROUGH:
            raise
        except BaseException as error:  # SystemExit too
            raise failure(cls, "choose", error) from error
        from nimmax.players import Decision

        move = chosen.move if isinstance(chosen, Decision) else chosen
        legal = game.actions(state)
        try:
            playable = isinstance(move, Hashable) and move in legal
        except Exception:  # noqa: BLE001 - a move's own __eq__ may raise
            playable = False
        if not playable:
            raise broken(cls, "choose", f"returned {_shown(move)}, not a legal move here ({game.legal_text(state, 8)})")
        return chosen

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)
