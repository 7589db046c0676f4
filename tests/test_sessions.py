"""The core's sessions, without a console: a play session's hint, `why` and take-back checked
against Bouton's theorem, and the event runners telling their views every game, the same games
`duel.run` plays alone."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from nimmax import duel, games
from nimmax.commands import ladder
from nimmax.commands.events import run_event, run_ladder
from nimmax.commands.ladder import Rung
from nimmax.commands.play import GameSession, start_value
from nimmax.duel import Event, Plan
from nimmax.games.nim import Nim
from nimmax.match import Abandon, TakeBack
from nimmax.players import parse_spec

from .theory import nim_mover_wins

PERFECT = parse_spec("alphabeta:time=inf")


def never_asked(game: Any, state: Any) -> Any:
    raise AssertionError("no person is asked in these games")


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=4).filter(any))
def test_a_hint_is_bouton_s_move(piles: list[int]) -> None:
    game = Nim(piles)
    session = GameSession(game, [parse_spec("human"), PERFECT], never_asked)
    state = game.initial_state()
    hint = session.hint(state)
    wins = nim_mover_wins(piles, misere=True)
    assert hint.exact and (hint.value > 0) == wins
    after = game.result(state, hint.move).piles
    # a winning hint leaves a lost position
    assert not wins or not nim_mover_wins(after, misere=True)


def test_why_values_every_move_of_the_engine_s_position_as_bouton_does() -> None:
    game = Nim([3, 4, 5])
    session = GameSession(game, [PERFECT, PERFECT], never_asked)
    assert session.last_searched() is None
    plies = session.run()
    first = next(plies)
    assert session.last_searched() == first and session.searching() == 1
    why = session.why(first)
    before = first.before.piles
    assert {line.move for line in why.lines} == set(game.actions(first.before))
    for line in why.lines:
        assert line.exact and line.line[0] == line.move and line.finished
        assert (line.value > 0) == (
            not nim_mover_wins(game.result(first.before, line.move).piles, misere=True)
        )
    assert why.lines[0].move == first.move and nim_mover_wins(before, misere=True) == (
        why.result.value > 0
    )


def test_a_take_back_returns_to_the_person_s_turn() -> None:
    game = Nim([2, 3])
    answers = iter(["1:1", "undo", "quit"])

    def ask(asked: Any, state: Any) -> Any:
        said = next(answers)
        if said == "undo":
            return session.take_back()
        return Abandon() if said == "quit" else asked.parse_move(said, state)

    session = GameSession(game, [parse_spec("human"), PERFECT], ask, seed=1)
    assert (
        session.humans == {0}
        and session.take_back() == TakeBack(frozenset({0}))
        and session.engines
    )
    made = list(session.run())
    assert [type(item).__name__ for item in made] == ["Ply", "Ply", "TakenBack"]
    assert session.match.history == [] and session.match.record().players == ("human", str(PERFECT))


def test_the_start_value_is_searched_only_where_a_finished_game_is_read_against_it() -> None:
    game = games.create("nim 1 2")
    state = game.initial_state()
    assert start_value(game, state, valued=True) is None
    middle = game.result(state, game.parse_move("2:2", state))
    end = game.result(middle, game.parse_move("1:1", middle))
    assert game.is_terminal(end) and start_value(game, end, valued=False) is None
    assert start_value(game, end, valued=True) == (
        1.0 if nim_mover_wins([1, 2], misere=True) else -1.0
    )


class Told:
    """A view that keeps what it is told."""

    def __init__(self) -> None:
        self.done: list[int] = []
        self.leaders: list[Rung] = []
        self.open = False

    @contextmanager
    def watching(self, plan: Plan) -> Iterator[object]:
        self.open = True
        yield self
        self.open = False

    def game_ended(self, event: Event) -> None:
        assert self.open
        self.done.append(event.done)

    def stopping(self, event: Event) -> None:
        raise AssertionError("nothing stops these events")

    def leading(self, event: Event, leader: Rung) -> None:
        self.game_ended(event)
        self.leaders.append(leader)


def test_an_event_tells_its_view_every_game_and_plays_what_duel_run_plays() -> None:
    plan = duel.plan(
        "nim 2 3", [PERFECT, parse_spec("random"), parse_spec("alphabeta:depth=1")], 4, seed=3
    )
    view = Told()
    event = run_event(plan, 1, view)
    assert view.done == list(range(1, plan.total + 1)) and not view.open
    assert duel.timeless(duel.tournament_record(event)) == duel.timeless(
        duel.tournament_record(duel.run(plan))
    )


def test_a_ladder_tells_its_view_the_leader_after_every_game() -> None:
    plan = ladder.plan("tictactoe", [PERFECT, parse_spec("random")], None, 2, 1)
    view = Told()
    event = run_ladder(plan, 1, view)
    assert view.done == list(range(1, plan.total + 1))
    assert view.leaders[-1] == ladder.ladder(event)[0] and view.leaders[-1].name == str(PERFECT)
    assert view.leaders[-1].losses == 0  # perfect play never loses tic-tac-toe
