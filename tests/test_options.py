"""The CLI's numeric options are read by `nimmax.numbers` within documented ranges: one line naming
the option and its range, exit 2, before any work; a bench row too deep for the stack is a row;
an SVG that cannot be written after the walk is exit 1."""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from nimmax.commands.bench import (
    DONE,
    SKIPPED,
    TOO_DEEP,
    algorithms,
    boards,
    family,
    measure,
    run_all,
)
from nimmax.errors import quoted
from nimmax.numbers import int_option
from nimmax.search import TooDeep, deep

from .cli_helpers import nimmax_in_process, read_specs

WHOLE = "must be a whole number from"
DECIMAL = "must be a number from"
SEED = "--seed must be a whole number from 0 to 18446744073709551615"
DUEL = ["duel", "alphabeta", "random", "--game", "nim 2 3"]
TOURNAMENT = ["tournament", "alphabeta", "random", "--game", "nim 2 3"]

OPTIONS = [
    (
        ["solve", "nim", "2", "3", "5"],
        "--depth",
        "--depth must be a whole number from 1 to 1000000",
    ),
    (
        ["solve", "nim", "2", "3", "5"],
        "--time",
        "--time must be a number from 0.001 to 1000000 or inf",
    ),
    (
        ["play", "nim", "2", "3", "5"],
        "--time",
        "--time must be a number from 0.001 to 1000000 or inf",
    ),
    (["play", "nim", "2", "3", "5"], "--seed", SEED),
    (DUEL, "--games", "--games must be a whole number from 1 to 1000000"),
    (DUEL, "--jobs", "--jobs must be a whole number from 1 to 64"),
    (DUEL, "--seed", SEED),
    (TOURNAMENT, "--games", "--games must be a whole number from 1 to 1000000"),
    (TOURNAMENT, "--jobs", "--jobs must be a whole number from 1 to 64"),
    (TOURNAMENT, "--seed", SEED),
    (["tree", "nim", "2"], "--max-nodes", "--max-nodes must be a whole number from 1 to 1000000"),
    (["bench", "simple-nim"], "--time", "--time must be a number from 0.001 to 1000000"),
    (["bench", "simple-nim"], "--limit", "--limit must be a number from 0.001 to 1000000"),
    (
        ["bench", "simple-nim"],
        "--sizes",
        "each of --sizes must be a whole number from 1 to 1000000000",
    ),
    (["bench", "tictactoe"], "--sizes", "each of --sizes must be a whole number from 1 to 26"),
    (["bench", "tictactoe"], "--k", "each of --k must be a whole number from 1 to 26"),
]
BAD = ["٣", "²", "５", "1_0", "99999999999999999999999", "9" * 5000, "-1", "nan", "x", "", "1e999"]


@pytest.mark.parametrize(("command", "option", "message"), OPTIONS, ids=lambda value: str(value))
@pytest.mark.parametrize(
    "text",
    BAD,
    ids=[
        "arabic-3",
        "superscript-2",
        "fullwidth-5",
        "1_0",
        "huge",
        "5000-digits",
        "-1",
        "nan",
        "x",
        "empty",
        "1e999",
    ],
)
def test_a_bad_number_is_one_line_naming_the_option_and_its_range(
    command: list[str], option: str, message: str, text: str
) -> None:
    run = nimmax_in_process(*command, option, text)
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert run.stderr == f"nimmax: {message}, not {quoted(text)}\n"
    assert run.stdout == ""


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (
            ["solve", "nim", "2", "3", "5", "--depth", "99999999999999999999"],
            "'99999999999999999999'",
        ),
        (["bench", "simple-nim", "--sizes", "3,4,٣"], "'٣'"),
        (
            ["duel", "alphabeta", "random", "--games", "99999999999999999999999"],
            "'99999999999999999999999'",
        ),
    ],
)
def test_the_reported_commands_are_refused_at_once(args: list[str], shown: str) -> None:
    run = nimmax_in_process(*args)
    assert (
        run.returncode == 2
        and run.stderr.endswith(f", not {shown}\n")
        and len(run.stderr.splitlines()) == 1
    )


def test_a_message_quotes_at_most_40_characters() -> None:
    run = nimmax_in_process(*DUEL, "--games", "7" * 1000)
    assert run.returncode == 2
    assert (
        run.stderr
        == f"nimmax: --games must be a whole number from 1 to 1000000, not '{'7' * 40}…'\n"
    )


