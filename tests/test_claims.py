"""One claim per position (issue 40): what one view proves of a position every other view shows
proven, with the same value; no depth exceeds the plies left; no bound at the game's best payoff is
printed as a number. And the newcomer's cases: the plates mistake of 10, a move that ends the game
exact, Connect Four's and a plugin's other moves valued, not "≤ +1"."""

from __future__ import annotations

import json
import random
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from nimmax import games
from nimmax.claim import Claim, Proofs, clamped, plies_left, says_nothing
from nimmax.game import CHANCE, AnyGame, has_chance
from nimmax.ui.claims import claim_text

from .cli_helpers import ROOT, nimmax_in_process
from .test_journeys import SHAPES

TIME = "0.1"
"""Every view's time: the same for each, and small (the test stays cheap)."""

VALUE = r"([+-]?[\d,]+(?:\.\d+)?) \(([^)]*)\)"
"""A value as the views word it (`ui/claims.py`): "+1 (win, proven)", "+0.12 (estimate at depth
3)"."""


def parsed(text: str) -> tuple[float, bool, int | None]:
    """A worded claim: its value, whether proven, and an estimate's depth."""
    found = re.match(VALUE, text.strip())
    assert found, text
    number, words = found.groups()
    depth = re.search(r"estimate at depth (\d+)", words)
    return (
        float(number.replace(",", "")),
        "estimate" not in words,
        int(depth.group(1)) if depth else None,
    )


def most_plies(game: AnyGame, state: object) -> int | None:
    """An independent bound on the plies left: an m,n,k board's empty cells; Nim's counters (every
    move takes one at least); None where this test knows none."""
    if hasattr(state, "x") and hasattr(game, "geometry"):
        stones = bin(state.x).count("1") + bin(state.o).count("1")  # type: ignore[attr-defined]
        return int(game.geometry.rows * game.geometry.cols) - stones
    piles = getattr(state, "piles", None)
    if isinstance(piles, tuple) and game.name in ("nim", "simple-nim"):
        return sum(piles)
    return None


def record(words: str, moves: list[str]) -> dict[str, object]:
    """A record file's object: a game left unfinished."""
    result: dict[str, object] = {"winner": None, "utilities": [], "finished": False}
    return {"game": words, "players": ["human", "human"], "moves": moves, "result": result}


SMALL_GAMES = {
    "simple-nim-misere",
    "nim-misere",
    "nim-normal",
    "3x3",
    "kalah-3-3",
    "plates",
    "subtraction",
}
"""Games every view proves at once (so the test compares proofs there, not only estimates)."""

POSITIONED = {"tictactoe", "connect4", "kalah", "2048"}
"""Games whose words take `--position` (solved where the session left off); the others are solved
from the start."""
TWO_SEATS = [shape for shape in SHAPES if not has_chance(games.create(shlex.split(shape.words)))]


def engine_for(game: AnyGame) -> str:
    """The spec of the engine a person plays against: alpha-beta, or expectimax where chance
    moves."""
    return f"{'expectimax' if has_chance(game) else 'alphabeta'}:time={TIME}"


def first_typed(game: AnyGame, state: object) -> str:
    """A person's seeded first move (a slide where the game starts with chance's spawns: the session
    places them, and an illegal slide is only refused)."""
    if game.to_move(state) == CHANCE:
        return "up"
    return game.format_move(random.Random(game.spec).choice(list(game.actions(state))))


def solved_claim(game: AnyGame, words: str, states: list[Any]) -> tuple[int, dict[str, Any]]:
    """`solve --json` of the position the session left (where the game takes one), else of the
    start: the ply whose position it values and its answer."""
    argv = shlex.split(words)
    # a game started from a position of its own: the session's position replaces it
    if "--position" in argv:
        at = argv.index("--position")
        del argv[at : at + 2]
    ply, where = len(states), states[-1]
    if game.name not in POSITIONED or game.to_move(where) == CHANCE or game.is_terminal(where):
        ply, where, position = 1, states[0], []
    else:
        position = ["--position", game.format_position(where)]
    algorithm = ["--algorithm", "expectimax"] if has_chance(game) else []
    run = nimmax_in_process(
        "solve", *argv, *position, *algorithm, "--time", TIME, "--json", cwd=ROOT
    )
    assert run.returncode == 0, run.stderr
    return ply, json.loads(run.stdout)


