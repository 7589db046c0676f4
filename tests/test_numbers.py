"""The one number reader: ASCII digits only, bounds checked, at most 40 typed characters quoted; and
the exact refusals the games, the player specs and --delay give, naming the field and the range."""

from __future__ import annotations

import math
import time

import pytest

from nimmax import games
from nimmax.errors import QUOTE_LIMIT, quoted
from nimmax.game import BadGameSpec, BadInput, IllegalMove
from nimmax.numbers import MAX_DELAY, MAX_SEED, float_option, parse_float, parse_int
from nimmax.players import PLAYERS, BadPlayerSpec, SearchPlayer, parse_spec

from .cli_helpers import nimmax_in_process

# ---------------------------------------------------------------- parse_int


@pytest.mark.parametrize(
    ("text", "number"), [("0", 0), ("7", 7), (" 12 ", 12), ("007", 7), ("-3", -3), ("10", 10)]
)
def test_whole_numbers_in_range_are_read(text: str, number: int) -> None:
    assert parse_int(text, "n", -5, 20) == number


@pytest.mark.parametrize(
    "text",
    [
        "²",
        "٣",
        "５",
        "1²",
        "+3",
        "1_000",
        "1e3",
        "0x10",
        "3.0",
        "",
        " ",
        "-",
        "--1",
        "-0-",
        "11",
        "-6",
        "seven",
        "1 2",
        "\x00",
    ],
)
def test_anything_else_is_refused_naming_the_field_and_range(text: str) -> None:
    with pytest.raises(BadInput) as refused:
        parse_int(text, "pile", -5, 10)
    assert (
        str(refused.value)
        == f"pile must be a whole number from -5 to 10, not {quoted(text.strip())}"
    )


def test_the_error_class_is_the_callers() -> None:
    with pytest.raises(IllegalMove):
        parse_int("x", "pit", 1, 6, IllegalMove)
    with pytest.raises(BadGameSpec):
        parse_int("x", "--pits", 1, 6, BadGameSpec)


def test_huge_numbers_are_refused_at_once_and_quoted_short() -> None:
    started = time.perf_counter()
    for text in ("9" * 1_000_000, "1" * 5000, "-" + "1" * 5000):
        with pytest.raises(BadInput) as refused:
            parse_int(text, "pile", 0, 10**9)
        assert len(str(refused.value)) < 100
    assert parse_int("0" * 5000 + "5", "pile", 0, 10**9) == 5  # leading zeros are no size
    assert time.perf_counter() - started < 1.0


# ---------------------------------------------------------------- parse_float


@pytest.mark.parametrize(
    ("text", "number"),
    [("0.5", 0.5), ("2", 2.0), (" 1e-3 ", 0.001), (".25", 0.25), ("inf", math.inf)],
)
def test_decimals_in_range_are_read(text: str, number: float) -> None:
    assert parse_float(text, "time", 0.001, math.inf) == number


@pytest.mark.parametrize(
    "text", ["nan", "-1", "0", "½", "٣.٥", "1,5", "", "1e999999", "1" * 5000, "0x1p3", "inf!"]
)
def test_bad_decimals_are_refused_naming_the_field_and_range(text: str) -> None:
    with pytest.raises(BadInput) as refused:
        parse_float(text, "time", 0.001, math.inf)
    assert (
        str(refused.value) == f"time must be a number from 0.001 to inf, not {quoted(text.strip())}"
    )


def test_infinity_only_where_the_range_is_open() -> None:
    with pytest.raises(BadInput, match="cutoff must be a number from 0 to 1, not 'inf'"):
        parse_float("inf", "cutoff", 0, 1)


def test_infinity_beside_a_finite_range_lifts_a_limit() -> None:
    assert parse_float("inf", "time", 0.001, 10**6, or_inf=True) == math.inf
    assert parse_float("1000000", "time", 0.001, 10**6, or_inf=True) == 10**6
    for text in ("1000001", "1e7", "1e999", "-inf", "nan"):
        with pytest.raises(BadInput) as refused:
            parse_float(text, "time", 0.001, 10**6, or_inf=True)
        assert (
            str(refused.value)
            == f"time must be a number from 0.001 to 1000000 or inf, not {quoted(text)}"
        )


def test_an_option_reader_reads_text_and_passes_an_absent_option() -> None:
    read = float_option("--delay", 0, MAX_DELAY)
    assert read("0.25") == 0.25 and read("60") == 60 and read(None) is None
    for text in ("inf", "60.5", "-1", "nan", "٣", "1_0", "9" * 100_000):
        with pytest.raises(BadInput) as refused:
            read(text)
        assert str(refused.value) == f"--delay must be a number from 0 to 60, not {quoted(text)}"


