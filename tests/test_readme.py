"""Every `nimmax` command in the README's code blocks runs as written and exits as the README says.

The commands run in README order in one folder (the README's `game.json` is made by its own `play
... --record game.json`), with `examples/` beside them as in a checkout. Where one would search
long, its time is cut (`SHORTER`); a `play` without input of its own gets a person at a pipe who
plays random legal moves to the end. Every command exits 0: the README shows no refusal as a
command line. The one command left to another test is the Ray cluster's tournament, which needs a
running cluster (`tests/test_ray.py::test_the_readme_cluster_commands_run` runs that session).
"""

from __future__ import annotations

import json
import shlex
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import pytest

from .cli_helpers import (
    ROOT,
    Example,
    PipedPerson,
    best_listed_first,
    nimmax_in_process,
    ran_clean,
    readme_examples,
)

PLAY_OPTIONS = ("--first", "--second", "--time", "--seed", "--delay", "--record")
"""play's own options (each takes a value): the other words are the game's."""

SHORTER = {
    "play": 0.05,
    "solve": 0.3,
    "bench": 2.0,
    "duel": 0.02,
    "tournament": 0.02,
    "ladder": 0.05,
}
"""Per command, the most seconds a move or run is given here (`--time`, added to play and duels,
which have engines with no limit of their own; cut elsewhere where the README's is longer)."""

CLUSTER = "--backend", "ray"

SHOWN = {
    "duel": ("seed", "players"),
    "tournament": ("seed", "players"),
    "ladder": ("Elo", "standings"),
}
"""Per command, what its output holds beyond exiting 0: a word its text shows, and a field its
`--json` fills."""


def on_a_cluster(example: Example) -> bool:
    """Whether the command needs a Ray cluster running (the README starts one with `ray start
    --head`)."""
    args = list(example.args)
    return any(args[at : at + 2] == list(CLUSTER) for at in range(len(args)))


EXAMPLES = [example for example in readme_examples() if not on_a_cluster(example)]


def shortened(args: Sequence[str]) -> list[str]:
    """The command with its time cut to `SHORTER`'s, or given it where engines would think a second
    a move."""
    args, most = list(args), SHORTER.get(args[0])
    if most is None:
        return args
    if "--time" in args:
        at = args.index("--time") + 1
        args[at] = str(min(float(args[at]), most))
    elif args[0] in ("play", "duel", "tournament"):
        args += ["--time", str(most)]
    return args


def game_words(args: Sequence[str]) -> list[str]:
    """The game's words of a play command: what is left once play's options and their values are
    out."""
    words, skip = [], False
    for word in args[1:]:
        if skip or word in PLAY_OPTIONS:
            skip = not skip
            continue
        words.append(word)
    return words


def piped(example: Example) -> str | TextIO:
    """What the command reads: the README's `printf` input, or for play a person who plays it
    out."""
    if example.stdin or example.args[0] != "play":
        return example.stdin
    return PipedPerson(game_words(example.args), seed=1)


def run(example: Example, folder: Path) -> subprocess.CompletedProcess[str]:
    """The example run in `folder`, shortened, with its input."""
    return nimmax_in_process(*shortened(example.args), stdin=piped(example), cwd=folder)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder like the reader's checkout: `examples/` in it, and the README's record already
    made."""
    made = tmp_path_factory.mktemp("readme")
    (made / "examples").symlink_to(ROOT / "examples")
    for example in EXAMPLES:
        if "--record" in example.args:
            assert run(example, made).returncode == 0
    return made


def test_the_readme_has_its_commands() -> None:
    """The extraction finds the README's examples: every command, `solve` the most of them, Kalah's
    and the ladder's among them."""
    commands = [example.args[0] for example in EXAMPLES]
    assert commands.count("solve") >= 20
    assert (
        sum("kalah" in example.args for example in EXAMPLES) >= 3 and commands.count("ladder") >= 2
    )
    assert set(commands) >= {
        "--version",
        "games",
        "play",
        "replay",
        "analyze",
        "solve",
        "tree",
        "bench",
    }
    assert set(commands) >= {"duel", "tournament", "ladder", "check"}
    assert [example.args[:1] for example in readme_examples() if on_a_cluster(example)] == [
        ("tournament",)
    ]


@pytest.mark.parametrize(
    "example", EXAMPLES, ids=[f"L{example.line} {shlex.join(example.args)}" for example in EXAMPLES]
)
def test_every_readme_command_runs_and_exits_0(example: Example, folder: Path) -> None:
    """The command exits 0 with no traceback and prints; a `--json` one prints one JSON document, a
    `solve` lists its best move first, a duel, tournament or ladder shows what `SHOWN` says, and a
    file it is told to write is there (the README's record: alphabeta beats random)."""
    done = run(example, folder)
    ran_clean(done)
    assert done.stdout.strip()
    args = example.args
    document = json.loads(done.stdout) if "--json" in args else None
    assert document is None or document
    if args[0] == "solve":
        best_listed_first(done.stdout)
    if "kalah" in args:
        assert "move" in done.stdout
    if args[0] in SHOWN:
        word, field = SHOWN[args[0]]
        assert document[field] if document is not None else word in done.stdout
    for option in ("--record", "--svg"):
        if option in args:
            assert (folder / args[args.index(option) + 1]).stat().st_size > 0
    if "--record" in args:
        assert (
            json.loads((folder / args[args.index("--record") + 1]).read_text())["result"]["winner"]
            == 0
        )