@pytest.mark.parametrize("shape", SHAPES, ids=[shape.name for shape in SHAPES])
def test_every_view_makes_one_claim(shape: object, tmp_path: Path) -> None:
    """A seeded move of a person, the engine's reply with its status line, `why`, a `hint`; then
    `analyze --json` of the record and `solve --json` (where the session left off, in a game that
    takes a `--position`, else from the start): a value proven in one view is the same proven value
    in the others, every game of the journey matrix (2048 and plugins too)."""
    words: str = shape.words  # type: ignore[attr-defined]
    game = games.create(shlex.split(words))
    state = game.initial_state()
    engine = game.players == 2
    path = tmp_path / "game.json"
    opponent = ["--second", engine_for(game)] if engine else []
    asked = "hint\nwhy\n" if engine else "hint\n"
    run = nimmax_in_process(
        "play",
        *shlex.split(words),
        *opponent,
        "--time",
        TIME,
        "--seed",
        "1",
        "--record",
        str(path),
        stdin=f"{first_typed(game, state)}\n{asked}quit\n",
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    screen = run.stdout
    record = json.loads(path.read_text())
    # by ply: the view's claim of the position
    claims: dict[int, list[tuple[str, float, bool, int | None]]] = {}
    states = [state]
    for move in record["moves"]:
        states.append(game.result(states[-1], game.parse_move(move, states[-1])))
    status = re.search(r"plays (\S+)\s+value (.+?) · [\d,]+ nodes", screen)
    engine_ply = next((ply for ply, s in enumerate(states[:-1], 1) if game.to_move(s) == 1), None)
    # a game the engine ended before the person asked anything
    finished = record["result"]["finished"]
    if engine and status and engine_ply is not None:
        claims.setdefault(engine_ply, []).append(("status", *parsed(status.group(2))))
        played = re.search(r"\(played\)\s*│\s*(.+?)\s*│", screen)
        assert played or finished, screen
        if played:
            value, proven, depth = parsed(played.group(1))
            claims[engine_ply].append(("why", value, proven, depth))
    hint = re.search(r"hint: (\S+)\s+value (.+?) · [\d,]+ nodes", screen)
    heuristic = re.search(
        r"hint: \S+ .* at depth (\d+) \((?:not points|learned)\) · [\d,]+ nodes", screen
    )
    assert hint or heuristic or finished, screen
    if hint:
        claims.setdefault(len(states), []).append(("hint", *parsed(hint.group(2))))
    # 2048: a score's estimate in its own words; its depth is still held to the plies left
    elif heuristic:
        claims.setdefault(len(states), []).append(("hint", 0.0, False, int(heuristic.group(1))))
    plugin = ["--plugin", words.split(":")[0]] if ".py:" in words else []
    analysed = nimmax_in_process("analyze", str(path), *plugin, "--time", TIME, "--json", cwd=ROOT)
    assert analysed.returncode == 0, analysed.stderr
    analysis = json.loads(analysed.stdout)
    for move in analysis["moves"]:
        claims.setdefault(move["ply"], []).append(
            ("analyze", move["value_before"], move["exact"], None)
        )
    ply, answer = solved_claim(game, words, states)
    claims.setdefault(ply, []).append(
        ("solve", answer["value"], answer["exact"], answer.get("depth"))
    )
    for row in answer["moves"]:
        assert not (row["exact"] and row["bound"] == "upper")  # exact and bound kept apart
    for ply, said in claims.items():
        position = states[ply - 1]
        values = {round(value, 6) for _, value, exact, _ in said if exact}
        assert len(values) <= 1, (ply, said)  # one proven value, in every view that proved it
        bound = most_plies(game, position)
        for view, _, _, depth in said:
            assert depth is None or bound is None or depth <= bound, (view, depth, bound)
    assert "≤ +1" not in screen
    if shape.name in SMALL_GAMES:  # type: ignore[attr-defined]  # proven at once: the views were compared
        assert any(sum(exact for *_, exact, _ in said) >= 2 for said in claims.values()), claims


def test_depths_are_clamped_to_the_plies_left() -> None:
    """On 15x15 with 200 empty cells no depth is above 200 (issue 28's "depth 4738")."""
    game = games.create("tictactoe --size 15 --k 5")
    state = game.initial_state()
    rng = random.Random(3)
    for _ in range(25):
        state = game.result(state, rng.choice(list(game.actions(state))))
    assert plies_left(game, state) == 200 == most_plies(game, state)
    assert clamped(game, state, 4738) == 200 and clamped(game, state, 7) == 7
    solved = json.loads(
        nimmax_in_process(
            "solve",
            "tictactoe",
            "--size",
            "15",
            "--k",
            "5",
            "--position",
            game.format_position(state),
            "--time",
            "0.2",
            "--json",
        ).stdout
    )
    assert solved["exact"] or solved["depth"] <= 200


def test_a_proof_stays_proven_in_later_views() -> None:
    """The store: a position one search proved is claimed proven by a later, shallower one."""
    from nimmax.search import search

    proofs = Proofs()
    game = games.create("tictactoe")  # no book: a shallow search proves nothing here
    state = game.initial_state()
    shallow = search(game, state, "alphabeta", depth=1)
    assert not proofs.claimed(game, state, shallow).exact
    deep = search(game, state, "alphabeta", depth=9)
    assert proofs.claimed(game, state, deep).exact
    later = proofs.claimed(game, state, shallow)
    assert later == Claim(0.0, "exact", later.depth)  # 3x3 is a draw with perfect play


def test_a_bound_at_the_best_payoff_says_nothing() -> None:
    game = games.create("tictactoe")
    state = game.initial_state()
    assert says_nothing(game, state, 1.0) and not says_nothing(game, state, 0.0)
    kalah = games.create("kalah --pits 3 --seeds 2")
    assert not says_nothing(kalah, kalah.initial_state(), 2.0)  # a margin below the most there is
    assert claim_text(game, Claim(1.0, "bound"), best="b2") == "no better than b2"
    assert claim_text(game, Claim(-1.0, "exact")) == "-1 (loss, proven)"


def test_the_plates_mistake_is_one_of_ten(tmp_path: Path) -> None:
    """`plates` then A picks 2: keeps 10 where 20 was sure; analyze agrees with the banner."""
    path = tmp_path / "plates.json"
    path.write_text(json.dumps(record("plates", ["2", "5+10"])))
    analysis = json.loads(nimmax_in_process("analyze", str(path), "--json").stdout)
    first = analysis["moves"][0]
    assert (
        first["verdict"],
        first["exact"],
        first["value_after"],
        first["best_value"],
        first["loss"],
    ) == (
        "mistake",
        True,
        10.0,
        20.0,
        10.0,
    )
    assert analysis["decisive_ply"] == 1
    text = nimmax_in_process("analyze", str(path)).stdout
    assert "a mistake of 10" in text and "Nobody erred" not in text


def test_a_move_that_ends_the_game_is_exact(tmp_path: Path) -> None:
    """15x15: X makes five at h12; whatever the clock, that ply is proven (+1), an estimate never
    'good'."""
    moves = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"]
    path = tmp_path / "five.json"
    words = "tictactoe --size 15 --k 5"
    path.write_text(json.dumps(record(words, moves)))
    analysis = json.loads(
        nimmax_in_process("analyze", str(path), "--time", "0.02", "--json").stdout
    )
    last = analysis["moves"][-1]
    assert (last["ply"], last["exact"], last["value_after"], last["verdict"]) == (
        9,
        True,
        1.0,
        "best",
    )
    assert all(move["verdict"] != "good" for move in analysis["moves"])
    assert all(
        move["exact"] or move["verdict"] in ("estimate", "inaccuracy") for move in analysis["moves"]
    )


def test_a_plugins_losing_move_is_shown_as_its_value() -> None:
    """Subtraction 20 --take 1,3,4: move 1 is a proven loss, "-1", never "≤ +1"."""
    run = nimmax_in_process("solve", "examples/subtraction.py:Subtraction", "20", "--take", "1,3,4")
    assert run.returncode == 0, run.stderr
    row = next(line for line in run.stdout.splitlines() if re.match(r"│ 1\s", line))
    assert "-1" in row and "loss" in row and "≤" not in row


def test_connect4_other_moves_are_valued_not_bounded_as_wins() -> None:
    """`solve connect4`: d +1; every other move that is valued in the time is its own value (c, e
    draws; a, b, f, g losses), and one left a bound is "no better than d", never "≤ +1"."""
    truth = {"d": 1.0, "c": 0.0, "e": 0.0, "a": -1.0, "b": -1.0, "f": -1.0, "g": -1.0}
    answer = json.loads(nimmax_in_process("solve", "connect4", "--json").stdout)
    assert answer["best_move"] == "d" and answer["value"] == 1 and answer["exact"]
    assert any(row["exact"] for row in answer["moves"] if row["move"] != "d")
    for row in answer["moves"]:
        if row["exact"]:
            assert row["value"] == truth[row["move"]], row
    assert "≤ +1" not in nimmax_in_process("solve", "connect4").stdout


def test_status_words_come_from_one_place() -> None:
    """The status line, why's table and solve's summary word a proof and an estimate alike."""
    from nimmax.search import SearchResult
    from nimmax.ui.banner import search_status

    game = games.create("tictactoe --size 15 --k 5")
    state = game.initial_state()
    estimate = SearchResult(0.25, None, (), 10, 4738, 0.1, False)
    said = Proofs().claimed(game, state, estimate)
    assert "estimate at depth 225" in search_status(game, estimate, said, 0)
    assert CHANCE not in (game.to_move(state),)


def test_why_shows_a_position_proven_earlier_in_the_process_proven() -> None:
    """`why` at a shallow depth estimates; a move whose position an earlier search proved is shown
    proven, with the proven value; and `why`'s own proofs are filed for later views."""
    from nimmax.commands.explain import lines
    from nimmax.players import SearchPlayer, parse_spec
    from nimmax.search import search
    from nimmax.ui.why import explanation

    proofs = Proofs()
    game = games.create("tictactoe")
    # O to move
    state = game.result(game.initial_state(), game.parse_move("b2", game.initial_state()))
    shallow = SearchPlayer(parse_spec("alphabeta:depth=1"))
    before = {found.move: found for found in lines(game, state, shallow, proofs)}
    corner = game.parse_move("a1", state)
    assert not before[corner].exact and "estimate" in explanation(game, state, before[corner])
    after = game.result(state, corner)
    # X to move: a draw
    assert proofs.claimed(game, after, search(game, after, "alphabeta", depth=9)).exact
    again = {found.move: found for found in lines(game, state, shallow, proofs)}
    assert explanation(game, state, again[corner]).startswith("a1 0 (draw)")  # proven, no estimate
    edge = game.parse_move("b1", state)  # O's edge loses (3x3 theory): why proves it and files it
    lines(game, state, SearchPlayer(parse_spec("alphabeta:time=inf")), proofs)
    filed = proofs.known(game, game.result(state, edge))
    assert filed is not None and filed.value == 1.0  # X, to move after it, wins


def test_the_live_line_clamps_depths_where_no_view_names_the_position() -> None:
    """The live line of play, hint, why and analyze (whose views name no position) reads the root
    from the search itself: no depth above the 200 plies a 15x15 board with 25 stones has left."""
    import io
    from dataclasses import replace

    from rich.console import Console

    from nimmax.search.deepening import run
    from nimmax.search.engines import ENGINES
    from nimmax.search.limits import Limits
    from nimmax.ui.live import LiveSearch

    game = games.create("tictactoe --size 15 --k 5")
    state = game.initial_state()
    rng = random.Random(3)
    for _ in range(25):
        state = game.result(state, rng.choice(list(game.actions(state))))
    limits = Limits(time=0.05)
    searcher = ENGINES["alphabeta"].searcher(game, limits=limits)
    result = run(searcher, state, limits)
    live = LiveSearch(game, Console(file=io.StringIO()))  # as play's: no position set on it
    live.reached(replace(result, depth=4738, exact=False))
    shown = live.line(searcher).plain
    assert "depth 200 " in shown and "4738" not in shown, shown


def test_a_huge_nim_roots_other_moves_are_counted_as_legal_moves() -> None:
    """`solve nim 1000000000 999999999 7 --normal`: the moves not shown are the legal moves (one per
    counter taken from a pile) less the rows shown, not the book's valued few less them."""
    piles = (1_000_000_000, 999_999_999, 7)
    run = nimmax_in_process("solve", "nim", *map(str, piles), "--normal")
    assert run.returncode == 0, run.stderr
    rows = re.findall(r"^│ \d+:\d+", run.stdout, re.MULTILINE)
    more = re.search(r"and ([\d,]+) more moves \(([\d,]+) of them valued", run.stdout)
    assert rows and more, run.stdout
    assert int(more.group(1).replace(",", "")) == sum(piles) - len(rows)
    assert "+1 (win, proven)" in run.stdout
