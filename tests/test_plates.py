"""The three-plates banknote game: A's value is the best plate's worst pair's better note."""

from __future__ import annotations

import json
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from nimmax import games
from nimmax.game import BadGameSpec, IllegalMove
from nimmax.games.plates import Plates
from nimmax.players import SearchPlayer, create, parse_spec
from nimmax.ui.render import render

from .cli_helpers import nimmax

ENGINES = [
    "minimax:cache=off",
    "minimax",
    "negamax",
    "alphabeta",
    "alphabeta:table=1",
    "expectimax",
]


def textbook_value(plates: list[tuple[int, ...]]) -> tuple[int, int]:
    """By hand: B hands over the pair whose larger note is smallest; A picks the plate where that is
    largest."""
    worth = [min(max(pair) for pair in combinations(plate, 2)) for plate in plates]
    return max(worth), worth.index(max(worth))


def test_textbook_plates_give_20_with_the_first_plate() -> None:
    assert textbook_value([(1, 20, 50), (5, 10, 100), (1, 5, 20)]) == (20, 0)
    for engine in ("minimax:cache=off", "alphabeta"):
        run = nimmax(
            "solve", "plates", "1,20,50", "5,10,100", "1,5,20", "--algorithm", engine, "--json"
        )
        assert run.returncode == 0, run.stderr
        record = json.loads(run.stdout)
        assert record["value"] == 20 and record["best_move"] == "1", engine
        assert {move["move"]: move["value"] for move in record["moves"]} == {
            "1": 20,
            "2": 10,
            "3": 5,
        }
    game = games.create("plates")
    for engine in ENGINES:
        player = create(parse_spec(engine))
        assert isinstance(player, SearchPlayer)
        result = player.search(game, game.initial_state(), every_move=True)
        assert result.value == 20 and game.format_move(result.move) == "1", engine


def test_default_plates_are_the_textbook_ones() -> None:
    record = json.loads(nimmax("solve", "plates", "--json").stdout)
    assert record["game"] == "plates 1,20,50 5,10,100 1,5,20" and record["value"] == 20


plates_lists = st.lists(
    st.lists(st.integers(1, 99), min_size=2, max_size=4).map(tuple), min_size=1, max_size=4
)


@given(plates_lists)
def test_every_engine_agrees_with_the_hand_solution(plates: list[tuple[int, ...]]) -> None:
    game = Plates(plates)
    value, _ = textbook_value(plates)
    for engine in ENGINES:
        player = create(parse_spec(engine))
        assert isinstance(player, SearchPlayer)
        result = player.search(game, game.initial_state(), every_move=True)
        assert result.value == value and result.exact, engine
        best_plate = result.move.plate
        assert textbook_value([plates[best_plate]])[0] == value


def test_seats_go_a_b_a_and_payoffs_are_amounts() -> None:
    game = games.create("plates")
    state = game.initial_state()
    seats = []
    for text in ("1", "50+20", "50"):
        seats.append(game.to_move(state))
        state = game.result(state, game.parse_move(text, state))
    assert seats == [0, 1, 0]
    assert (
        game.is_terminal(state) and game.utility(state, 0) == 50 and game.utility(state, 1) == -50
    )
    assert game.format_position(state) == "A keeps 50"


def test_notation_round_trips_and_names_legal_moves() -> None:
    game = games.create("plates")
    state = game.initial_state()
    assert [game.format_move(move) for move in game.actions(state)] == ["1", "2", "3"]
    assert game.parse_move("plate 2", state) == game.actions(state)[1]
    state = game.result(state, game.parse_move("1", state))
    assert [game.format_move(move) for move in game.actions(state)] == ["1+20", "1+50", "20+50"]
    with pytest.raises(IllegalMove, match="legal: 1\\+20, 1\\+50, 20\\+50"):
        game.parse_move("5+10", state)
    state = game.result(state, game.parse_move("20 1", state))
    with pytest.raises(IllegalMove):
        game.parse_move("50", state)
    assert game.format_move(game.parse_move("20", state)) == "20"


def test_equal_notes_give_one_pair() -> None:
    game = games.create("plates 5,5,10")
    state = game.result(game.initial_state(), game.actions(game.initial_state())[0])
    assert [game.format_move(move) for move in game.actions(state)] == ["5+5", "5+10"]


@pytest.mark.parametrize(
    "words",
    [
        "plates 1",
        "plates a,b,c",
        "plates 0,1,2",
        "plates 1,2 --big",
        "plates 1,,2",
        "plates " + " ".join(["1,2"] * 10),
    ],
)
def test_bad_plates_are_refused(words: str) -> None:
    with pytest.raises(BadGameSpec):
        games.create(words)


def test_bad_plates_exit_2_from_the_cli() -> None:
    run = nimmax("solve", "plates", "1,20", "x")
    assert run.returncode == 2 and "Traceback" not in run.stderr and "plates" in run.stderr


def test_renderer_marks_the_plate_and_the_kept_note() -> None:
    game = games.create("plates")
    state = game.initial_state()
    for text in ("2", "5+100"):
        state = game.result(state, game.parse_move(text, state))
    console = Console(record=True, width=60, color_system=None)
    console.print(render(game, state, None))
    text = console.export_text()
    assert "▶ plate 2" in text and "B hands A 5 and 100" in text
