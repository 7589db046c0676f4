"""Whatever a person types as game words, a position, a move, a player spec or a record, nimmax
answers with a BadInput (BadGameSpec, IllegalMove, BadPlayerSpec, BadRecord) of one short line,
or with a game, a legal move, a spec or a record: never ValueError, OverflowError, IndexError or
RecursionError. Unicode digits (², ٣, ５), 5,000-digit numbers, negative numbers and junk are what
broke the games before the one number reader. The same inputs through the command line exit only
with the documented codes, never with a traceback, and print a bounded amount."""

from __future__ import annotations

import json
import math
import pickle
from pathlib import Path
from subprocess import CompletedProcess
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nimmax import games
from nimmax.game import CHANCE, AnyGame, BadGameSpec, BadInput, IllegalMove, outcomes
from nimmax.match import BadRecord, GameRecord
from nimmax.players import PLAYERS, BadPlayerSpec, create, parse_spec

from .cli_helpers import nimmax_in_process

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
PIECES = [
    "0",
    "1",
    "2",
    "3",
    "4",
    "7",
    "12",
    "٣",
    "²",
    "５",
    "-",
    ":",
    ",",
    "+",
    "/",
    "@",
    " ",
    "a",
    "b",
    "x",
    "o",
]
PIECES += [".", "s", "n", "up", "plate", "9" * 5000]
TEXT = st.one_of(
    st.text(max_size=20),
    st.sampled_from(AWKWARD),
    st.integers(-(10**30), 10**30).map(str),
    st.lists(st.sampled_from(PIECES), max_size=8).map("".join),
)
OPTION_NAMES = sorted(
    {option.name for info in games.GAMES for option in info.signature.each_option()}
)
WORD = st.one_of(
    TEXT,
    st.sampled_from(OPTION_NAMES),
    st.tuples(st.sampled_from(OPTION_NAMES), TEXT).map("=".join),
)


def check_refusal(error: BadInput, typed: list[str]) -> None:
    """One line, at most MESSAGE_LIMIT characters, quoting at most 40 characters of any typed
    word."""
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
        st.sampled_from(
            ["2", "0", "4", "1024", "3", "/", ",", ":", "s", "n", "x", "o", ".", "9" * 5000]
        ),
        max_size=30,
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
    at the start and after each of the first two moves (plates' three stages, 2048's player
    node)."""
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


# ---------------------------------------------------------------- player specs

NUMBER_TEXT = st.one_of(
    st.integers(-(10**25), 10**25).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.sampled_from(
        [
            "inf",
            "-inf",
            "nan",
            "1e999",
            "0",
            "1",
            "0.0005",
            "1000000",
            "1000001",
            "18446744073709551616",
        ]
    ),
)
OPTION_WORDS = sorted({option.name for kind in PLAYERS.values() for option in kind.options})
SPEC_ITEM = st.one_of(
    TEXT,
    st.sampled_from(OPTION_WORDS),
    st.tuples(
        st.sampled_from(OPTION_WORDS), st.one_of(TEXT, NUMBER_TEXT, st.sampled_from(["on", "off"]))
    ).map("=".join),
)
KINDS = st.sampled_from(list(PLAYERS))
SPEC = st.one_of(
    st.tuples(KINDS, st.lists(SPEC_ITEM, max_size=3)),
    st.tuples(
        KINDS,
        st.lists(st.tuples(st.sampled_from(OPTION_WORDS), NUMBER_TEXT).map("=".join), max_size=3),
    ),
    st.tuples(TEXT, st.lists(SPEC_ITEM, max_size=2)),
).map(lambda parts: parts[0] + ":" + ",".join(parts[1]))


@settings(max_examples=400)
@given(text=SPEC)
def test_player_specs_are_read_or_raise_bad_player_spec(text: str) -> None:
    try:
        spec = parse_spec(text)
    except BadPlayerSpec as error:
        check_refusal(error, [text, *text.replace(":", ",").replace("=", ",").split(",")])
    else:
        assert parse_spec(str(spec)) == spec
        # as a duel's workers and Ray tasks receive it
        assert pickle.loads(pickle.dumps(spec)) == spec
        if not spec.is_plugin:  # a plugin's reference is read by the loader, when it is played
            create(spec)  # every value the parser takes builds a player


# ---------------------------------------------------------------- records


def real_records() -> list[dict[str, Any]]:
    """A record of the first moves of every game's example, as `play --record` writes it."""
    found = []
    for info in games.GAMES:
        game = games.create(info.example)
        state, moves = game.initial_state(), []
        for _ in range(3):
            if game.is_terminal(state):
                break
            action = (
                game.actions(state)[0]
                if game.to_move(state) != CHANCE
                else outcomes(game, state)[0][1]
            )
            moves.append(game.format_move(action))
            state = game.result(state, action)
        players = ["human", "random"][: game.players]
        found.append(
            json.loads(
                GameRecord(game.spec, tuple(players), tuple(moves), None, (), False).to_json()
            )
        )
    return found


