"""analyze: verdicts on recorded games checked against game theory computed in the test
(Bouton's rule, Simple-Nim's period, a tic-tac-toe solver of its own), never against nimmax."""

from __future__ import annotations

import json
import random
import time
from functools import cache
from pathlib import Path
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from nimmax import games
from nimmax.claim import Proofs
from nimmax.commands.analyze import analyze, outcome, value_of, verdict
from nimmax.game import CHANCE, winner_of
from nimmax.match import GameRecord, draw_outcome
from nimmax.players import SearchPlayer, parse_spec
from tests.cli_helpers import nimmax_in_process
from tests.theory import nim_mover_wins, simple_nim_mover_wins


def record(
    game: str, moves: list[str], players: tuple[str, str] = ("human", "human")
) -> GameRecord:
    """A record of `moves` (finished or not: GameRecord reads the ending from the moves)."""
    return GameRecord(game, players, tuple(moves), None, (), False)


def nim_plies(
    piles: tuple[int, ...], takes: list[tuple[int, int]]
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The piles before and after each take (pile from 1, counters taken)."""
    plies = []
    for pile, take in takes:
        after = tuple(
            size - take if index == pile - 1 else size for index, size in enumerate(piles)
        )
        plies.append((piles, after))
        piles = after
    return plies


def bouton_verdicts(piles: tuple[int, ...], takes: list[tuple[int, int]]) -> list[str]:
    """Each take's verdict by Bouton's misère rule: a mistake throws away a win; otherwise every
    move is worth the same payoff (+1 or -1) as the best, so it is best."""
    verdicts = []
    for before, after in nim_plies(piles, takes):
        could_win = nim_mover_wins(before, misere=True)
        wins = not nim_mover_wins(after, misere=True) if any(after) else False
        verdicts.append("mistake" if could_win and not wins else "best")
    return verdicts


def test_misere_nim_mistake_at_ply_three_decides_the_game() -> None:
    # 2 3 5: A wins by taking pile 3 down to 1 (nim-sum 0); B takes pile 1 down to 1; A should
    # leave three single counters (2:2) but empties pile 3, leaving 1 3 0, where B wins.
    takes = [(3, 4), (1, 1), (3, 1)]
    piles = (2, 3, 5)
    assert bouton_verdicts(piles, takes) == ["best", "best", "mistake"]
    # B then plays perfectly: 1 0 0 leaves A the last counter, which loses in misère play.
    rest = [(2, 3), (1, 1)]
    analysis = analyze(
        record("nim 2 3 5", [f"{pile}:{take}" for pile, take in takes + rest]),
        parse_spec("alphabeta"),
    )
    assert [move.verdict for move in analysis.moves] == bouton_verdicts(piles, takes + rest)
    assert analysis.as_json()["decisive_ply"] == 3
    assert analysis.decisive is not None and analysis.decisive.seat == 0
    third = analysis.moves[2]
    assert (third.value_before, third.value_after, third.exact) == (1.0, -1.0, True)
    best_pile, best_take = (int(part) for part in third.best_move.split(":"))
    assert not nim_mover_wins(nim_plies((1, 3, 1), [(best_pile, best_take)])[0][1], misere=True)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_nim_verdicts_follow_bouton(data: st.DataObject) -> None:
    piles = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3), label="piles"))
    takes, state = list[tuple[int, int]](), list(piles)
    while any(state) and len(takes) < data.draw(st.integers(1, 8), label="plies"):
        pile = data.draw(
            st.sampled_from([index for index, size in enumerate(state) if size]), label="pile"
        )
        take = data.draw(st.integers(1, state[pile]), label="take")
        state[pile] -= take
        takes.append((pile + 1, take))
    words = "nim " + " ".join(map(str, piles))
    analysis = analyze(
        record(words, [f"{pile}:{take}" for pile, take in takes]), parse_spec("alphabeta:time=inf")
    )
    expected = bouton_verdicts(piles, takes)
    assert [move.verdict for move in analysis.moves] == expected
    mistakes = [ply for ply, found in enumerate(expected, start=1) if found == "mistake"]
    assert analysis.as_json()["decisive_ply"] == (mistakes[-1] if mistakes else None)
    assert all(move.exact for move in analysis.moves)


def test_simple_nim_perfect_game_has_no_mistake() -> None:
    counters, moves = 12, []
    while counters:
        winning = [
            take for take in (1, 2, 3) if take <= counters and not mover_wins_after(counters - take)
        ]
        take = winning[0] if winning else 1
        moves.append(str(take))
        counters -= take
    analysis = analyze(record("simple-nim 12", moves))
    assert [move.verdict for move in analysis.moves] == ["best"] * len(moves)
    assert analysis.as_json()["decisive_ply"] is None
    assert analysis.moves[0].value_before == (
        1.0 if simple_nim_mover_wins(12, 3, misere=True) else -1.0
    )


def mover_wins_after(counters: int) -> bool:
    """Whether the side to move wins misère Simple-Nim (take 1 to 3) with `counters` left;
    taking the last counter loses, so an empty heap is a win for the side to move."""
    return True if counters == 0 else simple_nim_mover_wins(counters, 3, misere=True)


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@cache
def ttt_value(board: str) -> int:
    """A tic-tac-toe solver of the test's own: the value for the side to move (+1 win, 0, -1)."""
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return -1  # the side that just moved made the line
    if "." not in board:
        return 0
    mover = "x" if board.count("x") == board.count("o") else "o"
    return max(
        -ttt_value(board[:cell] + mover + board[cell + 1 :])
        for cell in range(9)
        if board[cell] == "."
    )


def cell(move: str) -> int:
    """The board index of a move like b2 (column letter, row from the top)."""
    return (int(move[1]) - 1) * 3 + "abc".index(move[0])


def test_tictactoe_missed_block_is_the_decisive_mistake() -> None:
    # X centre, O corner (a draw), X corner c1 threatens c1-b2-a3; O plays b1 and X makes the line.
    moves = ["b2", "a1", "c1", "b1", "a3"]
    board, expected = "." * 9, []
    for index, move in enumerate(moves):
        mover = "xo"[index % 2]
        after = board[: cell(move)] + mover + board[cell(move) + 1 :]
        best, played = ttt_value(board), -ttt_value(after)
        expected.append("best" if played == best else "mistake")
        board = after
    assert expected == ["best", "best", "best", "mistake", "best"]
    analysis = analyze(record("tictactoe", moves))
    assert [move.verdict for move in analysis.moves] == expected
    assert analysis.as_json()["decisive_ply"] == 4
    assert analysis.moves[3].best_move == "a3"
    assert analysis.moves[3].value_after == -1.0 and analysis.moves[3].exact


def test_verdicts_of_scores_and_estimates() -> None:
    assert verdict(4.0, 1.0, exact=True, players=2) == "mistake"  # a proven loss of margin, of 3
    assert verdict(4.0, 4.0, exact=True, players=2) == "best"
    assert verdict(4.0, 0.0, exact=True, players=2) == "mistake"  # a win thrown to a draw
    # one player: the score is the outcome
    assert verdict(20.0, 10.0, exact=True, players=1) == "mistake"
    assert verdict(0.5, 0.45, exact=False, players=2) == "estimate"  # an estimate keeps no outcome
    assert verdict(0.5, 0.1, exact=False, players=2) == "inaccuracy"
    assert verdict(0.5, 0.5, exact=False, players=2) == "estimate"
    assert outcome(-3.0, 2) == -1 and outcome(0.0, 2) == 0


def test_kalah_game_is_analysed_with_extra_turns() -> None:
    # Kalah(3,3): South's pit 3 ends in its store (an extra turn), so South moves twice in a row.
    analysis = analyze(record("kalah --pits 3 --seeds 3", ["1", "3", "1"]))
    assert [move.seat for move in analysis.moves] == [0, 0, 1]
    assert all(move.exact for move in analysis.moves)


def test_a_move_the_search_did_not_reach_is_valued_alone() -> None:
    game = games.create("tictactoe")
    player = SearchPlayer(parse_spec("alphabeta:time=inf"))
    state = game.initial_state()
    for move in ["b2", "a1", "c1"]:
        state = game.result(state, game.parse_move(move, state))
    for move in game.actions(state):
        board = "".join(ch for ch in game.format_position(game.result(state, move)) if ch in "xo.")
        assert value_of(game, player, Proofs(), state, move, seat=1) == (-ttt_value(board), True)
    # a search stopped after two nodes values no more than one root move; the rest are valued alone
    analysis = analyze(
        record("tictactoe", ["b2", "a1", "c1", "b1"]), parse_spec("alphabeta:nodes=2")
    )
    assert [move.ply for move in analysis.moves] == [1, 2, 3, 4]
    # Ply 4's moves are each valued alone to the end (b1 a loss, a3 a draw): proven. Two nodes
    # prove nothing of the earlier plies, whose searches reach no end: estimates. The analysis
    # keeps its own proofs: the values above, proven in another store, are not read here.
    assert [move.ply for move in analysis.moves if move.exact] == [4]
    assert [move.verdict for move in analysis.moves] == ["estimate"] * 3 + ["mistake"]
    decisive = analysis.moves[3]
    after_b1, after_a3 = (
        game.result(state, game.parse_move("b1", state)),
        game.result(state, game.parse_move("a3", state)),
    )
    truths = [
        -ttt_value("".join(ch for ch in game.format_position(after) if ch in "xo."))
        for after in (after_b1, after_a3)
    ]
    assert (decisive.verdict, decisive.best_move, decisive.value_after, decisive.best_value) == (
        "mistake",
        "a3",
        *truths,
    )


def test_the_analysis_is_finished_when_the_moves_end_the_game() -> None:
    """A record may say `finished: false` of moves that end the game (written by hand, or cut
    short just as it ended); analyze --json copied it (issue 28). Misère Simple-Nim 3, take 1
    each: the third take empties the pile, so the game is over; after one take it is not."""
    assert analyze(record("simple-nim 3", ["1", "1", "1"])).as_json()["finished"] is True
    assert analyze(record("simple-nim 3", ["1"])).as_json()["finished"] is False


def long_2048_record(seed: int) -> GameRecord:
    """A 2048 game of some five hundred plies: the slide that scores most (down or left first
    among equals), spawns drawn by a seeded generator."""
    game = games.create("2048")
    rng = random.Random(seed)
    state, moves = game.initial_state(), []
    while not game.is_terminal(state):
        if game.to_move(state) == CHANCE:
            move = draw_outcome(game, state, rng)
        else:
            slides = list(game.actions(state))
            move = max(
                slides,
                key=lambda slide: (
                    game.result(state, slide).score,
                    game.format_move(slide) in "downleft",
                ),
            )
        moves.append(game.format_move(move))
        state = game.result(state, move)
    return GameRecord(
        "2048", ("human",), tuple(moves), winner_of(game, state), (game.utility(state, 0),), True
    )


def test_a_long_game_is_analysed_within_the_whole_analysis_budget() -> None:
    """The README promises about a minute for a whole analysis by default; each position had at
    least 0.05 s, so a 12,838-ply 2048 game took hours (issue 28). The positions now share the
    whole budget (GAME_SECONDS, shortened here to 3 s), from the last back; whatever the clock left
    unanalysed is counted (`skipped`), and the last slide is always valued."""
    long_game = long_2048_record(1)
    spawns = sum(move not in ("up", "down", "left", "right") for move in long_game.moves)
    assert len(long_game.moves) - spawns > 200  # the slides: far more than 3 s / 0.05 s
    with mock.patch("nimmax.commands.analyze.GAME_SECONDS", 3.0):
        start = time.perf_counter()
        analysis = analyze(long_game)
        elapsed = time.perf_counter() - start
    assert len(analysis.moves) + analysis.skipped == len(long_game.moves) - spawns and elapsed < 6.0
    assert analysis.moves and analysis.moves[-1].ply == max(
        ply
        for ply, move in enumerate(long_game.moves, start=1)
        if move in ("up", "down", "left", "right")
    )


def test_analyze_proves_every_position_play_proved(tmp_path: Path) -> None:
    """Kalah(5,3) played by timed engines, then analysed at the same time a position: each ply
    whose move play announced proven is proven by `analyze` too (it searches as play does first,
    from the last ply back on one table)."""
    record = tmp_path / "kalah.json"
    args = ["kalah", "--pits", "5", "--seeds", "3", "--time", "0.1", "--record", str(record)]
    played = nimmax_in_process("play", *args, "--first", "alphabeta", "--second", "alphabeta")
    assert played.returncode == 0, played.stderr
    claims = ["proven" in line for line in played.stdout.splitlines() if " plays " in line]
    analysed = nimmax_in_process("analyze", str(record), "--time", "0.1", "--json")
    assert analysed.returncode == 0, analysed.stderr
    exact = [move["exact"] for move in json.loads(analysed.stdout)["moves"]]
    assert len(exact) == len(claims) and any(claims)
    assert [ply for ply, proven in enumerate(claims, 1) if proven and not exact[ply - 1]] == []
