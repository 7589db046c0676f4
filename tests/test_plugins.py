"""Plugins: games and players by file, module or entry point, and the one-line errors of broken
ones."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from nimmax import games, plugins
from nimmax.game import BadGameSpec
from nimmax.plugins import BadPlugin, guard
from nimmax.plugins.guard import PluginFailed
from nimmax.search import search

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def write(tmp_path: Path, name: str, code: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(code))
    return path


def test_example_game_by_file_is_solved_like_the_builtin_one() -> None:
    game = games.create(f"{EXAMPLES}/tictactoe.py:TicTacToe")
    result = search(game, game.initial_state(), "alphabeta", time=float("inf"), every_move=True)
    assert result.value == 0 and result.exact and len(result.moves) == 9
    assert game.spec == f"{EXAMPLES}/tictactoe.py:TicTacToe"
    assert games.create(game.spec).spec == game.spec


def test_from_words_builds_with_the_words_and_the_spec_rebuilds_it() -> None:
    game = games.create([f"{EXAMPLES}/subtraction.py:Subtraction", "21", "--take", "1,3,4"])
    assert game.initial_state() == (21, 0)
    # take 1, 3 or 4, whoever cannot move loses: the losing counts are 0 and 2 modulo 7
    for counters in range(15):
        state = (counters, 0)
        value = search(game, state, "alphabeta", time=float("inf")).value
        assert (value < 0) == (counters % 7 in (0, 2))
    assert games.create(game.spec).initial_state() == (21, 0)


def test_a_class_without_from_words_takes_no_words() -> None:
    with pytest.raises(BadGameSpec, match="takes no words"):
        games.create(f"{EXAMPLES}/tictactoe.py:TicTacToe 3")


@pytest.mark.parametrize(
    ("code", "reference", "message"),
    [
        (None, "missing.py:Game", r"missing\.py: no such file"),
        ("class Other: pass\n", "{file}:Game", r"no class Game; it has Other"),
        ("class Game(:\n", "{file}:Game", r"broken\.py:1: syntax error"),
        ("raise RuntimeError('boom')\n", "{file}:Game", r"broken\.py:1: RuntimeError: boom"),
        ("class Game: pass\n", "{file}:Game", r"Game is not a nimmax\.Game subclass"),
        (
            "import nimmax\nclass Half(nimmax.Game):\n    def actions(self, s): return []\n",
            "{file}:Half",
            r"does not define initial_state, to_move, result, is_terminal, utility",
        ),
        (None, "no_such_module_here.sub:Game", r"no module named"),
        ("class Game: pass\n", "{file}:not-a-name", r"is not a class name"),
    ],
)
def test_broken_game_plugins_are_one_line(
    tmp_path: Path, code: str | None, reference: str, message: str
) -> None:
    file = write(tmp_path, "broken.py", code) if code is not None else tmp_path / "missing.py"
    with pytest.raises(BadPlugin, match=message) as caught:
        named = (
            reference.format(file=file)
            if "{file}" in reference
            else reference.replace("missing", str(file)[:-3])
        )
        games.create(named)
    assert "\n" not in str(caught.value)


def test_an_error_in_a_plugins_constructor_names_its_line(tmp_path: Path) -> None:
    file = write(
        tmp_path,
        "fails.py",
        """\
        from nimmax.games.nim import SimpleNim

        class Fails(SimpleNim):
            def __init__(self):
                self.size = 1 // 0
        """,
    )
    with pytest.raises(PluginFailed, match=r"fails\.py:5: ZeroDivisionError"):
        games.create(f"{file}:Fails")


def test_blame_finds_the_plugins_frame(tmp_path: Path) -> None:
    file = write(
        tmp_path,
        "buggy.py",
        """\
        from nimmax import Game

        class Buggy(Game):
            def initial_state(self):
                return 0

            def to_move(self, state):
                return 0

            def actions(self, state):
                return [1]

            def result(self, state, action):
                return {}[action]

            def is_terminal(self, state):
                return False

            def utility(self, state, player):
                return 0
        """,
    )
    game = games.create(f"{file}:Buggy")
    with pytest.raises(PluginFailed) as caught:  # the boundary names it as blame does
        search(game, game.initial_state(), "alphabeta", depth=2)
    assert str(caught.value) == f"{file}:14: KeyError: 1"
    assert isinstance(caught.value.__cause__, KeyError)
    assert guard.blame(caught.value.__cause__) == f"{file}:14: KeyError: 1"
    assert guard.blame(ValueError("not from a plugin")) is None


def test_player_plugin_gets_its_options_as_keywords() -> None:
    player = plugins.create_player(f"{EXAMPLES}/greedy.py:Greedy:seed=3")
    assert player.spec == f"{EXAMPLES}/greedy.py:Greedy:seed=3"
    game = games.create("tictactoe")
    state = game.initial_state()
    for move in ["a1", "b1", "a2", "b2"]:  # X to move with a3 winning, O threatening b3
        state = game.result(state, game.parse_move(move, state))
    assert game.format_move(player.choose(game, state)) == "a3"
    assert plugins.options("depth=2,c=1.5,name=deep") == {"depth": 2, "c": 1.5, "name": "deep"}
    with pytest.raises(BadPlugin, match="not name=value"):
        plugins.options("depth")
    with pytest.raises(BadPlugin, match=r"unexpected keyword|TypeError"):
        plugins.create_player(f"{EXAMPLES}/greedy.py:Greedy:depth=2")


def test_references_are_told_from_engine_specs() -> None:
    assert plugins.is_reference("examples/greedy.py:Greedy")
    assert plugins.is_reference("bots.greedy:Greedy:seed=2")
    assert not plugins.is_reference("alphabeta:depth=3")
    assert not plugins.is_reference("random:seed=1")
    assert not plugins.is_reference("nim")


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A tiny package installed the way pip leaves one: its module, and a dist-info with entry
    points."""
    write(
        tmp_path,
        "toy_nimmax_plugins.py",
        f"""\
        import sys
        sys.path.insert(0, {str(EXAMPLES)!r})
        from subtraction import Subtraction
        from greedy import Greedy

        def subtraction(words):
            return Subtraction.from_words(words)
        """,
    )
    info = tmp_path / "toy_nimmax_plugins-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: toy-nimmax-plugins\nVersion: 1.0\n"
    )
    (info / "entry_points.txt").write_text(
        "[nimmax.games]\ntoy-subtraction = toy_nimmax_plugins:subtraction\n\n"
        "[nimmax.players]\ntoy-greedy = toy_nimmax_plugins:Greedy\nbroken = "
        "toy_nimmax_plugins:Missing\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in ("toy_nimmax_plugins", "subtraction", "greedy"):
        sys.modules.pop(name, None)


def test_entry_point_plugins_are_found(installed: Path) -> None:
    game = games.create("toy-subtraction 9 --take 1,2")
    assert game.initial_state() == (9, 0) and game.spec == "toy-subtraction 9 --take 1,2"
    player = plugins.create_player("toy-greedy:seed=1")
    assert player.choose(game, (2, 0)) == 2  # taking both wins at once
    assert "toy-greedy" in plugins.registered(plugins.PLAYER_GROUP)
    assert set(plugins.broken(plugins.PLAYER_GROUP)) == {"broken"}
