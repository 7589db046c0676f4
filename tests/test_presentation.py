"""A game's presentation by type, and a match steered by command values rather than exceptions."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from nimmax import games, plugins
from nimmax.game import AnyGame
from nimmax.games import GAMES
from nimmax.match import Abandon, Match, Ply, TakeBack, TakenBack
from nimmax.ui.games import GENERIC, PRESENTATIONS, presentation
from nimmax.ui.results import outcome

from .cli_helpers import ROOT

SUBTRACTION = ROOT / "examples" / "subtraction.py"


@pytest.mark.parametrize("info", GAMES, ids=[info.name for info in GAMES])
def test_every_registered_game_has_its_own_presentation(info: games.GameInfo) -> None:
    game = games.create(info.example)
    assert type(game) in PRESENTATIONS
    assert presentation(game).render is not None and presentation(game).rules is not None


def test_a_plugin_gets_the_generic_presentation_even_under_a_built_in_name(tmp_path: Path) -> None:
    code = SUBTRACTION.read_text().replace('name = "subtraction"', 'name = "nim"')
    file = tmp_path / "renamed.py"
    file.write_text(code)
    game = plugins.create_game(f"{file}:Subtraction", ["5"])
    assert game.name == "nim" and presentation(game) is GENERIC


def test_the_plates_outcome_takes_the_value_it_is_read_against() -> None:
    game = games.create("plates 1,20,50 5,10,100 1,5,20")
    state = game.initial_state()
    for move in ("1", "20+50", "20"):
        state = game.result(state, game.parse_move(move, state))
    assert presentation(game).valued
    assert outcome(game, state, ["A", "B"], 20.0) == ("A keeps 20; best possible 20", None)
    assert outcome(game, state, ["A", "B"], 50.0) == ("A keeps 20; best possible 50", 1)


class Answers:
    """A player answering from a list: moves as written, or command values."""

    spec = "scripted"

    def __init__(self, answers: list[Any]) -> None:
        self.answers = iter(answers)

    def choose(self, game: AnyGame, state: Any) -> Any:
        answer = next(self.answers)
        return game.parse_move(answer, state) if isinstance(answer, str) else answer


def test_a_match_takes_back_on_a_take_back_value_and_ends_on_abandon() -> None:
    game = games.create("nim 2 3 5")
    first = Answers(["3:4", TakeBack(frozenset({0})), "1:1", Abandon()])
    second = Answers(["2:1", "3:5"])
    match = Match(game, [first, second], random.Random(1))
    events = list(match.run())
    shown = [
        ("took back", [game.format_move(ply.move) for ply in event.plies])
        if isinstance(event, TakenBack)
        else game.format_move(event.move)
        for event in events
    ]
    assert shown == ["3:4", "2:1", ("took back", ["3:4", "2:1"]), "1:1", "3:5"]
    assert [game.format_move(ply.move) for ply in match.history] == ["1:1", "3:5"]
    assert all(isinstance(event, Ply | TakenBack) for event in events)
    assert not match.record().finished


def test_a_take_back_with_nothing_to_take_back_takes_nothing() -> None:
    game = games.create("simple-nim 5")
    match = Match(game, [Answers([TakeBack(frozenset({0})), Abandon()]), Answers([])])
    assert list(match.run()) == [TakenBack(())]
    assert match.history == []