# ---------------------------------------------------------------- quoted


def test_short_text_is_quoted_whole() -> None:
    assert quoted("b2") == "'b2'"
    assert quoted("") == "''"
    assert quoted("x" * QUOTE_LIMIT) == "'" + "x" * QUOTE_LIMIT + "'"


def test_long_text_shows_forty_characters_and_an_ellipsis() -> None:
    assert quoted("x" * (QUOTE_LIMIT + 1)) == "'" + "x" * QUOTE_LIMIT + "…'"
    assert quoted("y" * 10_000_000) == "'" + "y" * QUOTE_LIMIT + "…'"
    assert quoted("abcdef", limit=3) == "'abc…'"


def test_unprintable_characters_are_escaped_within_the_limit() -> None:
    assert quoted("a\x1b[2Jb\n") == "'a\\x1b[2Jb\\n'"
    shown = quoted("\U000e0001" * 100)
    assert (
        shown.startswith("'\\U000e0001") and shown.endswith("…'") and len(shown) <= QUOTE_LIMIT + 3
    )


# ---------------------------------------------------------------- the games' refusals, word for
# word


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ("nim ²", "nim: a pile must be a whole number from 0 to 1000000000, not '²'"),
        ("nim 2 ٣", "nim: a pile must be a whole number from 0 to 1000000000, not '٣'"),
        (
            "nim 1000000001",
            "nim: a pile must be a whole number from 0 to 1000000000, not '1000000001'",
        ),
        (
            "split-nim 1000001",
            "split-nim: a pile must be a whole number from 0 to 1000000, not '1000001'",
        ),
        (
            "simple-nim 5 --max-take 0",
            "simple-nim: --max-take must be a whole number from 1 to 1000000000, not '0'",
        ),
        ("tictactoe --size 27", "tictactoe: --size must be a whole number from 1 to 26, not '27'"),
        ("tictactoe --k=-1", "tictactoe: --k must be a whole number from 1 to 26, not '-1'"),
        ("connect4 --cols ５", "connect4: --cols must be a whole number from 1 to 26, not '５'"),
        ("2048 --size 9", "2048: --size must be a whole number from 2 to 8, not '9'"),
        ("2048 --goal 1e4", "2048: --goal must be a whole number from 4 to 32768, not '1e4'"),
        (
            "2048 --seed -1",
            "2048: --seed must be a whole number from 0 to 18446744073709551615, not '-1'",
        ),
        (
            "2048 --position 2,x/0,0",
            "2048: a tile in row 1 must be a whole number from 0 to 32768, not 'x'",
        ),
        ("kalah --pits 33", "kalah: --pits must be a whole number from 1 to 32, not '33'"),
        ("kalah --seeds 0", "kalah: --seeds must be a whole number from 1 to 1000, not '0'"),
        (
            "kalah --position 1,²:0/1,1:0/s",
            "kalah: seeds in a pit or store must be a whole number from 0 to 64000, not '²'",
        ),
        ("plates 1,0", "plates: a banknote must be a whole number from 1 to 1000000, not '0'"),
        (
            "nim " + "9" * 5000,
            "nim: a pile must be a whole number from 0 to 1000000000, not '" + "9" * 40 + "…'",
        ),
    ],
)
def test_game_words_name_the_field_and_the_range(words: str, message: str) -> None:
    with pytest.raises(BadGameSpec) as refused:
        games.create(words)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("words", "move", "message"),
    [
        (
            "nim 2 3 5",
            "x:1",
            "pile must be a whole number from 1 to 1000000000, not 'x'; piles are 2,3,5",
        ),
        ("nim 2 3 5", "4:1", "there is no pile 4; piles are 2,3,5"),
        (
            "nim 2 3 5",
            "3:٣",
            "count must be a whole number from 1 to 1000000000, not '٣'; piles are 2,3,5",
        ),
        ("nim 2 3 5", "3:6", "cannot take 6 from pile 3; piles are 2,3,5"),
        (
            "simple-nim 12",
            "²",
            "counters to take must be a whole number from 1 to 3, not '²'; legal: 3, 2, 1",
        ),
        (
            "split-nim 7",
            "1:9+٣",
            "part must be a whole number from 1 to 1000000, not '٣'; legal: 1:6+1, 1:5+2, 1:4+3",
        ),
        (
            "tictactoe",
            "d1",
            "column must be a letter from a to c, not 'd'; legal: b2, a2, b1, b3, c2, a1, a3, c1, "
            "c3",
        ),
        (
            "tictactoe",
            "b4",
            "row must be a whole number from 1 to 3, not '4'; legal: b2, a2, b1, b3, c2, a1, a3, "
            "c1, c3",
        ),
        (
            "connect4",
            "8",
            "column must be a whole number from 1 to 7, not '8'; legal: d, c, e, b, f, a, g",
        ),
        ("kalah --pits 3", "٣", "pit must be a whole number from 1 to 3, not '٣'; legal: 3, 2, 1"),
        ("plates", "9", "plate must be a whole number from 1 to 3, not '9'; legal: 1, 2, 3"),
    ],
)
def test_typed_moves_name_the_field_and_the_range(words: str, move: str, message: str) -> None:
    game = games.create(words)
    with pytest.raises(IllegalMove) as refused:
        game.parse_move(move, game.initial_state())
    assert str(refused.value) == message


