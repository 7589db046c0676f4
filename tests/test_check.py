"""nimmax check: every registered game keeps the laws; a broken game fails exactly the law it
breaks."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest

from nimmax import games, plugins
from nimmax.check import LAWS, check, playout_moves, position_reader
from nimmax.game import AnyGame, Capability
from nimmax.games.kalah import Kalah
from nimmax.games.kalah_position import Position

EXAMPLES = [info.example for info in games.GAMES] + [
    "tictactoe --size 15 --k 5",
    "kalah --pits 6 --seeds 6",
]
ROOT = Path(__file__).resolve().parent.parent
TicTacToe: Any = plugins.game_class(f"{ROOT}/examples/tictactoe.py:TicTacToe")
Subtraction: Any = plugins.game_class(f"{ROOT}/examples/subtraction.py:Subtraction")


def failed(game: AnyGame, playouts: int = 30) -> dict[str, tuple[str, ...] | None]:
    """The laws the game fails, each with its counterexample."""
    report = check(game, playouts=playouts, seed=1)
    return {
        finding.law.name: finding.moves for finding in report.findings if finding.status == "failed"
    }


@pytest.mark.parametrize("words", EXAMPLES)
def test_registered_games_keep_every_law(words: str) -> None:
    report = check(
        games.create(words), playouts=12, seed=1, position=position_reader(shlex.split(words))
    )
    assert [
        (item.law.name, item.moves, item.detail)
        for item in report.findings
        if item.status == "failed"
    ] == []
    assert report.holds and report.positions > 12
    ran = {item.law.name for item in report.findings if item.status == "passed"}
    assert {"unchanged", "rebuilt", "legal", "notation", "zero-sum"} <= ran


def test_the_examples_keep_every_law() -> None:
    assert failed(TicTacToe()) == {}
    assert failed(Subtraction(20, (1, 3, 4))) == {}


class Pile:
    """A state that is hashable and yet changes in place: what the unchanged law exists for."""

    def __init__(self, counters: int, mover: int) -> None:
        self.counters, self.mover = counters, mover

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pile) and (self.counters, self.mover) == (
            other.counters,
            other.mover,
        )

    def __hash__(self) -> int:
        return hash((self.counters, self.mover))


class Mutating(Subtraction):  # type: ignore[misc]
    def initial_state(self) -> Pile:
        return Pile(self.counters, 0)

    def to_move(self, state: Pile) -> int:
        return state.mover

    def actions(self, state: Pile) -> list[int]:
        return [take for take in reversed(self.takes) if take <= state.counters]

    def result(self, state: Pile, action: int) -> Pile:
        if action not in self.actions(state):
            raise games.nim.IllegalMove("no")  # type: ignore[attr-defined]
        state.counters, state.mover = state.counters - action, 1 - state.mover
        return state

    def is_terminal(self, state: Pile) -> bool:
        return not self.actions(state)

    def utility(self, state: Pile, player: int) -> float:
        return -1 if player == state.mover else 1

    def key(self, state: Pile) -> Any:
        return state.counters


class NotZeroSum(TicTacToe):  # type: ignore[misc]
    def utility(self, state: str, player: int) -> float:
        payoff: float = max(super().utility(state, player), 0.0)  # the loser gets 0, not -1
        return payoff


class MergingKey(Subtraction):  # type: ignore[misc]
    def key(self, state: tuple[int, int]) -> Any:
        return state[0] % 2  # 20 and 18 counters are not worth the same


def test_a_game_that_changes_its_state_fails_only_unchanged() -> None:
    assert set(failed(Mutating(12, (1, 2)))) == {"unchanged"}


def test_a_game_that_is_not_zero_sum_fails_only_zero_sum() -> None:
    found = failed(NotZeroSum())
    assert set(found) == {"zero-sum"}
    moves = found["zero-sum"]
    assert moves is not None and len(moves) == 5  # the quickest line made: three stones against two
    game = NotZeroSum()
    end = playout_moves(game, moves)
    assert game.is_terminal(end) and game.utility(end, 0) + game.utility(end, 1) != 0


def test_a_key_that_merges_positions_of_different_value_fails_only_key() -> None:
    game = MergingKey(12, (1, 2))
    report = check(game, playouts=30, seed=1)
    assert {item.law.name for item in report.findings if item.status == "failed"} == {"key"}
    finding = next(item for item in report.findings if item.law.name == "key")
    assert finding.moves is not None and "same key" in finding.detail
    # take 1 or 2, whoever cannot move loses: the side to move loses exactly at multiples of 3,
    # and the counterexample is a position whose parity-mate is on the other side of that rule
    counters, _ = playout_moves(game, finding.moves)
    assert ("+1" in finding.detail.split("this one")[1]) == (counters % 3 != 0)


class LeadlessKalah(Kalah):
    """Kalah keyed on its pits with no offset added back: positions of different leads share a
    value."""

    def keyed(self, state: Position) -> tuple[Any, float]:
        return super().keyed(state)[0], 0.0


def test_an_offset_key_is_checked_with_its_offsets_added_back() -> None:
    assert "key" not in failed(Kalah(3, 2), playouts=20)
    assert "key" in failed(LeadlessKalah(3, 2), playouts=20)


def test_every_law_is_reported_once() -> None:
    report = check(TicTacToe(), playouts=2)
    assert [finding.law.name for finding in report.findings] == [law.name for law in LAWS]
    skipped = {finding.law.name for finding in report.findings if finding.status == "skipped"}
    assert skipped == {"position", "search-actions", "evaluate", "key"}
    assert report.as_json()["passed"] is True


class DeclaresBounds(Subtraction):  # type: ignore[misc]
    capabilities = frozenset({Capability.BOUNDS})  # utility_bounds kept as Game's default


class EvaluatesUndeclared(TicTacToe):  # type: ignore[misc]
    def evaluate(self, state: str, player: int) -> float:
        return 0.5


def test_a_capability_declared_without_its_member_fails_only_capabilities() -> None:
    report = check(DeclaresBounds(12, (1, 2)), playouts=4, seed=1)
    finding = next(item for item in report.findings if item.law.name == "capabilities")
    assert {item.law.name for item in report.findings if item.status == "failed"} == {
        "capabilities"
    }
    assert finding.detail == "declares BOUNDS but does not define utility_bounds"


def test_a_member_defined_without_its_capability_fails_only_capabilities() -> None:
    report = check(EvaluatesUndeclared(), playouts=4, seed=1)
    finding = next(item for item in report.findings if item.law.name == "capabilities")
    assert {item.law.name for item in report.findings if item.status == "failed"} == {
        "capabilities"
    }
    assert finding.detail == "defines evaluate but does not declare EVALUATION"
    assert next(item for item in report.findings if item.law.name == "evaluate").status == "skipped"
