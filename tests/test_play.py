"""`nimmax play` and `nimmax replay`: scripted games checked against game theory, not against the
code.

Winners come from Nim theory (Bouton; misère: who takes the last counter loses; Grundy values by
mex, in tests/theory.py), so a game the engine wins must be one the theory says it can.
"""

from __future__ import annotations

import io
import json
import random
import shlex
import subprocess
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from nimmax import games
from nimmax.game import CHANCE, AnyGame, BadInput, seed_of
from nimmax.games import GAMES
from nimmax.match import GameRecord, Match, Ply
from nimmax.players import RandomPlayer
from nimmax.ui.play import PlaySession, play
from nimmax.ui.render import render

from .cli_helpers import nimmax, nimmax_in_process, read_specs
from .theory import nim_mover_wins, simple_nim_mover_wins, split_nim_mover_wins
from .toys import TreeGame

# ---------------------------------------------------------------- independent truth


def last_mover_wins(name: str, words: str) -> bool:
    """Who wins by making the last move: normal play and Split-Nim yes, misère no."""
    return name == "split-nim" or "--normal" in words


# ---------------------------------------------------------------- helpers


class Script:
    """A move reader typing the given answers, then the end of input."""

    def __init__(self, answers: Sequence[str]) -> None:
        self.answers: Iterator[str] = iter(answers)
        self.prompts = 0

    def __call__(self, game: AnyGame, state: Any, prompt: str) -> str:
        self.prompts += 1
        try:
            return next(self.answers)
        except StopIteration:
            raise EOFError from None


def console() -> Console:
    return Console(file=io.StringIO(), width=100, color_system=None)


def output(screen: Console) -> str:
    file = screen.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def plies_of(match: Match) -> list[Ply]:
    """The plies of a match in which no one takes a move back."""
    plies = []
    for event in match.run():
        assert isinstance(event, Ply)
        plies.append(event)
    return plies


def scripted_moves(game: AnyGame, seed: int) -> tuple[list[str], list[str]]:
    """A random legal game made in-process: the moves people type, and every move (chance too)."""
    people = [RandomPlayer(seed + seat) for seat in range(game.players)]
    match = Match(game, people, random.Random(seed_of(game) if seed_of(game) is not None else seed))
    plies = plies_of(match)
    typed = [game.format_move(ply.move) for ply in plies if ply.seat != CHANCE]
    return typed, [game.format_move(ply.move) for ply in plies]


# ---------------------------------------------------------------- every game, piped


@pytest.mark.parametrize("info", GAMES, ids=[info.name for info in GAMES])
def test_every_game_plays_to_the_end_from_piped_input(info: games.GameInfo, tmp_path: Path) -> None:
    game = games.create(info.example)
    # `play --seed` seeds chance unless the game words did; words with --seed reach play's own
    # option.
    seed = own if (own := seed_of(game)) is not None else 11
    typed, every_move = scripted_moves(game, seed)
    record_file = tmp_path / "game.json"
    seats = ["--first", "human"] + ([] if game.players == 1 else ["--second", "human"])
    run = nimmax(
        "play",
        *shlex.split(info.example),
        *seats,
        "--seed",
        str(seed),
        "--record",
        str(record_file),
        stdin="".join(move + "\n" for move in typed),
    )
    assert run.returncode == 0, run.stderr
    text = record_file.read_text()
    record = json.loads(text)
    assert games.create(record["game"]).name == game.name and record["moves"] == every_move
    assert record["result"]["finished"] is True
    assert GameRecord.from_json(text).winner == record["result"]["winner"]  # and every move replays
    if info.name in ("simple-nim", "nim", "split-nim"):
        last_mover = (len(every_move) - 1) % 2
        expected = last_mover if last_mover_wins(info.name, info.example) else 1 - last_mover
        assert record["result"]["winner"] == expected
        assert f"{game.player_names[expected]} wins" in run.stdout


