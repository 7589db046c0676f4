"""The one boundary every call into a plugin goes through, as pytest's plugin manager calls every
hook.

A plugin game is handed to nimmax wrapped in a `PluginGame` whose class has a guarded method for
each protocol member the plugin defines (and Game's own defaults for the rest), and whose
capabilities are those the plugin declares and those whose member it defines (`offered`). Each
guarded call checks what the plugin returned against the protocol (`returns`: the laws
`nimmax check` tries) and turns any failure, `SystemExit` included, into `PluginFailed`: one line,
`FILE:LINE: ...`, the plugin's own place first. A plugin player is wrapped the same way
(`PluginPlayer`). Built-in games and players are never wrapped, so they pay nothing; a plugin's
calls to itself stay unguarded (it gets its own object back).
"""

from __future__ import annotations

import shlex
import sys
import traceback
from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from nimmax.game import AnyGame, BadInput, Capability, Game, defined, legal_text
from nimmax.player import Decision
from nimmax.plugins.returns import CHECKS, MAX_PAYOFF, Broken, Check, one_line, shown

__all__ = [
    "MAX_PAYOFF",
    "PluginFailed",
    "PluginGame",
    "PluginPlayer",
    "guard_game",
    "offered",
    "one_line",
    "unguarded",
]


class PluginFailed(Exception):
    """A plugin's code raised, exited, or returned what the protocol forbids; the CLI says
    `a plugin failed: ` and this one line, exit 2."""


_THROUGH = (KeyboardInterrupt, PluginFailed, RecursionError, MemoryError)
"""Never a plugin's failure to name: Ctrl-C and SIGTERM, a failure already named (a plugin player
calling a plugin game), and a search out of stack or memory (the CLI blames the plugin's frame
when it is the deepest)."""


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


PLUGIN_MARK = "__nimmax_plugin__"
"""The name the plugin loader sets in a plugin module's namespace: the import system
(`sys.modules`), which holds each module once a process, is then the one record of the plugins
loaded."""


def loaded() -> set[str]:
    """The files of the plugins loaded in this process, so an error raised in them can be blamed on
    them."""
    marked = (module for module in list(sys.modules.values()) if vars(module).get(PLUGIN_MARK))
    return {str(Path(module.__file__).resolve()) for module in marked if module.__file__}


def blame(error: BaseException) -> str | None:
    """For an error raised inside a loaded plugin's code: "file:line: Type: message" at the
    plugin's deepest frame; None when no plugin's code is on the traceback."""
    plugins = loaded()
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if str(Path(frame.filename).resolve()) in plugins
    ]
    if not frames:
        return None
    frame = frames[-1]
    return one_line(f"{frame.filename}:{frame.lineno}: {type(error).__name__}: {error}")


def failure(cls: type, member: str, error: BaseException) -> PluginFailed:
    """The one line for an error a plugin's code raised (or a `sys.exit` it called) in `member`:
    the plugin's deepest frame, else the member's own place."""
    if isinstance(error, SystemExit):
        return PluginFailed(
            f"{place(cls, member)}: {cls.__name__}.{member} called sys.exit({error.code!r})"
        )
    where = blame(error)
    if where is None:
        where = f"{place(cls, member)}: {type(error).__name__}: {error}"
    return PluginFailed(one_line(where))


def broken(cls: type, member: str, why: str) -> PluginFailed:
    """The one line for a member that returned what the protocol forbids."""
    return PluginFailed(f"{place(cls, member)}: {cls.__name__}.{member} {why}")


def _guarded(
    member: str, check: Check, passes: tuple[type[BaseException], ...]
) -> Callable[..., Any]:
    """The guarded method for `member`: the plugin's own, its failures named and its value
    checked."""

    def call(self: PluginGame, *args: Any) -> Any:
        try:
            # a check may run a generator of the plugin's
            return check(self, getattr(self.inner, member)(*args), args)
        except Broken as why:
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
    """What an error raised in a plugin game's `member` becomes: itself where it passes the
    boundary."""
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
    except Broken as why:
        raise broken(type(game.inner), member, str(why)) from None
    except BaseException as error:
        raise _named(game, member, error) from error


HOT: Mapping[str, Callable[..., Any]] = MappingProxyType(
    {
        "to_move": _hot_to_move,
        "actions": _hot_actions,
        "result": _hot_result,
        "is_terminal": _hot_is_terminal,
        "utility": _hot_utility,
    }
)


