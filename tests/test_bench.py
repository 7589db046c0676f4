"""`nimmax bench`: the grid of boards, values against theory, node counts against the engines,
and a per-run limit that really bounds the time."""

from __future__ import annotations

import json
import time
from math import inf

import pytest

from nimmax import games
from nimmax.commands.bench import (
    DONE,
    OVER,
    SKIPPED,
    Board,
    Row,
    Setup,
    algorithms,
    bench,
    boards,
    family,
    larger,
    measure,
    parse_sizes,
    plan,
    run_all,
    split_algorithms,
)
from nimmax.game import BadInput
from nimmax.players import Spec
from nimmax.search import Table, search
from nimmax.ui.bench import BenchProgress

from .cli_helpers import nimmax, nimmax_in_process, read_specs
from .theory import nim_mover_wins, simple_nim_tree_size


def engines(text: str) -> list[Spec]:
    """The engines `bench --algorithm TEXT` runs, read as the CLI reads them."""
    return algorithms(read_specs(*split_algorithms(text)))


def test_families_make_the_documented_game_words() -> None:
    assert [words for words, _, _ in plan(family("simple-nim"), (20, 10, 15))] == [
        "simple-nim 10",
        "simple-nim 15",
        "simple-nim 20",
    ]
    assert [words for words, _, _ in plan(family("nim"), (1, 4))] == ["nim 1", "nim 1 3 5 7"]
    assert [words for words, _, _ in plan(family("split-nim"), (9,))] == ["split-nim 9"]
    assert plan(family("tictactoe"), (3, 4), (3, 4)) == [
        ("tictactoe --size 3 --k 3", 3, 3),
        ("tictactoe --size 4 --k 3", 4, 3),
        ("tictactoe --size 4 --k 4", 4, 4),
    ]
    assert [words for words, _, _ in plan(family("tictactoe"), (3, 4))] == [
        "tictactoe --size 3 --k 3",
        "tictactoe --size 4 --k 4",
    ]  # k defaults to the size


def test_bad_sizes_are_refused() -> None:
    for text in ("x", "3,,4", "0", "-1", "27"):
        with pytest.raises(BadInput, match="each of --sizes must be a whole number from 1 to 26"):
            parse_sizes(family("tictactoe"), "--sizes", text)
    assert parse_sizes(family("tictactoe"), "--k", " 3, 4") == (3, 4)
    assert parse_sizes(family("nim"), "--sizes", None) == ()


@pytest.mark.parametrize("sizes, ks", [((3,), (4,)), ((2,), (5, 3))])
def test_a_k_over_every_size_leaves_no_board(sizes: tuple[int, ...], ks: tuple[int, ...]) -> None:
    with pytest.raises(BadInput, match="no board left"):
        plan(family("tictactoe"), sizes, ks)


def test_values_match_theory_and_nodes_match_the_engines() -> None:
    plain_minimax, with_table, without_table = engines(
        "minimax:cache=off,alphabeta,alphabeta:cache=off"
    )
    for board in boards(family("simple-nim"), (5, 8, 9, 12)):
        expected = -1 if board.size % 4 == 1 else 1
        row = measure(board, plain_minimax, limit=30)
        assert row.status == DONE and row.value == expected
        assert row.nodes == simple_nim_tree_size(board.size)
        state = board.game.initial_state()
        for algorithm, table in ((with_table, Table()), (without_table, Table(0))):
            row = measure(board, algorithm, limit=30)
            assert (
                row.value == expected
                and row.nodes
                == search(board.game, state, "alphabeta", table=table, time=inf, book=False).nodes
            )
    for board in boards(family("nim"), (1, 2, 3, 4)):
        piles = list(board.game.initial_state().piles)
        assert measure(board, with_table, limit=30).value == (
            1 if nim_mover_wins(piles, misere=True) else -1
        )


