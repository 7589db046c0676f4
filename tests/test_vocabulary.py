"""One vocabulary: every command registered at run time has `--help` with examples, and the options
the commands share have one name each (the engine `--algorithm`, seconds `--time`, ...).

The commands are read from the Typer app as it stands, so a command added later (a ladder) is
walked too, without this file changing.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import typer

from nimmax import __version__, games
from nimmax.cli import app
from nimmax.ui.prompt import short_words

from .cli_helpers import nimmax, nimmax_in_process

SHARED = {
    "--algorithm": "the engine (a list where a command compares several)",
    "--time": "seconds of search, per move or per run",
    "--games": "how many games",
    "--seed": "the seed of random draws",
    "--json": "machine output",
    "--depth": "plies of search",
}
"""The shared options, each with the one name every command gives it."""

OTHER_SPELLINGS = {
    "--algorithms": "--algorithm",
    "--engine": "--algorithm",
    "--engines": "--algorithm",
    "--limit": "--time",
    "--seconds": "--time",
    "--timeout": "--time",
    "--time-limit": "--time",
    "--count": "--games",
    "--n-games": "--games",
    "--rounds": "--games",
    "--random-seed": "--seed",
    "--as-json": "--json",
    "--max-depth": "--depth",
    "--plies": "--depth",
}
"""Names a shared option must not be shown under (an old spelling may still be read, hidden)."""


def commands() -> dict[str, Any]:
    """Every command of the app as registered now (typer's click commands)."""
    return dict(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def shown_options(command: Any) -> dict[str, Any]:
    """The options a command's --help shows, by each of their names."""
    return {
        name: param
        for param in command.params
        if not getattr(param, "hidden", False)
        for name in param.opts
    }


def test_the_app_has_the_commands_a_newcomer_reads_of() -> None:
    assert {"games", "play", "replay", "solve", "tree", "bench", "duel", "tournament"} <= set(
        commands()
    )


@pytest.mark.parametrize("name", sorted(commands()))
def test_every_command_has_help_with_examples(name: str) -> None:
    run = nimmax_in_process(name, "--help")
    assert run.returncode == 0, run.stderr
    assert "Usage: nimmax " + name in run.stdout
    assert (
        re.search(r"Examples?", run.stdout) and f"nimmax {name}" in run.stdout.split("Usage:", 1)[1]
    )


def test_the_shared_options_have_one_name_in_every_command() -> None:
    seen: dict[str, set[str]] = {}
    for name, command in commands().items():
        for option in shown_options(command):
            assert option not in OTHER_SPELLINGS, (
                f"{name} shows {option}; the shared name is {OTHER_SPELLINGS[option]}"
            )
            if option in SHARED:
                seen.setdefault(option, set()).add(name)
    assert seen["--algorithm"] >= {"solve", "tree", "bench"}
    assert seen["--time"] >= {"solve", "play", "bench", "duel", "tournament"}
    assert seen["--json"] >= {"games", "solve", "bench", "duel", "tournament"}
    assert seen["--seed"] >= {"play", "duel", "tournament"}


def test_a_time_is_always_seconds_and_an_algorithm_always_an_engine_spec() -> None:
    for name, command in commands().items():
        options = shown_options(command)
        if "--time" in options:
            assert "Seconds" in (options["--time"].help or ""), name
        if "--algorithm" in options:
            words = (options["--algorithm"].help or "").lower()
            assert "engine" in words or "minimax" in words, name


def test_old_spellings_are_read_but_not_shown() -> None:
    bench = commands()["bench"]
    hidden = {
        name for param in bench.params if getattr(param, "hidden", False) for name in param.opts
    }
    assert hidden == {"--algorithms", "--limit"}
    assert "--algorithms" not in nimmax_in_process("bench", "--help").stdout


def test_defaults_that_differ_say_why() -> None:
    """solve defaults to alphabeta, tree to minimax: tree's help says why."""
    tree = nimmax_in_process("tree", "--help").stdout
    assert "not solve's" in " ".join(tree.split())


def test_version() -> None:
    run = nimmax("--version")
    assert run.returncode == 0 and run.stdout == f"nimmax {__version__}\n" and run.stderr == ""
    assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", __version__)


def test_duel_time_is_plays_time_for_engines_without_a_limit() -> None:
    run = nimmax_in_process(
        "duel",
        "alphabeta",
        "alphabeta:depth=2",
        "--game",
        "nim 2 3",
        "--games",
        "2",
        "--time",
        "0.5",
        "--seed",
        "1",
        "--json",
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["players"] == ["alphabeta:time=0.5", "alphabeta:depth=2"]


@pytest.mark.parametrize(
    ("words", "short"),
    [
        ("tictactoe", {"?": "help", "u": "undo", "q": "quit"}),
        ("kalah", {"?": "help", "u": "undo", "q": "quit"}),
        ("nim 2 3 5", {"?": "help", "u": "undo", "q": "quit"}),
        ("connect4 --cols 22", {"?": "help"}),  # columns a to v: u and q are moves
        ("connect4 --cols 20", {"?": "help", "u": "undo"}),  # a to t: q is a move, u is not
        ("2048", {"?": "help", "q": "quit"}),  # typed, u is up (its key reader has its own keys)
    ],
)
def test_short_words_are_commands_only_where_no_move_is_written_so(
    words: str, short: dict[str, str]
) -> None:
    assert short_words(games.create(words)) == short
