"""The plugin boundary: this loader, `guard` (the wrapper every plugin call goes through) and
`returns` (the checks on what a plugin returns).

Plugins: a student's own game or player, named by file or module (`examples/ttt.py:TicTacToe`,
`package.module:Greedy`) or registered by an installed package under the entry-point groups
`nimmax.games` and `nimmax.players`.

A plugin runs code nimmax did not write, so everything that can go wrong while loading it is
one line naming the file (BadPlugin, exit 2), and what it is given to nimmax is wrapped in the
guarded boundary (`guard`), which names the plugin's file and line of any later failure
(`blame`) and checks what it returns (PluginFailed, exit 2).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import inspect
import sys
import traceback
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from nimmax.game import REQUIRED, AnyGame, BadGameSpec, BadInput, Game
from nimmax.plugins.guard import (
    PLUGIN_MARK,
    PluginFailed,
    PluginPlayer,
    blame,
    guard_game,
    offered,
    one_line,
)

GAME_GROUP, PLAYER_GROUP = "nimmax.games", "nimmax.players"

T = TypeVar("T")
Number = int | float | str
"""A plugin option's value: a number where it reads as one, else the text."""


class BadPlugin(BadInput):
    """A plugin that cannot be loaded or built: missing file or class, broken code, wrong type."""


def is_reference(text: str) -> bool:
    """Whether game words' name or a player spec names a plugin class: `file.py:Class`,
    `dir/file:Class` or `package.module:Class` (a bare engine name never has a dot or slash)."""
    head, colon, tail = text.partition(":")
    return bool(colon and tail and ("/" in head or "\\" in head or "." in head))


def is_file(where: str) -> bool:
    """Whether a reference's `where` is a file (`dir/file.py`), not a module's dotted name."""
    return where.endswith(".py") or "/" in where or "\\" in where


def split_reference(text: str) -> tuple[str, str, str]:
    """`where:Class[:options]` as (where, class name, options text)."""
    where, _, rest = text.partition(":")
    name, _, options = rest.partition(":")
    return where, name, options


def load_class(reference: str) -> type:
    """The class `where:Class` names: `where` a .py file (or a path) or an importable module."""
    where, name, _ = split_reference(reference)
    if not name.isidentifier():
        raise BadPlugin(
            f"plugin {reference!r}: {name!r} is not a class name (write FILE.py:Class or "
            "module:Class)"
        )
    module = _load_file(where) if is_file(where) else _load_module(where)
    found = getattr(module, name, None)
    if not isinstance(found, type):
        classes = sorted(
            key
            for key, value in vars(module).items()
            if isinstance(value, type) and not key.startswith("_")
        )
        listed = f"; it has {', '.join(classes)}" if classes else ""
        raise BadPlugin(f"plugin {where}: no class {name}{listed}")
    return found


def _load_file(where: str) -> ModuleType:
    """Import a plugin file once per process, under a name of its own (two files may share a
    stem)."""
    path = Path(where).expanduser()
    if not path.is_file():
        raise BadPlugin(f"plugin {where}: no such file")
    path = path.resolve()
    name = f"nimmax_plugin_{path.stem}_{hashlib.sha1(str(path).encode()).hexdigest()[:8]}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise BadPlugin(f"plugin {where}: cannot be imported as Python")
    module = importlib.util.module_from_spec(spec)
    setattr(module, PLUGIN_MARK, True)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as error:
        del sys.modules[name]
        if isinstance(error, KeyboardInterrupt):
            raise
        raise BadPlugin(_loading_error(where, error)) from None
    return module


def _load_module(where: str) -> ModuleType:
    """Import a plugin module by its dotted name."""
    try:
        module = importlib.import_module(where)
    except ModuleNotFoundError as error:
        raise BadPlugin(f"plugin {where}: no module named {error.name or where!r}") from None
    except (Exception, SystemExit) as error:
        raise BadPlugin(_loading_error(where, error)) from None
    setattr(module, PLUGIN_MARK, True)
    return module


def _loading_error(where: str, error: BaseException) -> str:
    """One line for an error raised while a plugin's code was imported: file, line and message."""
    if isinstance(error, SyntaxError):
        return f"plugin {error.filename or where}:{error.lineno}: syntax error: {error.msg}"
    frames = traceback.extract_tb(error.__traceback__)
    frame = frames[-1] if frames else None
    place = f"{frame.filename}:{frame.lineno}" if frame is not None else where
    if isinstance(error, SystemExit):
        return f"plugin {place}: called sys.exit({error.code!r}) while it was imported"
    return one_line(f"plugin {place}: {type(error).__name__}: {error}")


def game_class(reference: str) -> type[AnyGame]:
    """The Game subclass a reference names; BadPlugin when it is something else."""
    found = load_class(reference)
    if not issubclass(found, Game):
        raise BadPlugin(f"plugin {reference}: {found.__name__} is not a nimmax.Game subclass")
    missing = [name for name in REQUIRED if getattr(found, name) is getattr(Game, name)]
    if missing:
        raise BadPlugin(
            f"plugin {reference}: {found.__name__} does not define {', '.join(missing)}"
        )
    found.capabilities = offered(found)
    return found