def test_misere_nim_the_one_who_takes_the_last_counter_loses(tmp_path: Path) -> None:
    record_file = tmp_path / "game.json"
    run = nimmax_in_process(
        "play",
        "simple-nim",
        "5",
        "--first",
        "human",
        "--second",
        "human",
        "--record",
        str(record_file),
        stdin="1\n1\n1\n1\n1\n",
    )  # First takes the fifth, last counter
    assert run.returncode == 0, run.stderr
    record = json.loads(record_file.read_text())
    assert record["players"] == ["human", "human"] and record["moves"] == ["1"] * 5
    assert record["result"] == {"winner": 1, "utilities": [-1.0, 1.0], "finished": True}
    assert "Second wins" in run.stdout


def test_engines_play_each_other_reproducibly(tmp_path: Path) -> None:
    records = []
    runners: list[Callable[..., subprocess.CompletedProcess[str]]] = [nimmax, nimmax_in_process]
    for attempt, runner in enumerate(runners):  # once in a subprocess, once in this process
        record_file = tmp_path / f"game{attempt}.json"
        run = runner(
            "play",
            "nim",
            "3",
            "4",
            "5",
            "--first",
            "alphabeta",
            "--second",
            "random:seed=3",
            "--record",
            str(record_file),
        )
        assert run.returncode == 0, run.stderr
        records.append(json.loads(record_file.read_text()))
    assert records[0] == records[1]
    assert nim_mover_wins([3, 4, 5], misere=True)
    assert records[0]["result"]["winner"] == 0 and records[0]["players"] == [
        "alphabeta",
        "random:seed=3",
    ]
    assert "First (alphabeta) wins" in run.stdout and "nodes" in run.stdout


def test_an_illegal_piped_line_is_refused_and_the_next_is_read(tmp_path: Path) -> None:
    record_file = tmp_path / "game.json"
    run = nimmax_in_process(
        "play", "nim", "2", "3", "5", "--record", str(record_file), stdin="9:9\nfoo\n3:4\n"
    )
    assert run.returncode == 0, run.stderr
    assert (
        "there is no pile 9; piles are 2,3,5" in run.stdout and "legal: 3:4, 3:5" in run.stdout
    )  # the winning take first
    record = json.loads(record_file.read_text())
    # then the engine's reply, then EOF
    assert record["moves"][0] == "3:4" and len(record["moves"]) == 2
    assert record["result"]["finished"] is False and record["result"]["winner"] is None
    assert "unfinished" in run.stdout


def test_quit_ends_politely() -> None:
    run = nimmax_in_process("play", "nim", "2", "3", "5", stdin="3:4\nquit\n")
    assert run.returncode == 0 and run.stderr == ""
    assert "First (you) plays 3:4" in run.stdout and "Second (alphabeta) plays" in run.stdout


@pytest.mark.parametrize(
    ("words", "k"),
    [("tictactoe --size 15", 5), ("tictactoe --size 15 --k 5", 5), ("tictactoe --size 4", 4)],
)
def test_the_title_names_the_k_the_words_leave_to_a_default(words: str, k: int) -> None:
    run = nimmax_in_process("play", *shlex.split(words), stdin="quit\n")
    assert run.returncode == 0, run.stderr
    assert f"{k} in a row" in run.stdout.splitlines()[0]


def test_one_of_anything_reads_in_the_singular() -> None:
    """From 40 counters, taking 1 to 13: why's table shows 12 moves of the 13, and one move was
    made."""
    args = (
        "simple-nim",
        "40",
        "--max-take",
        "13",
        "--first",
        "alphabeta:depth=2",
        "--second",
        "human",
    )
    run = nimmax_in_process("play", *args, stdin="why\nquit\n")
    assert run.returncode == 0, run.stderr
    assert (
        "1 more move not shown" in run.stdout
        and "unfinished after 1 move\n" in run.stdout.replace(" │", "")
    )
    assert "1 moves" not in run.stdout


