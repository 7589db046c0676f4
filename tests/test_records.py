"""Records and the files people name: a record's shape and sizes are checked before a move is
replayed, every bad one is one line and exit 2; output files are checked before the game or the
tree starts, and a record that still cannot be written is one line, exit 1, with nothing lost."""

from __future__ import annotations

import errno
import json
import os
import shlex
import time
from pathlib import Path
from typing import Any

import pytest

from nimmax import files
from nimmax.errors import quoted
from nimmax.game import BadInput
from nimmax.match import MAX_MOVES, MAX_RECORD_BYTES, BadRecord, GameRecord
from nimmax.ui.prompt import LineReader

from .cli_helpers import nimmax_in_process

GOOD: dict[str, Any] = {
    "game": "nim 2 3 5",
    "players": ["human", "alphabeta"],
    "moves": ["3:4", "2:2"],
    "result": {"winner": None, "utilities": [], "finished": False},
}
"""A record as `play --record` writes it, cut short after two moves."""

PROC_VERSION = Path("/proc/version")
needs_proc = pytest.mark.skipif(not PROC_VERSION.exists(), reason="needs Linux's /proc/version")


def record_text(**fields: Any) -> str:
    """GOOD with some fields replaced."""
    return json.dumps({**GOOD, **fields})


def one_line_exit_2(run: Any, fragment: str) -> None:
    """A refusal: exit 2, nothing on stdout, one short line on stderr holding `fragment`."""
    assert run.returncode == 2, run.stderr
    assert run.stdout == ""
    assert (
        run.stderr.startswith("nimmax: ") and run.stderr.count("\n") == 1 and len(run.stderr) < 300
    ), run.stderr
    assert fragment in run.stderr, run.stderr


# ---------------------------------------------------------------- GameRecord.from_json


