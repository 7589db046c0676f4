"""The plugin fuzz, the project's own: plugin games and players with one member returning a wrong
value (or raising, or calling sys.exit) from some point of the game on, records naming plugins,
markup in names; each run through the CLI (play, solve, tree, check, duel, analyze, replay).

Every run must end as documented: no traceback, exit 0 (or 1 for a failed `check` law), else
exit 2 with the one line `nimmax: a plugin failed: FILE:LINE: ...` naming the plugin's file. The
CI part is seeded and small; `scripts/fuzz_plugins.py` runs the same cases many times over.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from .cli_helpers import nimmax, nimmax_in_process

GAME = '''\
import sys
from nimmax import CHANCE, Game, IllegalMove


class Takeaway(Game):
    """Take 1 or 2 of N counters; whoever takes the last wins. A state is (counters, mover)."""

    name = {name}
    player_names = {player_names}

    def initial_state(self):
{initial_state}

    def to_move(self, state):
{to_move}

    def actions(self, state):
{actions}

    def result(self, state, action):
        if action not in (1, 2) or action > state[0]:
            raise IllegalMove(f"cannot take {{action!r}}")
{result}

    def is_terminal(self, state):
{is_terminal}

    def utility(self, state, player):
{utility}

    def format_move(self, action):
{format_move}

    def parse_move(self, text, state):
        try:
            return int(text)
        except ValueError:
            raise IllegalMove(f"{{text!r}} is not a number") from None

    def winner(self, state):
{winner}

    def key(self, state):
{key}
'''

RIGHT = {
    "name": "'takeaway'",
    "player_names": "('First', 'Second')",
    "initial_state": "(5, 0)",
    "to_move": "state[1]",
    "actions": "[take for take in (1, 2) if take <= state[0]]",
    "result": "(state[0] - action, 1 - state[1])",
    "is_terminal": "state[0] == 0",
    "utility": "-1 if player == state[1] else 1",
    "format_move": "str(action)",
    "winner": "1 - state[1]",
    "key": "state",
}
"""Each member's right value, as source; a fault replaces one of them from some position on."""

WRONG = {
    "initial_state": ["[5, 0]", "{'counters': 5}"],
    "to_move": ["2", "None", "0.5", "'first'", "CHANCE"],
    "actions": [
        "None",
        "3",
        "(take for take in (1, 2) if take <= state[0])",
        "[[1]]",
        "[]",
        "'12'",
    ],
    "result": ["[state[0] - action, 1 - state[1]]"],
    "is_terminal": ["state[0] <= 0 and None"],
    "utility": ["None", "'win'", "10**400", "float('nan')", "float('inf')"],
    "format_move": ["None", "action", "b'1'"],
    "winner": ["7", "'x'", "-1"],
    "key": ["[state]", "{}"],
    "player_names": ["()", "('One',)", "None", "(1, 2)"],
    "name": ["None"],
}
"""Wrong values per member (`{}` and `[]`-valued where the member needs hashable or non-empty)."""

RAISES = [
    "raise RuntimeError('[bold]boom[/]')",
    "sys.exit(3)",
    "sys.exit(0)",
    "1 // 0",
    "raise KeyError('k')",
]
"""Statements a member may run instead of returning (markup in the message on purpose)."""

CONSTANTS = {"name", "player_names"}
"""Members that are class attributes: their fault holds from the start."""

PLAYER = '''\
import sys


class Bot:
    """The first legal move, but for the fault."""

    def __init__(self, seed=None):
        self.seed = seed

    def choose(self, game, state):
        moves = list(game.actions(state))
        {body}
'''

PLAYER_FAULTS = [
    "return moves[0]",  # a right one
    "return None",
    "return 'zz'",
    "return [moves[0]]",
    "raise RuntimeError('player [/] boom')",
    "sys.exit(3)",
    "sys.exit(0)",
    "return game.actions(None)",
]