def test_limit_stops_a_run_and_skips_the_larger_boards() -> None:
    grid = boards(family("simple-nim"), (6, 40, 45))
    start = time.perf_counter()
    rows = list(run_all(grid, engines("minimax:cache=off,alphabeta"), limit=0.3))
    elapsed = time.perf_counter() - start
    status = {(row.board, row.algorithm): row.status for row in rows}
    assert status[("simple-nim 6", "minimax:cache=off")] == DONE
    # about 10^10 nodes: never finishes in 0.3 s
    assert status[("simple-nim 40", "minimax:cache=off")] == OVER
    assert status[("simple-nim 45", "minimax:cache=off")] == SKIPPED
    assert status[("simple-nim 45", "alphabeta")] == DONE
    over = next(row for row in rows if row.status == OVER)
    assert over.nodes > 0 and over.value is None and 0.3 <= over.seconds < 1.3
    assert elapsed < 2.5


@pytest.mark.parametrize("text", ["random", "alphabeta:depth=3", "minimax:time=1", "deep-blue"])
def test_bad_algorithms_are_refused(text: str) -> None:
    with pytest.raises(BadInput):
        engines(text)


def test_algorithm_options_keep_their_commas() -> None:
    chosen = engines("minimax:cache=on,table=100,alphabeta")
    assert [(one.kind, one.settings.cache, one.settings.table) for one in chosen] == [
        ("minimax", True, 100),
        ("alphabeta", True, 1_000_000),
    ]


def test_cli_json_rows() -> None:
    run = nimmax("bench", "simple-nim", "--sizes", "6,9", "--json")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["family"] == "simple-nim"
    rows = {(row["board"], row["algorithm"]): row for row in record["rows"]}
    assert rows[("simple-nim 6", "minimax:cache=off")]["nodes"] == simple_nim_tree_size(6)
    assert rows[("simple-nim 9", "alphabeta")]["value"] == -1
    assert all(
        row["status"] == "done" and row["seconds"] >= 0 and "nodes_per_second" in row
        for row in rows.values()
    )


def test_cli_table_chart_and_over_the_limit() -> None:
    start = time.perf_counter()
    run = nimmax(
        "bench",
        "simple-nim",
        "--sizes",
        "8,40,45",
        "--algorithm",
        "minimax:cache=off,alphabeta",
        "--time",
        "0.5",
    )
    assert time.perf_counter() - start < 15
    assert run.returncode == 0, run.stderr
    for text in (
        "board",
        "nodes/s",
        "over the limit",
        "skipped",
        "log scale",
        "|1k",
        str(simple_nim_tree_size(8)),
    ):
        assert text in run.stdout, text


@pytest.mark.parametrize(
    "args",
    [
        ["bench", "chess"],
        ["bench", "nim", "--sizes", "0"],
        ["bench", "nim", "--k", "3"],
        ["bench", "nim", "--algorithm", "random"],
        ["bench", "nim", "--time", "0"],
        ["bench", "nim", "--algorithms", "random"],
        ["bench", "nim", "--limit", "0"],
    ],
)
def test_cli_bad_input_exits_2(args: list[str]) -> None:
    run = nimmax(*args)
    assert run.returncode == 2 and "Traceback" not in run.stderr and run.stderr.strip()


def test_tictactoe_family_runs() -> None:
    assert games.create("tictactoe --size 3 --k 3") is not None
    run = nimmax(
        "bench", "tictactoe", "--sizes", "2,3", "--k", "3", "--algorithm", "alphabeta", "--json"
    )
    assert run.returncode == 0, run.stderr
    rows = json.loads(run.stdout)["rows"]
    assert [row["board"] for row in rows] == ["tictactoe --size 3 --k 3"]
    assert rows[0]["value"] == 0  # tic-tac-toe is a draw


def test_tree_and_bench_help_show_examples() -> None:
    for command in ("tree", "bench"):
        run = nimmax(command, "--help")
        assert run.returncode == 0 and "nimmax " + command in run.stdout


