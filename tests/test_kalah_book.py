"""Kalah's endgame book against the literal solver of tests/theory.py, the engines with and without
it, and its file in the cache folder: a damaged, stale or foreign file is made again with one line
saying so, never trusted, and a folder that cannot be written still gives the book."""

from __future__ import annotations

import functools
import itertools
import json
import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from math import comb, inf
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimmax import cache
from nimmax.game import Capability
from nimmax.games import kalah_book
from nimmax.games.kalah import Kalah
from nimmax.games.kalah_position import Position

from .cli_helpers import nimmax, nimmax_started
from .theory import KALAH_4_3, kalah_solved, kalah_solved_within


@st.composite
def endgames(draw: st.DrawFn, pits: range, most_seeds: int) -> tuple[Position, int]:
    """A position of so many `pits` a side, with 2 to `most_seeds` seeds in them and some on each
    side (the game goes on), any stores and either side to move; and its pits a side."""
    size = draw(st.sampled_from(pits))
    seeds = draw(st.integers(2, most_seeds))
    cuts = sorted(
        draw(st.lists(st.integers(0, seeds), min_size=2 * size - 1, max_size=2 * size - 1))
    )
    cells = [high - low for low, high in zip([0, *cuts], [*cuts, seeds], strict=True)]
    for empty, full, target in (
        (range(size), range(size, 2 * size), 0),
        (range(size, 2 * size), range(size), -1),
    ):
        if not any(cells[cell] for cell in empty):  # a seed moves across: the game goes on
            fullest = max(full, key=cells.__getitem__)
            cells[fullest] -= 1
            cells[empty[target]] += 1
    stores = draw(st.tuples(st.integers(0, 9), st.integers(0, 9)))
    board = (*cells[:size], stores[0], *cells[size:], stores[1])
    return Position(board, draw(st.integers(0, 1))), size


@given(endgames(range(1, 5), 7))
def test_the_book_knows_the_margin_and_the_plies_the_literal_solver_finds(
    drawn: tuple[Position, int],
) -> None:
    """The margin for the mover, and the plies to the end when each side takes the quickest win and
    the slowest loss (a draw's plies are no tie-break)."""
    state, pits = drawn
    known = Kalah(pits, 1, endgame=9).book(state)
    assert known is not None and known.exact
    margin, plies = kalah_solved_within(state.board, state.player)
    assert known.payoff == margin
    assert margin == 0 or known.plies == plies


@settings(max_examples=15)
@given(endgames(range(4, 5), kalah_book.BASE[4]))
def test_the_book_nimmax_uses_agrees_with_the_literal_solver(drawn: tuple[Position, int]) -> None:
    """The book Kalah(4, n) uses, at the edge of what it covers too."""
    state, _ = drawn
    game = Kalah(4, 3)
    assert Capability.BOOK in game.capabilities
    known = game.book(state)
    assert known is not None and (known.payoff, known.exact) == (
        kalah_solved(state.board, state.player),
        True,
    )


def test_the_book_is_silent_beyond_its_seeds_and_on_small_boards() -> None:
    game = Kalah(4, 3)
    assert game.book(game.initial_state()) is None  # 24 seeds in the pits
    assert (
        Capability.BOOK not in Kalah(3, 3).capabilities
        and Kalah(3, 3).book(Kalah(3, 3).initial_state()) is None
    )
    assert Capability.BOOK not in Kalah(4, 3, endgame=0).capabilities


@settings(max_examples=25)
@given(endgames(range(1, 4), 9))
def test_alphabeta_with_the_book_equals_minimax_without_it(drawn: tuple[Position, int]) -> None:
    """Every root move's value, and the value and best move's worth, with the book and without."""
    from nimmax.search import search

    state, pits = drawn
    game = Kalah(pits, 1, endgame=5)
    booked = search(game, state, "alphabeta", time=inf, every_move=True)
    plain = search(game, state, "minimax", time=inf, every_move=True, book=False)
    assert booked.exact and booked.value == plain.value == kalah_solved(state.board, state.player)
    assert dict(booked.moves) == dict(plain.moves)
    assert search(game, state, "negamax", time=inf).value == plain.value


def test_a_search_from_the_start_reaches_the_book_and_keeps_the_value() -> None:
    """Kalah(4, 2) from the start: the value the search finds without the book (and test_kalah's
    literal solver), in fewer nodes."""
    from nimmax.search import search

    game = Kalah(4, 2)
    booked = search(game, game.initial_state(), "alphabeta", time=inf)
    plain = search(game, game.initial_state(), "alphabeta", time=inf, book=False)
    assert booked.exact and plain.exact and booked.value == plain.value
    assert booked.nodes < plain.nodes


