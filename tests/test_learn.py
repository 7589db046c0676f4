"""2048's learned evaluation: tuple indexing against a slow reference, the symmetries, TD updates on
a tiny network, the network file (damaged, cut, foreign, a link), a short training run that
improves play, and `nimmax train` from the command line."""

from __future__ import annotations

import os
import random
import statistics
import sys
from array import array
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimmax.games.ntuple import network as ntuple
from nimmax.games.ntuple import networks, store
from nimmax.games.ntuple.network import Network
from nimmax.games.twenty48 import MOVES, Position, Twenty48
from nimmax.learn import session
from nimmax.learn.train import Trainer
from nimmax.search.engines import search
from tests.cli_helpers import nimmax_in_process, ran_clean

Boards = st.lists(st.integers(0, 15), min_size=16, max_size=16)
Shapes = st.lists(
    st.lists(st.integers(0, 15), min_size=1, max_size=3, unique=True), min_size=1, max_size=3
)


def packed(ranks: list[int]) -> int:
    return sum(rank << (4 * cell) for cell, rank in enumerate(ranks))


def reference_images(ranks: list[int]) -> list[list[int]]:
    """The 8 images of a board by coordinates: (row, column) sent through each map of the square."""
    images = []
    for turned in (False, True):
        for flip_rows in (False, True):
            for flip_columns in (False, True):
                image = [0] * 16
                for cell, rank in enumerate(ranks):
                    row, column = (cell % 4, cell // 4) if turned else (cell // 4, cell % 4)
                    row, column = (
                        (3 - row if flip_rows else row),
                        (3 - column if flip_columns else column),
                    )
                    image[4 * row + column] = rank
                images.append(image)
    return images


def reference_value(network: Network, ranks: list[int]) -> float:
    """The network's value read cell by cell: every image, every tuple, its exponents as base-16
    digits."""
    total = 0.0
    for image in reference_images(ranks):
        for cells, table in zip(network.tuples, network.tables, strict=True):
            total += table[sum(image[cell] << (4 * place) for place, cell in enumerate(cells))]
    return total * network.scale


def random_network(shapes: list[list[int]], seed: int) -> Network:
    rng = random.Random(seed)
    tables = [
        array("f", (rng.uniform(-100, 100) for _ in range(16 ** len(cells)))) for cells in shapes
    ]
    return Network(tuple(tuple(cells) for cells in shapes), tables)


@settings(max_examples=60, deadline=None)
@given(Boards, Shapes, st.integers(0, 1000))
def test_the_network_reads_each_tuple_as_the_slow_reference_does(
    ranks: list[int], shapes: list[list[int]], seed: int
) -> None:
    network = random_network(shapes, seed)
    board = packed(ranks)
    for cells in shapes:
        assert ntuple.index(board, cells) == sum(
            ranks[cell] << (4 * place) for place, cell in enumerate(cells)
        )
    assert network.value(board) == pytest.approx(
        reference_value(network, ranks), rel=1e-9, abs=1e-6
    )


SYMMETRIC = random_network([[0, 1, 2, 3], [1, 2, 5, 6], [5, 6, 9]], seed=5)


@settings(max_examples=40, deadline=None)
@given(Boards)
def test_every_symmetry_of_a_board_has_the_same_value(ranks: list[int]) -> None:
    network = SYMMETRIC
    images = reference_images(ranks)
    assert sorted(map(packed, images)) == sorted(ntuple.symmetries(packed(ranks)))
    values = {round(network.value(packed(image)), 6) for image in images}
    assert len(values) == 1


@settings(max_examples=30, deadline=None)
@given(st.lists(Boards, min_size=1, max_size=8))
def test_the_trainer_slides_and_values_as_the_game_and_the_network_do(
    boards: list[list[int]],
) -> None:
    game = Twenty48()
    trainer = Trainer(ntuple.SMALL[:2], batch=1, seed=1)
    trainer.weights[:] = (
        np.random.default_rng(3).uniform(-50, 50, trainer.weights.size).astype(np.float32)
    )
    packed_boards = np.array([packed(ranks) for ranks in boards], np.uint64)
    after, points = trainer.afterstates(packed_boards)
    network = trainer.network()
    values = trainer.value(packed_boards)
    for column, ranks in enumerate(boards):
        board = packed(ranks)
        for row, move in enumerate(MOVES):
            assert (int(after[row, column]), int(points[row, column])) == game.slide(board, move)
        assert values[column] == pytest.approx(network.value(board), rel=1e-5, abs=1e-3)


def test_updates_to_one_weight_are_averaged_and_others_take_their_own() -> None:
    trainer = Trainer(((0,),), batch=2, seed=1, rate=0.8)  # one 1-cell tuple: 8 features a board
    shared, own = np.full(8, 3), np.array([5, 5, 5, 5, 6, 6, 6, 6])
    trainer.learn(np.stack([shared, shared]), np.array([10.0, 30.0]))
    assert trainer.weights[3] == pytest.approx(0.8 / 8 * 20)  # the mean of 10 and 30, once
    trainer.learn(np.stack([own, shared]), np.array([16.0, 8.0]))
    assert trainer.weights[5] == pytest.approx(0.8 / 8 * 16)
    assert trainer.weights[6] == pytest.approx(0.8 / 8 * 16)
    assert trainer.weights[3] == pytest.approx(0.8 / 8 * 20 + 0.8 / 8 * 8)
    assert np.count_nonzero(trainer.weights) == 3


def test_a_td_step_moves_the_last_afterstate_towards_the_points_and_the_next_value() -> None:
    trainer = Trainer(((0, 1),), batch=1, seed=4, rate=0.5)
    trainer.step()  # the first move: no afterstate behind it to learn
    assert not trainer.weights.any()
    before = trainer.previous.copy()
    boards = trainer.boards.copy()
    after, points = trainer.afterstates(boards)
    legal = after[:, 0] != boards[0]
    # zero weights: the most points wins
    best = max(points[move, 0] for move in range(4) if legal[move])
    trainer.step()
    unique, counts = np.unique(before[0], return_counts=True)
    expected = np.zeros_like(trainer.weights)
    expected[unique] = 0.5 / 8 * best  # delta = points + 0 - 0, averaged per weight
    assert np.allclose(trainer.weights, expected)


# The file.


def small_network() -> Network:
    return random_network([[0, 1], [5, 6, 9]], seed=2)


def test_a_network_comes_back_from_its_file(tmp_path: Path) -> None:
    network = small_network()
    network.games = 1234
    for compact in (False, True):
        path = tmp_path / f"n{compact}.ntuple"
        store.save(path, network, compact=compact)
        back = store.load(path)
        assert back.tuples == network.tuples and back.games == 1234 and store.games_in(path) == 1234
        board = packed([1, 2, 3, 0, 4, 5, 1, 2, 0, 0, 7, 1, 2, 3, 4, 5])
        assert back.value(board) == pytest.approx(
            network.value(board), rel=1e-3, abs=2 * 800 / 32767
        )


@pytest.mark.parametrize(
    "spoil, said",
    [
        (lambda raw: raw[:-10], "cut short"),
        (lambda raw: raw[:40], "cut short"),
        (lambda raw: raw[:-5] + bytes([raw[-5] ^ 1]) + raw[-4:], "checksum"),
        (lambda raw: b"nimmax cache\n2048\n" + raw[18:], "not a nimmax network"),
        (lambda raw: raw[:16] + b"\x09\x00" + raw[18:], "format 9"),
        (lambda raw: raw[: store.HEADER.size] + b"\x07" + raw[store.HEADER.size + 1 :], "damaged"),
        (lambda raw: raw + b"more", "damaged"),
        (lambda raw: b"", "cut short"),
    ],
)
def test_a_damaged_cut_or_foreign_file_is_refused_in_one_line(
    tmp_path: Path, spoil: object, said: str
) -> None:
    path = tmp_path / "n.ntuple"
    store.save(path, small_network())
    path.write_bytes(spoil(path.read_bytes()))  # type: ignore[operator]
    with pytest.raises(store.BadNetwork) as refused:
        store.load(path)
    assert said in str(refused.value) and "\n" not in str(refused.value)


def test_a_header_asking_for_more_than_the_file_holds_is_refused_before_reading(
    tmp_path: Path,
) -> None:
    path = tmp_path / "n.ntuple"
    store.save(path, small_network())
    raw = bytearray(path.read_bytes())
    # payload length
    raw[16 + 2 + 1 + 2 + 8 + 8 : 16 + 2 + 1 + 2 + 8 + 8 + 8] = (1 << 40).to_bytes(8, "little")
    path.write_bytes(bytes(raw))
    with pytest.raises(store.BadNetwork, match="cut short"):
        store.load(path)


def test_a_link_or_a_fifo_is_never_followed(tmp_path: Path) -> None:
    real = tmp_path / "real.ntuple"
    store.save(real, small_network())
    link = tmp_path / "link.ntuple"
    link.symlink_to(real)
    with pytest.raises(store.BadNetwork):
        store.load(link)
    store.save(link, small_network())  # replaces the link itself, leaves its target alone
    assert not link.is_symlink() and real.is_file()
    fifo = tmp_path / "fifo.ntuple"
    os.mkfifo(fifo)
    with pytest.raises(store.BadNetwork, match="not a regular file"):
        store.load(fifo)


# Learning and playing.


def mean_score(network: Network, seeds: range) -> float:
    """The mean score of one-move play by `network` (the slide whose points plus the value of the
    board it leaves is highest), through the game's own rules, on seeded games."""
    game = Twenty48()
    scores = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial_state()
        while not game.is_terminal(state):
            if state.spawns:
                outcomes = game.chance_outcomes(state)
                state = game.result(
                    state, rng.choices([o for _, o in outcomes], [p for p, _ in outcomes])[0]
                )
            else:
                slid = {
                    move: game.slide(state.board, move)
                    for move in MOVES
                    if move in game.actions(state)
                }
                state = game.result(
                    state, max(slid, key=lambda m: slid[m][1] + network.value(slid[m][0]))
                )
        scores.append(state.score)
    return statistics.mean(scores)


def test_a_short_training_run_improves_play_on_fixed_seeds() -> None:
    # a small batch learns most a game
    trainer = Trainer(ntuple.SMALL[:2], batch=16, seed=1, rate=0.5)
    fresh = trainer.network()  # zero weights: the move that scores most at once
    while trainer.games < 200:
        trainer.step()
    assert mean_score(trainer.network(), range(8)) > 1.25 * mean_score(fresh, range(8))


def test_the_shipped_network_plays_and_the_cache_one_wins_once_it_has_trained_as_much(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NIMMAX_CACHE_DIR", str(tmp_path))
    shipped = store.load(networks.SHIPPED)
    assert networks.learned().games == shipped.games  # type: ignore[union-attr]
    few = small_network()
    few.games = shipped.games - 1
    store.save(networks.trained_path(), few)
    assert networks.learned().tuples == shipped.tuples  # type: ignore[union-attr]
    few.games = shipped.games
    store.save(networks.trained_path(), few)
    assert networks.learned().tuples == few.tuples  # type: ignore[union-attr]
    state = Position(packed([1, 2, 3, 4, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1]), 40, 0)
    assert search(Twenty48(), state, "expectimax", depth=2, eval="ntuple").move in MOVES


def test_a_game_reads_its_network_once_whatever_its_searches_ask(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A player's every move asks its game for `eval=ntuple` (a copy of the game valued so): the
    network is read by the game once and shared by each copy, not read again each move."""
    read: list[Network | None] = []
    real = networks.learned

    def counted() -> Network | None:
        read.append(real())
        return read[-1]

    monkeypatch.setattr(networks, "learned", counted)
    game = Twenty48()
    state = Position(packed([1, 2, 3, 4, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1]), 40, 0)
    for evaluation in ("ntuple", "ntuple", "auto", "heuristic", "ntuple"):
        assert search(game, state, "expectimax", depth=1, eval=evaluation).move in MOVES
    assert len(read) == 1 and read[0] is game.network()
    assert game.evaluated("heuristic").network() is None
    assert game.evaluated("ntuple").network() is game.network()


def test_eval_choices_are_checked_against_the_game() -> None:
    from nimmax import games
    from nimmax.search.engines import CannotSearch

    nim = games.create("nim 2 3")
    with pytest.raises(CannotSearch, match="eval=ntuple"):
        search(nim, nim.initial_state(), "expectimax", depth=2, eval="ntuple")
    small = Twenty48(size=3)
    with pytest.raises(ValueError, match="4x4"):
        search(small, Position(1, 0, 0), "expectimax", depth=2, eval="ntuple")
    heuristic = search(Twenty48(), Position(0x21, 0, 0), "expectimax", depth=2, eval="heuristic")
    assert heuristic.value > 100_000  # the heuristic's constant, which the learned value has not


# The command.


def test_train_learns_keeps_and_resumes_in_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NIMMAX_CACHE_DIR", str(tmp_path))
    run = nimmax_in_process("train", "2048", "--games", "100", "--tuples", "small", "--seed", "3")
    ran_clean(run)
    kept = store.load(tmp_path / "2048.ntuple")
    assert kept.games >= 100 and kept.tuples == ntuple.SHIPPED and "kept in" in run.stdout
    again = nimmax_in_process("train", "2048", "--games", "50", "--resume")
    ran_clean(again)
    assert store.load(tmp_path / "2048.ntuple").games >= kept.games + 50


def test_two_jobs_train_one_shared_network_and_resume_it(tmp_path: Path) -> None:
    """Two worker processes update one table of weights in place; the file holds their games and
    what they learned, and a resumed run goes on from it."""
    path = tmp_path / "2048.ntuple"
    first = session.train(path, ntuple.SMALL, False, 40, 120.0, jobs=2, batch=8, seed=5)
    kept = store.load(path)
    assert first.games >= 40 and kept.games == first.total_games == first.games and first.moves > 0
    learned = np.concatenate([np.frombuffer(table, np.float32) for table in kept.tables])
    assert np.count_nonzero(learned) > 100  # the workers' updates reached the kept file
    again = session.train(path, ntuple.SMALL, True, 20, 120.0, jobs=2, batch=8, seed=6)
    resumed = store.load(path)
    assert again.total_games == resumed.games >= kept.games + 20 and resumed.tuples == ntuple.SMALL
    weights = np.concatenate([np.frombuffer(table, np.float32) for table in resumed.tables])
    assert np.count_nonzero(weights) >= np.count_nonzero(learned)  # went on from the kept weights


@pytest.mark.parametrize(
    "args, said",
    [
        (("train", "chess"), "train learns 2048"),
        (("train", "2048", "--resume"), "no network to resume"),
        (("train", "2048", "--games", "0"), "--games"),
        (("train", "2048", "--tuples", "huge"), "--tuples"),
    ],
)
def test_train_refuses_bad_input_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], said: str
) -> None:
    monkeypatch.setenv("NIMMAX_CACHE_DIR", str(tmp_path))
    run = nimmax_in_process(*args)
    assert run.returncode == 2 and said in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) <= 3  # the line, or typer's usage and its line


def test_train_without_numpy_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NIMMAX_CACHE_DIR", str(tmp_path))
    monkeypatch.setitem(sys.modules, "numpy", None)
    run = nimmax_in_process("train", "2048", "--games", "10")
    assert run.returncode == 2 and "pip install 'nimmax[learn]'" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_train_resuming_a_damaged_network_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NIMMAX_CACHE_DIR", str(tmp_path))
    (tmp_path / "2048.ntuple").write_bytes(b"nimmax-ntuple\n\0\0" + b"\1" * 90)
    run = nimmax_in_process("train", "2048", "--resume")
    assert (
        run.returncode == 2
        and "network of format" in run.stderr
        and len(run.stderr.strip().splitlines()) == 1
    )
