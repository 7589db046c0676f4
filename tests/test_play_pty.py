"""Real `nimmax play` sessions under a pseudo-terminal, typed key by key as a person would.

The prompt is prompt_toolkit's, so screen output carries escape codes between characters:
`shown()` matches text with any escape codes in between.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import pexpect
import pytest

from .cli_helpers import ROOT, signals_default

ESCAPES = r"(?:\x1b\[[0-9;?]*[A-Za-z]|[\r\n])*"
ERASE_LINE = "\x15"  # Ctrl-U: empties the prompt line
F2 = "\x1bOQ"  # what an xterm sends for the F2 key


def shown(text: str) -> str:
    """A pattern for `text` as it appears on a terminal, escape codes allowed between characters."""
    return ESCAPES.join(re.escape(character) for character in text)


def spawn(*args: str, environment: Mapping[str, str] = {}, columns: int = 100) -> pexpect.spawn:  # noqa: B006
    """`python -m nimmax ARGS` on a 30-row pseudo-terminal, `environment` added to this one's."""
    # No cursor-position requests: pexpect does not answer them, prompt_toolkit would wait.
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "TERM": "xterm",
        "PROMPT_TOOLKIT_NO_CPR": "1",
        **environment,
    }
    env.pop("NO_COLOR", None)
    return pexpect.spawn(
        sys.executable,
        ["-m", "nimmax", *args],
        env=env,
        cwd=str(ROOT),
        dimensions=(30, columns),
        encoding="utf-8",
        timeout=20,
        preexec_fn=signals_default,  # a test that sends a signal starts the child with its default
    )


def finish(child: pexpect.spawn) -> tuple[int, str]:
    """Wait for the end; the exit code and what was left on screen."""
    rest = child.read()
    child.close()
    assert child.signalstatus is None
    return child.exitstatus, rest


