"""Threat-space proofs (`nimmax.games.mnk.threat_proof`) against a plain bounded search written here
on its own cell numbering: every win or loss the proof claims is one the search finds within the
claimed plies (and no sooner where the proof says its distance is exact); and the proof read as
m,n,k's book makes a search's answer proven, through the CLI."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from nimmax import games
from nimmax.game import Known
from nimmax.games.mnk import MNK, Board
from nimmax.games.mnk.threat_proof import ThreatProof

from .cli_helpers import nimmax_in_process, ran_clean

SHAPES = ((5, 5, 4), (6, 6, 4), (5, 6, 4), (6, 6, 5))
"""Boards the proof is checked on: small enough for the plain search, big enough for fours and
double threats."""


class Plain:
    """A plain bounded search of one m,n,k board over cells numbered row by row: forced wins and
    losses within a number of plies, by trying every move (nothing of nimmax's but the position)."""

    def __init__(self, rows: int, cols: int, k: int) -> None:
        self.full = (1 << rows * cols) - 1
        lines = []
        for row in range(rows):
            for col in range(cols):
                for down, right in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(row + down * step, col + right * step) for step in range(k)]
                    if all(0 <= r < rows and 0 <= c < cols for r, c in cells):
                        lines.append(sum(1 << r * cols + c for r, c in cells))
        self.through = [[line for line in lines if line >> cell & 1] for cell in range(rows * cols)]

    def empty(self, mine: int, theirs: int) -> list[int]:
        """The empty cells, those on the fullest lines of `mine` free of `theirs` first (an order
        only)."""
        cells = [cell for cell in range(self.full.bit_length()) if not (mine | theirs) >> cell & 1]
        return sorted(
            cells,
            key=lambda cell: (
                -max([(mine & line).bit_count() for line in self.open(theirs, cell)] or [0])
            ),
        )

    def open(self, theirs: int, cell: int) -> list[int]:
        """The lines through `cell` free of `theirs`."""
        return [line for line in self.through[cell] if not theirs & line]

    def completes(self, stones: int, cell: int) -> bool:
        """Whether `stones` (with a stone on `cell`) hold a whole line through `cell`."""
        return any(stones & line == line for line in self.through[cell])

    @functools.cache  # noqa: B019 (one instance per board shape, kept by the test module)
    def wins(self, mine: int, theirs: int, plies: int) -> bool:
        """Whether the side to move (`mine`) can make a line within `plies` plies, whatever the
        other does."""
        if plies < 1:
            return False
        cells = self.empty(mine, theirs)
        if any(self.completes(mine | 1 << cell, cell) for cell in cells):
            return True
        return plies >= 3 and any(self.loses(theirs, mine | 1 << cell, plies - 1) for cell in cells)

    @functools.cache  # noqa: B019
    def loses(self, mine: int, theirs: int, plies: int) -> bool:
        """Whether the side to move (`mine`, no line on the board) loses within `plies` plies
        whatever it plays."""
        if plies < 2:
            return False
        # the other side's fullest lines first: blocks refute a loss
        for cell in self.empty(theirs, mine):
            stones = mine | 1 << cell
            if self.completes(stones, cell) or stones | theirs == self.full:
                return False  # a win, or the board filled: a draw
            if not self.wins(theirs, stones, plies - 1):
                return False
        return True


PLAIN = {shape: Plain(*shape) for shape in SHAPES}


FOURS = 2
"""Fours the proof checked here may take: every rule of it, within plies the plain search reaches
(each four adds the same step, checked again at every length)."""


def proof_of(game: MNK, fours: int = FOURS) -> ThreatProof:
    """A proof for `game`'s board, its victories by fours `fours` fours long at most."""
    return ThreatProof(game.geometry, fours)


def claim(game: MNK, proof: ThreatProof, state: Board) -> Known | None:
    """What the proof says of `state` for its side to move."""
    if state.player:
        return proof.known(state.o, state.x, state.o_threats, state.x_threats)
    return proof.known(state.x, state.o, state.x_threats, state.o_threats)


def renumbered(game: MNK, stones: int) -> int:
    """`stones` (the game's bits) as cells numbered row by row."""
    cells = 0
    for bit in range(game.geometry.span):
        if stones >> bit & 1:
            row, col = game.geometry.cell(bit)
            cells |= 1 << row * game.geometry.cols + col
    return cells


