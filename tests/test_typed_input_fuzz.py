"""Whatever a person types as game words, a position or a move, a game answers with a BadInput
(BadGameSpec, IllegalMove) of one short line, or with a game or a legal move: never ValueError,
OverflowError or IndexError. Unicode digits (², ٣, ５), 5,000-digit numbers, negative numbers
and junk are what broke the games before the one number reader."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from nimmax import games
from nimmax.game import CHANCE, AnyGame, BadGameSpec, BadInput, IllegalMove

MESSAGE_LIMIT = 200

AWKWARD = [
    "²",
    "٣",
    "５",
    "½",
    "-1",
    "-0",
    "+3",
    "1e3",
    "0x10",
    "1_000",
    "9" * 5000,
    "0" * 5000 + "1",
    "-" + "7" * 5000,
    "",
    " ",
    "\x00",
    "\x1b[2J",
    "٣:٣",
    "b²",
    "2@b٣",
    "j" * 5000,
    "--",
    "-",
    "\U000e0001" * 50,
]
PIECES = ["0", "1", "2", "3", "4", "7", "12", "٣", "²", "５", "-", ":", ",", "+", "/", "@", " ", "a", "b", "x", "o"]
PIECES += [".", "s", "n", "up", "plate", "9" * 5000]
TEXT = st.one_of(
    st.text(max_size=20),
    st.sampled_from(AWKWARD),
    st.integers(-(10**30), 10**30).map(str),
    st.lists(st.sampled_from(PIECES), max_size=8).map("".join),
)
OPTION_NAMES = sorted({option.name for info in games.GAMES for option in info.signature.each_option()})
WORD = st.one_of(
    TEXT,
    st.sampled_from(OPTION_NAMES),
    st.tuples(st.sampled_from(OPTION_NAMES), TEXT).map("=".join),
)


def check_refusal(error: BadInput, typed: list[str]) -> None:
    """One line, at most MESSAGE_LIMIT characters, quoting at most 40 characters of any typed word."""
    message = str(error)
    assert "\n" not in message and len(message) <= MESSAGE_LIMIT, message
    for word in typed:
        assert len(word) <= 40 or word[:41] not in message, message


@settings(max_examples=400)
@given(name=st.sampled_from([info.name for info in games.GAMES]), words=st.lists(WORD, max_size=5))
def test_game_words_build_a_game_or_raise_bad_game_spec(name: str, words: list[str]) -> None:
    try:
        games.create([name, *words])
    except BadGameSpec as error:
        check_refusal(error, words)


POSITION_GAMES = [
    "tictactoe",
    "tictactoe --gravity",
    "tictactoe --size 4",
    "connect4",
    "2048",
    "2048 --size 2",
    "kalah",
]
POSITION_TEXT = st.one_of(
    TEXT,
    st.text(alphabet="xo./,:0123456789sn٣²５ -", max_size=40),
    st.lists(
        st.sampled_from(["2", "0", "4", "1024", "3", "/", ",", ":", "s", "n", "x", "o", ".", "9" * 5000]), max_size=30
    ).map("".join),
)


@settings(max_examples=400)
@given(words=st.sampled_from(POSITION_GAMES), text=POSITION_TEXT)
def test_positions_build_a_game_or_raise_bad_game_spec(words: str, text: str) -> None:
    try:
        game = games.create([*words.split(), "--position", text])
    except BadGameSpec as error:
        check_refusal(error, [text])
    else:
        assert games.create(game.spec).initial_state() == game.initial_state()


def positions() -> list[tuple[AnyGame, Any]]:
    """Every registered game by name and by its example, and the same with a tile on 2048's board,
    at the start and after each of the first two moves (plates' three stages, 2048's player node)."""
    words = [info.name for info in games.GAMES] + [info.example for info in games.GAMES]
    found = []
    for text in [*words, "2048 --position 2,0,0,0/0,0,0,0/0,0,0,0/0,0,0,2"]:
        game = games.create(text)
        state = game.initial_state()
        for _ in range(3):
            found.append((game, state))
            if game.is_terminal(state):
                break
            state = game.result(state, game.actions(state)[0])
    return found


POSITIONS = positions()


@settings(max_examples=600)
@given(index=st.integers(0, len(POSITIONS) - 1), text=TEXT)
def test_typed_moves_are_legal_or_raise_illegal_move(index: int, text: str) -> None:
    game, state = POSITIONS[index]
    try:
        move = game.parse_move(text, state)
    except IllegalMove as error:
        check_refusal(error, [text])
    else:
        assert move in game.actions(state)


def test_the_positions_cover_chance_and_player_nodes() -> None:
    movers = {game.to_move(state) for game, state in POSITIONS}
    assert {CHANCE, 0, 1} <= movers