# --- The file in the cache folder ---------------------------------------------------------------


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache folder of this test's own (each shelf below reads it afresh)."""
    monkeypatch.setenv(cache.ENVIRONMENT, str(tmp_path / "cache"))
    yield tmp_path / "cache"


def book_file(folder: Path) -> Path:
    return folder / "kalah-3.book"


def shelved(pits: int, seeds: int, work: cache.Work = cache.IDLE) -> kalah_book.Book:
    """The book a new shelf gives: read from the cache, widened there where it is narrower."""
    return kalah_book.Shelf(pits).shelved(seeds, work)


def the_book() -> kalah_book.Book:
    return shelved(3, 6)


def again() -> kalah_book.Book:
    return the_book()


def said(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return capsys.readouterr().err.splitlines()


def test_the_book_is_kept_and_read_back(fresh: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made = the_book()
    assert book_file(fresh).is_file() and not said(capsys)
    read = again()
    assert read.encode() == made.encode() and not said(capsys)


def damage(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-5] ^= 1
    path.write_bytes(bytes(data))


def stale(path: Path) -> None:
    data = path.read_bytes().replace(
        f"\n{kalah_book.FORMAT}\n".encode(), f"\n{kalah_book.FORMAT + 1}\n".encode(), 1
    )
    path.write_bytes(data)


def foreign(path: Path) -> None:
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))


def renamed(path: Path) -> None:
    shelved(2, 5)
    path.write_bytes((path.parent / "kalah-2.book").read_bytes())


def cut(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:40])


@pytest.mark.parametrize(
    ("spoil", "reason"),
    [
        (damage, "is damaged"),
        (stale, "is of format"),
        (foreign, "is not a nimmax cache file"),
        (renamed, "holds 'kalah-2.book'"),
        (cut, "is cut short"),
    ],
)
def test_a_spoilt_book_is_made_again_with_one_line_never_trusted(
    fresh: Path, capsys: pytest.CaptureFixture[str], spoil: object, reason: str
) -> None:
    made = the_book().encode()
    assert callable(spoil)
    spoil(book_file(fresh))
    said(capsys)
    assert again().encode() == made
    lines = said(capsys)
    assert len(lines) == 1 and reason in lines[0] and "made again" in lines[0], lines
    # kept whole again
    assert cache.parse(book_file(fresh).read_bytes(), "kalah-3.book", kalah_book.FORMAT) == made
    assert again().encode() == made and not said(capsys)


def test_a_folder_that_cannot_be_written_still_gives_the_book(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(cache.ENVIRONMENT, str(blocker / "cache"))
    book = the_book()
    lines = said(capsys)
    assert len(lines) == 1 and "cannot keep" in lines[0] and "in memory" in lines[0], lines
    assert book.encode() == kalah_book.build(3, 6).encode()


def test_the_work_reports_its_progress_to_the_display_installed(fresh: Path) -> None:
    seen: list[tuple[str, int, list[int]]] = []

    @contextmanager
    def display(what: str, total: int) -> Iterator[cache.Advance]:
        steps: list[int] = []
        seen.append((what, total, steps))
        yield steps.append

    shelved(3, 6, cache.Work(display))
    [(what, total, steps)] = seen
    assert "Kalah endgame book" in what and total == comb(6 + 6, 6)
    assert steps == sorted(steps) and steps[-1] == total


@pytest.mark.parametrize(
    ("environ", "platform", "expected"),
    [
        ({cache.ENVIRONMENT: "/tmp/mine"}, "linux", "/tmp/mine"),
        ({}, "linux", "/home/ada/.cache/nimmax"),
        ({"XDG_CACHE_HOME": "/var/cache/ada"}, "linux", "/var/cache/ada/nimmax"),
        # the XDG spec ignores a relative one
        ({"XDG_CACHE_HOME": "relative"}, "linux", "/home/ada/.cache/nimmax"),
        ({}, "darwin", "/home/ada/Library/Caches/nimmax"),
        (
            {"LOCALAPPDATA": "/c/Users/ada/AppData/Local"},
            "win32",
            "/c/Users/ada/AppData/Local/nimmax/Cache",
        ),
    ],
)
def test_the_cache_folder_is_where_platformdirs_puts_it(
    environ: dict[str, str], platform: str, expected: str
) -> None:
    assert cache.folder(environ, platform, Path("/home/ada")) == Path(expected)


def test_cli_solve_proves_kalah_4_3_with_the_book_built_in_a_new_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.ENVIRONMENT, str(tmp_path))
    run = nimmax("solve", "kalah", "--pits", "4", "--seeds", "3", "--json")
    assert run.returncode == 0 and not run.stderr, run.stderr
    record = json.loads(run.stdout)
    assert record["value"] == KALAH_4_3 and record["exact"]
    assert (tmp_path / "kalah-4.book").is_file()


