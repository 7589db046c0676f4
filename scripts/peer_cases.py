"""The peers' side of scripts/bench_peers.py: one case, timed, printed as one JSON line.

Run with a Python that has the peers (never a nimmax dependency), e.g.

    /work/peer/bin/python scripts/peer_cases.py ttt-minimax --repeat 3

Cases:
  ttt-minimax     OpenSpiel's Python `expectiminimax` (plain minimax: no pruning, no memo)
                  over its C++ tic_tac_toe, the whole tree from the empty board
  mnk44           easyAI's solve_with_iterative_deepening with its transposition table on
                  4x4 k=4 (the MNK class of scripts/peer_easyai.py; nodes counted in make_move)
  kalah64-depth10 OpenSpiel's Python `alpha_beta_search` over its C++ `mancala` (Kalah(6,4),
                  the same capture rule as nimmax), 10 plies deep

Nodes are counted in a separate run (a counting wrapper costs time); the timed runs count
nothing. The JSON holds `value`, `nodes` and `seconds` (one entry per timed run).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any


def ttt_minimax() -> tuple[Callable[[], Any], Callable[[], int]]:
    """Plain minimax over OpenSpiel's tic_tac_toe: 549,946 nodes, like nimmax's
    minimax:cache=off."""
    import pyspiel
    from open_spiel.python.algorithms import minimax

    game = pyspiel.load_game("tic_tac_toe")

    def run() -> Any:
        # Depth 9 reaches every end; the value function is never asked (no horizon is met).
        return minimax.expectiminimax(game.new_initial_state(), 9, lambda state: 0.0, 0)

    def count() -> int:
        return _count_calls(minimax, "expectiminimax", run)

    return run, count


def mnk44() -> tuple[Callable[[], Any], Callable[[], int]]:
    """easyAI solving 4x4 k=4 as scripts/peer_easyai.py does; make_move counts its nodes."""
    from easyAI import TranspositionTable, solve_with_iterative_deepening
    from peer_easyai import MNK

    counted = {"nodes": 0}

    def run() -> Any:
        game = MNK(4, 4, 4)
        value, depth, move = solve_with_iterative_deepening(
            game, ai_depths=range(2, 17), win_score=90, tt=TranspositionTable(), verbose=False
        )
        counted["nodes"] = game.nodes
        return value

    def count() -> int:
        if not counted["nodes"]:
            run()
        return counted["nodes"]

    return run, count


def kalah64_depth10() -> tuple[Callable[[], Any], Callable[[], int]]:
    """OpenSpiel's alpha-beta on mancala to depth 10; the horizon is scored by the seed margin.

    OpenSpiel scores a finished game +1/0/-1, so the margin (South's pits and store minus
    North's, what nimmax's Kalah.evaluate counts) is scaled into (-1, 1) by the 48 seeds.
    """
    import pyspiel
    from open_spiel.python.algorithms import minimax

    game = pyspiel.load_game("mancala")

    def margin(state: Any) -> float:
        # Observation: board[0] North's store, 1..6 South's pits, 7 South's store, 8..13 North's
        # pits.
        board = state.observation_tensor(0)[:14]
        return float(2 * sum(board[1:8]) - sum(board)) / 49.0

    def run() -> Any:
        return minimax.alpha_beta_search(
            game, value_function=margin, maximum_depth=10, maximizing_player_id=0
        )

    def count() -> int:
        return _count_calls(minimax, "_alpha_beta", run)

    return run, count


def _count_calls(module: Any, name: str, run: Callable[[], Any]) -> int:
    """How many times `run` calls module.name (recursive calls go through the module global)."""
    real, calls = getattr(module, name), [0]

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return real(*args, **kwargs)

    setattr(module, name, counting)
    try:
        run()
    finally:
        setattr(module, name, real)
    return calls[0]


CASES = {"ttt-minimax": ttt_minimax, "mnk44": mnk44, "kalah64-depth10": kalah64_depth10}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    run, count = CASES[args.case]()
    seconds, value = [], None
    for _ in range(args.repeat):
        started = time.perf_counter()
        value = run()
        seconds.append(time.perf_counter() - started)
    nodes = count()
    print(json.dumps({"case": args.case, "value": repr(value), "nodes": nodes, "seconds": seconds}))


if __name__ == "__main__":
    main()