def test_good_numbers_are_read_as_before() -> None:
    deepest = nimmax_in_process("solve", "nim", "2", "3", "5", "--depth", "1000000", "--json")
    plain = nimmax_in_process("solve", "nim", "2", "3", "5", "--json")
    assert deepest.returncode == plain.returncode == 0
    # the table stays on
    assert json.loads(deepest.stdout)["nodes"] == json.loads(plain.stdout)["nodes"]
    timed = nimmax_in_process("solve", "nim", "2", "3", "5", "--time", "inf", "--json")
    assert timed.returncode == 0 and json.loads(timed.stdout)["exact"]
    duel = nimmax_in_process(
        *DUEL, "--games", " 2", "--jobs", "01", "--seed", "18446744073709551615", "--json"
    )
    assert duel.returncode == 0, duel.stderr
    assert (
        json.loads(duel.stdout)["games"] == 2
        and json.loads(duel.stdout)["seed"] == 18446744073709551615
    )
    bench = nimmax_in_process("bench", "simple-nim", "--sizes", "3, 4", "--time", "1e1", "--json")
    assert bench.returncode == 0 and [row["size"] for row in json.loads(bench.stdout)["rows"]] == [
        3,
        3,
        4,
        4,
    ]


def test_int_option_passes_none_through() -> None:
    read = int_option("--jobs", 1, 64)
    assert read(None) is None and read("64") == 64


@pytest.mark.parametrize(
    ("command", "defaults"),
    [
        (
            "solve",
            [
                "Search depth limit in plies, 1 to 1000000.",
                "0.001 to 1000000, or inf",
                "(to the end)",
            ],
        ),
        ("play", ["0 to 2^64-1", "[default: (1)]", "[default: 0.0]"]),
        ("tree", ["1 to 1000000", "[default: 2000]"]),
        ("bench", ["0.001 to 1000000", "[default: 10.0]"]),
        ("duel", ["1 to 1000000", "[default: 100]", "1 to 64", "[default: 1]", "0 to 2^64-1"]),
        ("tournament", ["[default: 20]", "1 to 64"]),
        ("replay", ["0 to 60 s"]),
    ],
)
def test_help_still_shows_the_ranges_and_defaults(command: str, defaults: list[str]) -> None:
    run = nimmax_in_process(command, "--help")
    assert run.returncode == 0, run.stderr
    text = " ".join(run.stdout.replace("│", " ").split())
    for default in defaults:
        assert default in text, (default, text)


def test_a_bench_run_too_deep_for_the_stack_is_a_row_and_the_larger_boards_are_skipped() -> None:
    grid = boards(family("simple-nim"), (5, 1_000_000, 2_000_000))
    with mock.patch("nimmax.commands.bench.deep", side_effect=TooDeep(1000)) as searched:
        row = measure(grid[1], algorithms(read_specs("alphabeta"))[0], limit=1)
    assert searched.call_count == 1 and row.status == TOO_DEEP and row.value is None
    real = iter([deep])  # the small board searched for real, the next one too deep

    def real_then_too_deep(*args: Any, **kwargs: Any) -> Any:
        search = next(real, None)
        if search is None:
            raise TooDeep(1000)
        return search(*args, **kwargs)

    with mock.patch("nimmax.commands.bench.deep", side_effect=real_then_too_deep):
        rows = list(run_all(grid, algorithms(read_specs("alphabeta")), limit=5))
    assert [row.status for row in rows] == [DONE, TOO_DEEP, SKIPPED]


def test_bench_reports_a_run_too_deep_and_exits_0() -> None:
    run = nimmax_in_process(
        "bench", "simple-nim", "--sizes", "5,1000000000", "--algorithm", "alphabeta"
    )
    assert run.returncode == 0, run.stderr
    assert "too deep" in run.stdout and "simple-nim: exact search" in run.stdout
    as_json = nimmax_in_process(
        "bench", "simple-nim", "--sizes", "5,1000000000", "--algorithm", "alphabeta", "--json"
    )
    assert [row["status"] for row in json.loads(as_json.stdout)["rows"]] == [DONE, TOO_DEEP]


def test_tree_svg_that_cannot_be_written_after_the_walk_is_one_line_exit_1(tmp_path: Path) -> None:
    picture = tmp_path / "tree.svg"
    picture.write_text("an older picture")
    full = OSError(errno.ENOSPC, "No space left on device")
    with mock.patch("os.fsync", side_effect=full):  # the disk filled while the picture was written
        run = nimmax_in_process("tree", "nim", "2", "--svg", str(picture))
    assert run.returncode == 1
    assert (
        run.stderr
        == f"nimmax: cannot write the picture to {quoted(str(picture))}: No space left on device\n"
    )
    assert picture.read_text() == "an older picture"  # written whole or not at all


def test_tree_and_bench_quote_an_unknown_algorithm() -> None:
    long = "é" * 1000
    tree = nimmax_in_process("tree", "nim", "2", "--algorithm", long)
    assert tree.returncode == 2 and tree.stderr.endswith(f"not {quoted(long)}\n")
    bench = nimmax_in_process("bench", long)
    assert bench.returncode == 2 and quoted(long) in bench.stderr and len(bench.stderr) < 200
