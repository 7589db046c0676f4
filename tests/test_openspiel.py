"""OpenSpiel's games in nimmax (issue 42): values against OpenSpiel's own solvers, the protocol's
laws on every qualifying game, the bots as players, refusals and errors in one line, play at a
terminal."""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import pytest

# the test extra installs it; a bare checkout still runs the rest
pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import minimax  # noqa: E402

from nimmax import games, players  # noqa: E402
from nimmax.game import BadGameSpec, IllegalMove, outcomes  # noqa: E402
from nimmax.games import openspiel  # noqa: E402
from nimmax.player import decide  # noqa: E402
from nimmax.players import parse_spec  # noqa: E402
from nimmax.plugins.guard import PluginFailed, unguarded  # noqa: E402
from nimmax.search import ENGINES, Limits  # noqa: E402

from .cli_helpers import nimmax, nimmax_in_process  # noqa: E402

EXACT = [
    "tic_tac_toe",
    "nim(pile_sizes=1;2;3)",
    "nim(pile_sizes=2;3,is_misere=False)",
    "mnk(m=2,n=4,k=2)",
    "connect_four(rows=3,columns=4,x_in_row=3)",
]


def spiel_values(text: str, depth: int = 100, chance: bool = False) -> dict[str, float]:
    """OpenSpiel's own value of every root move, for the side to move at the root, by its
    solvers."""
    game = pyspiel.load_game(text)
    root = game.new_initial_state()
    mover = root.current_player()
    values = {}
    for action in root.legal_actions():
        child = root.child(action)
        if chance:
            value, _ = minimax.expectiminimax(child, depth, lambda state: 0.0, mover)
        else:
            value, _ = minimax._alpha_beta(child, depth - 1, -2.0, 2.0, lambda state: 0.0, mover)
        values[root.action_to_string(mover, action)] = value
    return values


def nimmax_values(text: str, engine: str, limits: Limits) -> tuple[float, dict[str, float]]:
    """nimmax's value of the root and of every root move."""
    game = games.create([f"openspiel:{text}"])
    result = ENGINES[engine].search(game, game.initial_state(), limits, every_move=True)
    return result.value, {game.format_move(move): value for move, value in result.moves}


@pytest.mark.parametrize("text", EXACT)
def test_solve_values_are_openspiels_minimax_values(text: str) -> None:
    """Alpha-beta to the end: the root and every root move valued as OpenSpiel's alpha-beta values
    them."""
    value, moves = nimmax_values(text, "alphabeta", Limits())
    truth = spiel_values(text)
    assert moves == pytest.approx(truth)
    assert value == max(truth.values())


def test_mancala_at_a_depth_limit_agrees_with_openspiel() -> None:
    """Mancala to 4 plies, the horizon valued as even on both sides: the same values move by
    move."""
    value, moves = nimmax_values("mancala", "alphabeta", Limits(depth=4))
    truth = spiel_values("mancala", depth=4)
    assert moves == pytest.approx(truth)
    assert value == max(truth.values())


def test_pig_expectimax_agrees_with_openspiels_expectiminimax() -> None:
    """Pig (a die of 2 faces, to 3 points, 4 turns): expectimax's values those of expectiminimax."""
    text = "pig(diceoutcomes=2,winscore=3,horizon=4)"
    value, moves = nimmax_values(text, "expectimax", Limits())
    truth = spiel_values(text, chance=True)
    # an averaged score carries the distance to the end in 1e-5ths
    assert moves == pytest.approx(truth, abs=1e-4)
    assert value == pytest.approx(max(truth.values()), abs=1e-4)


def play(game: Any, *moves: str) -> Any:
    """The state after `moves` from the start."""
    state = game.initial_state()
    for text in moves:
        state = game.result(state, game.parse_move(text, state))
    return state


def test_states_are_immutable_and_keyed_exactly() -> None:
    """A move makes a new state; the state it was made from is unchanged; transposed move orders
    share a key where the board fixes the future, and keep their histories apart elsewhere."""
    game = games.create(["openspiel:tic_tac_toe"])
    own = unguarded(game)
    assert isinstance(own, openspiel.OpenSpielGame)
    start = game.initial_state()
    drawn = str(own.render(start))
    first = game.result(start, game.parse_move("x(0,0)", start))
    second = game.result(first, game.parse_move("o(1,1)", first))
    assert own.render(start) == drawn and len(game.actions(start)) == 9
    assert first != second and first.history == (0,) and second.history == (0, 4)
    one, other = play(game, "x(0,0)", "o(1,1)", "x(2,2)"), play(game, "x(2,2)", "o(1,1)", "x(0,0)")
    # the board and the seat fix tic-tac-toe's future
    assert one != other and game.key(one) == game.key(other)
    moved = games.create(["openspiel:breakthrough(rows=5,columns=3)"])
    a, b = play(moved, "a5a4", "a1a2", "c5c4"), play(moved, "c5c4", "a1a2", "a5a4")
    assert unguarded(moved).render(a) == unguarded(moved).render(b)  # type: ignore[attr-defined]
    assert moved.key(a) != moved.key(b)  # a game not listed keeps its history
    with pytest.raises(IllegalMove, match="not a legal move"):
        game.parse_move("x(9,9)", start)
    # case folded where it names one move
    assert game.format_move(game.parse_move("X(0,0)", start)) == "x(0,0)"


def test_chance_nodes_list_their_probabilities() -> None:
    """Pig's roll: CHANCE with the die's faces, equally likely."""
    game = games.create(["openspiel:pig(diceoutcomes=3,winscore=5)"])
    rolled = game.result(game.initial_state(), game.parse_move("roll", game.initial_state()))
    assert game.to_move(rolled) == -1
    drawn = outcomes(game, rolled)
    assert [chance for chance, _ in drawn] == pytest.approx([1 / 3] * 3)


