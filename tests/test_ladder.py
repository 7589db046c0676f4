"""The ladder: a seeded round robin at a fixed time a move. Perfect players never lose at
3x3 and draw each other (tic-tac-toe is a draw), so the standings are checked against that
truth; the same seed plays the same games; the CLI keeps its contract (JSON, exit codes,
Ctrl-C prints the table so far)."""

from __future__ import annotations

import json
import re
import signal
import time

import pytest

from nimmax import games
from nimmax.commands import ladder
from nimmax.duel import block_games, run
from nimmax.duel.planning import opening
from nimmax.game import BadInput, ordered

from .cli_helpers import nimmax, nimmax_in_process, nimmax_started, read_specs
from .test_signals import finish, running_commands, until

PERFECT = "alphabeta:time=inf"  # an exact search: 3x3 tic-tac-toe is solved in a few milliseconds


def test_players_are_split_at_commas_keeping_each_spec_s_options() -> None:
    assert ladder.split_players("alphabeta,random") == ("alphabeta", "random")
    assert ladder.split_players("alphabeta:depth=2,time=1, random:seed=3,minimax") == (
        "alphabeta:depth=2,time=1",
        "random:seed=3",
        "minimax",
    )
    for bad in ("alphabeta,,random", "depth=2,random", "alphabeta,depth=2", ""):
        with pytest.raises(BadInput):
            ladder.split_players(bad)


def test_the_time_a_move_goes_to_engines_without_a_limit_of_their_own() -> None:
    plan = ladder.plan(
        "tictactoe",
        read_specs("alphabeta", "alphabeta:depth=2", "random", "minimax:nodes=50"),
        0.25,
        2,
        1,
    )
    assert plan.names == ("alphabeta:time=0.25", "alphabeta:depth=2", "random", "minimax:nodes=50")
    assert len(plan.pairings) == 6 and plan.total == 12
    assert ladder.plan("tictactoe", read_specs("alphabeta", "random"), None, 2, 1).names == (
        "alphabeta",
        "random",
    )


def test_perfect_players_draw_each_other_and_never_lose_to_random() -> None:
    event = run(
        ladder.plan(
            "tictactoe",
            read_specs(PERFECT, "minimax:time=inf", "random"),
            None,
            6,
            seed=5,
            openings=0,
        )
    )
    rungs = {rung.name: rung for rung in ladder.ladder(event)}
    perfect, oracle, chance = rungs[PERFECT], rungs["minimax:time=inf"], rungs["random"]
    assert perfect.losses == oracle.losses == 0 and chance.wins == 0
    assert perfect.draws >= 6 and oracle.draws >= 6  # the 6 games between them at least
    assert sum(rung.points for rung in rungs.values()) == event.done == 18
    assert max(rungs.values(), key=lambda rung: rung.elo) is not chance
    assert chance.elo == min(rung.elo for rung in rungs.values()) < 0
    assert abs(sum(rung.elo for rung in rungs.values())) < 0.5  # relative: the mean is 0
    for rung in rungs.values():
        low, high = rung.interval
        assert 0 <= low <= rung.score <= high <= 1 and rung.games == 12
    assert perfect.nodes > 0 and perfect.nodes_per_second == perfect.nodes / perfect.seconds
    assert chance.nodes == 0 and chance.nodes_per_second == 0


def test_the_same_seed_plays_the_same_ladder() -> None:
    specs = read_specs("alphabeta:depth=1", "random", "minimax:depth=1")
    first = ladder.ladder(run(ladder.plan("tictactoe --size 4 --k 3", specs, None, 4, seed=9)))
    again = ladder.ladder(run(ladder.plan("tictactoe --size 4 --k 3", specs, None, 4, seed=9)))
    assert [(r.name, r.wins, r.draws, r.losses, r.nodes) for r in first] == [
        (r.name, r.wins, r.draws, r.losses, r.nodes) for r in again
    ]