def test_a_good_record_reads_back_as_written() -> None:
    record = GameRecord.from_json(record_text())
    assert record.players == ("human", "alphabeta") and record.moves == ("3:4", "2:2")
    assert len(record.positions()) == 3 and not record.finished
    assert GameRecord.from_json(record.to_json()) == record


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            record_text(players=[]),
            "not a nimmax game record: players must be a list of 2 player specs (one a seat) for "
            "nim",
        ),
        (
            record_text(players=["human"]),
            "players must be a list of 2 player specs (one a seat) for nim",
        ),
        (
            record_text(players=["a", "b", "c"]),
            "players must be a list of 2 player specs (one a seat) for nim",
        ),
        (
            record_text(players=[1, 2]),
            "players must be a list of 2 player specs (one a seat) for nim",
        ),
        (
            record_text(players="human"),
            "players must be a list of 2 player specs (one a seat) for nim",
        ),
        (
            record_text(players=["human", "\x1b[2J"]),
            "players must be a list of 2 player specs (one a seat) for nim",
        ),
        (
            record_text(game="2048", players=[]),
            "not a nimmax game record: players must be a list of one player spec for 2048",
        ),
        (
            record_text(moves="3:4"),
            'not a nimmax game record: moves must be a list of moves as written, e.g. ["3:4", '
            '"1:1"]',
        ),
        (
            record_text(moves=["3:4", 3]),
            "not a nimmax game record: ply 2 is not a move as written (a string of at most 100 "
            "characters)",
        ),
        (record_text(moves=["3:4", None]), "ply 2 is not a move as written"),
        (record_text(moves=["j" * 101]), "ply 1 is not a move as written"),
        (
            record_text(moves=["1:1"] * (MAX_MOVES + 1)),
            "not a nimmax game record: it has 100,001 moves; a record holds at most 100,000",
        ),
        (
            record_text(moves=["3:4", "3:4"]),
            "ply 2 ('3:4') cannot be replayed: cannot take 4 from pile 3; piles are 2,3,1",
        ),
        (
            record_text(moves=["3:4", "²:1"]),
            "ply 2 ('²:1') cannot be replayed: pile must be a whole number from 1 to 1000000000, "
            "not '²'",
        ),
        (record_text(moves=["3:4", "j" * 100]), f"ply 2 ('{'j' * 40}…') cannot be replayed"),
        (record_text(game="chess"), "the record's game cannot be played: unknown game 'chess'"),
        (
            record_text(game="nim ²"),
            "the record's game cannot be played: nim: a pile must be a whole number",
        ),
        (
            record_text(game=["nim", "2"]),
            "not a nimmax game record: game must be game words of at most 10,000 characters",
        ),
        (
            record_text(game="nim " + "1 " * 5001),
            "game must be game words of at most 10,000 characters",
        ),
        (
            record_text(result=[]),
            "not a nimmax game record: "
            "result must be an object with winner, utilities and finished",
        ),
        (
            record_text(result={"winner": True}),
            "not a nimmax game record: the winner must be null or a seat from 0 to 1",
        ),
        (record_text(result={"winner": 2}), "the winner must be null or a seat from 0 to 1"),
        (record_text(result={"winner": "x"}), "the winner must be null or a seat from 0 to 1"),
        (
            record_text(result={"utilities": [1, 2, 3]}),
            "utilities must be a list of 2 payoffs, or empty",
        ),
        (
            record_text(result={"utilities": ["1", "2"]}),
            "utilities must be a list of 2 payoffs, or empty",
        ),
        (
            record_text(result={"finished": "yes"}),
            "not a nimmax game record: finished must be true or false",
        ),
        (
            record_text().replace('"winner": null', '"winner": ' + "9" * 5000),
            "a number in the record must be a whole number from -1000000000000 to 1000000000000, "
            "not '" + "9" * 40 + "…'",
        ),
        (
            record_text().replace('"utilities": []', '"utilities": [1e999, 1]'),
            "a number in the record must be a number from -1000000000000 to 1000000000000, not "
            "'1e999'",
        ),
        (
            record_text().replace('"utilities": []', '"utilities": [NaN, 1]'),
            "a number in the record must be finite, not NaN",
        ),
        (
            record_text().replace('"utilities": []', '"utilities": [-Infinity, 1]'),
            "a number in the record must be finite, not -Infinity",
        ),
        ("[1, 2]", "not a nimmax game record: it is not a JSON object"),
        ("{}", "not a nimmax game record: it has no game, players, moves or result field"),
        (
            '{"game": "nim 2 3 5"}',
            "not a nimmax game record: it has no players, moves or result field",
        ),
        (
            '{"game": "nim 2 3 5", "players": ["human", "alphabeta"], "moves": []}',
            "not a nimmax game record: it has no result field (the winner, the payoffs and "
            "whether the game finished)",
        ),
        (
            "{not json",
            "not a nimmax game record: not JSON (Expecting property name enclosed in double "
            "quotes: line 1 column 2",
        ),
        ("", "not a nimmax game record: not JSON (Expecting value: line 1 column 1 (char 0))"),
        ("[" * 100_000, "not a nimmax game record: JSON nested far deeper than a record"),
        ('{"a":' * 100_000, "not a nimmax game record: JSON nested far deeper than a record"),
        (" " * (MAX_RECORD_BYTES + 1), "a record is at most 4,194,304 characters, not 4,194,305"),
    ],
)
def test_a_bad_record_is_one_line_saying_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(BadRecord) as refused:
        GameRecord.from_json(text)
    shown = str(refused.value)
    assert message in shown and "\n" not in shown and len(shown) < 300, shown


def test_a_record_with_the_most_moves_is_read_quickly() -> None:
    moves = ["1"] * MAX_MOVES
    text = record_text(
        game=f"simple-nim {MAX_MOVES} --max-take 1", moves=moves, result={"winner": 1}
    )
    started = time.perf_counter()
    record = GameRecord.from_json(text)
    assert len(record.moves) == MAX_MOVES and time.perf_counter() - started < 10


# ---------------------------------------------------------------- replay FILE, as the issue ran it


def test_replay_of_a_record_without_players_is_one_line(tmp_path: Path) -> None:
    """It was an IndexError traceback."""
    path = tmp_path / "game.json"
    path.write_text(record_text(players=[]))
    one_line_exit_2(
        nimmax_in_process("replay", str(path)), "players must be a list of 2 player specs"
    )


