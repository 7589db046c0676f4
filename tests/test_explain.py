"""why's lines: legal, and a proven line ends where its value says (checked by replaying it)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from nimmax import games
from nimmax.claim import Proofs
from nimmax.commands.explain import ANY_SPAWN, lines
from nimmax.commands.solve import solve
from nimmax.game import CHANCE, AnyGame, outcomes
from nimmax.games.kalah import Kalah
from nimmax.games.kalah_position import Position
from nimmax.players import SearchPlayer, parse_spec
from nimmax.ui.why import explanation
from tests.test_kalah_book import endgames
from tests.theory import KALAH_4_3, kalah_solved_within, nim_mover_wins


def play(game: AnyGame, words: list[str]) -> Any:
    state = game.initial_state()
    for word in words:
        state = game.result(state, game.parse_move(word, state))
    return state


def assert_lines_end_where_values_say(game: AnyGame, state: Any) -> None:
    """Replay every line from `state`: each move legal where it is played, and a proven line's
    final position pays the side to move at `state` exactly its value."""
    seat = game.to_move(state)
    for found in lines(game, state, SearchPlayer(parse_spec("alphabeta:time=inf")), Proofs()):
        position = state
        for move in found.line:
            assert move in game.actions(position)
            position = game.result(position, move)
        assert found.exact and found.finished and game.is_terminal(position)
        assert game.utility(position, seat) == found.value


def test_tictactoe_lines_after_a_missed_block() -> None:
    game = games.create("tictactoe")
    state = play(game, ["b2", "a1", "c1"])
    assert_lines_end_where_values_say(game, state)
    found = lines(game, state, SearchPlayer(parse_spec("alphabeta:time=inf")), Proofs())
    assert (game.format_move(found[0].move), found[0].value) == ("a3", 0.0)
    refuted = next(item for item in found if game.format_move(item.move) == "b1")
    assert explanation(game, state, refuted) == "b1 -1 (loss): X a3"


def test_kalah_lines_cross_extra_turns() -> None:
    game = games.create("kalah --pits 3 --seeds 2")
    assert_lines_end_where_values_say(game, game.initial_state())


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=3))
def test_nim_lines_agree_with_bouton(piles: list[int]) -> None:
    if not any(piles):
        return
    game = games.create("nim " + " ".join(map(str, piles)))
    state = game.initial_state()
    assert_lines_end_where_values_say(game, state)
    best = lines(game, state, SearchPlayer(parse_spec("alphabeta:time=inf")), Proofs())[0]
    assert best.value == (1.0 if nim_mover_wins(piles, misere=True) else -1.0)


def test_2048_lines_stop_at_chance() -> None:
    game = games.create("2048 --size 2 --goal 16")
    state = game.initial_state()
    while game.to_move(state) == CHANCE:
        state = game.result(state, outcomes(game, state)[0][1])
    found = lines(game, state, SearchPlayer(parse_spec("expectimax:depth=2")), Proofs())
    assert found and all(item.line[1:] == (ANY_SPAWN,) for item in found if not item.finished)
    assert explanation(game, state, found[0]).endswith(": chance any spawn") is False
    assert "any spawn" in explanation(game, state, found[0])


@settings(max_examples=20, deadline=None)
@given(endgames(range(4, 5), 9))
def test_kalah_lines_run_through_the_endgame_book_to_the_end(drawn: tuple[Position, int]) -> None:
    """Where the book values a position it stores no line: the line is read move by move from the
    book's values, each move keeping the literal solver's value and nearing the end as it says."""
    state, pits = drawn
    game = Kalah(pits, 1, endgame=9)
    assert_lines_end_where_values_say(game, state)
    best = lines(game, state, SearchPlayer(parse_spec("alphabeta:time=inf")), Proofs())[0]
    margin, plies = kalah_solved_within(state.board, state.player)
    assert best.value == margin
    position = state
    for move in best.line:
        mover, value = position.player, kalah_solved_within(position.board, position.player)[0]
        position = game.result(position, move)
        after = kalah_solved_within(position.board, position.player)[0]
        assert (after if position.player == mover else -after) == value
    assert margin == 0 or len(best.line) == plies


def test_the_solved_kalah_4_3_line_plays_to_the_end_and_wins_by_its_value() -> None:
    """Kalah(4, 3)'s answer crosses into the endgame book after five plies; its line goes on to the
    end."""
    game = games.create("kalah --pits 4 --seeds 3")
    start = game.initial_state()
    answer = solve(game, start)
    position = start
    for move in answer.pv:
        position = game.result(position, move)
    assert answer.value == KALAH_4_3 and game.is_terminal(position)
    assert game.utility(position, 0) == KALAH_4_3
