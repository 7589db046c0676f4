"""The Nim family against game theory: the tutorial's facts, nim-sum, Bouton, Grundy values."""

from __future__ import annotations

from collections.abc import Sequence, Set
from math import inf

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nimmax import games
from nimmax.game import BadGameSpec, IllegalMove
from nimmax.games.nim import Nim, Piles, Split, Take
from nimmax.search import Table, search

from .theory import grundy, nim_mover_wins, nim_sum, simple_nim_mover_wins

small_piles = st.lists(st.integers(0, 5), min_size=1, max_size=4)


def mover_wins(words: str) -> bool:
    game = games.create(words)
    return search(game, game.initial_state(), "alphabeta", time=inf).value == 1


def winning_moves(words: str) -> set[str]:
    game = games.create(words)
    result = search(game, game.initial_state(), "alphabeta", every_move=True, time=inf)
    return {game.format_move(move) for move, value in result.moves if value == 1}


def test_simple_nim_tutorial_facts() -> None:
    assert winning_moves("simple-nim 6") == {"1"}
    assert not mover_wins("simple-nim 5")
    # Misère take-1-to-3: the mover loses exactly when counters = 1 (mod 4).
    assert [n for n in range(1, 30) if not mover_wins(f"simple-nim {n}")] == list(range(1, 30, 4))


def test_simple_nim_max_take_grid() -> None:
    """Each --max-take offers exactly 1..T (and no more than the pile) and loses at 1 mod (T+1)."""
    for max_take in range(1, 6):
        for counters in range(0, 14):
            game = games.create(f"simple-nim {counters} --max-take {max_take}")
            moves = list(game.actions(game.initial_state()))
            assert sorted(moves) == list(range(1, min(max_take, counters) + 1)) and len(
                set(moves)
            ) == len(moves)
            if counters:
                assert mover_wins(game.spec) == (counters % (max_take + 1) != 1)
            normal = f"simple-nim {counters} --max-take {max_take} --normal"
            assert mover_wins(normal) == (counters % (max_take + 1) != 0)


def test_misere_nim_235_only_move_is_take_4_from_pile_3() -> None:
    assert winning_moves("nim 2 3 5") == {"3:4"}
    game = games.create("nim 2 3 5")
    after = game.result(game.initial_state(), game.parse_move("3:4", game.initial_state()))
    assert after.piles == (2, 3, 1)


@given(small_piles)
def test_normal_nim_follows_nim_sum(piles: list[int]) -> None:
    assert mover_wins("nim " + " ".join(map(str, piles)) + " --normal") == (nim_sum(piles) != 0)


@given(small_piles)
def test_misere_nim_follows_bouton(piles: list[int]) -> None:
    assert mover_wins("nim " + " ".join(map(str, piles))) == nim_mover_wins(piles, misere=True)


def test_grundy_values_known_sequence() -> None:
    # OEIS A002188 starts 0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0.
    assert [grundy(n) for n in range(21)] == [
        0,
        0,
        0,
        1,
        0,
        2,
        1,
        0,
        2,
        1,
        0,
        2,
        1,
        3,
        2,
        1,
        3,
        2,
        4,
        3,
        0,
    ]


@pytest.mark.parametrize("pile", range(1, 23))
def test_split_nim_single_pile_follows_grundy(pile: int) -> None:
    assert mover_wins(f"split-nim {pile}") == (grundy(pile) != 0)


@given(st.lists(st.integers(1, 11), min_size=1, max_size=3))
def test_split_nim_piles_follow_xor_of_grundy(piles: list[int]) -> None:
    expected = nim_sum(grundy(pile) for pile in piles) != 0
    assert mover_wins("split-nim " + " ".join(map(str, piles))) == expected


@given(st.lists(st.integers(0, 4), min_size=1, max_size=3), st.booleans())
def test_every_engine_agrees_on_nim(piles: list[int], normal: bool) -> None:
    game = games.create("nim " + " ".join(map(str, piles)) + (" --normal" if normal else ""))
    state = game.initial_state()
    oracle = search(game, state, "minimax", every_move=True, time=inf, cache=False)
    for result in (
        search(game, state, "minimax", cache=True, every_move=True, time=inf),
        search(game, state, "negamax", every_move=True, time=inf, cache=False),
        search(game, state, "negamax", cache=True, every_move=True, time=inf),
        search(game, state, "alphabeta", every_move=True, time=inf),
        search(game, state, "alphabeta", every_move=True, table=Table(0), time=inf),
    ):
        assert result.value == oracle.value
        assert dict(result.moves) == dict(oracle.moves)
    if oracle.move is not None:
        assert oracle.move in game.actions(state)