def test_a_session_refuses_completes_hints_answers_undoes_and_ends_on_eof(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    child = spawn("play", "nim", "2", "3", "5", "--record", str(record))
    child.expect(shown("First ›"))
    child.send("9:9\r")
    child.expect(shown("there is no pile 9"))
    child.send(ERASE_LINE + "3\t")  # Tab completes the legal moves
    child.expect(shown("3:5"))
    child.send(ERASE_LINE + F2)  # F2 asks for a hint
    child.expect(shown("hint: 3:4"))
    child.expect(shown("First ›"))
    child.send("3:4\r")
    child.expect(shown("Second (alphabeta) plays"))
    child.expect(shown("First ›"))
    child.send("undo\r")
    child.expect(shown("took back 3:4, "))
    child.expect(shown("First ›"))
    child.send("2:1\r")
    child.expect(shown("Second (alphabeta) plays"))
    child.expect(shown("First ›"))
    child.sendeof()
    code, rest = finish(child)
    assert code == 0 and "Traceback" not in rest
    saved = json.loads(record.read_text())
    assert (
        saved["moves"][0] == "2:1"
        and len(saved["moves"]) == 2
        and saved["result"]["finished"] is False
    )


def test_a_move_typed_after_a_refused_one_replaces_it() -> None:
    """The refused `m155` stays shown to be corrected, but typing `l14` over it is the move l14, not
    `m155l14`."""
    child = spawn(
        "play", "tictactoe", "--size", "15", "--k", "5", "--first", "human", "--second", "human"
    )
    child.expect(shown("X ›"))
    child.send("m155\r")
    child.expect(shown("row must be a whole number from 1 to 15, not '155'"))
    child.send("l14\r")
    child.expect(shown("X plays l14"))
    child.expect(shown("O ›"))
    child.send("m155\r")
    child.expect(shown("not '155'"))
    child.send("\x7f\r")  # corrected by a backspace: m15
    child.expect(shown("O plays m15"))
    child.sendeof()
    code, rest = finish(child)
    assert code == 0 and "Traceback" not in rest


def test_ctrl_c_at_the_prompt_exits_130_without_a_traceback() -> None:
    child = spawn("play", "simple-nim", "12")
    child.expect(shown("First ›"))
    child.sendintr()
    code, rest = finish(child)
    assert code == 130 and "Traceback" not in rest and "interrupted" in rest


def test_ctrl_c_while_the_engine_thinks_makes_it_move_now_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    record = tmp_path / "game.json"
    # Plain minimax without a cache or a time limit on these piles would search for hours.
    spec = "minimax:cache=off,time=inf,book=off"
    child = spawn(
        "play",
        "nim",
        "4",
        "5",
        "6",
        "7",
        "--first",
        spec,
        "--second",
        "human",
        "--record",
        str(record),
    )
    child.expect(shown("is thinking"))
    child.sendintr()
    child.expect(shown("moved now at Ctrl-C"))
    child.expect(shown("Second ›"))  # the person's turn: the game goes on
    child.send("quit\r")
    code, rest = finish(child)
    assert code == 0 and "Traceback" not in rest
    saved = json.loads(record.read_text())
    assert len(saved["moves"]) == 1 and saved["result"]["finished"] is False


def test_ctrl_c_twice_while_the_engine_thinks_exits_130_and_keeps_the_record(
    tmp_path: Path,
) -> None:
    record = tmp_path / "game.json"
    spec = "minimax:cache=off,time=inf,book=off"
    child = spawn(
        "play",
        "nim",
        "4",
        "5",
        "6",
        "7",
        "--first",
        spec,
        "--second",
        spec,
        "--record",
        str(record),
    )
    child.expect(shown("is thinking"))
    child.sendintr()
    time.sleep(0.3)  # two presses: signals sent together arrive as one
    child.sendintr()
    code, rest = finish(child)
    assert code == 130 and "Traceback" not in rest
    saved = json.loads(record.read_text())
    assert len(saved["moves"]) <= 1 and saved["result"]["finished"] is False


def test_2048_moves_on_single_keys_undoes_and_quits(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    child = spawn("play", "2048", "--seed", "3", "--record", str(record))
    child.expect("hjkl slide")
    # up arrow, wasd, down arrow, hjkl: no Enter
    for key in ("\x1b[A", "a", "\x1b[B", "d", "h", "l"):
        child.send(key)
        child.expect("hjkl slide")
    child.send("u")
    child.expect("hjkl slide")
    child.send("q")
    code, _ = finish(child)
    assert code == 0
    moves = json.loads(record.read_text())["moves"]
    slides = [move for move in moves if "@" not in move]  # the rest are the spawns drawn by chance
    assert slides == ["up", "left", "down", "right", "left"]  # the last slide was undone


F1, F3, F4 = "\x1bOP", "\x1bOR", "\x1bOS"  # what an xterm sends for F1, F3 and F4
LEFT, RIGHT, UP, DOWN = "\x1b[D", "\x1b[C", "\x1b[A", "\x1b[B"


def test_2048_has_help_and_a_hint_on_keys_and_never_echoes_a_key(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    child = spawn("play", "2048", "--seed", "3", "--record", str(record))
    child.logfile_read = screen = io.StringIO()  # everything the terminal showed
    child.expect(shown("? / F1 help · F2 hint · u / F3 undo · q quit"))  # the banner names the keys
    child.expect("hjkl slide")
    child.send("?")
    child.expect(shown("Keys: arrows / wasd / hjkl slide"))
    child.expect(shown("show this help"))
    child.expect("hjkl slide")
    child.send(F1)
    child.expect(shown("Keys: arrows / wasd / hjkl slide"))
    child.expect("hjkl slide")
    child.send(F2)
    child.expect(shown("hint is thinking") + "|" + shown("hint:"))
    # pressed while the hint searches, when no prompt is reading keys
    child.send(LEFT + RIGHT + LEFT)
    child.expect(shown("hint: "))
    child.expect(shown(" now · expects "))  # the slide's points, the learned expectation apart
    child.send(RIGHT + UP + DOWN)  # pressed quickly, before each board is drawn
    for _ in range(6):
        child.expect(shown("Player (you) plays"))
    child.expect("hjkl slide")
    child.send(F3)  # takes the last slide back
    child.expect(shown("took back"))
    child.expect("hjkl slide")
    child.send("q")
    code, _ = finish(child)
    shown_text = screen.getvalue()
    assert code == 0 and "Traceback" not in shown_text
    # no key echoed
    assert "^[" not in shown_text and "\x1b[D" not in shown_text and "\x1b[C" not in shown_text
    slides = [move for move in json.loads(record.read_text())["moves"] if "@" not in move]
    assert len(slides) == 5  # six slides, the last taken back


def test_2048_help_typed_key_by_key_is_slides_and_help_is_question_mark() -> None:
    """`h` and `l` slide in 2048, so the word help cannot be typed: `?` and F1 are help, and the
    banner says so."""
    child = spawn("play", "2048", "--seed", "3")
    child.expect(shown("? / F1 help"))
    child.expect("hjkl slide")
    child.send("q")
    code, rest = finish(child)
    assert code == 0 and "Traceback" not in rest


def test_tictactoe_answers_question_mark_f1_f2_f3_and_u(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    child = spawn("play", "tictactoe", "--record", str(record))
    child.expect(
        shown("Type a move, or: ? / F1 / help · F2 / hint · F4 / why · u / F3 / undo · q / quit")
    )
    child.expect(shown("X ›"))
    child.send("?")  # at once, no Enter
    child.expect(shown("Moves look like: "))
    child.expect(shown("u / F3 / undo"))
    child.expect(shown("X ›"))
    child.send(F1)
    child.expect(shown("Moves look like: "))
    child.expect(shown("X ›"))
    child.send(F2)
    child.expect(shown("hint: "))
    child.expect(shown("(draw, proven)"))  # the empty 3x3 board is a draw
    child.expect(shown("X ›"))
    child.send("b2\r")
    child.expect(shown("O (alphabeta) plays"))
    child.expect(shown("X ›"))
    child.send(F4)
    child.expect(shown("why O (alphabeta) played"))
    child.expect(shown("X ›"))
    child.send(F3)
    child.expect(shown("took back b2, "))
    child.expect(shown("X ›"))
    child.send("a1\r")
    child.expect(shown("O (alphabeta) plays"))
    child.expect(shown("X ›"))
    child.send("u\r")
    child.expect(shown("took back a1, "))
    child.expect(shown("X ›"))
    child.send("q\r")
    code, rest = finish(child)
    assert code == 0 and "Traceback" not in rest
    assert json.loads(record.read_text())["moves"] == []


def test_kalah_answers_question_mark_f1_f2_f3_and_u() -> None:
    child = spawn("play", "kalah", "--pits", "3", "--seeds", "3")
    child.expect(
        shown("Type a move, or: ? / F1 / help · F2 / hint · F4 / why · u / F3 / undo · q / quit")
    )
    child.expect(shown("South ›"))
    child.send("?")
    child.expect(shown("Moves look like: "))
    child.expect(shown("South ›"))
    child.send(F1)
    child.expect(shown("Moves look like: "))
    child.expect(shown("South ›"))
    child.send(F2)
    child.expect(shown("hint: "))
    child.expect(shown("proven"))  # Kalah(3,3) is solved within the hint's second
    child.expect(shown("South ›"))
    child.send("1\r")
    child.expect(shown("South ›"))
    child.send(F3)
    child.expect(shown("took back 1"))
    child.expect(shown("South ›"))
    child.send("2\r")
    child.expect(shown("South ›"))
    child.send("u\r")
    child.expect(shown("took back 2"))
    child.expect(shown("South ›"))
    child.send("q\r")
    code, rest = finish(child)
    assert code == 0 and "Traceback" not in rest


CTRL_R, CTRL_D = "\x12", "\x04"
F1, F3, F4 = "\x1bOP", "\x1b[13~", "\x1b[14~"
KEYED = [
    ("?", "Moves look like: "),
    (F1, "Moves look like: "),
    (F2, "hint: "),
    (F3, "nothing to take back yet"),
]


def test_every_key_works_from_the_history_search_and_the_completion_menu() -> None:
    """A command key pressed in the reverse search (Ctrl-R) or with the completion menu open answers
    as from the plain line, and the prompt comes back ready for a move: none leaves it wedged."""
    child = spawn("play", "tictactoe")
    child.expect(shown("X ›"))
    for mode in (CTRL_R, "\t"):
        for key, answer in KEYED:
            child.send(mode)
            time.sleep(0.2)  # the mode opens before the key arrives, as a person types them
            child.send(key)
            child.expect(shown(answer))
            child.expect(shown("X ›"))
    child.send(ERASE_LINE + "b2\r")  # the line still takes a move
    child.expect(shown("O (alphabeta) plays"))
    child.expect(shown("X ›"))
    child.send(CTRL_R)
    time.sleep(0.2)
    child.send(F4)
    child.expect(shown("why O (alphabeta) played"))
    child.expect(shown("X ›"))
    child.send(CTRL_R)
    time.sleep(0.2)
    child.send(CTRL_D)  # and Ctrl-D quits from the search too
    child.expect(shown("end of input"))
    code, rest = finish(child)
    assert code == 0 and "Traceback" not in rest


@pytest.mark.parametrize("words", [["nim", "2", "3", "5"], ["connect4"]], ids=["nim", "connect4"])
def test_help_from_the_history_search_gives_the_prompt_back(words: list[str]) -> None:
    child = spawn("play", *words)
    child.expect(shown("First ›") if words[0] == "nim" else shown("X ›"))
    child.send(CTRL_R)
    time.sleep(0.2)
    child.send("?")
    child.expect(shown("Moves look like: "))
    child.expect(shown("First ›") if words[0] == "nim" else shown("X ›"))
    child.send("q\r")
    code, rest = finish(child)
    assert code == 0 and "Traceback" not in rest
