"""nimmax's `mcts` against OpenSpiel's MCTS bot on Connect Four 7x6, at the same time per move.

    /work/peer/bin/python scripts/bench_mcts_peer.py                  # 20 games, 1 s a move
    /work/peer/bin/python scripts/bench_mcts_peer.py --games 2 --time 0.2   # a quick check

Runs under the scratch environment that holds OpenSpiel (never a nimmax dependency) and
imports nimmax from this repository. OpenSpiel's side is its Python `MCTSBot` (UCT, c=2,
MCTS-Solver on, one random rollout per leaf, as in its examples) over its C++
`connect_four`; its search is cut at the deadline by a hook that ends the simulation loop
(`TimedBot`), nothing else changed. nimmax's side is `mcts:time=T,seed=N`, a player that
keeps its tree between moves. Moves are columns counted from the left in both games; after
every move both games are checked to agree on whether it is over and who won.

Games alternate colours (nimmax moves first in the even ones) and are seeded by (seed,
game). Prints each game, nimmax's score (a draw is half a point) with a 95% Wilson
interval, and each side's simulations per second, with the load average beside them.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

from nimmax import games  # noqa: E402
from nimmax.players import SearchPlayer, parse_spec  # noqa: E402

PEER_C = 2.0
"""OpenSpiel's exploration constant in its examples (payoffs in -1..1)."""


class TimedBot(mcts.MCTSBot):  # type: ignore[misc]
    """OpenSpiel's MCTSBot searching until a deadline instead of for a number of simulations."""

    def __init__(self, game: Any, seconds: float, seed: int) -> None:
        random_state = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        super().__init__(game, PEER_C, 10**9, evaluator, solve=True, random_state=random_state)
        self.seconds, self.deadline = seconds, 0.0
        self.simulations, self.spent, self.deadline_hit = 0, 0.0, False

    def mcts_search(self, state: Any) -> Any:
        start = time.perf_counter()
        self.deadline = start + self.seconds
        root = super().mcts_search(state)
        self.spent += time.perf_counter() - start
        self.simulations += root.explore_count - (1 if self.deadline_hit else 0)
        return root

    def _apply_tree_policy(self, root: Any, state: Any) -> Any:
        # Past the deadline, mark the root so the loop's own `root.outcome` test ends it; the
        # root's outcome is read by nothing else (the move comes from its children).
        self.deadline_hit = time.perf_counter() >= self.deadline
        if self.deadline_hit:
            root.outcome = [0.0, 0.0]
            return [root], state.clone()
        return super()._apply_tree_policy(root, state)


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """A 95% Wilson interval for a score out of `games`."""
    if not games:
        return 0.0, 1.0
    p = score / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(
    index: int, seconds: float, seed: int, spec: str
) -> tuple[float, int, float, int, float, str]:
    """One game; nimmax's points (1, 0.5, 0), its simulations and seconds, the peer's, and the
    moves."""
    ours_game = games.create(["connect4"])
    peer_game = pyspiel.load_game("connect_four")
    game_seed = seed * 1000 + index
    ours = SearchPlayer(parse_spec(f"{spec}:time={seconds},seed={game_seed}"))
    peer = TimedBot(peer_game, seconds, game_seed)
    ours_first = index % 2 == 0
    state, peer_state = ours_game.initial_state(), peer_game.new_initial_state()
    simulations, spent, moves = 0, 0.0, []
    while not ours_game.is_terminal(state):
        if (ours_game.to_move(state) == 0) == ours_first:
            result = ours.search(ours_game, state)
            column = result.move
            simulations, spent = simulations + result.nodes, spent + result.seconds
        else:
            column = peer.step(peer_state)
        moves.append("abcdefg"[column])
        state = ours_game.result(state, column)
        peer_state.apply_action(column)
        if peer_state.is_terminal() != ours_game.is_terminal(state):
            raise AssertionError(f"the games disagree on the end after {' '.join(moves)}")
    returns = peer_state.returns()
    ours_seat = 0 if ours_first else 1
    if ours_game.utility(state, ours_seat) != returns[ours_seat]:
        raise AssertionError(f"the games disagree on the winner after {' '.join(moves)}")
    points = (ours_game.utility(state, ours_seat) + 1) / 2
    return points, simulations, spent, peer.simulations, peer.spent, " ".join(moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games to play (colours alternate)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds per move for both sides")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--spec", default="mcts", help="nimmax's player, e.g. mcts:rollout=heuristic"
    )
    options = parser.parse_args()
    print(
        f"Connect Four 7x6: nimmax {options.spec} vs OpenSpiel MCTSBot (uct_c={PEER_C}, solve, "
        "random rollouts)"
    )
    print(
        f"{options.games} games, {options.time} s a move, seed {options.seed}; load "
        f"{os.getloadavg()[0]:.2f}"
    )
    score, ours_sims, ours_seconds, peer_sims, peer_seconds = 0.0, 0, 0.0, 0, 0.0
    for index in range(options.games):
        points, sims, spent, their_sims, their_spent, line = play(
            index, options.time, options.seed, options.spec
        )
        score += points
        ours_sims, ours_seconds = ours_sims + sims, ours_seconds + spent
        peer_sims, peer_seconds = peer_sims + their_sims, peer_seconds + their_spent
        first = "nimmax" if index % 2 == 0 else "OpenSpiel"
        outcome = {1.0: "nimmax wins", 0.5: "draw", 0.0: "OpenSpiel wins"}[points]
        print(f"game {index + 1:2}: {first:9} first  {outcome:15} {line}", flush=True)
    low, high = wilson(score, options.games)
    print(
        f"nimmax score: {score:g}/{options.games} = {score / options.games:.0%} (95% interval "
        f"{low:.0%}-{high:.0%})"
    )
    ours_rate = ours_sims / ours_seconds if ours_seconds else 0.0
    peer_rate = peer_sims / peer_seconds if peer_seconds else 0.0
    print(f"simulations per second: nimmax {ours_rate:,.0f}, OpenSpiel {peer_rate:,.0f}", end="")
    print(f" (ratio {ours_rate / peer_rate:.2f})" if peer_rate else "")
    print(f"load average now {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
