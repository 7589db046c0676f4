"""DESIGN.md's layering: the core imports no presentation library; engines keep no module state."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from .cli_helpers import ROOT

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
    "nimmax.solve",
    "nimmax.analyze",
    "nimmax.explain",
]


def test_core_imports_no_presentation_library() -> None:
    code = (
        "import sys\n"
        + "".join(f"import {module}\n" for module in CORE)
        + "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'rich', 'prompt_toolkit')))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert loaded.stdout.strip() == "[]"


def test_search_modules_keep_no_mutable_module_state() -> None:
    for path in Path(ROOT, "nimmax", "search").glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, (ast.List, ast.Dict, ast.Set)):
                raise AssertionError(f"{path.name}:{node.lineno} keeps a mutable module-level value")


def test_games_never_import_search() -> None:
    for path in Path(ROOT, "nimmax", "games").glob("*.py"):
        assert "nimmax.search" not in path.read_text(), path.name


def _imported(path: Path) -> set[str]:
    """The modules a file imports at run time (imports under `if TYPE_CHECKING:` left out)."""
    tree = ast.parse(path.read_text())
    checked = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    names: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in checked:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            names.add(node.module)
    return names


def test_ui_never_imports_typer() -> None:
    for path in Path(ROOT, "nimmax", "ui").glob("*.py"):
        assert not {name for name in _imported(path) if name.split(".")[0] == "typer"}, path.name


VIEWS = [
    *("results.py", "render.py", "rules.py", "banner.py", "presentation.py", "games.py", "text.py"),
    *("nim.py", "boards.py", "kalah.py", "plates.py", "twenty48.py"),
]
"""ui modules that only draw or word values: they never run a search."""


def test_views_import_no_search() -> None:
    for name in VIEWS:
        imported = _imported(Path(ROOT, "nimmax", "ui", name))
        assert not {module for module in imported if module.startswith(("nimmax.search", "nimmax.analyze"))}, name


def test_the_views_of_solve_analyze_and_duel_load_no_prompt_toolkit() -> None:
    code = (
        "import sys, nimmax.ui.results, nimmax.ui.render, nimmax.ui.duel, nimmax.ui.why\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'prompt_toolkit'))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert loaded.stdout.strip() == "[]"