@dataclass(frozen=True)
class Fault:
    """One member made wrong: at positions of at most `after` counters, `source` stands for the
    member's value (an expression, or a statement that raises or exits)."""

    member: str
    source: str
    after: int

    def game_source(self) -> str:
        """The template game's source with this fault in it."""
        bodies = {
            member: f"        return {right}"
            for member, right in RIGHT.items()
            if member not in CONSTANTS
        }
        constants = {member: RIGHT[member] for member in CONSTANTS}
        if self.member in CONSTANTS:
            constants[self.member] = self.source
        else:
            when = {"initial_state": "True", "format_move": "True"}.get(
                self.member, f"state[0] <= {self.after}"
            )
            statement = (
                self.source
                if self.source.startswith(("raise", "sys.exit"))
                else f"return {self.source}"
            )
            bodies[self.member] = (
                f"        if {when}:\n            {statement}\n{bodies[self.member]}"
            )
        return GAME.format(**bodies, **constants)


def faults() -> st.SearchStrategy[Fault]:
    """A member and a wrong value (or a raise) for it, from some position on."""
    members = sorted(WRONG)

    def for_member(member: str) -> st.SearchStrategy[Fault]:
        sources = WRONG[member] + ([] if member in CONSTANTS else RAISES)
        return st.builds(Fault, st.just(member), st.sampled_from(sources), st.integers(0, 5))

    return st.sampled_from(members).flatmap(for_member)


def write_game(folder: Path, fault: Fault) -> str:
    """The faulty game's file in `folder`; its reference."""
    path = folder / "faulty.py"
    path.write_text(fault.game_source())
    return f"{path}:Takeaway"


def write_player(folder: Path, body: str) -> str:
    path = folder / "bot.py"
    path.write_text(PLAYER.format(body=body))
    return f"{path}:Bot"


def assert_documented(
    result: subprocess.CompletedProcess[str], command: str, allowed: tuple[int, ...]
) -> None:
    """No traceback; an exit code the command documents; a failure is one line naming the plugin."""
    shown = f"{command}: exit {result.returncode}\n{result.stderr[-2000:]}"
    assert "Traceback" not in result.stderr, shown
    assert result.returncode in allowed, shown
    # a plugin's sys.exit(0) is no answer
    assert result.returncode != 0 or result.stdout.strip(), shown
    if result.returncode == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("nimmax: "), shown
        assert "plugin" in lines[0], shown


def run_everywhere(reference: str, player: str | None, folder: Path, jobs: bool = False) -> None:
    """The plugin game through every command that takes one; `player` as a seat where given."""
    second = player or "random"
    cases = [
        (
            "play",
            "play",
            reference,
            "--first",
            "alphabeta:depth=2",
            "--second",
            second,
            "--seed",
            "1",
            "--record",
            str(folder / "game.json"),
        ),
        ("solve", "solve", reference, "--json"),
        ("tree", "tree", reference, "--max-nodes", "500"),
        (
            "duel",
            "duel",
            second,
            "random",
            "--game",
            shlex.quote(reference),
            "--games",
            "2",
            "--seed",
            "1",
        ),
    ]
    for command, *args in cases:
        result = nimmax_in_process(*args)
        assert_documented(result, command, (0, 2))
        if command == "play" and result.returncode == 0:
            analysed = nimmax_in_process(
                "analyze",
                str(folder / "game.json"),
                "--plugin",
                reference.rpartition(":")[0],
                "--time",
                "0.05",
                "--json",
            )
            assert_documented(analysed, "analyze", (0, 2))
    checked = nimmax_in_process("check", reference, "--playouts", "5")
    assert_documented(checked, "check", (0, 1, 2))
    if jobs:
        duel = nimmax(
            "duel",
            second,
            "random",
            "--game",
            shlex.quote(reference),
            "--games",
            "4",
            "--seed",
            "1",
            "--jobs",
            "2",
        )
        assert_documented(duel, "duel --jobs 2", (0, 2))


