"""The CLI end to end: `games`, `solve`, JSON output and exit codes, as a user runs them."""

from __future__ import annotations

import json
import math
import re

import pytest

from nimmax.ui.presentation import COMMANDS

from .cli_helpers import nimmax, nimmax_in_process
from .theory import simple_nim_tree_size


def test_solve_table_names_the_winning_move() -> None:
    run = nimmax("solve", "nim", "2", "3", "5")
    assert run.returncode == 0, run.stderr
    assert "3:4  ← best" in run.stdout and "win" in run.stdout and "nodes" in run.stdout


def test_solve_json_is_the_documented_object() -> None:
    run = nimmax("solve", "nim", "2", "3", "5", "--json")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    for field in (
        "game",
        "position",
        "to_move",
        "value",
        "best_move",
        "moves",
        "algorithm",
        "nodes",
        "seconds",
        "exact",
    ):
        assert field in record
    assert record["game"] == "nim 2 3 5" and record["position"] == "2,3,5"
    assert record["value"] == 1 and record["best_move"] == "3:4" and record["exact"] is True
    assert {move["move"]: move["value"] for move in record["moves"]}["3:4"] == 1
    assert sum(move["value"] == 1 for move in record["moves"]) == 1


def test_solve_plain_minimax_counts_the_whole_tree() -> None:
    record = json.loads(
        nimmax(
            "solve", "simple-nim", "6", "--algorithm", "minimax:cache=off,book=off", "--json"
        ).stdout
    )
    # 1 + t(5) + t(4) + t(3) = 1 + 28 + 15 + 8 = 52
    assert record["nodes"] == simple_nim_tree_size(6)
    assert record["best_move"] == "1" and record["value"] == 1


def test_game_options_pass_through_to_the_game() -> None:
    record = json.loads(nimmax("solve", "nim", "1", "1", "--normal", "--json").stdout)
    assert record["game"] == "nim 1 1 --normal" and record["value"] == -1
    record = json.loads(nimmax("solve", "simple-nim", "12", "--max-take", "5", "--json").stdout)
    assert record["value"] == 1 and record["best_move"] == "5"  # leave 7 = 1 (mod 6)


def test_deep_game_solves() -> None:
    run = nimmax("solve", "simple-nim", "5000", "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["best_move"] == "3"


def test_depth_limited_solve_is_marked_inexact() -> None:
    record = json.loads(
        nimmax(
            "solve",
            "nim",
            "4",
            "5",
            "6",
            "--depth",
            "2",
            "--algorithm",
            "alphabeta:book=off",
            "--json",
        ).stdout
    )
    assert record["exact"] is False


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "nim", "-1", "2"],
        ["solve", "nim", "two"],
        ["solve", "chess"],
        ["solve", "nim", "3", "--bogus"],
        ["solve", "nim", "3", "--algorithm", "deep-blue"],
        ["solve", "nim", "3", "--algorithm", "alphabeta:depth=zero"],
        ["solve", "nim", "3", "--algorithm", "random"],
        ["solve", "nim", "3", "--depth", "x"],
        ["solve"],
        ["frobnicate"],
    ],
)
def test_bad_input_exits_2_without_traceback(args: list[str]) -> None:
    run = nimmax(*args)
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert "Traceback" not in run.stderr and run.stderr.strip()


def test_games_lists_games_and_players() -> None:
    run = nimmax("games")
    assert run.returncode == 0
    for name in ("simple-nim", "split-nim", "alphabeta", "expectimax"):
        assert name in run.stdout
    listing = json.loads(nimmax("games", "--json").stdout)
    assert {"nim", "simple-nim", "split-nim"} <= {game["name"] for game in listing["games"]}
    assert {"human", "random", "minimax", "negamax", "alphabeta", "expectimax"} <= {
        player["name"] for player in listing["players"]
    }


def test_games_shows_every_default_short_and_the_cutoff_the_engine_chooses() -> None:
    """UCT's c is sqrt(2), shown to four figures; expectimax's cut-off, chosen by the engine, is
    1e-4 under a limit (spawn sequences rarer than 1 in 10,000) and 0 for an exact search."""
    text = " ".join(nimmax_in_process("games").stdout.split())
    (c,) = re.findall(r"\bc=([\d.]+)", text)
    assert c == f"{math.sqrt(2):.4g}"
    (cutoff,) = re.findall(r"cutoff=(\S+ \(0 when exact\))", text)
    assert float(cutoff.split()[0]) == 1e-4


def test_play_help_names_every_command_a_player_may_type() -> None:
    text = " ".join(nimmax_in_process("play", "--help").stdout.split())
    said = text.split("At your turn type a move or ")[1].split(".")[0]
    assert set(said.split(", ")) == set(COMMANDS)


def test_every_command_has_help_with_examples() -> None:
    for command in ("games", "solve"):
        run = nimmax(command, "--help")
        assert run.returncode == 0 and "nimmax " + command in run.stdout


def test_games_json_and_table_render_one_catalog() -> None:
    """`games --json` prints the library's catalog as it is; the table lists the same games and
    players."""
    from nimmax.commands.catalog import catalog

    listed = catalog()
    assert json.loads(nimmax_in_process("games", "--json").stdout) == json.loads(
        json.dumps(listed.as_json())
    )
    table = nimmax_in_process("games").stdout
    assert all(info.name in table for info in listed.games) and all(
        kind.name in table for kind in listed.players
    )


def test_every_time_option_reads_its_range_from_one_place() -> None:
    """Each command's --time help names one range, the time limit Option's; inf only where it means
    no limit."""
    import typer

    from nimmax.cli import app
    from nimmax.search.limits import TIME

    low, high = TIME.low, TIME.high
    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    helps = {
        name: param.help
        for name, command in commands.items()
        for param in command.params
        if "--time" in param.opts
    }
    assert set(helps) == {"solve", "bench", "play", "analyze", "duel", "tournament", "ladder"}
    for name, text in helps.items():
        assert text.startswith("Seconds ") and f", {low:g} to {high:.0f}" in text, name
    assert {name for name, text in helps.items() if "or inf" not in text} == {"bench", "ladder"}