@pytest.mark.parametrize(
    ("words", "rules", "notation"),
    [
        (
            "simple-nim 12 --max-take 5",
            "takes 1 to 5 counters. Whoever takes the last counter loses",
            "number",
        ),
        ("nim 2 3 5 --normal", "Whoever takes the last counter wins", "3:4 takes 4 from pile 3"),
        ("split-nim 7", "two unequal piles", "1:4+2"),
        ("tictactoe --size 15 --k 5", "15x15 board. 5 in a row", "column letter and row number"),
        (
            "tictactoe --size 7 --k 4 --gravity",
            "dropping a stone into a column of the 7x7 board",
            "a column",
        ),
        ("connect4", "6x7 board; it falls to the lowest empty cell. 4 in a row", "a column"),
        ("2048 --goal 512", "Make a 512 tile", "up, down, left, right"),
        ("kalah --pits 3", "A last seed in your store: move again", "1 to 3"),
        ("plates", "A picks a plate", "20+50"),
        ("examples/subtraction.py:Subtraction", "whoever cannot move loses", "as the game writes"),
    ],
)
def test_help_gives_the_rules_and_the_notation_of_the_game_as_set_up(
    words: str, rules: str, notation: str
) -> None:
    game = games.create(words)
    seats = ["--first", "human"] + (["--second", "human"] if game.players == 2 else [])
    run = nimmax_in_process("play", *shlex.split(words), *seats, stdin="help\n")
    assert run.returncode == 0, run.stderr
    text = " ".join(run.stdout.split())  # lines joined where the console wrapped them
    assert "Rules: " in text and "Notation: " in text, run.stdout
    assert rules in text.split("Rules: ")[1].split("Notation: ")[0]
    assert notation in text.split("Notation: ")[1].split("Moves look like")[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nim", "2", "--first", "robot"], "unknown player 'robot'"),
        (
            ["nim", "2", "--second", "alphabeta:depth=x"],
            "depth must be a whole number from 1 to 1000000",
        ),
        (["chess"], "unknown game 'chess'"),
        (["nim", "2", "--record", "/no/such/dir/game.json"], "No such file or directory"),
        (["nim", "2", "--record", "."], "it is a directory"),
    ],
)
def test_bad_play_arguments_are_one_line_errors(args: list[str], message: str) -> None:
    run = nimmax_in_process("play", *args)
    assert run.returncode == 2
    assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1


# ---------------------------------------------------------------- replay


def test_replay_steps_through_a_record(tmp_path: Path) -> None:
    record_file = tmp_path / "game.json"
    nimmax_in_process(
        "play",
        "nim",
        "2",
        "3",
        "5",
        "--first",
        "alphabeta",
        "--second",
        "random:seed=1",
        "--record",
        str(record_file),
    )
    moves = json.loads(record_file.read_text())["moves"]
    run = nimmax_in_process("replay", str(record_file), "--delay", "0")
    assert run.returncode == 0, run.stderr
    for number, move in enumerate(moves, start=1):
        assert (
            f"{number}. {'First' if number % 2 else 'Second'}" in run.stdout
            and f"plays {move}" in run.stdout
        )
    assert "First (alphabeta) wins" in run.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not a nimmax game record"),
        (
            '{"game": "nim 2 3 5", "players": ["human", "random"], "moves": ["3:9"], '
            '"result": {"winner": null, "utilities": []}}',
            "ply 1 ('3:9') cannot be replayed",
        ),
        (
            '{"game": "chess", "players": [], "moves": [], "result": {"winner": null, '
            '"utilities": []}}',
            "unknown game",
        ),
        ("[1, 2]", "not a nimmax game record"),
        (
            '{"game": "nim 2", "players": [], "moves": [], "result": {"winner": "x", "utilities": '
            "[]}}",
            "not a nimmax game record",
        ),
    ],
)
def test_a_corrupt_record_is_a_clear_error(tmp_path: Path, content: str, message: str) -> None:
    record_file = tmp_path / "game.json"
    record_file.write_text(content)
    run = nimmax_in_process("replay", str(record_file))
    assert run.returncode == 2
    assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_a_missing_or_binary_record_is_a_clear_error(tmp_path: Path) -> None:
    run = nimmax_in_process("replay", str(tmp_path / "nothing.json"))
    assert run.returncode == 2 and "cannot read" in run.stderr and "Traceback" not in run.stderr
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")
    run = nimmax_in_process("replay", str(tmp_path / "binary.json"))
    assert (
        run.returncode == 2 and "is not UTF-8 text" in run.stderr and "Traceback" not in run.stderr
    )