def test_replay_of_deeply_nested_json_is_one_line(tmp_path: Path) -> None:
    """It was exit 1 with "limit it with --depth or --time"."""
    path = tmp_path / "game.json"
    path.write_text("[" * 100_000)
    one_line_exit_2(nimmax_in_process("replay", str(path)), "JSON nested far deeper than a record")


def test_replay_of_a_100_megabyte_junk_move_is_refused_at_once(tmp_path: Path) -> None:
    """It gave a 200 MB "one-line" error; the file is refused after reading its first 4 MB."""
    path = tmp_path / "game.json"
    head = '{"game": "nim 2 3 5", "players": ["human", "random"], "moves": ["'
    with path.open("w") as file:
        file.write(head)
        file.truncate(100 * 2**20)  # a sparse file: 100 MB of junk without writing them
    started = time.perf_counter()
    run = nimmax_in_process("replay", str(path))
    one_line_exit_2(run, "is larger than 4,194,304 bytes, the most a record may be")
    assert time.perf_counter() - started < 5


def test_replay_of_twenty_million_moves_is_refused_at_once(tmp_path: Path) -> None:
    """It showed nothing for 120 s; now the size alone refuses it."""
    path = tmp_path / "game.json"
    moves = ",".join(['"1:1"'] * 2_000_000)  # a tenth of them already fills 12 MB
    path.write_text('{"game": "nim 2 3 5", "players": ["a", "b"], "moves": [' + moves + "]}")
    started = time.perf_counter()
    one_line_exit_2(nimmax_in_process("replay", str(path)), "is larger than 4,194,304 bytes")
    assert time.perf_counter() - started < 5


def test_replay_of_too_many_moves_within_the_size_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(record_text(moves=["1:1"] * 200_000))
    one_line_exit_2(
        nimmax_in_process("replay", str(path)),
        "it has 200,000 moves; a record holds at most 100,000",
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe\x00", "is not UTF-8 text"),
        (
            record_text(moves=["3:4", "9:9"]).encode(),
            "ply 2 ('9:9') cannot be replayed: there is no pile 9",
        ),
        (
            record_text(moves=["3:4", "j" * 99]).encode(),
            "ply 2 ('" + "j" * 40 + "…') cannot be replayed",
        ),
        (b"not json", "not a nimmax game record: not JSON"),
    ],
)
def test_replay_of_a_bad_record_file_is_one_line(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    one_line_exit_2(nimmax_in_process("replay", str(path)), message)


def test_replay_of_no_file_or_a_folder_is_one_line(tmp_path: Path) -> None:
    one_line_exit_2(
        nimmax_in_process("replay", str(tmp_path / "none.json")), "No such file or directory"
    )
    one_line_exit_2(nimmax_in_process("replay", str(tmp_path)), "Is a directory")


# ---------------------------------------------------------------- files.read_text


def test_a_reader_takes_at_most_its_cap(tmp_path: Path) -> None:
    path = tmp_path / "exact.txt"
    path.write_text("x" * 100)
    assert files.read_text(path, 100, "a test") == "x" * 100
    with pytest.raises(BadInput, match=r"is larger than 99 bytes, the most a test may be$"):
        files.read_text(path, 99, "a test")
    with pytest.raises(BadRecord, match="is larger than 1,000 bytes"):
        # endless: only the cap is read
        files.read_text(Path("/dev/zero"), 1000, "a record", BadRecord)


# ---------------------------------------------------------------- files.check_writable


def test_an_existing_file_passes_the_check_untouched(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text("keep me")
    os.utime(path, (1_000_000, 1_000_000))
    assert files.check_writable(path, "the record") == path
    assert path.read_text() == "keep me" and path.stat().st_mtime == 1_000_000


def test_a_new_file_passes_the_check_and_is_not_left_behind(tmp_path: Path) -> None:
    path = tmp_path / "new.json"
    assert files.check_writable(path, "the record") == path and not path.exists()
    assert files.check_writable(None, "the record") is None


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing/game.json", "No such file or directory"),
        (".", "it is a directory"),
        ("fifo", "No such device or address"),  # a FIFO nobody reads would block the write for ever
    ],
)
def test_a_path_that_cannot_be_written_is_refused(tmp_path: Path, name: str, message: str) -> None:
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(BadInput) as refused:
        files.check_writable(tmp_path / name, "the record")
    assert str(refused.value).startswith("cannot write the record to '") and str(
        refused.value
    ).endswith(message)