@pytest.mark.parametrize(
    ("words", "why"),
    [
        ("openspiel:kuhn_poker", "imperfect information"),
        ("openspiel:matrix_rps", "simultaneous"),
        ("openspiel:morpion_solitaire", "crash"),
        ("openspiel:no_such_game", "no OpenSpiel game"),
        ("openspiel:hex(board_size=x)", "board_size"),
    ],
)
def test_games_that_do_not_fit_are_refused_in_one_line(words: str, why: str) -> None:
    with pytest.raises(BadGameSpec, match=why):
        games.create([words])


def test_a_crashing_clone_is_found_in_a_subprocess() -> None:
    """The probe, not the list `nimmax games` keeps: Morpion solitaire's states end the process that
    clones them."""
    assert openspiel.clones("tic_tac_toe") is True
    assert openspiel.clones("morpion_solitaire") is False
    assert "morpion_solitaire" in openspiel.KNOWN_CRASHING


def test_without_openspiel_the_error_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(BadGameSpec, match=r"pip install 'nimmax\[openspiel\]'"):
        games.create(["openspiel:tic_tac_toe"])
    with pytest.raises(BadGameSpec, match=r"pip install 'nimmax\[openspiel\]'"):
        players.create(parse_spec("openspiel-mcts"))


def test_an_openspiel_exception_is_one_line_naming_the_game() -> None:
    """OpenSpiel's own error (chance's outcomes asked at a player's turn) passes the guard as one
    line."""
    game = games.create(["openspiel:pig(winscore=5)"])
    with pytest.raises(PluginFailed) as raised:
        outcomes(game, game.initial_state())
    assert str(raised.value).startswith(
        "openspiel:pig(winscore=5): OpenSpiel: "
    ) and "\n" not in str(raised.value)


def test_games_lists_the_qualifying_games_with_their_parameters() -> None:
    run = nimmax_in_process("games", "--json")
    listed = {game["name"]: game for game in json.loads(run.stdout)["openspiel"]}
    assert {"openspiel:othello", "openspiel:pig", "openspiel:chess", "openspiel:hex"} <= set(listed)
    assert "openspiel:kuhn_poker" not in listed and "openspiel:morpion_solitaire" not in listed
    assert listed["openspiel:hex"]["parameters"]["board_size"] == 11


CHECKED = [listed.name for listed in openspiel.catalog()]


def test_every_qualifying_game_passes_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """`nimmax check` on each qualifying game at its defaults: one seeded playout each, cut at 40
    plies (a game of go or chess is long; the laws are tried at every position reached)."""
    from nimmax.check import check, checker

    monkeypatch.setattr(checker, "MAX_PLIES", 40)
    failed = {}
    for name in CHECKED:
        report = check(games.create([f"openspiel:{name}"]), playouts=1, seed=1)
        bad = [
            (finding.law, finding.detail)
            for finding in report.findings
            if finding.status == "failed"
        ]
        if bad:
            failed[name] = bad
    assert failed == {}
    assert len(CHECKED) >= 35


def test_the_bots_play_nimmax_games_and_openspiel_games() -> None:
    """openspiel-ab finds the win at once (a nimmax game); openspiel-mcts answers a legal move
    (OpenSpiel's)."""
    nim = games.create("nim 1 2 --normal")
    bot = players.create(parse_spec("openspiel-ab:depth=4"))
    move = decide(bot, nim, nim.initial_state()).move
    after = nim.result(nim.initial_state(), move)
    assert nim.format_position(after) in ("1,1",)
    proven = decide(
        players.create(parse_spec("openspiel-mcts:simulations=300,seed=1")),
        nim,
        nim.initial_state(),
    ).move
    # Bouton: the nim-sum made 0
    assert nim.format_position(nim.result(nim.initial_state(), proven)) == "1,1"
    hexed = games.create(["openspiel:hex(board_size=3)"])
    chosen = decide(
        players.create(parse_spec("openspiel-mcts:simulations=200,seed=1")),
        hexed,
        hexed.initial_state(),
    )
    assert chosen.move in hexed.actions(hexed.initial_state())
    assert isinstance(unguarded(hexed), openspiel.OpenSpielGame)


def test_an_openspiel_duel_runs_on_two_processes() -> None:
    run = nimmax_in_process(
        "duel",
        "alphabeta:depth=2",
        "openspiel-mcts:simulations=20,seed=1",
        "--game",
        "openspiel:connect_four",
        "--games",
        "4",
        "--jobs",
        "2",
        "--seed",
        "1",
        "--json",
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["games"] == 4


def test_othello_plays_at_a_pipe_with_hint_and_why(tmp_path: Any) -> None:
    """A person at a pipe asks hint and why, moves, then quits; the record holds the game's
    words."""
    record = tmp_path / "othello.json"
    run = nimmax(
        "play",
        "openspiel:othello",
        "--second",
        "alphabeta:depth=1",
        "--time",
        "0.05",
        "--record",
        str(record),
        stdin="hint\nd3\nwhy\nquit\n",
    )
    assert run.returncode == 0, run.stderr
    assert re.search(r"^hint: \S+", run.stdout, re.MULTILINE), run.stdout
    assert re.search(r"^why Second \(alphabeta:depth=1\) played \S+:$", run.stdout, re.MULTILINE), (
        run.stdout
    )
    saved = json.loads(record.read_text())
    assert saved["game"] == "openspiel:othello" and saved["moves"][0] == "d3"
    replay = nimmax("replay", str(record))
    assert replay.returncode == 0, replay.stderr