def test_a_spawn_names_the_row_range() -> None:
    game = games.create("2048 --size 3")
    with pytest.raises(IllegalMove, match="^row must be a whole number from 1 to 3, not '٣'$"):
        game.parse_move("2@a٣", game.initial_state())


def test_a_megabyte_of_junk_is_quoted_in_forty_characters() -> None:
    junk = "j" * 1_000_000
    for words in (
        "nim 2 3 5",
        "tictactoe",
        "connect4",
        "kalah",
        "plates",
        "2048",
        "simple-nim",
        "split-nim",
    ):
        game = games.create(words)
        with pytest.raises(IllegalMove) as refused:
            game.parse_move(junk, game.initial_state())
        assert "j" * 41 not in str(refused.value) and len(str(refused.value)) < 200
    with pytest.raises(BadGameSpec) as unknown:
        games.create(["chess" + junk])
    assert str(unknown.value).startswith("unknown game '" + "chess" + "j" * 35 + "…'")


# ---------------------------------------------------------------- player specs


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "alphabeta:depth=99999999999999999999",
            "alphabeta: depth must be a whole number from 1 to 1000000, not '99999999999999999999'",
        ),
        ("alphabeta:depth=0", "alphabeta: depth must be a whole number from 1 to 1000000, not '0'"),
        ("minimax:depth=²", "minimax: depth must be a whole number from 1 to 1000000, not '²'"),
        ("negamax:depth=٣", "negamax: depth must be a whole number from 1 to 1000000, not '٣'"),
        (
            "alphabeta:depth=2.5",
            "alphabeta: depth must be a whole number from 1 to 1000000, not '2.5'",
        ),
        (
            "alphabeta:time=0",
            "alphabeta: time must be a number from 0.001 to 1000000 or inf, not '0'",
        ),
        (
            "alphabeta:time=1e7",
            "alphabeta: time must be a number from 0.001 to 1000000 or inf, not '1e7'",
        ),
        (
            "alphabeta:time=nan",
            "alphabeta: time must be a number from 0.001 to 1000000 or inf, not 'nan'",
        ),
        (
            "alphabeta:time=１",
            "alphabeta: time must be a number from 0.001 to 1000000 or inf, not '１'",
        ),
        (
            "alphabeta:nodes=1e3",
            "alphabeta: nodes must be a whole number from 1 to 1000000000000, not '1e3'",
        ),
        (
            "alphabeta:nodes=1000000000001",
            "alphabeta: nodes must be a whole number from 1 to 1000000000000, not '1000000000001'",
        ),
        (
            "alphabeta:table=0",
            "alphabeta: table must be a whole number from 1 to 100000000, not '0'",
        ),
        (
            "alphabeta:table=100000001",
            "alphabeta: table must be a whole number from 1 to 100000000, not '100000001'",
        ),
        ("expectimax:cutoff=1.5", "expectimax: cutoff must be a number from 0 to 1, not '1.5'"),
        ("expectimax:cutoff=inf", "expectimax: cutoff must be a number from 0 to 1, not 'inf'"),
        ("random:seed=-1", f"random: seed must be a whole number from 0 to {MAX_SEED}, not '-1'"),
        (
            "random:seed=" + "9" * 5000,
            f"random: seed must be a whole number from 0 to {MAX_SEED}, not '{'9' * 40}…'",
        ),
        ("alphabeta:cache=maybe", "alphabeta: cache is on or off, not 'maybe'"),
        ("alphabeta:depth=1,depth=2", "option depth of alphabeta is given twice"),
        ("alphabeta:depth", "option depth of alphabeta needs a value, e.g. depth=..."),
        ("random:depth=3", "random has no option 'depth' (options: seed)"),
        ("human:x=" + "j" * 100, "human has no option 'x' (options: none)"),
        (
            "j" * 100,
            f"unknown player '{'j' * 24}…'; players: "
            "human, random, minimax, negamax, alphabeta, expectimax, mcts, openspiel-mcts, "
            "openspiel-ab",
        ),
    ],
)
def test_spec_options_name_the_field_and_the_range(spec: str, message: str) -> None:
    with pytest.raises(BadPlayerSpec) as refused:
        parse_spec(spec)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("spec", "options"),
    [
        ("alphabeta:depth=1000000", {"depth": 10**6}),
        ("alphabeta:time=inf", {"time": math.inf}),
        ("alphabeta:time=1000000,nodes=1000000000000", {"time": 10**6, "nodes": 10**12}),
        ("minimax:table=100000000,cache=ON", {"table": 10**8, "cache": True}),
        ("expectimax:cutoff=0", {"cutoff": 0.0}),
        ("expectimax:cutoff=1", {"cutoff": 1.0}),
        (f"random:seed={MAX_SEED}", {"seed": MAX_SEED}),
        (" Alphabeta : depth = 007 ", {"depth": 7}),
    ],
)
def test_spec_options_at_their_bounds_are_read(spec: str, options: dict[str, object]) -> None:
    parsed = parse_spec(spec)
    assert dict(parsed.options) == options
    assert parse_spec(str(parsed)) == parsed  # the spec's text reads back as the same spec


