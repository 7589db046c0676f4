"""Game words: one Signature per game gives its usage line, reads its words and writes its spec;
the specs and usage lines people and records rely on stay exactly as they were."""

from __future__ import annotations

import pytest

from nimmax import games
from nimmax.game import BadGameSpec
from nimmax.games.words import OneOf, Option, Signature

TOY = Signature(
    "toy",
    "N",
    (
        OneOf(
            ((Option("--side", int, None, "S", 1, 9),), (Option("--wide", int, None, "W", 1, 9),))
        ),
        Option("--depth", int, 3, "D", 1, 99),
        Option("--flag"),
        Option("--name", str, None, "NAME"),
    ),
    note="a toy",
)


def test_the_usage_line_comes_from_the_signature() -> None:
    assert TOY.usage == "toy N [--side S | --wide W] [--depth D] [--flag] [--name NAME]  (a toy)"
    assert Signature("bare").usage == "bare"


def test_words_are_read_with_their_defaults() -> None:
    words = TOY.parse(["7", "--depth=5", "--flag", "--name", "x y"])
    assert words.positional == ("7",)
    assert words.options == {"side": None, "wide": None, "depth": 5, "flag": True, "name": "x y"}
    assert TOY.parse([]).options == {
        "side": None,
        "wide": None,
        "depth": 3,
        "flag": False,
        "name": None,
    }


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bogus"], "toy: unknown option '--bogus'; usage: toy N"),
        (["--flag=1"], "toy: --flag is a flag and takes no value"),
        (["--depth"], "toy: --depth needs a value; usage: toy N"),
        (["--depth", "0"], "toy: --depth must be a whole number from 1 to 99, not '0'"),
        (["--side", "2", "--wide", "3"], "toy: give --side or --wide, not both"),
    ],
)
def test_bad_words_say_what_is_wrong(argv: list[str], message: str) -> None:
    with pytest.raises(BadGameSpec) as refused:
        TOY.parse(argv)
    assert str(refused.value).startswith(message)


def test_a_game_without_positional_words_refuses_them() -> None:
    with pytest.raises(BadGameSpec, match="^bare takes no '7'; usage: bare$"):
        Signature("bare").parse(["7"])


def test_the_spec_leaves_out_defaults_and_nones() -> None:
    assert TOY.spec([7], depth=3, flag=False, name=None) == "toy 7"
    assert (
        TOY.spec([7], wide=2, depth=4, flag=True, name="n")
        == "toy 7 --wide 2 --depth 4 --flag --name n"
    )
    with pytest.raises(TypeError):
        TOY.spec(dept=4)


SPECS = [
    ("simple-nim", "simple-nim 12"),
    ("simple-nim 7 --max-take 2", "simple-nim 7 --max-take 2"),
    ("simple-nim 7 --max-take=3", "simple-nim 7"),
    ("simple-nim 5 --max-take 4 --normal", "simple-nim 5 --max-take 4 --normal"),
    ("nim", "nim 3 4 5"),
    ("nim 2,3,5 --normal", "nim 2 3 5 --normal"),
    ("nim 100000000", "nim 100000000"),
    ("grundy 9", "split-nim 9"),
    ("split-nim 3 4", "split-nim 3 4"),
    ("tictactoe --size 3", "tictactoe"),
    ("tictactoe --size 4 --k 3", "tictactoe --size 4 --k 3"),
    ("tictactoe --rows 4", "tictactoe --size 4"),
    ("tictactoe --rows 3 --cols 4", "tictactoe --rows 3 --cols 4"),
    ("tictactoe --rows 6 --cols 7 --k 4 --gravity", "tictactoe --rows 6 --cols 7 --k 4 --gravity"),
    ("tictactoe --position x../.o./... --k 2", "tictactoe --k 2 --position x../.o./..."),
    (
        "tictactoe --rows 2 --cols 3 --position xo./...",
        "tictactoe --rows 2 --cols 3 --position xo./...",
    ),
    ("connect4 --rows 6 --cols 7 --k 4", "connect4"),
    ("connect4 --rows 5", "connect4 --rows 5 --cols 7"),
    ("connect4 --k 3", "connect4 --k 3"),
    ("connect4 --position ..../..../xo..", "connect4 --rows 3 --cols 4 --position ..../..../xo.."),
    ("2048 --size 4 --goal 2048", "2048"),
    ("2048 --size 3 --seed 1", "2048 --size 3 --seed 1"),
    ("2048 --position 2,0/0,4 --seed 3 --goal 64", "2048 --goal 64 --seed 3 --position 2,0/0,4"),
    ("kalah", "kalah --pits 6 --seeds 4"),
    ("kalah --seeds 3", "kalah --pits 6 --seeds 3"),
    (
        "kalah --position 2,2,2:0/2,2,2:0/n --seeds 2",
        "kalah --pits 3 --seeds 2 --position 2,2,2:0/2,2,2:0/n",
    ),
    ("plates", "plates 1,20,50 5,10,100 1,5,20"),
    ("plates 1,2 3,4", "plates 1,2 3,4"),
]


@pytest.mark.parametrize(("words", "spec"), SPECS)
def test_specs_are_unchanged_and_rebuild_the_game(words: str, spec: str) -> None:
    game = games.create(words)
    assert game.spec == spec
    again = games.create(spec)
    assert again.spec == spec and again.initial_state() == game.initial_state()


USAGES = {
    "simple-nim": "simple-nim N [--max-take T] [--normal]",
    "nim": "nim P1 P2 ... [--normal]",
    "split-nim": "split-nim P1 P2 ...",
    "tictactoe": "tictactoe [--size N | --rows R --cols C] [--k K] [--gravity] [--position P]",
    "connect4": "connect4 [--rows R] [--cols C] [--k K] [--position P]",
    "2048": "2048 [--size N] [--goal TILE] [--seed N] [--position 2,2,0,0/0,0,0,0/0,0,0,0/0,0,0,4]",
    "kalah": "kalah [--pits N] [--seeds S] [--position P]",
    "plates": "plates [N,N,N N,N,N ...]  (each plate's banknotes; default 1,20,50 5,10,100 1,5,20)",
}


def test_usage_lines_are_unchanged() -> None:
    assert {info.name: info.usage for info in games.GAMES} == USAGES


def test_every_example_builds_and_names_only_declared_options() -> None:
    for info in games.GAMES:
        declared = {option.name for option in info.signature.each_option()}
        game = games.create(info.example)
        assert {word for word in game.spec.split() if word.startswith("--")} <= declared


def test_size_and_rows_exclude_each_other() -> None:
    with pytest.raises(BadGameSpec, match="^tictactoe: give --size or --rows/--cols, not both$"):
        games.create("tictactoe --size 3 --cols 3")
