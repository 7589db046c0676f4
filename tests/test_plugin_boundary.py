"""Regression tests of issue 29 (defects 2, 6, 7 and 8's atomic writes) and issue 28 defect 4: the
guarded boundary around plugins, records that never run code, text printed as text, files
written whole or not at all."""

from __future__ import annotations

import errno
import json
import os
import resource
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from nimmax import files, games
from nimmax.players import create, parse_spec

from .cli_helpers import ENVIRONMENT, ROOT, nimmax, nimmax_in_process

LISTY = """\
from nimmax import Game


class Listy(Game):
    def initial_state(self):
        return [5, 0]

    def to_move(self, state):
        return state[1]

    def actions(self, state):
        return [take for take in (1, 2) if take <= state[0]]

    def result(self, state, action):
        return [state[0] - action, 1 - state[1]]

    def is_terminal(self, state):
        return state[0] == 0

    def utility(self, state, player):
        return -1 if player == state[1] else 1
"""


def one_plugin_line(result: subprocess.CompletedProcess[str]) -> str:
    """The one line a plugin's failure is, with exit 2 and no traceback."""
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nimmax: a plugin failed: "), result.stderr
    return lines[0]


def test_an_unhashable_state_is_one_line_naming_the_law_in_every_command(tmp_path: Path) -> None:
    """Issue 28.4: a list state was a 71-line traceback in `solve`."""
    (tmp_path / "listy.py").write_text(LISTY)
    game = f"{tmp_path}/listy.py:Listy"
    for args in (
        ("solve", game),
        ("play", game, "--first", "random", "--second", "random"),
        ("tree", game),
        ("duel", "random", "random:seed=1", "--game", game, "--games", "2"),
        ("ladder", game, "--players", "random,random:seed=1", "--games", "2"),
    ):
        line = one_plugin_line(nimmax_in_process(*args))
        assert f"{tmp_path}/listy.py:5: Listy.initial_state returned [5, 0]" in line
        assert "not hashable" in line and "law rebuilt" in line
    checked = nimmax_in_process("check", game, "--playouts", "3")  # check still reports it as a law
    assert checked.returncode == 1 and "rebuilt" in checked.stdout


WRONG_RETURNS = [
    ("to_move", "return 2", "solve", "not a seat 0..1"),
    ("to_move", "return None", "play", "not a seat 0..1"),
    ("to_move", "return 0.5", "tree", "not a seat 0..1"),
    ("actions", "return 5", "solve", "not an iterable of moves"),
    ("actions", "return 3", "play", "not an iterable of moves"),
    ("utility", "return float('nan')", "solve", "not a payoff"),
    ("utility", "return 10**400", "play", "not a payoff"),
    ("utility", "return 'win'", "tree", "not a payoff"),
    ("key", "return list(args)", "solve", "a key that is not hashable"),
    ("format_move", "return None", "play", "not a str"),
    ("winner", "return 7", "play", "not None or a seat"),
]


def subtraction_with(member: str, body: str) -> str:
    """The example Subtraction game with one member's body replaced."""
    return textwrap.dedent(
        f"""\
        import sys
        sys.path.insert(0, {str(ROOT / "examples")!r})
        from subtraction import Subtraction


        class Wrong(Subtraction):
            def {member}(self, *args):
                {body}
        """
    )


@pytest.mark.parametrize(("member", "body", "command", "why"), WRONG_RETURNS)
def test_a_wrong_return_value_is_one_line_naming_the_member(
    tmp_path: Path, member: str, body: str, command: str, why: str
) -> None:
    """Issue 29.6: these were IndexError, ValueError (NaN) and TypeError tracebacks."""
    (tmp_path / "wrong.py").write_text(subtraction_with(member, body))
    args = {
        "solve": ("solve",),
        "play": ("play", "--first", "random", "--second", "random"),
        "tree": ("tree",),
    }
    command_words = args[command]
    result = nimmax_in_process(
        command_words[0], f"{tmp_path}/wrong.py:Wrong", "4", *command_words[1:]
    )
    line = one_plugin_line(result)
    assert f"{tmp_path}/wrong.py:7: Wrong.{member} " in line and why in line


