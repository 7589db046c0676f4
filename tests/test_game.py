"""The Game protocol: required members, then declared capabilities (OpenSpiel's GameType)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from nimmax import games, plugins
from nimmax.game import (
    CHANCE,
    REQUIRED,
    Booked,
    Bounded,
    Capability,
    Chancy,
    Evaluated,
    Game,
    Narrowing,
    Offset,
    Ordered,
    defined,
    has_chance,
    part,
)

from .cli_helpers import ROOT

EXAMPLES = [info.example for info in games.GAMES] + ["connect4", "tictactoe --size 15 --k 5"]


PROTOCOLS: dict[Capability, type] = {
    Capability.SEARCH_ORDER: Ordered,
    Capability.NARROWING: Narrowing,
    Capability.BOUNDS: Bounded,
    Capability.BOOK: Booked,
    Capability.OFFSET_KEY: Offset,
    Capability.CHANCE: Chancy,
    Capability.EVALUATION: Evaluated,
}


def public(cls: type) -> set[str]:
    """A class's public members: methods, properties and attributes, declared or given a value."""
    return {
        name
        for name in [*dir(cls), *vars(cls).get("__annotations__", {})]
        if not name.startswith("_")
    }


def test_the_game_protocol_keeps_at_most_16_public_members() -> None:
    members = public(Game)
    assert len(members) <= 16, sorted(members)
    assert set(REQUIRED) <= members and not members & {each.member for each in Capability}


def test_each_capability_is_the_one_member_of_a_protocol_of_its_own() -> None:
    for capability, protocol in PROTOCOLS.items():
        assert {name for name in vars(protocol) if not name.startswith("_")} == {capability.member}


@pytest.mark.parametrize("words", EXAMPLES)
def test_a_registered_game_is_reached_through_each_capability_it_declares(words: str) -> None:
    game = games.create(words)
    for capability in Capability:
        reached = part(game, capability)  # type: ignore[call-overload]
        assert (reached is game) == (capability in game.capabilities)
        if reached is not None:
            assert callable(getattr(reached, capability.member))


def test_a_capability_declared_without_its_member_is_not_reached() -> None:
    class Claims(Coin):
        capabilities = frozenset({Capability.CHANCE, Capability.BOOK})

    assert part(Claims(), Capability.BOOK) is None and part(Claims(), Capability.CHANCE) is not None


@pytest.mark.parametrize("words", EXAMPLES)
def test_a_registered_game_declares_exactly_the_capabilities_it_defines(words: str) -> None:
    game = games.create(words)
    assert game.capabilities <= defined(type(game)) <= game.capabilities | type(game).capabilities
    assert has_chance(game) == (Capability.CHANCE in game.capabilities)


def test_connect_four_7x6_has_a_book_only_where_the_books_are_installed() -> None:
    from nimmax.games import connect4_book

    assert (Capability.BOOK in games.create("connect4").capabilities) == connect4_book.installed()
    assert Capability.BOOK not in games.create("connect4 --rows 5").capabilities
    assert Capability.BOOK not in games.create("tictactoe").capabilities


class Coin(Game[int, int]):
    """A toss, then the game is over: one player, chance declared the older way."""

    players, has_chance = 1, True

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        return CHANCE

    def actions(self, state: int) -> Sequence[int]:
        return ()

    def chance_outcomes(self, state: int) -> Sequence[tuple[float, int]]:
        return [(0.5, 1), (0.5, 2)]

    def result(self, state: int, action: int) -> int:
        return action

    def is_terminal(self, state: int) -> bool:
        return state > 0

    def utility(self, state: int, player: int) -> float:
        return float(state)


def test_an_offset_key_is_a_capability_kalah_declares_and_the_default_adds_nothing() -> None:
    assert Capability.OFFSET_KEY in games.create("kalah").capabilities
    assert Capability.OFFSET_KEY not in games.create("tictactoe").capabilities
    kalah, nim = games.create("kalah"), games.create("nim 1 2 3")
    assert (
        part(kalah, Capability.OFFSET_KEY) is not None and part(nim, Capability.OFFSET_KEY) is None
    )


def test_has_chance_is_the_chance_capability_declared_or_set() -> None:
    assert Coin.capabilities == {Capability.CHANCE} and has_chance(Coin())
    coin = Coin()
    coin.capabilities -= {Capability.CHANCE}
    assert not has_chance(coin) and has_chance(Coin())  # the instance narrowed its class's set
    assert not has_chance(Game())


EVALUATING = """\
from nimmax import CHANCE, Game


class Evaluating(Game):
    players, has_chance = 1, True

    def initial_state(self):
        return 0

    def to_move(self, state):
        return CHANCE

    def actions(self, state):
        return ()

    def chance_outcomes(self, state):
        return [(0.5, 1), (0.5, 2)]

    def result(self, state, action):
        return action

    def is_terminal(self, state):
        return state > 0

    def utility(self, state, player):
        return float(state)

    def evaluate(self, state, player):
        return 0.0
"""


def test_a_plugin_offers_the_capabilities_whose_members_it_defines(tmp_path: Path) -> None:
    assert games.create(f"{ROOT}/examples/tictactoe.py:TicTacToe").capabilities == frozenset()
    path = tmp_path / "evaluating.py"
    path.write_text(EVALUATING)
    game = games.create(f"{path}:Evaluating")
    assert game.capabilities == {Capability.EVALUATION, Capability.CHANCE} and has_chance(game)
    assert plugins.game_class(f"{path}:Evaluating").capabilities == game.capabilities


def test_game_and_numbers_import_each_other_no_more() -> None:
    code = "import nimmax.numbers, sys; print('nimmax.game' in sys.modules)"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert loaded.stdout.strip() == "False"