def test_on_a_terminal_the_first_build_shows_a_bar_under_the_live_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from .test_play_pty import finish, shown, spawn

    monkeypatch.setenv(cache.ENVIRONMENT, str(tmp_path))
    child = spawn("solve", "kalah", "--pits", "4", "--seeds", "3")
    child.expect(shown(f"building the Kalah endgame book (4 pits, {kalah_book.WIDE[4]} seeds)"))
    child.expect(shown("win by 6 seeds"))
    code, _ = finish(child)
    assert code == 0


# --- Layer by layer: widened, stopped, as wide as the search may wait for -----------------------


@functools.cache
def widened() -> kalah_book.Book:
    """The book of 3 pits and 7 seeds, widened from the one of 4 seeds."""
    return kalah_book.build(3, 7, start=kalah_book.build(3, 4))


def test_a_book_widened_from_a_narrower_one_is_the_book_built_whole_on_its_ranks() -> None:
    narrow, wide = kalah_book.build(3, 4), widened()
    assert wide.encode() == kalah_book.build(3, 7).encode()
    size = len(narrow.values)  # the ranks of at most 4 seeds come first
    assert (wide.values[:size], wide.wins[:size], wide.losses[:size]) == (
        narrow.values,
        narrow.wins,
        narrow.losses,
    )


@settings(max_examples=30)
@given(endgames(range(3, 4), 7))
def test_the_widened_layers_agree_with_the_literal_solver(drawn: tuple[Position, int]) -> None:
    state, _ = drawn
    board, player = state.board, state.player
    view = (*board[0:3], *board[4:7]) if player == 0 else (*board[4:7], *board[0:3])
    lead = board[3] - board[7] if player == 0 else board[7] - board[3]
    known = widened().probe(view, lead)
    assert known is not None and known.payoff == kalah_solved_within(board, player)[0]


