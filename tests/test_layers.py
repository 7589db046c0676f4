"""The house's layering and sizes: the core imports no presentation library, engines keep no module
state, no module over 400 lines nor function over 50, no import cycle, ui imports no typer, views
import no search engine and run nothing (the sessions do), and each kind of thing (games, engines,
players, presentations, commands) is registered in one place.

Imports are read from the source (`ast`), not from `sys.modules`, so a lazy import counts as much as
an eager one: a function-local import is allowed for laziness, never to hide a cycle or a layer
crossing. An import under `if TYPE_CHECKING:` runs only for the type checker: it is left out of the
cycle checks (it cannot form a cycle at run time) but counts for the layer rules (ui, views).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import io
import subprocess
import sys
import tokenize
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from .cli_helpers import ROOT

PACKAGE = ROOT / "nimmax"

CORE = [
    "nimmax.game",
    "nimmax.games",
    "nimmax.search",
    "nimmax.search.engines",
    "nimmax.search.alphabeta",
    "nimmax.search.minimax",
    "nimmax.search.expectimax",
    "nimmax.players",
    "nimmax.match",
    "nimmax.commands.solve",
    "nimmax.commands.analyze",
    "nimmax.commands.explain",
    "nimmax.commands",
    "nimmax.commands.play",
    "nimmax.commands.events",
]

MOST_MODULE_LINES = 400
MOST_FUNCTION_LINES = 50
"""Lines as a reader reads them (`read_lines`): a statement counts once however the formatter wraps
it to 100 columns, a comment or docstring line once each, a blank line not at all. A function's
run from its `def` to its last line (decorators left out; a nested function's count in its
parent's too)."""

SEARCH_VALUES = frozenset(
    {"nimmax.search.result", "nimmax.search.score", "nimmax.search.limits", "nimmax.search.options"}
)
"""What a view (nimmax/ui/) may import from nimmax.search: the values a search hands back or is
given (SearchResult, MoveValue; scores and their reading; Limits; an option's declaration), never
an engine, table, budget or the deepening loop. A name taken from the package face (`from
nimmax.search import SearchResult`) counts as the module that defines it; the face itself loads
every engine, so a view imports these modules by their own names."""

RUNNERS = frozenset(
    {
        "nimmax.players",
        "nimmax.commands.analyze",
        "nimmax.commands.explain",
        "nimmax.duel",
        "nimmax.duel.event",
        "nimmax.duel.backend",
        "nimmax.duel.pool",
        "nimmax.duel.ray_backend",
        "nimmax.duel.play",
    }
)
"""What a view (nimmax/ui/) never imports to run: the players and their searches, the analysis, the
explanations, and what plays a duel (`duel.run` in duel/event.py, the package face that re-exports
it, the backends, a block's games). The core's sessions (`nimmax.commands`) run them and hand the
views values; a view may name their types under `if TYPE_CHECKING:`, where nothing runs."""


# --- reading the package ------------------------------------------------------------------------


def modules() -> dict[str, Path]:
    """Every module of nimmax by dotted name (a package by its __init__), with its file."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = modules()


def shown(path: Path) -> str:
    """A file as failure messages name it: relative to the checkout."""
    return str(path.relative_to(ROOT))


@dataclass(frozen=True)
class Import:
    """One import statement's target module, where it stands and how it runs."""

    target: str
    line: int
    local: bool  # inside a function: runs when called
    typing_only: bool  # under `if TYPE_CHECKING:`: never runs


def _package_of(name: str) -> str:
    return name if MODULES.get(name, Path()).name == "__init__.py" else name.rpartition(".")[0]


def imports(name: str) -> list[Import]:
    """The modules `name` imports: for `from X import a`, X.a where that is a module, else X."""
    found: list[Import] = []

    def visit(node: ast.AST, local: bool, typing_only: bool) -> None:
        if (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING"
        ):
            for child in node.body:
                visit(child, local, True)
            for child in node.orelse:
                visit(child, local, typing_only)
            return
        if isinstance(node, ast.Import):
            found.extend(
                Import(alias.name, node.lineno, local, typing_only) for alias in node.names
            )
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = _package_of(name).split(".")
                base = ".".join(
                    [*package[: len(package) - node.level + 1], *([base] if base else [])]
                )
            for alias in node.names:
                target = f"{base}.{alias.name}"
                found.append(
                    Import(target if target in MODULES else base, node.lineno, local, typing_only)
                )
        inside = local or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for inner in ast.iter_child_nodes(node):
            visit(inner, inside, typing_only)

    visit(ast.parse(MODULES[name].read_text()), False, False)
    return found


def read_lines(source: str, first: int = 1, last: int | None = None) -> int:
    """The lines of `source` from `first` to `last` a reader reads (MOST_FUNCTION_LINES): each
    logical line's first line, every line of a string that opens one (a docstring), comments."""
    counted: set[int] = set()
    opening = True
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NEWLINE:
            opening = True
        elif token.type == tokenize.COMMENT:
            counted.add(token.start[0])
        elif token.type not in (tokenize.NL, tokenize.INDENT, tokenize.DEDENT) and opening:
            opening = False
            end = token.end[0] if token.type == tokenize.STRING else token.start[0]
            counted.update(range(token.start[0], end + 1))
    return sum(1 for line in counted if first <= line <= (last or line))


def functions(
    tree: ast.AST, prefix: str = ""
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function and method of a module, at any depth, with its qualified name."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + node.name, node
            yield from functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from functions(node, f"{prefix}{node.name}.")
        else:
            yield from functions(node, prefix)


def cycles(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """The import cycles among nimmax's modules: one cycle (its modules in import order) per
    strongly connected group, found by Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in edges.get(node, ()):
                groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            connect(node)
    return [_one_cycle(group, edges) for group in groups]


def _one_cycle(group: list[str], edges: Mapping[str, set[str]]) -> list[str]:
    """A shortest way round the group from its first module back to it, for the failure message."""
    start, members = group[0], set(group)
    paths = {start: [start]}
    todo = [start]
    while todo:
        node = todo.pop(0)
        for target in sorted(edges.get(node, set()) & members):
            if target == start:
                return [*paths[node], start]
            if target not in paths:
                paths[target] = [*paths[node], target]
                todo.append(target)
    return group


def import_graph(*, local: bool) -> dict[str, set[str]]:
    """Module -> the nimmax modules it imports at run time (module-level only, or with
    function-local imports too); a package's own submodule importing the package face is left out
    (Python runs a package's __init__ first, whichever submodule is named)."""
    return {
        name: {
            found.target
            for found in imports(name)
            if found.target in MODULES
            and found.target != name
            and not found.typing_only
            and (local or not found.local)
        }
        for name in MODULES
    }


# --- sizes
# -------------------------------------------------------------------------------------------


def test_the_core_imports_no_presentation_library() -> None:
    code = (
        "import sys\n"
        + "".join(f"import {module}\n" for module in CORE)
        + "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'rich', "
        "'prompt_toolkit')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert loaded.stdout.strip() == "[]"


MUTABLE_CALLS = frozenset(
    {
        "dict",
        "list",
        "set",
        "bytearray",
        "defaultdict",
        "OrderedDict",
        "Counter",
        "deque",
        "array",
        "WeakSet",
    }
    | {"WeakKeyDictionary", "WeakValueDictionary"}
)
"""Calls that make a mutable container: kept at module level, process-wide state."""
MUTABLE_LITERALS = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
STATEFUL = frozenset({"nimmax/interrupt.py"})
"""The one module that keeps process-wide state: the signal handling (a handler has nowhere else to
put it)."""


def module_state(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Where a module keeps mutable state: a module-level container (literal or made by a call;
    `__all__`, the import system's list of names, aside) and every `global` statement."""
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(target, ast.Name) and target.id == "__all__" for target in targets):
                continue
            value = node.value
            called = value.func if isinstance(value, ast.Call) else None
            name = (
                called.id
                if isinstance(called, ast.Name)
                else called.attr
                if isinstance(called, ast.Attribute)
                else ""
            )
            if isinstance(value, MUTABLE_LITERALS) or name in MUTABLE_CALLS:
                yield node.lineno, "keeps a mutable module-level value"
    for found in ast.walk(tree):
        if isinstance(found, ast.Global):
            yield found.lineno, f"declares global {', '.join(found.names)}"


def test_the_module_state_finder_finds_containers_and_globals_only() -> None:
    found = list(
        module_state(
            ast.parse(
                "A = []\nB: dict[str, int] = dict()\nC = (1,)\n__all__ = ['C']\n"
                "D = frozenset()\ndef f():\n    global A\nE = {k: 1 for k in 'ab'}\n"
            )
        )
    )
    assert [line for line, _ in found] == [1, 2, 8, 7]


def test_no_module_keeps_mutable_module_state() -> None:
    """No mutable state at module level anywhere in nimmax/ but the signal handling: registries
    belong to objects, settings travel as values."""
    kept = [
        f"{shown(path)}:{line} {why}"
        for path in Path(ROOT, "nimmax").rglob("*.py")
        if shown(path) not in STATEFUL
        for line, why in module_state(ast.parse(path.read_text()))
    ]
    assert not kept, f"{len(kept)} places keep module state:\n" + "\n".join(sorted(kept))


def test_the_exact_solver_imports_nothing_of_nimmax() -> None:
    """search/exact.py stands below games and engines alike: a book or a proof may drive it."""
    assert [
        found.target
        for found in imports("nimmax.search.exact")
        if found.target.startswith("nimmax")
    ] == []


def test_games_never_import_search() -> None:
    crossing = [
        f"{shown(MODULES[name])}:{found.line} imports {found.target}"
        for name in MODULES
        if name.startswith("nimmax.games")
        for found in imports(name)
        if found.target.startswith("nimmax.search")
    ]
    assert not crossing, "a game imports search:\n" + "\n".join(crossing)


WORDS_READ = ("nimmax.cli", "nimmax.recorded")
"""Where a player's words are read into a Spec: the commands (what people type) and the record
reader (the players a record keeps). Everywhere else a Spec is handed on as the value it is."""

LIMITS_READ = frozenset({("nimmax.players", "parse_spec"), ("nimmax.search.engines", "search")})
"""Where a spec's options become Limits (`limits.given`): the spec parser, and `search(**options)`,
the keyword face scripts and tests call."""


def calls(name: str, called: str) -> Iterator[tuple[str, int]]:
    """Each call of a function named `called` (bare or as an attribute) in module `name`: the
    qualified name of the function it stands in (or "" at module level) and its line."""
    tree = ast.parse(MODULES[name].read_text())
    within = {
        id(inner): qualified for qualified, node in functions(tree) for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            target = (
                node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            )
            if target == called:
                yield within.get(id(node), ""), node.lineno


def test_player_words_are_read_only_by_the_commands_and_the_record_reader() -> None:
    """A Spec is read once from its words where people or records give them, then travels as a
    value: no module but cli/ and the record reader calls `parse_spec`, and only the parser reads
    limits."""
    parsing = [
        f"{shown(MODULES[name])}:{line} calls parse_spec"
        for name in MODULES
        if not name.startswith(WORDS_READ)
        for _, line in calls(name, "parse_spec")
    ]
    assert not parsing, "player words read outside cli/ and the record reader:\n" + "\n".join(
        parsing
    )
    reading = [
        f"{shown(MODULES[name])}:{line} ({function}) reads limits from options"
        for name in MODULES
        for function, line in calls(name, "given")
        if (name, function) not in LIMITS_READ
    ]
    assert not reading, "limits rebuilt from options:\n" + "\n".join(reading)
    assert list(calls("nimmax.players", "given")), "the parser reads limits through `given`"


def test_no_module_is_over_400_lines() -> None:
    long = [
        f"{shown(path)}: {lines} lines"
        for path in MODULES.values()
        if (lines := read_lines(path.read_text())) > MOST_MODULE_LINES
    ]
    assert not long, f"{len(long)} modules over {MOST_MODULE_LINES} lines:\n" + "\n".join(long)


def test_no_function_is_over_50_lines() -> None:
    long = [
        f"{shown(path)}:{node.lineno} {name}(): {lines} lines"
        for path in MODULES.values()
        for source in [path.read_text()]
        for name, node in functions(ast.parse(source))
        if (lines := read_lines(source, node.lineno, node.end_lineno)) > MOST_FUNCTION_LINES
    ]
    assert not long, f"{len(long)} functions over {MOST_FUNCTION_LINES} lines:\n" + "\n".join(long)


# --- imports
# --------------------------------------------------------------------------------------------


def _cycle_lines(graph: dict[str, set[str]], local: bool) -> list[str]:
    """Each cycle as `a (file:line) -> b (file:line) -> a`, naming the import that makes each
    step."""
    lines = []
    for cycle in cycles(graph):
        steps = []
        for here, there in zip(cycle, cycle[1:], strict=False):
            line = next(
                found.line
                for found in imports(here)
                if found.target == there and not found.typing_only and (local or not found.local)
            )
            steps.append(f"{here} ({shown(MODULES[here])}:{line} imports {there})")
        lines.append(" -> ".join(steps))
    return lines


def test_the_cycle_finder_finds_every_cycle_and_only_cycles() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"e"}, "f": set()}
    assert cycles(edges) == [["a", "b", "c", "a"], ["e", "e"]]
    assert sum(map(len, import_graph(local=False).values())) > 100  # the graph is read, not empty


def test_no_import_cycle_among_module_level_imports() -> None:
    found = _cycle_lines(import_graph(local=False), local=False)
    assert not found, "import cycles (module-level imports):\n" + "\n".join(found)


def test_no_import_cycle_with_function_local_imports_too() -> None:
    """A lazy import inside a function is allowed to keep start-up light, not to hide a cycle."""
    found = _cycle_lines(import_graph(local=True), local=True)
    assert not found, "import cycles (function-local imports counted):\n" + "\n".join(found)


MOST_FLOORS = 10
"""How tall the house may be: rooms (`room`) stacked by what they import at run time."""


def room(name: str) -> str:
    """The room a module stands in: nimmax's top-level module or package that holds it."""
    return ".".join(name.split(".")[:2])


def room_graph() -> dict[str, set[str]]:
    """Room -> the other rooms its modules import at run time, function-local imports too."""
    graph: dict[str, set[str]] = {room(name): set() for name in MODULES}
    for name, targets in import_graph(local=True).items():
        graph[room(name)] |= {room(target) for target in targets} - {room(name)}
    return graph


def floors(graph: Mapping[str, set[str]]) -> dict[str, int]:
    """Each room's floor: 1 for a room importing no other, else one above the highest it imports
    (the graph must have no cycle)."""
    found: dict[str, int] = {}

    def floor(here: str) -> int:
        if here not in found:
            found[here] = 1 + max((floor(there) for there in graph[here]), default=0)
        return found[here]

    for here in graph:
        floor(here)
    return found


def test_the_floor_counter_counts_the_longest_chain() -> None:
    assert floors({"a": {"b", "c"}, "b": {"c"}, "c": set(), "d": set()}) == {
        "a": 3,
        "b": 2,
        "c": 1,
        "d": 1,
    }
    assert room("nimmax.games.mnk.rules") == "nimmax.games" and room("nimmax") == "nimmax"


def test_the_rooms_stand_in_at_most_ten_floors_without_a_cycle() -> None:
    """The top level shows the architecture: errors and the contracts at the bottom, search, the
    plugin boundary and the games above them, players, the commands, the views, the CLI on top."""
    graph = room_graph()
    assert not cycles(graph), f"rooms import each other: {cycles(graph)}"
    height = floors(graph)
    tallest = max(height, key=lambda name: height[name])
    chain = [tallest]
    while graph[chain[-1]]:
        chain.append(max(graph[chain[-1]], key=lambda name: height[name]))
    assert height[tallest] <= MOST_FLOORS, " -> ".join(chain)


def test_architecture_draws_each_room_on_its_floor() -> None:
    """The house in docs/ARCHITECTURE.md (at most 150 lines): each numbered line names the rooms
    of that floor, first and after each `·`, as `room_graph` stacks them."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    assert len(text.splitlines()) <= 150
    height = floors(room_graph())
    said: dict[int, str] = {}
    for line in text.split("```")[1].splitlines()[2:]:
        floor, _, rest = line.strip().partition(" ")
        if floor.isdigit():
            said[int(floor)] = rest
        else:
            said[min(said)] += " " + line.strip()
    drawn = {
        "nimmax." + part.split()[0].removesuffix("/").removesuffix(".py"): floor
        for floor, rooms in said.items()
        for part in rooms.split(" · ")
    }
    assert len(drawn) >= 20
    assert {name: height.get(name) for name in drawn} == drawn


def test_games_do_not_stand_above_search() -> None:
    """A game reaches no search, not even through the plugin boundary it may pass."""
    graph = room_graph()
    reached: set[str] = set()
    todo = ["nimmax.games"]
    while todo:
        here = todo.pop()
        for there in graph[here] - reached:
            reached.add(there)
            todo.append(there)
    assert "nimmax.search" not in reached, sorted(reached)


def test_the_plugin_boundary_and_the_commands_are_one_package_each() -> None:
    for name in ("guard", "returns"):
        assert f"nimmax.plugins.{name}" in MODULES and f"nimmax.{name}" not in MODULES
    for name in ("solve", "analyze", "explain", "bench", "tree", "ladder", "catalog", "engine"):
        assert f"nimmax.commands.{name}" in MODULES and f"nimmax.{name}" not in MODULES


def test_ui_never_imports_typer() -> None:
    """A view that must end the command returns an exit code or raises a nimmax error; the CLI
    alone turns it into typer.Exit."""
    crossing = [
        f"{shown(MODULES[name])}:{found.line} imports {found.target}"
        for name in MODULES
        if name.startswith("nimmax.ui")
        for found in imports(name)
        if found.target.split(".")[0] in ("typer", "click")
    ]
    assert not crossing, "ui imports typer:\n" + "\n".join(crossing)


def test_views_run_nothing_themselves() -> None:
    """The play session, hints, `why`, the game's value and the duel and ladder runners are the
    core's (`nimmax.commands`); ui draws what they hand it and reads the keys."""
    crossing = [
        f"{shown(MODULES[name])}:{found.line} imports {found.target}"
        for name in MODULES
        if name.startswith("nimmax.ui")
        for found in imports(name)
        if found.target in RUNNERS and not found.typing_only
    ]
    assert not crossing, (
        "ui imports what runs (it may take values from nimmax.commands):\n" + "\n".join(crossing)
    )


def _defining_module(module: str, name: str) -> str:
    """Where `from module import name` takes the name from: the module that re-exports it says."""
    for found in ast.parse(MODULES[module].read_text()).body:
        if isinstance(found, ast.ImportFrom) and any(
            (alias.asname or alias.name) == name for alias in found.names
        ):
            base = found.module or ""
            if found.level:
                package = _package_of(module).split(".")
                base = ".".join(
                    [*package[: len(package) - found.level + 1], *([base] if base else [])]
                )
            return _defining_module(base, name) if base in MODULES else base
    return module


def test_views_import_no_search_engine() -> None:
    """Views render values: of nimmax.search they import only SEARCH_VALUES's modules."""
    crossing = []
    for name, path in MODULES.items():
        if not name.startswith("nimmax.ui"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [(alias.name, alias.name) for alias in node.names]
            elif (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("nimmax.search")
            ):
                targets = [(f"{node.module}.{alias.name}", alias.name) for alias in node.names]
            else:
                continue
            for target, imported in targets:
                if not target.startswith("nimmax.search"):
                    continue
                module = (
                    target
                    if target in MODULES
                    else _defining_module(target.rpartition(".")[0], imported)
                )
                if module not in SEARCH_VALUES:
                    crossing.append(f"{shown(path)}:{node.lineno} imports {imported} from {module}")
    assert not crossing, (
        "views import search engines (they may import only SEARCH_VALUES):\n" + "\n".join(crossing)
    )


# --- one registry per kind
# ----------------------------------------------------------------------------

GAME_NAMES = frozenset(
    {"simple-nim", "nim", "split-nim", "tictactoe", "connect4", "2048", "kalah", "plates"}
)
ENGINE_NAMES = frozenset({"minimax", "negamax", "alphabeta", "expectimax", "mcts"})
PLAYER_NAMES = frozenset({"human", "random"})
SESSION_COMMANDS = frozenset({"help", "hint", "undo", "why", "moves", "quit"})

REGISTRIES = {
    "games": "nimmax.games.GAMES",
    "engines": "nimmax.search.engines.ENGINES",
    "players": "nimmax.players.PLAYERS",
    "presentations": "nimmax.ui.games.PRESENTATIONS",
    "session commands": "nimmax.ui.presentation.COMMANDS",
}
"""The one place each kind is registered (the CLI's commands are the Typer app's, checked apart).
A module-level mapping or collection of a kind's names anywhere else is a second registry: a
renderer map keyed by game name, a bench list of game families, a tree map of engines. A
presentation is keyed by the game's type (a plugin gets the generic one by type), never by name;
where each game's registry entry carries its presentation instead, list the games' registry for
both kinds (then no mapping keyed by game types may exist)."""


def kind_of(value: object) -> str | None:
    """Which kind's names `value` is keyed by (a mapping) or made of (a collection of names or of
    entries with a `name`), or None: two of a kind's names make a registry of it, and so does a
    mapping keyed by that kind's names alone (`{"2048": ...}`)."""
    from nimmax.game import Game

    if isinstance(value, Mapping):
        keys = list(value)
    elif isinstance(value, (tuple, list, set, frozenset)):
        keys = [item if isinstance(item, str) else getattr(item, "name", None) for item in value]
    else:
        return None
    # nimmax's own game classes: a cache keyed by the plugin classes a process loaded is no registry
    if (
        sum(
            isinstance(key, type)
            and issubclass(key, Game)
            and key.__module__.startswith("nimmax.games")
            # guarded as a plugin: in the guard's class cache
            and key.__module__ != "nimmax.games.openspiel"
            for key in keys
        )
        >= 2
    ):
        return "presentations"
    names = {key for key in keys if isinstance(key, str)}
    if names & PLAYER_NAMES and names & ENGINE_NAMES:
        return "players"
    for kind, known in (
        ("games", GAME_NAMES),
        ("engines", ENGINE_NAMES),
        ("session commands", SESSION_COMMANDS),
    ):
        if len(names & known) >= 2 or (isinstance(value, Mapping) and names and names <= known):
            return kind
    return None


def module_level_names(path: Path) -> Iterator[tuple[str, int]]:
    """The names a module assigns at its top level, with their lines (imports left out)."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                yield target.id, node.lineno


def registrations() -> dict[str, list[tuple[str, str]]]:
    """Kind -> every module-level value of nimmax registering it: (dotted name, file:line). A
    mapping whose values all come from the kind's one registry is an index of it, not another."""
    found: dict[str, list[tuple[str, str]]] = {}
    values: dict[str, list[tuple[str, str, object]]] = {}
    for name, path in MODULES.items():
        if name == "nimmax.__main__":
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:  # an optional extra's module (Ray) where it is absent
            if (error.name or "nimmax").startswith("nimmax"):
                raise
            continue
        for variable, line in module_level_names(path):
            value = getattr(module, variable, None)
            kind = kind_of(value)
            if kind is not None:
                values.setdefault(kind, []).append(
                    (f"{name}.{variable}", f"{shown(path)}:{line}", value)
                )
    for kind, entries in values.items():
        registry = next(
            (value for dotted, _, value in entries if dotted == REGISTRIES.get(kind)), None
        )
        entry_ids = {id(item) for item in _entries(registry)}
        for dotted, where, value in entries:
            index = isinstance(value, Mapping) and value is not registry and bool(entry_ids)
            if not (index and all(id(item) in entry_ids for item in _entries(value))):
                found.setdefault(kind, []).append((dotted, where))
    return found


def _entries(registry: object) -> list[object]:
    if isinstance(registry, Mapping):
        return list(registry.values())
    return list(registry) if isinstance(registry, (tuple, list)) else []


def test_one_registry_per_kind() -> None:
    found = registrations()
    wrong = []
    for kind, registry in REGISTRIES.items():
        places = found.get(kind, [])
        carried = [kind] != [other for other, listed in REGISTRIES.items() if listed == registry]
        if [dotted for dotted, _ in places] != ([] if carried else [registry]):
            listed = "".join(f"\n    {where} {dotted}" for dotted, where in places) or " none"
            wrong.append(
                f"{kind}: registered in {len(places)} places, not only in {registry}:{listed}"
            )
    assert not wrong, (
        "one registry per kind (update REGISTRIES if the one registry moved):\n" + "\n".join(wrong)
    )


def test_every_cli_command_is_registered_once_on_one_app() -> None:
    """One Typer app is the CLI; each command (and command group) is registered on it once."""
    import typer

    apps = {
        f"{name}.{variable}": value
        for name, path in MODULES.items()
        if name.startswith("nimmax.cli")
        for variable, _ in module_level_names(path)
        if isinstance(value := getattr(importlib.import_module(name), variable, None), typer.Typer)
    }
    groups = {id(group.typer_instance) for app in apps.values() for group in app.registered_groups}
    roots = [name for name, app in apps.items() if id(app) not in groups]
    assert len(roots) == 1, f"the CLI's Typer apps that are no group of another: {roots}"

    def commands(app: typer.Typer, prefix: str) -> Iterator[str]:
        for command in app.registered_commands:
            callback = command.callback
            assert callback is not None
            yield prefix + (command.name or callback.__name__.replace("_", "-"))
        for group in app.registered_groups:
            if group.typer_instance is not None:
                yield from commands(group.typer_instance, f"{prefix}{group.name} ")

    names = list(commands(apps[roots[0]], ""))
    twice = sorted({name for name in names if names.count(name) > 1})
    assert not twice, f"commands registered more than once: {twice}"
    assert {"play", "solve", "duel", "check"} <= set(names)
    for command in apps[roots[0]].registered_commands:
        module = inspect.getmodule(command.callback)
        assert module is not None and module.__name__.startswith("nimmax.cli"), command.name


def test_the_views_of_solve_analyze_and_duel_load_no_prompt_toolkit() -> None:
    code = (
        "import sys, nimmax.ui.results, nimmax.ui.render, nimmax.ui.duel, nimmax.ui.why\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'prompt_toolkit'))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert loaded.stdout.strip() == "[]"


LEFT_FOR_LATER = (
    (
        ["--help"],
        (
            "prompt_toolkit",
            "markdown_it",
            "pygments",
            "rich.markdown",
            "rich.traceback",
            "nimmax.games",
        ),
    ),
    (
        ["solve", "tictactoe"],
        ("prompt_toolkit", "markdown_it", "pygments", "rich.progress", "json", "nimmax.duel"),
    ),
    (
        ["duel", "alphabeta", "random", "--games=10", "--json"],
        ("prompt_toolkit", "multiprocessing", "rich.progress"),
    ),
)
"""Commands, in the order one process runs them, and the modules none of them up to there loads: a
command imports what it draws when it draws it (`--help` draws no markdown, `solve` no prompt, a
duel of one process starts no pool), since every module costs start-up time."""


def test_help_solve_and_a_one_process_duel_load_only_what_they_draw() -> None:
    code = (
        "import contextlib, io, sys\nfrom nimmax.cli import main\n"
        f"for args, unwanted in {LEFT_FOR_LATER!r}:\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        main(args)\n"
        "    print([m for m in unwanted if m in sys.modules])\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    found = [ast.literal_eval(line) for line in loaded.stdout.splitlines()]
    commands = [" ".join(args) for args, _ in LEFT_FOR_LATER]
    assert found == [[]] * len(LEFT_FOR_LATER), dict(zip(commands, found, strict=False))


# --- the m,n,k game: parts, not a chain ----------------------------------------------------------


def test_mnk_is_a_game_holding_its_parts() -> None:
    """MNK stands right on Game and holds its parts (geometry, notation, rules, threats, evaluation,
    Connect Four's proof, threat proofs); each part stands on object alone, and no method or class
    attribute is defined in two of them, so each question about the game has one place that answers
    it."""
    from typing import Generic

    from nimmax.game import Game
    from nimmax.games import create
    from nimmax.games.mnk import MNK, Board
    from nimmax.games.mnk.proof import Proof
    from nimmax.games.mnk.threat_proof import ThreatProof

    assert MNK.__mro__ == (MNK, Game, Generic, object)
    game = create(["connect4"]).for_search()
    held = {type(value) for value in vars(game).values()}
    parts = {kind for kind in held if kind.__module__.startswith("nimmax.games.mnk.")} - {Board}
    parts |= {Proof, ThreatProof}  # held where the books are installed, and on boards past 7x7
    names = sorted(part.__name__ for part in parts)
    assert names == [
        "Evaluation",
        "Geometry",
        "Notation",
        "Proof",
        "Rules",
        "ThreatProof",
        "Threats",
    ]
    owners: dict[str, list[str]] = {}
    for part in parts:
        assert part.__mro__ == (part, object)
        for name in vars(part):
            if not (name.startswith("__") and name.endswith("__")):
                owners.setdefault(name, []).append(part.__name__)
    shared = {"begin"}  # each proof's answer to a search's start: one interface, two parts
    assert {
        name: where for name, where in owners.items() if len(where) > 1 and name not in shared
    } == {}


def test_only_cli_and_ui_import_a_presentation_library() -> None:
    crossing = [
        f"{shown(MODULES[name])}:{found.line} imports {found.target}"
        for name in MODULES
        if not name.startswith(("nimmax.cli", "nimmax.ui"))
        for found in imports(name)
        if found.target.split(".")[0] in ("typer", "rich", "prompt_toolkit")
    ]
    assert not crossing, "the core imports a presentation library:\n" + "\n".join(crossing)


RECORD_READERS = {"nimmax.commands.play", "nimmax.recorded", "nimmax.saves"}
RECORD_WRITERS = {"nimmax.ui.records", "nimmax.ui.resume", "nimmax.saves"}
"""Who turns a record's text into a GameRecord (`from_json`) and back (`to_json`: a played game's
record, the check that a kept record is current, the autosave), as ARCHITECTURE says."""


def test_records_are_read_and_written_where_architecture_says() -> None:
    calls: dict[str, set[str]] = {"from_json": set(), "to_json": set()}
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            if node.func.attr in calls and name != "nimmax.match":
                calls[node.func.attr].add(name)
    assert calls == {"from_json": RECORD_READERS, "to_json": RECORD_WRITERS}