# ---------------------------------------------------------------- in-process sessions


winning_positions = st.one_of(
    st.tuples(st.just("nim"), st.lists(st.integers(1, 4), min_size=1, max_size=3), st.booleans()),
    st.tuples(
        st.just("simple-nim"), st.lists(st.integers(1, 13), min_size=1, max_size=1), st.booleans()
    ),
    st.tuples(
        st.just("split-nim"), st.lists(st.integers(1, 9), min_size=1, max_size=2), st.just(False)
    ),
)
noise = st.sampled_from(["", "9:9", "0", "x", "1:1+1", "hint", "moves", "help", "undo", "-1", "99"])


@given(
    position=winning_positions,
    engine=st.sampled_from(["alphabeta", "negamax:cache=on"]),
    data=st.data(),
)
def test_a_perfect_engine_never_loses_a_won_game_whatever_the_human_types(
    position: tuple[str, list[int], bool], engine: str, data: st.DataObject
) -> None:
    name, piles, normal = position
    words = " ".join([name, *map(str, piles)] + (["--normal"] if normal else []))
    game = games.create(words)
    if name == "nim":
        first_wins = nim_mover_wins(piles, misere=not normal)
    elif name == "simple-nim":
        first_wins = simple_nim_mover_wins(piles[0], 3, misere=not normal)
    else:
        first_wins = split_nim_mover_wins(piles)
    engine_seat = 0 if first_wins else 1
    answers = 0

    def human(game: AnyGame, state: Any, prompt: str) -> str:
        nonlocal answers
        answers += 1
        legal = [game.format_move(action) for action in game.actions(state)]
        if answers > 30:  # enough noise: from here on only moves, so the game ends
            return str(data.draw(st.sampled_from(legal)))
        return str(data.draw(st.one_of(st.sampled_from(legal), noise)))

    specs = read_specs(engine, "human") if engine_seat == 0 else read_specs("human", engine)
    record = play(game, specs, console(), reader=human)
    if game.is_terminal(game.initial_state()):
        assert record.moves == ()
        return
    assert record.finished and record.winner == engine_seat, (words, record)


def test_hint_names_the_winning_move_and_undo_goes_back_to_the_human_turn() -> None:
    game = games.create("nim 2 3 5")
    screen = console()
    script = Script(["hint", "1:1", "undo", "undo", "3:4"])
    record = play(game, read_specs("human", "alphabeta"), screen, reader=script)
    text = output(screen)
    assert "hint: 3:4" in text  # 2^3^5 = 4: only taking 4 from the 5 leaves a zero xor
    assert "took back 1:1, " in text and "nothing to take back yet" in text
    assert record.moves[0] == "3:4" and not record.finished
    assert script.prompts == 6  # five answers and the end of input


def test_undo_between_two_people_takes_back_one_move() -> None:
    screen = console()
    record = play(
        games.create("nim 2 3 5"),
        read_specs("human", "human"),
        screen,
        reader=Script(["3:4", "undo", "1:1", "3:5"]),
    )
    assert "took back 3:4" in output(screen)
    assert record.moves == ("1:1", "3:5") and record.players == ("human", "human")