def test_a_run_out_of_time_skips_every_board_at_least_as_large_longer_lines_too() -> None:
    """The issue's case: minimax ran out on 4x4 k=3, so 4x4 k=4 (a longer line, more work) is not
    run."""
    grid = boards(family("tictactoe"), (3, 4), (3, 4))
    rows = list(run_all(grid, engines("minimax:cache=off,alphabeta"), limit=0.05))
    status = {(row.board, row.algorithm): row.status for row in rows}
    # 549,946 nodes: not in 0.05 s
    assert status[("tictactoe --size 3 --k 3", "minimax:cache=off")] == OVER
    assert status[("tictactoe --size 4 --k 3", "minimax:cache=off")] == SKIPPED
    assert status[("tictactoe --size 4 --k 4", "minimax:cache=off")] == SKIPPED
    assert status[("tictactoe --size 3 --k 3", "alphabeta")] == DONE  # 205 nodes
    assert status[("tictactoe --size 4 --k 3", "alphabeta")] != SKIPPED  # its own runs are its own


def test_a_smaller_line_on_a_larger_board_is_still_run() -> None:
    """Out of time on 4x4 k=4 says nothing about 5x5 k=3: neither is at least as large as the
    other."""
    small, large = (
        boards(family("tictactoe"), (4, 5), (3, 4))[1],
        boards(family("tictactoe"), (5,), (3,))[0],
    )
    assert (small.size, small.k, large.size, large.k) == (4, 4, 5, 3)
    assert not larger(large, small) and larger(small, small)


def test_the_progress_line_names_the_run_in_progress_and_its_time() -> None:
    grid = boards(family("simple-nim"), (6, 9))
    progress = BenchProgress(4)
    seen: list[str] = []

    def starting(board: Board, algorithm: Spec) -> None:
        progress.starting(board, algorithm)
        seen.append(progress.__rich__().plain)

    for row in run_all(grid, engines("minimax:cache=off,alphabeta"), limit=5, starting=starting):
        progress.finished(row)
    assert seen[0].startswith("0 of 4 runs done · now simple-nim 6 with minimax:cache=off, 0.")
    assert seen[3].startswith("3 of 4 runs done · now simple-nim 9 with alphabeta, ") and seen[
        3
    ].endswith(" s")
    assert progress.__rich__().plain == "4 of 4 runs done"


def test_the_old_spellings_still_work_with_a_note() -> None:
    old = nimmax_in_process(
        "bench", "simple-nim", "--sizes", "6", "--algorithms", "alphabeta", "--limit", "5", "--json"
    )
    new = nimmax_in_process(
        "bench", "simple-nim", "--sizes", "6", "--algorithm", "alphabeta", "--time", "5", "--json"
    )
    assert old.returncode == new.returncode == 0
    assert "--algorithms is now --algorithm" in old.stderr and "--limit is now --time" in old.stderr
    assert new.stderr == ""
    rows = [json.loads(run.stdout)["rows"][0] for run in (old, new)]
    assert [(row["board"], row["algorithm"], row["value"]) for row in rows] == [
        ("simple-nim 6", "alphabeta", 1)
    ] * 2  # 6 is not 1 mod 4
    assert json.loads(old.stdout)["time"] == 5


def test_a_bench_cut_short_keeps_its_rows_and_says_how_many() -> None:
    """bench() runs the plan and returns the rows before a Ctrl-C, with the interruption, for the
    CLI to show and raise; the progress it is given hears of every run."""
    setup = Setup.of("simple-nim", "6,9", None, engines("minimax:cache=off,alphabeta"), 5)
    started: list[str] = []

    class Stopping:
        def starting(self, board: Board, algorithm: Spec) -> None:
            if len(started) == 2:  # the third run: Ctrl-C during its search
                raise KeyboardInterrupt
            started.append(f"{board.words} {algorithm}")

        def finished(self, row: Row) -> None:
            assert row.board in started[-1]

    cut = bench(setup, Stopping())
    assert (
        setup.runs == 4 and len(cut.rows) == 2 and isinstance(cut.interruption, KeyboardInterrupt)
    )
    assert cut.kept == "after 2 of 4 runs; those are printed"
    whole = bench(setup)
    assert whole.interruption is None
    assert [row.board for row in whole.rows] == ["simple-nim 6"] * 2 + ["simple-nim 9"] * 2
    assert (
        whole.record()["rows"][0]["algorithm"] == "minimax:cache=off"
        and whole.record()["time"] == 5
    )