class PluginGame(Game[Any, Any]):
    """A plugin game behind the boundary; `inner` is the plugin's own object. Members that are not
    the protocol's (a plugin's `render`) are the plugin's own, reached through `__getattr__`."""

    inner: AnyGame
    words: tuple[str, ...] = ()
    """The words that rebuild the game, its reference first (set when nimmax loads it)."""
    seed: int | None = None
    """The plugin's seed for drawing chance outcomes in play (`match.Seeded`), where it has one."""

    def __init__(self, inner: AnyGame) -> None:
        self.inner = inner
        cls = type(inner)
        try:
            name, players, names = inner.name, inner.players, inner.player_names
            # as DESIGN.md says it
            chance = getattr(inner, "has_chance", Capability.CHANCE in inner.capabilities)
            seed, declared = getattr(inner, "seed", None), inner.capabilities
        except _THROUGH:
            raise
        except BaseException as error:
            raise failure(cls, "__init__", error) from error
        if not isinstance(name, str):
            raise broken(cls, "name", f"is {shown(name)}, not a str")
        if players not in (1, 2) or isinstance(players, bool):
            raise broken(cls, "players", f"is {shown(players)}, not 1 or 2")
        if not (
            isinstance(names, (tuple, list))
            and len(names) >= players
            and all(isinstance(n, str) for n in names)
        ):
            raise broken(
                cls,
                "player_names",
                f"is {shown(names)}, not a name (str) for each of {players} seats",
            )
        if not isinstance(chance, bool):
            raise broken(cls, "has_chance", f"is {shown(chance)}, not True or False")
        if not (seed is None or isinstance(seed, int)):
            raise broken(cls, "seed", f"is {shown(seed)}, not None or a whole number")
        self.name, self.players, self.player_names, self.seed = name, players, tuple(names), seed
        offers = offered(cls, declared) - {Capability.CHANCE}
        self.capabilities = offers | {Capability.CHANCE} if chance else offers

    @property
    def spec(self) -> str:
        """The words that rebuild the game (`nimmax.games.create`), else its name."""
        return shlex.join(self.words) if self.words else self.name

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "inner" or name in _UNGUARDED:
            raise AttributeError(name)
        return getattr(self.inner, name)


_UNGUARDED = frozenset(
    {each.member for each in Capability} | {"keyed", "evaluations", "evaluated", "winner"}
)
"""The protocol's optional members, never reached around the guard: a guarded one is the class's
own."""


def words_of(game: AnyGame) -> tuple[str, ...]:
    """The words that rebuild a plugin game (its reference first); none for nimmax's own games."""
    return game.words if isinstance(game, PluginGame) else ()


def offered(cls: type[AnyGame], declared: object = None) -> frozenset[Capability]:
    """A plugin's capabilities: those it declares (its class's unless given) and those whose member
    it defines, which it need not declare; chance it declares itself (`has_chance`), as ever."""
    declared = cls.capabilities if declared is None else declared
    if not (
        isinstance(declared, (frozenset, set))
        and all(isinstance(item, Capability) for item in declared)
    ):
        raise broken(
            cls, "capabilities", f"is {shown(declared)}, not a set of nimmax.game.Capability"
        )
    return frozenset(declared) | (defined(cls) - {Capability.CHANCE})


def guard_game(inner: AnyGame) -> PluginGame:
    """`inner` behind the boundary: a guarded method for each protocol member its class defines
    (a class made for each game: a plugin game is made once or twice a command)."""
    cls = type(inner)
    members = {
        member: HOT.get(member) or _guarded(member, check, passes)
        for member, (check, passes) in CHECKS.items()
        if getattr(cls, member, None) is not getattr(Game, member, None)
    }
    guarded: type[PluginGame] = type(f"Guarded{cls.__name__}", (PluginGame,), members)
    return guarded(inner)


def unguarded(game: AnyGame) -> AnyGame:
    """The plugin's own game behind a guarded one (`check` tries the laws on it); any other as it
    is."""
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
        move = chosen.move if isinstance(chosen, Decision) else chosen
        legal = game.actions(state)
        try:
            playable = isinstance(move, Hashable) and move in legal
        except Exception:  # noqa: BLE001 - a move's own __eq__ may raise
            playable = False
        if not playable:
            raise broken(
                cls,
                "choose",
                f"returned {shown(move)}, not a legal move here ({legal_text(game, state, 8)})",
            )
        return chosen

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)