def test_pruning_visits_fewer_nodes_than_minimax() -> None:
    for words in ("nim 2 3 4", "simple-nim 14", "split-nim 12", "nim 1 2 3 --normal"):
        game = games.create(words)
        state = game.initial_state()
        plain, pruned = (
            search(game, state, "minimax", time=inf, cache=False, book=False),
            search(game, state, "alphabeta", time=inf, book=False),
        )
        assert plain.value == pruned.value
        assert pruned.nodes < plain.nodes, words


def test_deep_simple_nim_does_not_overflow_the_stack() -> None:
    game = games.create("simple-nim 5000")
    result = search(game, game.initial_state(), "alphabeta", time=inf)
    assert result.value == 1 and result.move == 3  # 5000 = 3 (mod 4): leave 4997 = 1 (mod 4)


def test_move_notation_and_parsing() -> None:
    nim = games.create("nim 2 3 5")
    start = nim.initial_state()
    assert nim.parse_move("3:4", start) == Take(2, 4) == nim.parse_move(" 3 4 ", start)
    assert nim.format_move(Take(2, 4)) == "3:4"
    for bad in ("4:1", "1:3", "0:1", "x", "3:0", ""):
        with pytest.raises(IllegalMove):
            nim.parse_move(bad, start)
    with pytest.raises(IllegalMove):
        nim.result(start, Take(0, 3))
    split = games.create("split-nim 7 3")
    start = split.initial_state()
    assert split.parse_move("1:4+3", start) == Split(0, 4, 3) == split.parse_move("1 3", start)
    assert split.format_move(Split(0, 5, 2)) == "1:5+2"
    with pytest.raises(IllegalMove):
        split.parse_move("1:6+2", start)  # 6 + 2 is not 7
    with pytest.raises(IllegalMove):
        split.parse_move("1:4+4", games.create("split-nim 8").initial_state())


def test_split_nim_rules() -> None:
    game = games.create("split-nim 8 2")
    moves = [game.format_move(move) for move in game.actions(game.initial_state())]
    assert moves == ["1:7+1", "1:6+2", "1:5+3"]  # never 4+4; a pile of 2 cannot split
    assert game.is_terminal(Piles((1, 2, 2, 1), 0))


def test_keys_fold_pile_order_and_positions_print() -> None:
    game = games.create("nim 5 3 2")
    assert game.key(Piles((5, 3, 2), 0)) == game.key(Piles((2, 5, 3), 1))
    assert game.format_position(game.initial_state()) == "5,3,2"


@pytest.mark.parametrize(
    "words",
    [
        "nim",
        "nim -1 2",
        "nim 2 x",
        "nim 2 --bogus",
        "simple-nim 3 4",
        "simple-nim 5 --max-take 0",
        "simple-nim 5 --max-take",
        "nim 2 --normal=yes",
        "chess",
    ],
)
def test_bad_game_words_are_refused(words: str) -> None:
    if words == "nim":
        game = games.create(words)
        assert isinstance(game, Nim) and game.piles == (3, 4, 5)  # a default game, not an error
        return
    with pytest.raises(BadGameSpec):
        games.create(words)


# --- Lazy moves: the sequences behave as the lists they stand for -----------------------


def every_take(piles: list[int]) -> set[Take]:
    """Every legal take, listed from the rules alone."""
    return {Take(pile, amount) for pile, size in enumerate(piles) for amount in range(1, size + 1)}


def every_split(piles: list[int]) -> set[Split]:
    """Every legal split, listed from the rules alone."""
    return {
        Split(pile, size - smaller, smaller)
        for pile, size in enumerate(piles)
        for smaller in range(1, size)
        if smaller < size - smaller
    }