def create_game(reference: str, words: Sequence[str]) -> AnyGame:
    """Build a plugin game from its words: `Class.from_words(words)` when the class has it,
    else `Class()` with no words. Its spec is the reference and words, so records replay."""
    cls = game_class(reference)
    from_words = getattr(cls, "from_words", None)
    if from_words is None and words:
        raise BadGameSpec(
            f"{reference} takes no words (it has no from_words), not {' '.join(words)!r}"
        )
    game = _built(reference, lambda: from_words(list(words)) if from_words is not None else cls())
    if not isinstance(game, Game):
        raise BadPlugin(
            f"plugin {reference}: from_words returned {type(game).__name__}, not a Game"
        )
    return _guarded_game(game, (reference, *words))


def _guarded_game(game: AnyGame, words: tuple[str, ...]) -> AnyGame:
    """A plugin game behind the boundary, with the words that rebuild it; the plugin's own object
    (which `check` tries) keeps the capabilities it offers."""
    with contextlib.suppress(AttributeError):  # a class with __slots__ keeps none
        # an installed plugin's class was not loaded here
        game.capabilities = offered(type(game), game.capabilities)
    guarded = guard_game(game)
    guarded.words = words
    return guarded


def _built(reference: str, build: Callable[[], T]) -> T:
    """Run a plugin's constructor; its BadInput stays a usage error, an error its own code raises
    (`sys.exit` too) is PluginFailed naming its line, and one raised by the call itself (options it
    does not take) is BadPlugin."""
    try:
        return build()
    except (BadInput, KeyboardInterrupt, PluginFailed):
        raise
    except BaseException as error:
        if isinstance(error, SystemExit):
            raise PluginFailed(
                f"plugin {reference}: its constructor called sys.exit({error.code!r})"
            ) from None
        where = blame(error)
        if where is not None:
            raise PluginFailed(where) from None
        raise BadPlugin(one_line(f"plugin {reference}: {type(error).__name__}: {error}")) from None


def options(text: str) -> dict[str, Number]:
    """`name=value,...` as keywords, a value read as int or float where it is a number."""
    found: dict[str, Number] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, equals, value = item.partition("=")
        if not equals or not name.strip().isidentifier():
            raise BadPlugin(f"plugin option {item!r} is not name=value")
        if name.strip() in found:
            raise BadPlugin(f"plugin option {name.strip()} is given twice")
        found[name.strip()] = _number(value.strip())
    return found


def _number(value: str) -> Number:
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            continue
    return value


def create_player(spec: str, seed: int | None = None) -> PluginPlayer:
    """Build a plugin player from `where:Class[:name=value,...]` or an entry-point name; it
    must have `choose(game, state)`. `seed` is passed as the `seed` keyword when the spec sets
    none and the constructor takes one, so a duel reseeds it game by game as it does `random`."""
    if is_reference(spec):
        where, name, text = split_reference(spec)
        label = f"{where}:{name}"
        cls: Callable[..., object] = load_class(label)
    else:
        label, _, text = spec.partition(":")
        found = registered(PLAYER_GROUP).get(label)
        if found is None:
            raise BadPlugin(f"no player plugin named {label!r}")
        cls = found
    keywords = options(text)
    if seed is not None and "seed" not in keywords and "seed" in _parameters(cls):
        keywords["seed"] = seed
    player = _built(label, lambda: cls(**keywords))
    if not callable(getattr(player, "choose", None)):
        raise BadPlugin(f"plugin {label}: {type(player).__name__} has no choose(game, state)")
    return PluginPlayer(player, spec)


def _parameters(cls: Callable[..., object]) -> set[str]:
    """The keyword names a class's constructor takes (none known when it cannot be inspected)."""
    try:
        return set(inspect.signature(cls).parameters)
    except (TypeError, ValueError):
        return set()


def registered(group: str) -> dict[str, Any]:
    """The plugins installed packages register under an entry-point group, loaded by name;
    one that fails to load is left out (`broken` says why)."""
    found: dict[str, Any] = {}
    for point in entry_points(group=group):
        try:
            found[point.name] = point.load()
        except Exception:  # a broken installed plugin must not take the registry down with it
            continue
    return found


def installed() -> list[dict[str, str]]:
    """Every plugin installed packages register: its group ("game" or "player"), name, where it
    points (`module:object`) and, for one that fails to load, why."""
    found = []
    for kind, group in (("game", GAME_GROUP), ("player", PLAYER_GROUP)):
        failing = broken(group)
        for point in entry_points(group=group):
            item = {"kind": kind, "name": point.name, "target": point.value}
            if point.name in failing:
                item["error"] = failing[point.name]
            found.append(item)
    return found


def broken(group: str) -> dict[str, str]:
    """The installed plugins of a group that fail to load, with why."""
    failing = {}
    for point in entry_points(group=group):
        try:
            point.load()
        except Exception as error:
            failing[point.name] = f"{type(error).__name__}: {error}"
    return failing


def create_registered_game(name: str, words: Sequence[str]) -> AnyGame | None:
    """The game an installed package registers under `name`, built from its words; None when none
    does."""
    factory = registered(GAME_GROUP).get(name)
    if factory is None:
        return None
    game = _built(name, lambda: factory(list(words)))
    if not isinstance(game, Game):
        raise BadPlugin(
            f"game plugin {name}: its factory returned {type(game).__name__}, not a Game"
        )
    return _guarded_game(game, (name, *words))
