"""Expectimax on 2048: the probability cut-off against an independent recursion (values and
node counts), the depth a fixed number of nodes reaches as the board fills, and a timed move
bounded by its limit (no work left over from earlier moves that its clock cannot stop)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimmax import games, players
from nimmax.game import CHANCE
from nimmax.games.twenty48 import Position, Twenty48
from nimmax.search import search
from nimmax.search.stack import interpreter


def position(text: str) -> tuple[Twenty48, Position]:
    game = games.create(["2048", "--position", text])
    assert isinstance(game, Twenty48)
    return game, game.initial_state()


def cut_value(
    game: Twenty48, state: Position, depth: int, probability: float, cutoff: float, count: list[int]
) -> float:
    """Independent truth: expectimax by plain recursion (no table), a node valued by `evaluate` once
    `depth` plies are used or the chance of reaching it falls below `cutoff`; counts every node."""
    count[0] += 1
    if game.is_terminal(state):
        return state.score
    if depth <= 0 or probability < cutoff:
        return game.evaluate(state, 0)
    if game.to_move(state) == CHANCE:
        return sum(
            chance
            * cut_value(
                game, game.result(state, spawn), depth - 1, probability * chance, cutoff, count
            )
            for chance, spawn in game.chance_outcomes(state)
        )
    return max(
        cut_value(game, game.result(state, move), depth - 1, probability, cutoff, count)
        for move in game.actions(state)
    )


TILES = st.sampled_from([0, 0, 0, 2, 2, 4, 8, 16])


@settings(max_examples=25, deadline=None)
@given(
    st.lists(TILES, min_size=9, max_size=9).filter(lambda cells: 2 <= cells.count(0) <= 7),
    st.integers(1, 4),
    st.sampled_from([0.0, 0.02, 0.06, 0.3]),
)
def test_the_cutoff_values_and_counts_nodes_as_an_independent_recursion(
    cells: list[int], depth: int, cutoff: float
) -> None:
    game, state = position(
        "/".join(",".join(str(tile) for tile in cells[row * 3 : row * 3 + 3]) for row in range(3))
    )
    if game.is_terminal(state):
        return
    result = search(
        game, state, "expectimax", depth=depth, cutoff=cutoff, cache=False, every_move=True
    )
    count = [1]  # the root
    for move, value in result.moves:
        truth = cut_value(game, game.result(state, move), depth - 1, 1.0, cutoff, count)
        assert value == pytest.approx(truth, rel=1e-9, abs=1e-3), move
    assert result.nodes == count[0]


def test_a_cutoff_between_the_spawns_prunes_the_4s_alone() -> None:
    game, state = position("2,2,4,8/0,4,0,0/0,0,0,2/0,0,0,0")
    # after the first slide a 4 spawns with 0.1 / (empty cells), a 2 with nine times that
    fours = {
        0.1 / len(game.empty_cells(game.slide(state.board, str(move))[0]))
        for move in game.actions(state)
    }
    assert 1.01 * max(fours) < 9 * min(fours)  # a cut-off between them cuts every 4, no 2
    full = search(game, state, "expectimax", depth=4, cutoff=0.0, cache=False, eval="heuristic")
    below = search(
        game, state, "expectimax", depth=4, cutoff=0.99 * min(fours), cache=False, eval="heuristic"
    )
    assert (below.nodes, below.value, below.move) == (full.nodes, full.value, full.move)
    cut = search(
        game, state, "expectimax", depth=4, cutoff=1.01 * max(fours), cache=False, eval="heuristic"
    )
    # each of the first slide's 4s (of 9 cells) is a horizon now: its slides and their spawns go
    assert full.nodes - cut.nodes > full.nodes // 20
    assert cut.value == pytest.approx(full.value, rel=1e-3)  # a 4 is rare: the value hardly moves


def test_the_same_nodes_search_deeper_as_the_board_fills() -> None:
    depths = []
    for text in (
        "2,0,0,0/0,0,0,0/0,0,0,0/0,0,0,4",  # 14 empty cells
        "2,4,8,16/0,0,0,0/0,0,0,0/0,0,32,4",  # 10
        "2,4,8,16/32,64,128,256/4,2,0,0/0,0,32,4",  # 4
        "2,4,8,16/32,64,128,256/4,2,8,2/2,0,32,4",  # 1
    ):
        game, state = position(text)
        depths.append(search(game, state, "expectimax", nodes=6_000, eval="heuristic").depth)
    # two turns deeper on the fullest board
    assert depths == sorted(depths) and depths[-1] >= depths[0] + 4


def test_a_timed_move_keeps_no_entries_of_earlier_moves() -> None:
    """Entries kept across moves grew the table until a trim or a rehash, which no clock stops,
    held a 0.1 s move for seconds; a move now starts from an empty table."""
    game, state = position("2,4,8,16/0,0,0,0/0,0,0,0/0,0,32,4")
    player = players.create(players.parse_spec("expectimax:time=0.02,eval=heuristic"))
    assert isinstance(player, players.SearchPlayer)
    table: Any = player.table_for(game)
    for junk in range(20_000):
        table.put(("junk", junk), (1, 0, 0.0, None, 0))
    decision = player.choose(game, state)
    assert decision.search is not None and 0 < len(table) <= decision.search.nodes
    assert not any(isinstance(key, tuple) and key[0] == "junk" for key in table)


LIMIT = 0.05


def test_every_timed_move_of_a_crowded_game_ends_near_its_limit() -> None:
    """CPU seconds, not the wall clock: a loaded machine stretches a move's wall time, but a move
    can spend no more CPU than its limit plus one check of the clock, unless it did work that the
    clock cannot stop."""
    game, state = position("2,4,8,16/32,64,128,256/4,2,8,2/2,0,32,4")
    player = players.create(players.parse_spec(f"expectimax:time={LIMIT}"))
    assert isinstance(player, players.SearchPlayer)
    player.choose(game, state)  # the learned network is read once, before any timed move
    rng, spent = random.Random(5), []
    with interpreter():
        for _ in range(20):
            if game.is_terminal(state):
                break
            started = time.process_time()
            state = game.result(state, player.choose(game, state).move)
            spent.append(time.process_time() - started)
            outcomes = game.chance_outcomes(state)
            state = game.result(
                state, rng.choices([spawn for _, spawn in outcomes], [p for p, _ in outcomes])[0]
            )
    assert len(spent) >= 5
    assert max(spent) < LIMIT + 0.1, spent