def check_sequence(moves: Sequence[object], legal: Set[object], illegal: Sequence[object]) -> None:
    """`moves` is a sequence of exactly `legal`, each once, with len, indexing, slices and `in`
    agreeing."""
    listed = list(moves)
    assert len(listed) == len(moves) == len(legal) and set(listed) == legal
    assert [moves[index] for index in range(len(moves))] == listed
    assert [moves[index] for index in range(-len(moves), 0)] == listed
    assert list(moves[1:4]) == listed[1:4] and list(moves[::-2]) == listed[::-2]
    assert all(move in moves for move in legal) and not any(move in moves for move in illegal)
    with pytest.raises(IndexError):
        moves[len(moves)]


@given(st.lists(st.integers(0, 6), min_size=1, max_size=4), st.booleans())
def test_nim_moves_are_every_take_once_winning_take_first(piles: list[int], normal: bool) -> None:
    game = games.create("nim " + " ".join(map(str, piles)) + (" --normal" if normal else ""))
    state = game.initial_state()
    moves = game.actions(state)
    illegal = [
        Take(len(piles), 1),
        Take(0, piles[0] + 1),
        Take(0, 0),
        Take(-1, 1),
        (0,),
        (0, 1, 2),
        "1:1",
        None,
    ]
    check_sequence(moves, every_take(piles), illegal)
    if moves and nim_mover_wins(piles, misere=not normal):
        after = game.result(state, moves[0])
        assert not nim_mover_wins(after.piles, misere=not normal), "the first move wins"


@given(st.integers(0, 30), st.integers(1, 6), st.booleans())
def test_simple_nim_moves_winning_take_first(counters: int, max_take: int, normal: bool) -> None:
    game = games.create(
        f"simple-nim {counters} --max-take {max_take}" + (" --normal" if normal else "")
    )
    state = game.initial_state()
    moves = game.actions(state)
    check_sequence(
        moves, set(range(1, min(max_take, counters) + 1)), [0, -1, max_take + 1, counters + 1, "1"]
    )
    if simple_nim_mover_wins(counters, max_take, misere=not normal) and counters:
        after = game.result(state, moves[0])
        assert not simple_nim_mover_wins(after.counters, max_take, misere=not normal)


@given(st.lists(st.integers(0, 12), min_size=1, max_size=3))
def test_split_nim_moves_are_every_split_once(piles: list[int]) -> None:
    game = games.create("split-nim " + " ".join(map(str, piles)))
    moves = game.actions(game.initial_state())
    illegal = [
        Split(0, piles[0], 0),
        Split(0, 1, 1),
        Split(len(piles), 2, 1),
        (0, 2),
        "1:2+1",
        None,
    ]
    check_sequence(moves, every_split(piles), illegal)


@pytest.mark.parametrize(
    "move",
    [Take(0, 0), Take(3, 1), Take(0, 3), (0,), (0, 1, 2), "1:1", None, Take(0, 1.5)],  # type: ignore[arg-type]
)
def test_result_refuses_what_actions_does_not_offer(move: object) -> None:
    game = games.create("nim 2 3 5")
    assert move not in game.actions(game.initial_state())
    with pytest.raises(IllegalMove):
        game.result(game.initial_state(), move)


def test_huge_piles_cost_constant_time_to_start() -> None:
    """A pile of 10^9 counters: its moves are counted, tested and begun without being listed."""
    game = games.create("nim 1000000000 999999999 7 --normal")
    state = game.initial_state()
    moves = game.actions(state)
    assert len(moves) == 2 * 10**9 + 6
    first = next(iter(moves))
    assert first == Take(0, 1 + 7)  # to nim-sum 0: 999999999 ^ 7 = 999999992 left in pile 1
    assert Take(1, 999_999_999) in moves and Take(1, 10**9) not in moves and Take(3, 1) not in moves
    assert moves[1] == Take(0, 10**9) and moves[-1] == Take(2, 1)
    assert game.result(state, first).piles == (999_999_992, 999_999_999, 7)
    simple = games.create("simple-nim 1000000000 --max-take 1000000000")
    assert next(iter(simple.actions(simple.initial_state()))) == 10**9 - 1  # leave the last counter
    split = games.create("split-nim 1000000")
    assert len(split.actions(split.initial_state())) == 499_999 and Split(
        0, 999_999, 1
    ) in split.actions(split.initial_state())