def test_sys_exit_in_a_plugin_is_named_not_obeyed(tmp_path: Path) -> None:
    """Issue 29.6: sys.exit in a player's choose, a game's from_words or on import ended nimmax
    silently with the plugin's code (or printed a duel of no games as if it had finished)."""
    (tmp_path / "quits.py").write_text(
        "import sys\n\nclass Quits:\n    def choose(self, game, state):\n        sys.exit(0)\n"
    )
    for args in (
        ("play", "nim", "2", "3", "--first", f"{tmp_path}/quits.py:Quits", "--second", "random"),
        (
            "duel",
            f"{tmp_path}/quits.py:Quits",
            "random",
            "--game",
            "nim 2 3",
            "--games",
            "2",
            "--json",
        ),
    ):
        line = one_plugin_line(nimmax_in_process(*args))
        assert f"{tmp_path}/quits.py:4: Quits.choose called sys.exit(0)" in line
    (tmp_path / "words.py").write_text(
        subtraction_with("from_words", "sys.exit(4)").replace(
            "def from_words", "@classmethod\n    def from_words"
        )
    )
    assert "sys.exit(4)" in one_plugin_line(
        nimmax_in_process("solve", f"{tmp_path}/words.py:Wrong")
    )
    (tmp_path / "imports.py").write_text("import sys\nsys.exit(5)\n")
    refused = nimmax_in_process("solve", f"{tmp_path}/imports.py:Game")
    assert (
        refused.returncode == 2
        and "sys.exit(5)" in refused.stderr
        and "Traceback" not in refused.stderr
    )