def test_openings_come_from_the_seed_and_each_serves_a_colour_swapped_pair() -> None:
    """Games 2j and 2j + 1 of every pairing start from opening j, drawn from the seed alone;
    deterministic players then play as many different games as there are openings."""
    specs = read_specs("alphabeta:depth=2", "alphabeta:depth=1")
    plan = ladder.plan("connect4", specs, None, 8, seed=4, openings=3)
    again = ladder.plan("connect4", specs, None, 8, seed=4, openings=3)
    lines = ladder.opening_lines(plan)
    assert lines == ladder.opening_lines(again) and len(lines) == 4 and len(set(lines)) > 1
    assert all(len(line.split()) == 3 for line in lines)
    assert (
        ladder.opening_lines(ladder.plan("connect4", specs, None, 8, seed=5, openings=3)) != lines
    )
    for index in range(0, 8, 2):
        assert plan.opening(index) == plan.opening(index + 1)
    games = [result for block in plan.blocks() for result in block_games(block)]
    assert [result.first for result in games] == [0, 1] * 4  # the colours swap inside each pair
    played = [(result.winner, result.moves[0].count, result.moves[1].count) for result in games]
    assert played == [
        (result.winner, result.moves[0].count, result.moves[1].count)
        for block in again.blocks()
        for result in block_games(block)
    ]
    assert (
        ladder.opening_lines(ladder.plan("connect4", specs, None, 8, seed=4, openings=0))
        == [""] * 4
    )


def test_an_opening_stops_where_the_game_ends_and_never_leaves_a_win_in_one_unplayed() -> None:
    game = games.create("tictactoe")
    for number in range(30):
        moves = opening(game, 1, number, 9)
        state = game.initial_state()
        for move in moves:
            before = state
            state = game.result(state, move)
            assert not game.is_terminal(before)
            assert list(ordered(game)(before)) and move in ordered(game)(before)
        assert len(moves) == 9 or game.is_terminal(state)


def test_cli_ladder_json_and_table() -> None:
    done = nimmax_in_process(
        "ladder",
        "tictactoe",
        "--players",
        f"{PERFECT},random",
        "--games",
        "4",
        "--seed",
        "3",
        "--openings",
        "0",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["players"] == [PERFECT, "random"] and record["games"] == 4 and record["seed"] == 3
    best, worst = record["standings"]
    assert best["player"] == PERFECT and best["losses"] == 0 and worst["wins"] == 0
    assert best["elo"] == -worst["elo"] > 0 and "mean is 0" in record["rating_method"]
    assert record["crosstable"][PERFECT]["random"]["losses"] == 0
    assert record["opening_plies"] == 0 and record["openings"] == ["", ""]
    shown = nimmax_in_process(
        "ladder", "connect4", "--players", "alphabeta,random", "--games", "2", "--time", "0.02"
    )
    assert shown.returncode == 0, shown.stderr
    assert (
        "alphabeta:time=0.02" in shown.stdout
        and "95% interval" in shown.stdout
        and "nodes/s" in shown.stdout
    )
    assert "played 2 of 2 games" in shown.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["ladder", "tictactoe", "--players", "alphabeta"],
        ["ladder", "tictactoe", "--players", "alphabeta,,random"],
        ["ladder", "tictactoe", "--players", "alphabeta,bogus"],
        ["ladder", "tictactoe", "--time", "inf"],
        ["ladder", "tictactoe", "--games", "0"],
        ["ladder", "tictactoe", "--openings", "-1"],
        ["ladder", "tictactoe", "--openings", "1001"],
        ["ladder", "nosuchgame"],
        ["ladder", "2048", "--players", "alphabeta:depth=1,human"],
    ],
)
def test_cli_ladder_refuses_bad_input_in_one_line(args: list[str]) -> None:
    done = nimmax_in_process(*args)
    assert (
        done.returncode == 2 and done.stderr.startswith("nimmax: ") and done.stderr.count("\n") == 1
    ), done.stderr


def test_ladder_help_shows_examples() -> None:
    done = nimmax("ladder", "--help")
    assert done.returncode == 0 and "Examples" in done.stdout and "--players" in done.stdout


def test_ctrl_c_prints_the_ladder_so_far_and_exits_130() -> None:
    process = nimmax_started(
        "ladder",
        "nim",
        "2",
        "3",
        "5",
        "--players",
        "alphabeta,random",
        "--games",
        "1000000",
        "--seed",
        "1",
    )
    until(lambda: running_commands(process), 20, "command running")
    time.sleep(1)  # games are played
    process.send_signal(signal.SIGINT)
    out, err = finish(process)
    found = re.fullmatch(
        r"nimmax: interrupted after ([0-9]+) games; their results are printed\n", err
    )
    assert process.returncode == 130 and found is not None, err
    assert f"interrupted after {found.group(1)} of 1000000 games" in out and "Elo" in out
