"""Help that teaches without telling (issue 40): move examples drawn from the legal moves in the
notation's order, never the engine's; `why` and F4 offered only where an engine plays; 2048's help
at a terminal names the keys that act there."""

from __future__ import annotations

import pytest
from prompt_toolkit.key_binding import KeyBindings

from nimmax import games
from nimmax.games.nim import Piles
from nimmax.ui.presentation import move_examples
from nimmax.ui.prompt import TOOLBAR_PEOPLE, LinePrompt, MoveCompleter, command_keys
from nimmax.ui.twenty48 import KEYS

from .cli_helpers import nimmax_in_process
from .theory import nim_mover_wins


def winning(piles: tuple[int, ...], move: str) -> bool:
    """Whether a take (`pile:count`) leaves the other side a lost Nim position (misère), by
    Bouton."""
    pile, count = map(int, move.split(":"))
    after = list(piles)
    after[pile - 1] -= count
    return not nim_mover_wins(after, misere=True)


@pytest.mark.parametrize("piles", [(2, 3, 5), (3, 4, 5), (1, 4, 6)])
def test_nims_first_example_and_first_completion_are_not_the_winning_move(
    piles: tuple[int, ...],
) -> None:
    game = games.create(["nim", *map(str, piles)])
    state = Piles(piles, 0)
    examples = move_examples(game, state, 3)
    assert examples == ["1:1", "1:2", "2:1"][: len(examples)] or examples == sorted(examples)
    assert not winning(piles, examples[0])
    completions = MoveCompleter(game, state).moves
    assert not winning(piles, completions[0])
    assert sorted(completions) == sorted(game.format_move(move) for move in game.actions(state))


def test_examples_of_a_huge_position_are_a_seeded_sample_of_legal_moves() -> None:
    game = games.create("nim 1000000000 999999999 7 --normal")
    state = game.initial_state()
    examples = move_examples(game, state, 5)
    assert examples == move_examples(game, state, 5) and len(examples) == 5
    assert all(game.parse_move(example, state) in game.actions(state) for example in examples)


def test_help_on_nim_2_3_5_does_not_lead_with_the_winning_move() -> None:
    run = nimmax_in_process(
        "play", "nim", "2", "3", "5", "--first", "human", "--second", "human", stdin="help\n"
    )
    assert run.returncode == 0, run.stderr
    first = " ".join(run.stdout.split()).split("Moves look like: ")[1].split(",")[0]
    assert first == "1:1" and not winning((2, 3, 5), first)


def test_why_is_offered_only_where_an_engine_plays() -> None:
    people = nimmax_in_process(
        "play", "nim", "2", "3", "--first", "human", "--second", "human", stdin="help\n"
    )
    engine = nimmax_in_process(
        "play", "nim", "2", "3", "--first", "human", "--second", "alphabeta", stdin="help\n"
    )
    assert people.returncode == engine.returncode == 0
    assert " why " not in people.stdout and "why the engine played" not in people.stdout
    assert "why the engine played" in engine.stdout

    def keys(bindings: KeyBindings) -> set[str]:
        return {str(binding.keys) for binding in bindings.bindings}

    assert keys(command_keys(why=True)) - keys(command_keys(why=False)) == {"(<Keys.F4: 'f4'>,)"}
    assert "why" not in TOOLBAR_PEOPLE
    assert LinePrompt(why=False).session.bottom_toolbar == TOOLBAR_PEOPLE


def test_2048_keys_each_do_one_thing_and_help_at_a_terminal_names_them() -> None:
    slides = {key for key, meaning in KEYS.items() if meaning in ("up", "down", "left", "right")}
    assert slides.isdisjoint(
        key for key, meaning in KEYS.items() if meaning not in ("up", "down", "left", "right")
    )
    assert {KEYS[key] for key in "wasd"} == {"up", "left", "down", "right"} and KEYS["d"] == KEYS[
        "l"
    ] == "right"
    assert KEYS["u"] == "undo"