def test_a_plugin_players_illegal_move_names_the_player(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text(
        "class Bot:\n    def choose(self, game, state):\n        return 'zz'\n"
    )
    line = one_plugin_line(
        nimmax_in_process("play", "nim", "2", "3", "--first", f"{tmp_path}/bot.py:Bot")
    )
    assert "Bot.choose returned 'zz', not a legal move here" in line


def test_only_plugins_are_wrapped() -> None:
    """Built-in games and players pay nothing for the boundary; plugins are behind it."""
    from nimmax.plugins.guard import PluginGame, PluginPlayer, unguarded

    assert type(games.create("nim 2 3")).__name__ == "Nim"
    assert not isinstance(create(parse_spec("random")), PluginPlayer)
    game = games.create("examples/tictactoe.py:TicTacToe")
    assert isinstance(game, PluginGame) and unguarded(game) is not game
    assert isinstance(create(parse_spec("examples/greedy.py:Greedy")), PluginPlayer)
    # only what the plugin defines is guarded: the defaults stay Game's, so engines skip them as
    # before
    assert "heuristic_actions" not in vars(type(game)) and "actions" in vars(type(game))


def test_a_record_never_loads_the_plugin_it_names(tmp_path: Path) -> None:
    """Issue 29.2: a record whose game is helper.py:G, beside a helper.py, ran helper.py."""
    marker = tmp_path / "ran"
    (tmp_path / "helper.py").write_text(
        f"open({str(marker)!r}, 'w').close()\n"
        + subtraction_with("utility", "return super().utility(*args)").replace(
            "class Wrong", "class G"
        )
    )
    record = tmp_path / "game.json"
    record.write_text(
        json.dumps(
            {
                "game": "helper.py:G 3",
                "players": ["random", "random"],
                "moves": ["3"],
                "result": {"winner": 0, "utilities": [1, -1], "finished": True},
            }
        )
    )
    for command in ("replay", "analyze"):
        refused = nimmax(command, str(record), cwd=tmp_path)
        assert refused.returncode == 2 and not marker.exists(), refused.stderr
        assert (
            f"--plugin {tmp_path}/helper.py" in refused.stderr
            and "never runs code" in refused.stderr
        )
    named = nimmax("replay", str(record), "--plugin", "helper.py", cwd=tmp_path)
    assert named.returncode == 0 and marker.exists(), named.stderr


def test_a_record_of_a_builtin_game_needs_no_plugin(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_text(
        json.dumps(
            {
                "game": "nim 1 2",
                "players": ["random", "random"],
                "moves": ["2:2", "1:1"],
                "result": {"winner": 0, "utilities": [-1, 1], "finished": True},
            }
        )
    )
    assert nimmax_in_process("replay", str(record)).returncode == 0
    refused = nimmax_in_process("replay", str(record), "--plugin", "x.py")
    assert refused.returncode == 2 and "not a plugin" in refused.stderr


def test_markup_in_a_records_players_is_printed_as_written(tmp_path: Path) -> None:
    """Issue 29.7: players ["[/]", "alphabeta"] made analyze raise rich.errors.MarkupError."""
    record = tmp_path / "game.json"
    record.write_text(
        json.dumps(
            {
                "game": "nim 1 2",
                "players": ["[/]", "[old]"],
                "moves": ["2:2", "1:1"],
                "result": {"winner": 0, "utilities": [-1, 1], "finished": True},
            }
        )
    )
    analysed = nimmax_in_process("analyze", str(record), "--time", "0.05")
    assert analysed.returncode == 0, analysed.stderr
    assert "First ([/])" in analysed.stdout and "Second ([old])" in analysed.stdout


def test_markup_in_a_plugins_path_is_printed_as_written(tmp_path: Path) -> None:
    """Issue 29.7: a plugin path with [/b] raised MarkupError in duel, tournament, ladder and check,
    and one with [old] lost that text."""
    folder = tmp_path / "a[" / "b]" / "[old]"
    folder.mkdir(parents=True)
    (folder / "greedy.py").write_text((ROOT / "examples" / "greedy.py").read_text())
    (folder / "ttt.py").write_text((ROOT / "examples" / "tictactoe.py").read_text())
    player, game = "a[/b]/[old]/greedy.py:Greedy", "a[/b]/[old]/ttt.py:TicTacToe"
    for args in (
        ("duel", player, "random", "--games", "2"),
        ("tournament", player, "random", "--games", "2"),
        ("ladder", "tictactoe", "--players", f"{player},random", "--games", "2"),
        ("check", game, "--playouts", "2"),
    ):
        result = nimmax_in_process(*args, cwd=tmp_path)
        assert result.returncode == 0, f"{args}: {result.stderr}"
        assert "a[/b]/[old]/" in result.stdout, result.stdout


def test_a_failed_write_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29.8: a record was written in place, so a full disk left a truncated old file."""
    path = tmp_path / "old.json"
    path.write_text("the old record\n")

    def full(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space"):
        files.write_atomic(path, "x" * 100_000)
    assert path.read_text() == "the old record\n"
    assert [item.name for item in tmp_path.iterdir()] == ["old.json"]  # no temporary left behind


def test_a_record_on_a_full_disk_keeps_the_old_one(tmp_path: Path) -> None:
    """The whole path: `play --record` over an old record with no room for the new one."""
    old = tmp_path / "old.json"
    old.write_text("{}\n" + " " * 3000)
    before = old.read_text()

    def small_files() -> None:
        # a write past the limit fails (EFBIG), not kills
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    env = {**os.environ, "PYTHONPATH": str(ROOT), **ENVIRONMENT}
    command = [
        sys.executable,
        "-m",
        "nimmax",
        "play",
        "simple-nim",
        "1500",
        "--first",
        "random",
        "--second",
        "random",
        "--seed",
        "1",
        "--record",
        str(old),
    ]
    result = subprocess.run(
        command, capture_output=True, text=True, env=env, preexec_fn=small_files, timeout=120
    )
    assert result.returncode == 1 and "the record was not written" in result.stderr, result.stderr
    assert old.read_text() == before
    assert '"moves"' in result.stdout  # the record is printed instead


def test_a_written_record_keeps_the_folder_and_mode(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    files.write_atomic(path, "one")
    os.chmod(path, 0o640)
    files.write_atomic(path, "two")
    assert path.read_text() == "two" and (path.stat().st_mode & 0o777) == 0o640
    link = tmp_path / "link.json"
    link.symlink_to(path)
    files.write_atomic(link, "three")
    assert link.is_symlink() and path.read_text() == "three"
    # not a regular file: written in place, not replaced
    files.write_atomic(Path(os.devnull), "nothing")
    assert Path(os.devnull).is_char_device()


DICE = """\
from nimmax import CHANCE, Game


class Dice(Game):
    \"\"\"One player: N counters; take 1 or 2, then a die takes 1 or 2; score where you stop.\"\"\"

    players, has_chance, player_names = 1, True, ("You",)

    def initial_state(self):
        return (6, 0)

    def to_move(self, state):
        return CHANCE if state[1] else 0

    def actions(self, state):
        return [take for take in (1, 2) if take <= state[0]]

    def chance_outcomes(self, state):
        {outcomes}

    def result(self, state, action):
        return (max(0, state[0] - action), 1 - state[1])

    def is_terminal(self, state):
        return state[0] == 0

    def utility(self, state, player):
        return 1 if state[1] else 0
"""


@pytest.mark.parametrize(
    ("outcomes", "why"),
    [
        ("return []", "returned no outcomes at a chance node"),
        ("return None", "not a list of (probability, outcome)"),
        ("return [(0, 1), (1, 2)]", "not a (probability, outcome) pair"),
        ("return [(0.5, [1]), (0.5, [2])]", "is not hashable"),
        ("yield from ((0.5, 1), (0.5, 2))", ""),  # a generator is an iterable: it plays
    ],
)
def test_chance_outcomes_are_checked_at_the_boundary(
    tmp_path: Path, outcomes: str, why: str
) -> None:
    (tmp_path / "dice.py").write_text(DICE.replace("{outcomes}", outcomes))
    for args in (
        ("solve", f"{tmp_path}/dice.py:Dice"),
        ("play", f"{tmp_path}/dice.py:Dice", "--first", "random"),
    ):
        result = nimmax_in_process(*args)
        if why:
            line = one_plugin_line(result)
            assert f"{tmp_path}/dice.py:18: Dice.chance_outcomes " in line and why in line
        else:
            assert result.returncode == 0, result.stderr
