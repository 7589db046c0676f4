"""Keep and go on: a game left at a terminal (each way) is kept and `play --resume` finishes it;
`replay` steps with keys; `--position RECORD@N` is the board the stepper shows at ply N."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from pathlib import Path

import pexpect
import pytest

from nimmax import games, saves
from nimmax.match import GameRecord

from .cli_helpers import nimmax
from .test_play_pty import shown
from .test_play_pty import spawn as pty_spawn

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(data: Path, *args: str) -> pexpect.spawn:
    """`python -m nimmax ARGS` on a pseudo-terminal, its data folder `data`."""
    return pty_spawn(*args, environment={"NIMMAX_DATA_DIR": str(data)}, columns=120)


def run(data: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """`python -m nimmax ARGS` in a subprocess, its data folder `data`."""
    return nimmax(*args, stdin=stdin, environment={"NIMMAX_DATA_DIR": str(data)})


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "")


@pytest.mark.parametrize(
    ("way", "code"), [("q", 0), ("ctrl-d", 0), ("ctrl-c", 130), ("hang-up", 129)]
)
def test_each_way_of_leaving_a_game_keeps_it_and_says_where(
    tmp_path: Path, way: str, code: int
) -> None:
    child = spawn(tmp_path, "play", "nim", "2", "3", "5")
    child.expect(shown("First ›"))
    child.send("3:4\r")
    child.expect(shown("Second (alphabeta) plays"))
    child.expect(shown("First ›"))
    if way == "q":
        child.send("q\r")
    elif way == "ctrl-d":
        child.send("\x04")
    elif way == "ctrl-c":
        child.send("\x03")
    else:
        child.kill(signal.SIGHUP)
    rest = plain(child.read())
    child.close()
    assert child.exitstatus == code and "Traceback" not in rest
    (kept,) = tmp_path.iterdir()
    record = GameRecord.from_json(kept.read_text())
    assert record.moves[0] == "3:4" and len(record.moves) == 2 and not record.finished
    assert record.players == ("human", "alphabeta")
    if way != "hang-up":  # the terminal is gone: nothing can be said on it
        last = rest.strip().splitlines()[-1]
        assert str(kept) in last and "nimmax play --resume" in last
    if way == "ctrl-c":  # one line, not three
        assert [line for line in rest.splitlines() if "interrupted" in line] == [last]


def test_play_resume_goes_on_with_the_latest_autosave_and_finishes_it(tmp_path: Path) -> None:
    left = run(tmp_path, "play", "nim", "2", "3", "5", stdin="3:4\nq\n")
    assert left.returncode == 0 and "game kept in" in left.stdout.splitlines()[-1]
    # the record's players; left again: kept anew
    again = run(tmp_path, "play", "--resume", stdin="q\n")
    assert again.returncode == 0 and "First (you) vs Second (alphabeta)" in again.stdout
    assert "going on from ply 2" in again.stdout
    (kept,) = saves_in(tmp_path)
    before = GameRecord.from_json(kept.read_text()).moves
    done = tmp_path / "done.json"
    finished = run(tmp_path, "play", "--resume", "--first", "random:seed=1", "--record", str(done))
    assert finished.returncode == 0, finished.stderr
    record = GameRecord.from_json(done.read_text())
    assert record.finished and record.players == ("random:seed=1", "alphabeta")
    assert record.moves[:2] == before and record.winner == 1  # 3:4 was best
    assert saves_in(tmp_path) == []
    nothing = run(tmp_path, "play", "--resume")
    assert nothing.returncode == 2 and nothing.stderr.startswith(
        "nimmax: no unfinished game to resume"
    )


def saves_in(folder: Path) -> list[Path]:
    return sorted(path for path in folder.iterdir() if path.name.startswith("autosave-"))


def test_resume_of_a_named_record_appends_to_it_and_a_finished_one_is_refused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.json"
    assert (
        run(
            tmp_path, "play", "nim", "2", "3", "5", "--record", str(path), stdin="1:1\nq\n"
        ).returncode
        == 0
    )
    assert run(tmp_path, "play", "--resume", str(path), "--first", "alphabeta").returncode == 0
    record = GameRecord.from_json(path.read_text())
    assert (
        record.finished
        and record.moves[0] == "1:1"
        and record.players == ("alphabeta", "alphabeta")
    )
    refused = run(tmp_path, "play", "--resume", str(path))
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1
    assert "nimmax replay" in refused.stderr and "nimmax analyze" in refused.stderr


def test_the_data_folder_is_never_followed_through_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real, link = tmp_path / "real", tmp_path / "link"
    real.mkdir()
    link.symlink_to(real)
    monkeypatch.setenv(saves.ENVIRONMENT, str(link))
    game = games.create("nim 1 2")
    with pytest.raises(OSError):
        saves.keep(GameRecord.of(game, ["human", "random"], []))
    assert list(real.iterdir()) == []
    monkeypatch.setenv(saves.ENVIRONMENT, str(real))
    (real / "autosave-99999999-000000-aaaaaa.json").symlink_to(tmp_path / "elsewhere.json")
    assert saves.saved() == []


def test_replay_steps_with_keys_shows_the_stored_analysis_and_agrees_with_position_at_ply(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c4.json"
    played = run(
        tmp_path,
        "play",
        "connect4",
        "--first",
        "random:seed=1",
        "--second",
        "random:seed=2",
        "--record",
        str(path),
    )
    assert played.returncode == 0
    stored = run(tmp_path, "analyze", str(path), "--write", "--algorithm", "alphabeta:depth=1")
    assert stored.returncode == 0 and "analysis" in json.loads(path.read_text())
    last = len(GameRecord.from_json(path.read_text()).moves)
    child = spawn(tmp_path, "replay", str(path))

    def key(sent: str, then: str) -> str:
        child.expect(shown("q quit"))
        child.send(sent)
        child.expect(shown(then))
        return plain(child.before + child.after)

    child.expect(shown("ply 0 of"))
    key("\x1b[C", "ply 1 of")  # →
    key("l", "ply 2 of")
    key("\x1b[D", "ply 1 of")  # ←
    key("a", "ply 1: ")
    key("\x1b[F", f"ply {last} of {last}")  # End
    key("\x1b[H", "ply 0 of")  # Home
    key("g", "go to ply")
    child.send("7\r")
    child.expect(shown("ply 7 of"))
    child.expect(shown("to move"))
    board = [
        line.split()[1:] for line in plain(child.before).splitlines() if re.match(r"^\d ", line)
    ]
    child.expect(shown("q quit"))
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    solved = run(tmp_path, "solve", "connect4", "--position", f"{path}@7", "--depth", "1", "--json")
    position = json.loads(solved.stdout)["position"]
    assert "/".join("".join(row) for row in board) == position
    game = games.create("connect4")
    assert position == game.format_position(GameRecord.from_json(path.read_text()).positions()[7])


def test_r_in_the_stepper_plays_on_from_the_ply_shown(tmp_path: Path) -> None:
    path = tmp_path / "nim.json"
    assert (
        run(
            tmp_path, "play", "nim", "2", "3", "5", "--record", str(path), stdin="1:1\n2:1\n3:1\n"
        ).returncode
        == 0
    )
    child = spawn(tmp_path, "replay", str(path))
    child.expect(shown("q quit"))
    child.send("n")
    child.expect(shown("ply 1 of"))
    child.expect(shown("q quit"))
    child.send("r")
    child.expect(shown("going on from ply 1"))
    child.expect(shown("First ›"))
    child.send("q\r")
    rest = plain(child.read())
    child.close()
    assert child.exitstatus == 0 and "nimmax play --resume" in rest.strip().splitlines()[-1]
    (kept,) = saves_in(tmp_path)
    assert GameRecord.from_json(kept.read_text()).moves[0] == "1:1"
    time.sleep(0)  # the record replayed is left as it was
    assert len(GameRecord.from_json(path.read_text()).moves) > 2


def test_tab_on_a_big_board_lists_the_moves_near_the_stones_first() -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from nimmax.ui.prompt import MoveCompleter

    game = games.create("tictactoe --size 15 --k 5")
    state = game.initial_state()
    for text in ("b2", "n14", "b3"):
        state = game.result(state, game.parse_move(text, state))
    listed = [
        completion.text
        for completion in MoveCompleter(game, state).get_completions(Document(""), CompleteEvent())
    ]

    def near(move: str) -> bool:
        column, row = ord(move[0]) - ord("a"), int(move[1:])
        return any(
            abs(column - (ord(s[0]) - ord("a"))) <= 2 and abs(row - int(s[1:])) <= 2
            for s in ("b2", "n14", "b3")
        )

    assert all(near(move) for move in listed[:10])


def test_the_stepper_reads_a_plates_result_against_the_best_possible(tmp_path: Path) -> None:
    """The stepper's closing banner says what replay's and play's say (the note kept beside the
    game's value from its start): the value is handed to it as to them."""
    path = tmp_path / "plates.json"
    assert run(tmp_path, "play", "plates", "--record", str(path), stdin="2\n10\n").returncode == 0
    child = spawn(tmp_path, "replay", str(path))
    child.expect(shown("q quit"))
    child.send("\x1b[F")  # End: the last ply
    child.expect(shown("ply 3 of 3"))
    child.expect(shown("best possible 20"))
    child.send("q")
    child.read()
    child.close()
    assert child.exitstatus == 0
