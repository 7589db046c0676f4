"""Figures count all the work: a game's own proof is part of a search's nodes, and a search's time
limit bounds its whole move, the proof included (issue 40, item 6)."""

from __future__ import annotations

import json
import math
import time
from math import comb
from pathlib import Path

from pytest import MonkeyPatch

from nimmax.games import connect4_book
from nimmax.games.kalah import Kalah
from nimmax.search import search
from nimmax.search.engines import ENGINES
from nimmax.search.limits import Limits

from .cli_helpers import nimmax_in_process
from .test_book import CONNECT4, played

WON = "daefedcbddee"
"""X to move with 12 stones after a perfect defence: won, the win 27 plies away, past every book but
the proof's (its docstring: 45,000-142,000 nodes to prove)."""
LIMIT = 0.1
SLACK = 0.1
"""Seconds a timed move may run past its limit on a loaded machine (the contract: 20% where it is
idle)."""


def test_a_timed_move_ends_by_its_limit_though_the_proof_would_go_on() -> None:
    connect4_book.twelve()  # the book file is read once a process, not a search's work
    state = played(WON)
    started = time.perf_counter()
    result = search(CONNECT4, state, "alphabeta", time=LIMIT)
    took = time.perf_counter() - started
    assert took <= LIMIT + SLACK, took
    assert result.move in CONNECT4.actions(state)
    # the proof's nodes are in it
    assert result.seconds <= took and result.nodes / result.seconds > 1000


def test_the_proofs_nodes_are_the_searchs_nodes() -> None:
    connect4_book.twelve()
    state = played(WON + "b")  # O to move: the proof's first questions settle nothing
    # a player's copy: its proof counts what it searched for this search
    copy = CONNECT4.for_search()
    result = ENGINES["alphabeta"].search(copy, state, Limits(depth=2))
    proof = copy.proof
    assert proof is not None and proof.nodes >= 4_000  # its first questions' budget, spent
    assert result.nodes > proof.nodes  # the search's own nodes, and the proof's
    assert proof.account is None  # the search over, the copy charges nothing to it


def test_solve_reports_the_proof_in_its_nodes() -> None:
    # O to move: the proof's first questions settle nothing
    position = CONNECT4.format_position(played(WON + "b"))
    nodes = {}
    for book in ("on", "off"):
        shown = nimmax_in_process(
            "solve",
            "connect4",
            "--position",
            position,
            "--algorithm",
            f"alphabeta:depth=2,book={book}",
            "--json",
        )
        assert shown.returncode == 0, shown.stderr
        answer = json.loads(shown.stdout)
        assert answer["nodes"] / answer["seconds"] > 1000  # over the same seconds
        nodes[book] = answer["nodes"]
    # a question of the proof's costs 4,000 nodes at first
    assert nodes["off"] < 100 and nodes["on"] >= 4_000


def test_an_endgame_book_built_during_a_search_counts_in_its_nodes(
    tmp_path: Path, monkeypatch: MonkeyPatch
) -> None:
    """Kalah(4,2) with a book of 3 seeds: the search that builds it counts every position the build
    valued (C(3 + 8, 8) of them: the pits' fillings with at most 3 seeds); the next, reading it,
    does not."""
    monkeypatch.setenv("NIMMAX_CACHE_DIR", str(tmp_path))
    game = Kalah(4, 2, endgame=3)  # its own shelf: the first search builds the book
    state = game.initial_state()
    building = search(game, state, "alphabeta", time=math.inf)
    reading = search(game, state, "alphabeta", time=math.inf)
    assert building.value == reading.value and building.exact
    assert building.nodes - reading.nodes == comb(3 + 8, 8)