def test_record_is_written_when_the_game_is_interrupted(tmp_path: Path) -> None:
    def interrupt_on_second_turn(game: AnyGame, state: Any, prompt: str) -> str:
        if state.piles != (2, 3, 5):
            raise KeyboardInterrupt
        return "3:4"

    record_file = tmp_path / "game.json"
    with pytest.raises(KeyboardInterrupt):
        play(
            games.create("nim 2 3 5"),
            read_specs("human", "alphabeta"),
            console(),
            record=record_file,
            reader=interrupt_on_second_turn,
        )
    record = json.loads(record_file.read_text())
    assert (
        record["moves"][0] == "3:4"
        and len(record["moves"]) == 2
        and record["result"]["finished"] is False
    )


# Seats that do not alternate: seat 0 moves, chance draws, seat 1 moves twice in a row, seat 0
# again.
EXTRA_TURNS = (
    0,
    [
        ("chance", [(0.5, (1, [(1, [(0, [1, -1])])])), (0.5, (1, [(1, [(0, [0, 1]), 1])]))]),
        (1, [(0, [1, 0]), -1]),
    ],
)


def seats_along(game: TreeGame, moves: Sequence[int]) -> list[int]:
    """The seat to move at each step of a path, read from the tree itself."""
    state: tuple[int, ...] = ()
    seats = []
    for move in moves:
        node = game.node(state)
        seats.append(CHANCE if node[0] == "chance" else node[0])
        state = (*state, move)
    return seats


@pytest.mark.parametrize("seed", range(6))
def test_the_loop_reads_the_seat_from_the_state_with_extra_turns_and_chance(seed: int) -> None:
    game = TreeGame(EXTRA_TURNS)
    match = Match(game, [RandomPlayer(seed), RandomPlayer(seed + 1)], random.Random(seed))
    plies = plies_of(match)
    assert [ply.seat for ply in plies] == seats_along(game, [ply.move for ply in plies])
    assert game.is_terminal(plies[-1].after)


def test_undo_with_extra_turns_and_chance_returns_to_the_human_turn() -> None:
    game = TreeGame(EXTRA_TURNS)
    screen = console()
    session = PlaySession(
        game, read_specs("human", "expectimax"), screen, Script(["0", "undo", "1"]), seed=5
    )
    record = session.play()
    # After "0" came a chance draw and two engine moves; undo took all of them back.
    assert "took back 0, " in output(screen)
    assert record.moves[0] == "1" and record.finished


def test_a_one_player_game_with_chance_is_played_by_its_one_seat() -> None:
    tree = (0, [("chance", [(0.5, (0, [3, 1])), (0.5, 0)]), 1])
    game = TreeGame(tree, players=1)
    for seed in range(4):
        screen = console()
        record = play(game, read_specs("expectimax"), screen, seed=seed)
        assert record.finished and record.moves[0] == "0"  # 0.5 * 3 + 0.5 * 0 beats a sure 1
        assert "Game over" in output(screen)


def test_seed_makes_chance_reproducible() -> None:
    tree = (0, [("chance", [(0.25, index) for index in range(4)])])
    draws = {
        tuple(play(TreeGame(tree, players=1), read_specs("random"), console(), seed=seed).moves)
        for seed in range(12)
    }
    assert len(draws) > 1  # different seeds, different draws
    again = [
        play(TreeGame(tree, players=1), read_specs("random"), console(), seed=3).moves
        for _ in range(3)
    ]
    assert again[0] == again[1] == again[2]


# ---------------------------------------------------------------- the Nim board


def board_rows(renderable: Any) -> list[str]:
    screen = Console(width=100, color_system=None, record=True, file=io.StringIO())
    screen.print(renderable)
    return [line for line in screen.export_text().splitlines() if "pile" in line]