FUZZ = settings(max_examples=30, derandomize=True, deadline=None)


@FUZZ
@given(faults())
def test_a_faulty_plugin_game_is_one_line_in_every_command(fault: Fault) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        run_everywhere(write_game(folder, fault), None, folder)


@settings(max_examples=len(PLAYER_FAULTS), derandomize=True, deadline=None)
@given(st.sampled_from(PLAYER_FAULTS))
def test_a_faulty_plugin_player_is_one_line_in_every_command(body: str) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        player = write_player(folder, body)
        for args in (
            ("play", "nim", "2", "3", "--first", player, "--second", "random", "--seed", "1"),
            ("duel", player, "random", "--game", "nim 2 3", "--games", "2", "--seed", "1"),
        ):
            result = nimmax_in_process(*args)
            assert_documented(result, args[0], (0, 2))
            assert (result.returncode == 0) == (body == "return moves[0]"), result.stderr


def test_plugin_failures_in_workers_are_the_same_one_line(tmp_path: Path) -> None:
    """`--jobs 2` names a plugin's failure as `--jobs 1` does: a game's and a player's."""
    player = write_player(tmp_path, "raise RuntimeError('player boom')")
    one = nimmax("duel", player, "random", "--game", "nim 2 3", "--games", "4", "--seed", "1")
    two = nimmax(
        "duel", player, "random", "--game", "nim 2 3", "--games", "4", "--seed", "1", "--jobs", "2"
    )
    assert one.returncode == two.returncode == 2
    assert (
        one.stderr == two.stderr
        and f"{tmp_path}/bot.py:12: RuntimeError: player boom" in two.stderr
    )
    for fault in (Fault("utility", "float('nan')", 5), Fault("to_move", "sys.exit(3)", 3)):
        game = write_game(tmp_path, fault)
        run_everywhere(game, None, tmp_path, jobs=True)


def test_a_record_of_a_plugin_replays_from_any_folder_only_when_named(tmp_path: Path) -> None:
    """A record keeps its plugin's path from its own folder; replay and analyze refuse to run it
    until the person names the plugin, and then find it from any folder."""
    folder = tmp_path / "games"
    folder.mkdir()
    reference = write_game(folder, Fault("name", "'takeaway'", 0))  # a right game
    record = folder / "game.json"
    played = nimmax(
        "play",
        f"games/{Path(reference).name}",
        "--first",
        "random",
        "--second",
        "random",
        "--seed",
        "2",
        "--record",
        str(record),
        cwd=tmp_path,
    )
    assert played.returncode == 0, played.stderr
    assert json.loads(record.read_text())["game"] == "faulty.py:Takeaway"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for command in ("replay", "analyze"):
        refused = nimmax(command, str(record), cwd=elsewhere)
        assert refused.returncode == 2 and "Traceback" not in refused.stderr
        assert "--plugin" in refused.stderr and str(folder / "faulty.py") in refused.stderr
        named = nimmax(command, str(record), "--plugin", str(folder / "faulty.py"), cwd=elsewhere)
        assert named.returncode == 0, named.stderr


@settings(max_examples=25, derandomize=True, deadline=None)
@given(
    st.sampled_from(
        [
            "helper.py",
            "./helper.py",
            "sub/../helper.py",
            "{folder}/helper.py",
            "missing.py",
            "json.decoder",
        ]
    ),
    st.sampled_from(["G", "Takeaway"]),
    st.sampled_from(["replay", "analyze"]),
    st.lists(st.sampled_from(["1", "2"]), max_size=3),
)
def test_a_record_naming_a_plugin_never_runs_it(
    where: str, name: str, command: str, moves: list[str]
) -> None:
    """Whatever plugin a record names, and however, replay and analyze refuse it in one line
    saying how to name it, and import nothing (the file would leave a mark)."""
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        mark = folder / "ran"
        (folder / "sub").mkdir()
        source = Fault("name", RIGHT["name"], 0).game_source()
        (folder / "helper.py").write_text(f"open({str(mark)!r}, 'w').close()\n" + source)
        record = folder / "game.json"
        reference = f"{where.format(folder=folder)}:{name}"
        record.write_text(
            json.dumps(
                {
                    "game": f"{reference} 5",
                    "players": ["random", "random"],
                    "moves": moves,
                    "result": {"winner": None, "utilities": [], "finished": False},
                }
            )
        )
        result = nimmax_in_process(command, str(record), cwd=folder)
        assert_documented(result, command, (2,))
        assert "--plugin" in result.stderr and not mark.exists(), result.stderr


