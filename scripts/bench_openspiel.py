"""nimmax's alpha-beta on OpenSpiel's games against OpenSpiel's own alpha-beta, in the same run,
and what the adapter costs a node (nimmax's protocol over a pyspiel state against pyspiel bare).

Run: PYTHONPATH=. python scripts/bench_openspiel.py (needs `nimmax[openspiel]`).
"""

from __future__ import annotations

import random
import time
from typing import Any

import pyspiel
from open_spiel.python.algorithms import minimax

from nimmax import games
from nimmax.search import ENGINES, Limits

CASES = (("tic_tac_toe", 9), ("connect_four(rows=4,columns=5)", 7), ("mancala", 6))
"""Games and the depth both searches go to."""


def openspiel_search(text: str, depth: int) -> tuple[int, float]:
    """OpenSpiel's alpha-beta to `depth`, each node counted by wrapping its recursive function."""
    game = pyspiel.load_game(text)
    state = game.new_initial_state()
    plain = minimax._alpha_beta
    nodes = 0

    def counted(*args: Any) -> Any:
        nonlocal nodes
        nodes += 1
        return plain(*args)

    minimax._alpha_beta = counted
    try:
        start = time.process_time()
        minimax._alpha_beta(
            state, depth, -float("inf"), float("inf"), lambda _: 0.0, state.current_player()
        )
        return nodes, time.process_time() - start
    finally:
        minimax._alpha_beta = plain


def nimmax_search(text: str, depth: int) -> tuple[int, float]:
    """nimmax's alpha-beta to `depth` (its table on, as it plays)."""
    game = games.create([f"openspiel:{text}"])
    start = time.process_time()
    result = ENGINES["alphabeta"].search(game, game.initial_state(), Limits(depth=depth))
    return result.nodes, time.process_time() - start


def per_node(text: str, plies: int = 20000) -> tuple[float, float]:
    """Microseconds a node of random playouts: through nimmax's adapter (moves, result, end test),
    and on pyspiel bare (legal actions, clone and apply, end test)."""
    game = games.create([f"openspiel:{text}"])
    chooser = random.Random(1)
    start, done = time.process_time(), 0
    while done < plies:
        state = game.initial_state()
        while not game.is_terminal(state) and done < plies:
            state = game.result(state, chooser.choice(game.actions(state)))
            done += 1
    adapter = (time.process_time() - start) / plies * 1e6
    spiel_game, chooser = pyspiel.load_game(text), random.Random(1)
    start, done = time.process_time(), 0
    while done < plies:
        bare = spiel_game.new_initial_state()
        while not bare.is_terminal() and done < plies:
            action = chooser.choice(bare.legal_actions())
            bare = bare.clone()
            bare.apply_action(action)
            done += 1
    return adapter, (time.process_time() - start) / plies * 1e6


def main() -> None:
    print(
        f"{'game':34} {'depth':>5} {'nimmax n/s':>11} {'OpenSpiel n/s':>13} {'ratio':>6}  nodes "
        "(nimmax, OpenSpiel)"
    )
    for text, depth in CASES:
        ours, our_seconds = nimmax_search(text, depth)
        theirs, their_seconds = openspiel_search(text, depth)
        our_rate, their_rate = ours / our_seconds, theirs / their_seconds
        print(
            f"{text:34} {depth:>5} {our_rate:>11,.0f} {their_rate:>13,.0f} "
            f"{our_rate / their_rate:>6.2f}"
            f"  {ours:,}, {theirs:,}"
        )
    print(f"\n{'adapter cost per node':34} {'nimmax µs':>11} {'pyspiel µs':>13} {'ratio':>6}")
    for text, _ in CASES:
        adapter, bare = per_node(text)
        print(f"{text:34} {adapter:>11.2f} {bare:>13.2f} {adapter / bare:>6.2f}")


if __name__ == "__main__":
    main()