@pytest.mark.parametrize(
    ("words", "move", "counts"),
    [
        ("nim 2 3 5", "3:4", [2, 3, 1]),
        ("simple-nim 7", "3", [4]),
        ("split-nim 7 4", "1:4+3", [4, 3, 4]),
    ],
)
def test_the_nim_board_shows_each_pile_as_a_row_of_counters(
    words: str, move: str, counts: list[int]
) -> None:
    game = games.create(words)
    state = game.initial_state()
    action = game.parse_move(move, state)
    rows = board_rows(render(game, game.result(state, action), action))
    assert [row.count("●") for row in rows] == counts
    assert [f"pile {number}" in row for number, row in enumerate(rows, start=1)] == [True] * len(
        counts
    )
    marked = [row for row in rows if "←" in row]
    if game.name == "split-nim":
        assert len(marked) == 2
    else:
        taken = int(move.split(":")[-1])
        assert len(marked) == 1 and marked[0].count("○") == taken and f"took {taken}" in marked[0]


def test_a_huge_pile_is_drawn_cut_short_with_its_count() -> None:
    game = games.create("simple-nim 5000")
    (row,) = board_rows(render(game, game.initial_state()))
    assert row.count("●") < 100 and "5000" in row and "…" in row


def test_a_long_pile_and_its_mark_fit_80_columns() -> None:
    game = games.create("simple-nim 40 --max-take 13")
    after = game.result(game.initial_state(), 11)
    screen = Console(width=80, color_system=None, record=True, file=io.StringIO())
    screen.print(render(game, after, 11))
    (row,) = [line for line in screen.export_text().splitlines() if "●" in line]
    assert "pile 1 " in row and "29  ← took 11" in row


def test_a_board_of_thousands_of_piles_shows_those_near_the_last_move() -> None:
    """Nim of 5,000 piles: each board is a few lines, drawn at once, the pile just taken from among
    them."""
    piles = [(index * 7919) % 20 + 1 for index in range(5000)]  # every pile from 1 to 20 counters
    run = nimmax_in_process(
        "play",
        "nim",
        *map(str, piles),
        "--first",
        "human",
        "--second",
        "human",
        stdin="2500:1\n4999:1\nquit\n",
    )
    assert run.returncode == 0, run.stderr
    boards = run.stdout.split("╭")[1:-1]  # the banner last
    assert len(boards) == 3 and all(len(board.splitlines()) <= 30 for board in boards)
    took = {2500: boards[1], 4999: boards[2]}
    for pile, board in took.items():
        (row,) = [line for line in board.splitlines() if f"pile {pile} " in line]
        assert "took 1" in row and row.count("●") == piles[pile - 1] - 1
        assert f"pile {pile - 2} " in board and f"pile {pile + 1} " in board  # its neighbours
    assert "5,000 piles, 5,000 not empty" in boards[0] and len(run.stdout.splitlines()[0]) < 120


def test_a_one_player_game_takes_only_first(monkeypatch: pytest.MonkeyPatch) -> None:
    solitaire = TreeGame((0, [("chance", [(0.5, 2), (0.5, -1)]), 1]), players=1)
    monkeypatch.setattr(games, "create", lambda words: solitaire)
    run = nimmax_in_process("play", "solitaire", "--second", "random")
    assert run.returncode == 2
    assert "one-player game: give only --first" in run.stderr
    run = nimmax_in_process("play", "solitaire", "--first", "expectimax", "--seed", "1")
    assert run.returncode == 0
    shown = run.stdout
    assert "First (expectimax) plays 1" in shown  # a sure 1 beats 0.5 * 2 + 0.5 * -1
    assert "Game over: First (expectimax) wins" in shown


def test_an_engine_that_cannot_value_chance_is_refused_before_the_game_starts() -> None:
    game = TreeGame(EXTRA_TURNS)
    with pytest.raises(
        BadInput, match="alphabeta cannot value the chance nodes of tree; use expectimax"
    ):
        PlaySession(game, read_specs("human", "alphabeta"), console(), Script([]))