@settings(max_examples=20, derandomize=True, deadline=None)
@given(st.sampled_from(["[/]", "[bold]x", "[old]", "[/b]", "[link=x]y[/link]", "\\[x]"]))
def test_markup_in_names_is_printed_as_text(markup: str) -> None:
    """Names and paths from records and plugins reach the screen as written, never as markup."""
    with tempfile.TemporaryDirectory() as name:
        # a slash in it makes two folders: "[/b]" is "[" then "b]"
        folder = Path(name) / f"d{markup}"
        folder.mkdir(parents=True)
        reference = write_game(folder, Fault("name", repr(f"take{markup}"), 0))
        record = folder / "game.json"
        record.write_text(
            json.dumps(
                {
                    "game": "nim 1 2",
                    "players": [markup, "alphabeta"],
                    "moves": ["2:2", "1:1"],
                    "result": {"winner": 0, "utilities": [-1, 1], "finished": True},
                }
            )
        )
        for args in (
            ("analyze", str(record), "--time", "0.05"),
            ("replay", str(record)),
            ("check", reference, "--playouts", "3"),
            (
                "duel",
                reference.replace("faulty.py:Takeaway", "bot.py:Bot"),
                "random",
                "--game",
                "nim 2",
                "--games",
                "2",
            ),
            (
                "tournament",
                "random",
                "random:seed=2",
                "--game",
                shlex.quote(reference),
                "--games",
                "2",
            ),
            ("ladder", reference, "--players", "random,random:seed=3", "--games", "2"),
            ("solve", reference),
        ):
            if args[0] == "duel":
                write_player(folder, "return moves[0]")
            result = nimmax_in_process(*args)
            assert result.returncode == 0, f"{args}: {result.stderr}"
            assert "Traceback" not in result.stderr
            if args[0] in ("analyze", "replay"):
                assert markup in result.stdout, result.stdout
            elif args[0] in ("check", "tournament", "ladder", "solve"):
                assert f"take{markup}" in result.stdout or str(folder) in result.stdout, (
                    result.stdout
                )


def test_a_plugin_game_keeps_working_with_any_iterable_of_actions(tmp_path: Path) -> None:
    """ARCHITECTURE allows any iterable for `actions`: a generator plays, solves and lists moves."""
    game = write_game(
        tmp_path, Fault("actions", "(take for take in (1, 2) if take <= state[0])", 5)
    )
    solved = nimmax_in_process("solve", game, "--json")
    assert solved.returncode == 0, solved.stderr
    # 5 counters, take 1 or 2: lost only at multiples of 3
    assert json.loads(solved.stdout)["value"] == 1
    played = nimmax_in_process(
        "play", game, "--first", "human", "--second", "random", stdin="9\nmoves\nquit\n"
    )
    assert played.returncode == 0 and "legal" in played.stdout, played.stderr


def test_the_game_source_templates_are_right_as_written(tmp_path: Path) -> None:
    """The template's own game passes check, so every failure the fuzz sees is its fault's."""
    path = tmp_path / "right.py"
    path.write_text(Fault("name", RIGHT["name"], 0).game_source())
    result = nimmax_in_process("check", f"{path}:Takeaway", "--playouts", "10")
    assert result.returncode == 0, result.stdout + result.stderr