REAL_RECORDS = real_records()
JSON_VALUE = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(10**30), 10**30), st.floats(), TEXT),
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(TEXT, children, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = ["game", "players", "moves", "result"]


@st.composite
def record_texts(draw: st.DrawFn) -> str:
    """A real record with one part broken: a field replaced, dropped or filled with junk; or junk
    JSON."""
    record = json.loads(json.dumps(draw(st.sampled_from(REAL_RECORDS))))
    how = draw(
        st.sampled_from(
            ["field", "drop", "move", "players", "result", "words", "junk", "nesting", "none"]
        )
    )
    if how == "field":
        record[draw(st.sampled_from(FIELDS))] = draw(JSON_VALUE)
    elif how == "drop":
        del record[draw(st.sampled_from(FIELDS))]
    elif how == "move":
        record["moves"] = [*record["moves"], draw(TEXT)]
    elif how == "players":
        record["players"] = draw(st.lists(TEXT, max_size=3))
    elif how == "result":
        record["result"][draw(st.sampled_from(["winner", "utilities", "finished"]))] = draw(
            JSON_VALUE
        )
    elif how == "words":
        record["game"] = " ".join(draw(st.lists(WORD, max_size=4)))
    elif how == "junk":
        return draw(TEXT)
    elif how == "nesting":
        return "[" * draw(st.integers(1, 50_000)) + draw(TEXT)
    return json.dumps(record)


@settings(max_examples=400)
@given(text=record_texts())
def test_records_are_read_or_raise_bad_record(text: str) -> None:
    try:
        record = GameRecord.from_json(text)
    except BadRecord as error:
        message = str(error)
        assert "\n" not in message and len(message) <= 300, message
    else:
        assert len(record.positions()) == len(record.moves) + 1


# ---------------------------------------------------------------- the same through the command line

OUTPUT_LIMIT = 50_000
"""No run here prints more than this: a board or two, the banner, a refusal."""


def check_run(run: CompletedProcess[str]) -> None:
    """A documented exit code, no traceback, bounded output; a refusal of ours is one line."""
    assert run.returncode in (0, 1, 2, 130), run
    assert "Traceback" not in run.stdout + run.stderr
    assert len(run.stdout) <= OUTPUT_LIMIT and len(run.stderr) <= 1_000, run.stderr
    if run.returncode == 2 and run.stderr.startswith("nimmax: "):
        assert run.stderr.count("\n") == 1, run.stderr


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the CLI runs: a word that happens to read `--record NAME` writes there, not in the
    checkout."""
    return tmp_path_factory.mktemp("fuzz")


CLI = settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])


@CLI
@given(name=st.sampled_from([info.name for info in games.GAMES]), words=st.lists(WORD, max_size=4))
def test_game_words_on_the_command_line(workdir: Path, name: str, words: list[str]) -> None:
    check_run(nimmax_in_process("play", name, *words, stdin="quit\n", cwd=workdir))


@CLI
@given(words=st.sampled_from(POSITION_GAMES), text=POSITION_TEXT)
def test_positions_on_the_command_line(workdir: Path, words: str, text: str) -> None:
    check_run(
        nimmax_in_process("play", *words.split(), "--position", text, stdin="quit\n", cwd=workdir)
    )


SMALL_GAMES = [
    "simple-nim",
    "nim 2 3 5",
    "split-nim",
    "tictactoe",
    "connect4",
    "2048 --seed 1",
    "kalah",
    "plates",
]


@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.sampled_from(SMALL_GAMES), text=TEXT)
def test_moves_at_the_prompt(workdir: Path, words: str, text: str) -> None:
    game = games.create(words)
    second = ["--second", "random:seed=1"] if game.players == 2 else []
    answer = text.replace("\r", " ").replace("\n", " ")  # one answer, then quit
    run = nimmax_in_process("play", *words.split(), *second, stdin=f"{answer}\nquit\n", cwd=workdir)
    check_run(run)
    assert run.returncode == 0  # a bad move is refused at the prompt, the game goes on


@CLI
@given(spec=SPEC)
def test_player_specs_on_the_command_line(workdir: Path, spec: str) -> None:
    check_run(
        nimmax_in_process(
            "play", "nim", "2", "3", "5", "--second", spec, stdin="quit\n", cwd=workdir
        )
    )
    check_run(nimmax_in_process("solve", "nim", "2", "3", "--algorithm", spec, cwd=workdir))


@CLI
@given(text=record_texts())
def test_records_on_the_command_line(workdir: Path, text: str) -> None:
    path = workdir / "record.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    check_run(nimmax_in_process("replay", str(path), "--delay", "0", cwd=workdir))


def test_the_spec_numbers_cover_the_awkward_ones() -> None:
    time = parse_spec("alphabeta:time=inf").options["time"]
    assert isinstance(time, float) and math.isinf(time)