def test_every_numeric_option_of_every_player_has_a_range() -> None:
    numeric = {
        option.name
        for kind in PLAYERS.values()
        for option in kind.options
        if option.kind in (int, float)
    }
    assert all(
        option.low < option.high
        for kind in PLAYERS.values()
        for option in kind.options
        if option.name in numeric
    )
    assert {
        option.name for kind in PLAYERS.values() for option in kind.options if option.unlimited
    } == {"time"}


def test_the_deepest_depth_taken_keeps_the_table() -> None:
    """depth=10**20 once outran the mark of proven table entries and silently turned the table
    off."""
    game = games.create("nim 2 3 5")
    past_the_end, deepest, tableless = (
        SearchPlayer(parse_spec(spec)).search(game, game.initial_state(), every_move=True)
        for spec in (
            "alphabeta:depth=50,book=off",
            "alphabeta:depth=1000000,book=off",
            "alphabeta:depth=50,cache=off,book=off",
        )
    )
    assert deepest.nodes == past_the_end.nodes < tableless.nodes and deepest.value == 1


def test_a_huge_spec_depth_is_refused_by_the_cli() -> None:
    run = nimmax_in_process(
        "solve", "nim", "2", "3", "5", "--algorithm", "alphabeta:depth=99999999999999999999"
    )
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == (
        "nimmax: alphabeta: depth must be a whole number from 1 to 1000000, not "
        "'99999999999999999999'\n"
    )


# ---------------------------------------------------------------- --delay


@pytest.mark.parametrize(
    "command",
    [["play", "nim", "2", "--first", "random", "--second", "random"], ["replay", "x.json"]],
)
@pytest.mark.parametrize("delay", ["inf", "61", "-1", "nan", "1e999", "٣", "1_0", "9" * 5000])
def test_a_delay_out_of_range_is_refused_before_anything_runs(
    command: list[str], delay: str
) -> None:
    run = nimmax_in_process(*command, "--delay", delay)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == f"nimmax: --delay must be a number from 0 to 60, not {quoted(delay)}\n"


# ---------------------------------------------------------------- the issue's commands


def test_a_superscript_pile_is_one_line_exit_2() -> None:
    """`nimmax solve nim ²` exited 1 with a ValueError traceback."""
    run = nimmax_in_process("solve", "nim", "²")
    assert run.returncode == 2 and run.stdout == ""
    assert (
        run.stderr == "nimmax: nim: a pile must be a whole number from 0 to 1000000000, not '²'\n"
    )


PROMPT_GAMES = [
    "nim 2 3 5",
    "simple-nim",
    "split-nim",
    "tictactoe",
    "connect4",
    "2048 --seed 1",
    "kalah",
    "plates",
]


@pytest.mark.parametrize("words", PROMPT_GAMES)
@pytest.mark.parametrize("line", ["9" * 1_000_000, "j" * 1_000_000, "3:" + "٣" * 1_000_000])
def test_a_megabyte_line_at_the_prompt_is_a_refused_move(words: str, line: str) -> None:
    """A 1,000,000-digit line piped into `play nim 2 3 5` killed the game; a 1 MB junk move was
    echoed whole."""
    run = nimmax_in_process("play", *words.split(), stdin=line + "\nquit\n")
    assert run.returncode == 0 and run.stderr == ""
    # refused, and the game went on to the quit
    assert "Game left unfinished after 0 moves" in run.stdout
    # quoting at most 40 characters of it
    assert line[:41] not in run.stdout and len(run.stdout) < 5_000
