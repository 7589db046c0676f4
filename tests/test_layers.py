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
    for path in Path(ROOT, "nimmax", "games").rglob("*.py"):  # games/mnk/ too
        assert "nimmax.search" not in path.read_text(), path.name