def check(game: MNK, state: Board, fours: int = FOURS) -> Known | None:
    """The proof's claim on `state`, asserted against the plain search; the claim."""
    known = claim(game, proof_of(game, fours), state)
    if known is None:
        return None
    plain = PLAIN[(game.geometry.rows, game.geometry.cols, game.geometry.k)]
    mine, theirs = (state.o, state.x) if state.player else (state.x, state.o)
    mine, theirs = renumbered(game, mine), renumbered(game, theirs)
    assert known.plies <= game.geometry.cells - (state.x | state.o).bit_count()
    if known.payoff > 0:
        assert known.plies % 2 == 1 and plain.wins(mine, theirs, known.plies), known
        assert not (known.exact and plain.wins(mine, theirs, known.plies - 2)), known
    else:
        assert (
            known.payoff < 0 and known.plies % 2 == 0 and plain.loses(mine, theirs, known.plies)
        ), known
        assert not (known.exact and plain.loses(mine, theirs, known.plies - 2)), known
    return known


def reached(game: MNK, picks: list[int]) -> Board:
    """The position after playing the picked empty cells in turn (each pick an index into the empty
    cells, centre first), stopping before a move that would end the game."""
    state = game.initial_state()
    for pick in picks:
        moves = game.actions(state)
        child = game.result(state, moves[pick % len(moves)])
        if game.is_terminal(child):
            break
        state = child
    return state


@settings(max_examples=120)
@given(st.sampled_from(SHAPES), st.lists(st.integers(0, 35), min_size=7, max_size=22))
def test_every_claim_holds_against_a_plain_search(
    shape: tuple[int, int, int], picks: list[int]
) -> None:
    rows, cols, k = shape
    game = games.create(f"tictactoe --rows {rows} --cols {cols} --k {k}")
    assert isinstance(game, MNK)
    check(game, reached(game, picks))


def test_every_kind_of_claim_is_made_and_holds() -> None:
    """Every position of seeded games on 5x5 k=4: each rule of the proof fires (a five, a double
    threat, fours before one, the forced block before a loss), and each claim holds."""
    rng, kinds = random.Random(40), set()
    game = games.create("tictactoe --size 5 --k 4")
    assert isinstance(game, MNK)
    for _ in range(40):
        state = game.initial_state()
        while not game.is_terminal(state):
            known = check(game, state, fours=3)
            if known is not None:
                kinds.add((known.payoff, known.plies))
            state = game.result(state, rng.choice(game.actions(state)))
    assert kinds >= {
        (1.0, 1),
        (1.0, 3),
        (1.0, 5),
        (1.0, 7),
        (-1.0, 2),
        (-1.0, 4),
        (-1.0, 6),
        (-1.0, 8),
    }, kinds


OPEN_THREE = "h8 h7 i7 g7 g9 i8 j10 k11 e8 f8 k9 h10"
"""A 15x15 game where X, to move at ply 13, has an open three (g9 h8 i7; O no three of its own):
f10 or j6 makes an open four, which wins in three."""
FOUR_THREE = "h8 g8 i8 c3 j8 m13 k6 b14 k7 n2"
"""A 15x15 game where X, to move at ply 11, wins in five by a four-three: k8 makes the four h8-k8
(O must block l8) and the open three k6-k8, which X then makes an open four."""


def position_after(moves: str) -> str:
    """The 15x15 k=5 position after `moves`, as --position writes it."""
    game = games.create("tictactoe --size 15 --k 5")
    state = game.initial_state()
    for move in moves.split():
        state = game.result(state, game.parse_move(move, state))
    return game.format_position(state)


def test_a_win_by_threats_on_15x15_is_proven_within_a_second() -> None:
    for moves, plies in ((OPEN_THREE, 3), (FOUR_THREE, 5)):
        run = nimmax_in_process(
            "solve",
            "tictactoe",
            "--size",
            "15",
            "--k",
            "5",
            "--position",
            position_after(moves),
            "--time",
            "1",
            "--json",
        )
        ran_clean(run)
        solved = json.loads(run.stdout)
        assert solved["exact"] and solved["value"] == 1.0, solved
        assert solved["depth"] == plies and len(solved["pv"]) == plies, solved
        assert solved["seconds"] < 1.0, solved  # proven at once, not found as the clock ran out


def test_analyze_proves_the_last_plies_of_a_game_won_by_threats(tmp_path: Path) -> None:
    """The open four, the block and the five: each ply proven, the win kept by every move."""
    record = tmp_path / "won.json"
    game = f"tictactoe --size 15 --k 5 --position {position_after(OPEN_THREE)}"
    outcome = {"winner": 0, "utilities": [1.0, -1.0], "finished": True}
    record.write_text(
        json.dumps(
            {
                "game": game,
                "players": ["human", "human"],
                "moves": ["f10", "j6", "e11"],
                "result": outcome,
            }
        )
    )
    run = nimmax_in_process("analyze", str(record), "--time", "1", "--json")
    ran_clean(run)
    plies = json.loads(run.stdout)["moves"]
    assert [(ply["move"], ply["exact"], ply["verdict"]) for ply in plies] == [
        ("f10", True, "best"),
        ("j6", True, "best"),
        ("e11", True, "best"),
    ]
    assert [ply["value_before"] for ply in plies] == [1.0, -1.0, 1.0]
