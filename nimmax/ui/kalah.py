"""The Kalah board as people draw it, from one side that stays put (the person's, else South's):
that side's row at the bottom sown left to right, the other row above it sown right to left,
the bottom side's store on the right, the other's on the left, each row's pits numbered as its
owner types them, the mover's row standing out, and an extra turn announced. Results in seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from nimmax.game import AnyGame
from nimmax.games.kalah import Kalah
from nimmax.games.kalah_position import Position
from nimmax.ui.presentation import Outcome, Rules

MOVER, OPPONENT, STORE, FRAME, LABEL = "bold green", "cyan", "bold yellow", "dim", "dim"


def render_kalah(game: AnyGame, state: Position, last_move: Any, bottom: int = 0) -> RenderableType:
    """The board from `bottom`'s side, with whose turn it is and why."""
    them = 1 - bottom
    names = game.player_names
    near, top = state.row(bottom), tuple(reversed(state.row(them)))
    pits = len(near)
    width = len(str(max(state.board))) + 2
    gap = " " * (width + 1)

    def row_style(seat: int) -> str:
        return MOVER if seat == state.player and not game.is_terminal(state) else OPPONENT

    def number(value: int) -> str:
        return str(value).rjust(width - 1) + " "

    def cells(values: tuple[int, ...], style: str) -> list[tuple[str, str]]:
        parts: list[tuple[str, str]] = []
        for index, value in enumerate(values):
            if index:
                parts.append(("│", FRAME))
            parts.append((number(value), style))
        return parts

    def labels(numbers: range) -> list[tuple[str, str]]:
        return [(gap + " " + " ".join(number(pit) for pit in numbers), LABEL)]

    rule = "─" * width
    lines: list[list[tuple[str, str]]] = [
        labels(range(pits, 0, -1)) + [(f"   {names[them]}'s pits", LABEL)],
        [(gap + "╭" + "┬".join([rule] * pits) + "╮", FRAME)],
        [("╭" + rule + "┤", FRAME), *cells(top, row_style(them)), ("├" + rule + "╮", FRAME)],
        [
            ("│", FRAME),
            (number(state.store(them)), STORE),
            ("├" + "┼".join([rule] * pits) + "┤", FRAME),
            (number(state.store(bottom)), STORE),
            ("│", FRAME),
        ],
        [("╰" + rule + "┤", FRAME), *cells(near, row_style(bottom)), ("├" + rule + "╯", FRAME)],
        [(gap + "╰" + "┴".join([rule] * pits) + "╯", FRAME)],
        labels(range(1, pits + 1)) + [(f"   {names[bottom]}'s pits", LABEL)],
        [(f"{names[them]}'s store on the left, {names[bottom]}'s on the right", LABEL)],
    ]
    text = Text()
    for line in lines:
        text.append_text(Text.assemble(*line))
        text.append("\n")
    text.append_text(_status(game, state, last_move))
    return text


def _status(game: AnyGame, state: Position, last_move: Any) -> Text:
    """Whose turn it is, the extra turn when the last sowing earned one, or the final score."""
    names = game.player_names
    if game.is_terminal(state):
        return Text(f"Game over: {kalah_outcome(game, state, names)[0]}", style="bold")
    mover = names[state.player]
    if state.again:
        sown = f" (pit {last_move})" if last_move is not None else ""
        return Text(
            f"Extra turn: {mover}'s last seed{sown} landed in the store, so {mover} moves again",
            style=MOVER,
        )
    return Text(f"{mover} to move", style="bold")


def kalah_rules(game: AnyGame) -> Rules:
    """Kalah's rules, with its number of pits."""
    assert isinstance(game, Kalah)
    return Rules(
        "Empty one of your pits and sow its seeds one by one counter-clockwise, into your pits, "
        "your store "
        "and the opponent's pits (never their store). A last seed in your store: move again. A "
        "last seed "
        "in an empty pit of yours captures the seeds opposite. When a side's pits are empty, each "
        "side's "
        "seeds go to its own store; the most seeds in store wins.",
        f"a pit by its number from your left, 1 to {game.pits}: 3",
    )


def kalah_outcome(
    game: AnyGame, state: Any, labels: Sequence[str], value: float | None = None
) -> Outcome:
    """Seeds each side ends with (store plus the pits it sweeps): "South wins 26–22", "Draw
    24–24"."""
    totals = [state.store(seat) + sum(state.row(seat)) for seat in range(2)]
    if totals[0] == totals[1]:
        return f"Draw {totals[0]}–{totals[1]}", None
    winner = int(totals[1] > totals[0])
    return f"{labels[winner]} wins {totals[winner]}–{totals[1 - winner]}", winner


def kalah_value(game: AnyGame, value: float, mover: int | None) -> str:
    """A Kalah value is the mover's final margin in seeds: "win by 4 seeds"."""
    seeds = abs(value)
    unit = "seed" if seeds == 1 else "seeds"
    return "draw" if value == 0 else f"{'win' if value > 0 else 'loss'} by {seeds:,g} {unit}"


def kalah_ending(game: AnyGame, state: Any, labels: Sequence[str], last: int | None) -> str:
    """Kalah: a row ran empty and the seeds left went to their owner's store."""
    empty = [labels[seat] for seat in range(2) if not any(state.row(seat))]
    side = empty[0] if empty else "a side"
    return f"{side}'s pits are empty, so each side keeps the seeds left on its own row"