@needs_proc
def test_a_file_the_kernel_refuses_is_refused() -> None:
    with pytest.raises(BadInput, match="^cannot write the picture to '/proc/version': "):
        files.check_writable(PROC_VERSION, "the picture")


# ---------------------------------------------------------------- --record and --svg on the command
# line


@needs_proc
def test_record_to_proc_version_is_refused_before_the_game() -> None:
    """It played the whole game, then exited 0 with the error on stdout."""
    run = nimmax_in_process(
        "play",
        "nim",
        "2",
        "3",
        "5",
        "--first",
        "random",
        "--second",
        "random",
        "--record",
        "/proc/version",
    )
    one_line_exit_2(run, "cannot write the record to '/proc/version': ")


def test_record_to_a_missing_folder_is_refused_before_the_game(tmp_path: Path) -> None:
    run = nimmax_in_process(
        "play", "nim", "2", "--record", str(tmp_path / "no" / "game.json"), stdin="1:1\n"
    )
    one_line_exit_2(run, "No such file or directory")


@needs_proc
def test_svg_to_proc_version_is_refused_before_the_tree() -> None:
    one_line_exit_2(
        nimmax_in_process("tree", "nim", "2", "2", "--svg", "/proc/version"),
        "cannot write the picture to '/proc/version'",
    )


def test_a_record_that_cannot_be_written_at_the_end_is_printed_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The path passed the check, then the disk filled: one line on stderr, exit 1, the record on
    stdout."""
    path = tmp_path / "game.json"

    def full_disk(descriptor: int) -> None:  # the write is complete only once synced to the disk
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full_disk)
    run = nimmax_in_process(
        "play",
        "nim",
        "2",
        "3",
        "5",
        "--first",
        "random:seed=1",
        "--second",
        "random:seed=2",
        "--record",
        str(path),
    )
    assert run.returncode == 1 and not path.exists()
    assert run.stderr == (
        f"nimmax: the record was not written to {quoted(str(path))}: No space left on device; it "
        "is printed above\n"
    )
    printed = run.stdout[run.stdout.index("{\n") :]
    record = GameRecord.from_json(printed)
    assert record.players == ("random:seed=1", "random:seed=2") and record.finished and record.moves


def ctrl_c_at_the_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    """The person presses Ctrl-C at their first turn."""

    def interrupt(self: LineReader, game: Any, state: Any, prompt: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(LineReader, "__call__", interrupt)


def test_a_game_cut_short_by_ctrl_c_says_its_record_was_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    ctrl_c_at_the_prompt(monkeypatch)
    run = nimmax_in_process(
        "play", "nim", "2", "3", "5", "--second", "random", "--record", str(path)
    )
    assert run.returncode == 130
    resume = f"to go on: nimmax play --resume {shlex.quote(str(path))}"
    assert (
        run.stderr
        == f"nimmax: interrupted with the record written to {quoted(str(path))}; {resume}\n"
    )
    assert GameRecord.from_json(path.read_text()).moves == ()


def test_a_game_cut_short_whose_record_cannot_be_written_prints_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The interrupt keeps its code (130) and its one line, which says where the record went."""
    path = tmp_path / "game.json"

    def full_disk(descriptor: int) -> None:  # the write is complete only once synced to the disk
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    ctrl_c_at_the_prompt(monkeypatch)
    monkeypatch.setattr(os, "fsync", full_disk)
    run = nimmax_in_process(
        "play", "nim", "2", "3", "5", "--second", "random", "--record", str(path)
    )
    assert run.returncode == 130 and not path.exists()
    assert run.stderr == (
        "nimmax: interrupted with the record printed above: "
        f"it could not be written to {quoted(str(path))} (No space left on device); "
        f"the game could not be kept in {os.environ['NIMMAX_DATA_DIR']} (No space left on device)\n"
    )
    assert GameRecord.from_json(run.stdout[run.stdout.index("{\n") :]).players == (
        "human",
        "random",
    )