def test_the_cache_keeps_the_widest_book_and_widens_it_by_the_missing_layers(
    fresh: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    totals: list[int] = []

    @contextmanager
    def display(what: str, total: int) -> Iterator[cache.Advance]:
        totals.append(total)
        yield cache.nothing

    shown = cache.Work(display)
    shelved(3, 4, shown)
    wide = shelved(3, 6, shown)  # read back at 4 seeds, then the layers of 5 and 6 built
    served = shelved(3, 4, shown)  # the cache's wider book serves a narrower need
    assert totals == [comb(4 + 6, 6), comb(6 + 6, 6) - comb(4 + 6, 6)]
    assert served.seeds == 6 and served.encode() == wide.encode() == kalah_book.build(3, 6).encode()
    assert not said(capsys)


def test_a_search_to_the_end_reads_the_wide_book_a_timed_one_the_base() -> None:
    assert kalah_book.reach(6) == kalah_book.BASE[6] < kalah_book.WIDE[6]
    assert kalah_book.reach(6, cache.Work(patient=True)) == kalah_book.WIDE[6]
    assert kalah_book.reach(6) == kalah_book.BASE[6] and kalah_book.reach(3) == 0
    game = Kalah(6, 4)
    patient = cache.at_work(game, patient=True)
    assert patient.work.patient and not game.work.patient and patient.shelf is game.shelf


def test_a_build_asked_to_stop_keeps_the_layers_it_finished(
    fresh: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asked = itertools.count()
    shelf = kalah_book.Shelf(3)
    # rows of 2-4 seeds: 31 checks
    book = shelf.shelved(7, cache.Work(halted=lambda: next(asked) >= 40))
    assert book.seeds == 4 and book.encode() == kalah_book.build(3, 4).encode()
    assert (
        cache.parse(book_file(fresh).read_bytes(), "kalah-3.book", kalah_book.FORMAT)
        == book.encode()
    )
    assert shelf.shelved(7) is book  # this shelf tries no more
    assert shelved(3, 7).encode() == kalah_book.build(3, 7).encode() and not said(capsys)


ENDGAME = "3,3,2,0,0,1:10/1,1,1,1,0,1:12/s"
"""A Kalah(6,4) position of 14 seeds in the pits: its solve reads the book at once."""


@pytest.mark.parametrize(
    ("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["sigint", "sigterm"]
)
def test_a_signal_while_solve_builds_the_wide_book_stops_it_at_once(
    tmp_path: Path, signum: int, code: int
) -> None:
    """The solve of a 6-pit endgame widens the book to WIDE seeds at once (some 15 s of work): a
    signal a second in ends the command within seconds (a generous bound: the build alone would
    take the rest of those 15 s), and leaves in the cache the layers finished, a whole book."""
    from .test_signals import running_commands, until

    with mock.patch.dict(os.environ, {cache.ENVIRONMENT: str(tmp_path)}):
        process = nimmax_started("solve", "kalah", "--position", ENDGAME, "--json")
    until(lambda: running_commands(process), 20, "command running")
    time.sleep(1.0)
    process.send_signal(signum)
    sent = time.monotonic()
    out, err = process.communicate(timeout=30)
    assert process.returncode == code and time.monotonic() - sent < 5, err
    # the answer, as far as it got
    assert "Traceback" not in err and json.loads(out)["best_move"], out
    data = cache.parse((tmp_path / "kalah-6.book").read_bytes(), "kalah-6.book", kalah_book.FORMAT)
    assert isinstance(data, bytes) and kalah_book.Book.decode(6, data).seeds < kalah_book.WIDE[6]


# --- Out of memory while building ----------------------------------------------------------------


def out_of_memory(*args: object, **keywords: object) -> kalah_book.Book:
    raise MemoryError


def test_a_build_out_of_memory_is_dropped_and_the_search_goes_on_without_it(
    fresh: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Kalah(3, 2) solved while its book cannot be made: one line says so, the value is the one the
    search finds with the book, no file is kept, and this process tries no more."""
    from nimmax.search import search

    game = Kalah(3, 2)
    booked = search(game, game.initial_state(), "alphabeta", time=inf)
    capsys.readouterr()
    with mock.patch.object(kalah_book, "build", side_effect=MemoryError) as build:
        shelf = kalah_book.Shelf(3)
        book = shelf.shelved(6)
        again = shelf.shelved(6)
        game.shelf = shelf
        found = search(game, game.initial_state(), "alphabeta", time=inf)
    assert build.call_count == 1 and again is book and book.seeds == 0
    assert book.probe((1, 0, 0, 0, 1, 0), 0) is None and book.probe((0,) * 6, 0) is None
    assert said(capsys) == [
        "nimmax: the Kalah endgame book (3 pits, 6 seeds): out of memory while making it; the "
        "search goes on with none"
    ]
    assert found.exact and found.value == booked.value and not book_file(fresh).exists()


def test_a_widening_out_of_memory_keeps_the_narrower_book_of_the_cache(
    fresh: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    narrow = shelved(3, 4)
    with mock.patch.object(kalah_book, "build", side_effect=MemoryError):
        book = shelved(3, 6)
    assert book.seeds == 4 and book.encode() == narrow.encode()
    assert said(capsys) == [
        "nimmax: the Kalah endgame book (3 pits, 6 seeds): out of memory while making it; "
        "the search goes on with the 4 seeds read from the cache"
    ]
    kept = cache.parse(book_file(fresh).read_bytes(), "kalah-3.book", kalah_book.FORMAT)
    assert kept == narrow.encode()


def test_keeping_a_book_out_of_memory_still_searches_with_none(
    fresh: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with mock.patch.object(cache, "keep", side_effect=MemoryError):
        book = shelved(3, 4)
    assert book.seeds == 0 and "out of memory" in capsys.readouterr().err


MEMORY_LIMITED = """
import resource, sys
from nimmax.games import kalah_book
size = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (size + (16 << 20), resource.RLIM_INFINITY))
book = kalah_book.Shelf(6).shelved(14)
print(book.seeds, book.probe((0, 0, 0, 0, 0, 1) + (1, 0, 0, 0, 0, 0), 0))
"""


@pytest.mark.skipif(
    not Path("/proc/self/statm").exists(), reason="reads its address space from /proc"
)
def test_a_real_build_past_an_address_space_limit_is_dropped(fresh: Path) -> None:
    """The book of 6 pits and 14 seeds under 16 MB more than the interpreter holds: a real
    MemoryError in the builder, one line, and an empty book rather than a dead process."""
    import subprocess
    import sys

    from .cli_helpers import ROOT

    run = subprocess.run(
        [sys.executable, "-c", MEMORY_LIMITED],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT), cache.ENVIRONMENT: str(fresh)},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["0", "None"]
    assert run.stderr.splitlines() == [
        "nimmax: the Kalah endgame book (6 pits, 14 seeds): out of memory while making it; the "
        "search goes on with none"
    ]
