"""`nimmax tree`: the traced tree counts what the engines count, and pruning never changes a value."""

from __future__ import annotations

from functools import cache
from math import inf
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nimmax import games
from nimmax.game import AnyGame, BadInput
from nimmax.search import Table, search
from nimmax.tree import AT_LEAST, AT_MOST, EXACT_VALUE, PRUNED, SEARCHED, Node, TreeTooBig, explore, trace, tree_size

from .cli_helpers import nimmax
from .theory import simple_nim_tree_size
from .toys import TreeGame

GAMES = [
    "simple-nim 6",
    "simple-nim 7",
    "simple-nim 8",
    "simple-nim 7 --normal",
    "plates",
    "plates 3,1,2 4,4,9,1 7,7",
    "nim 2 2",
    "nim 1 2 3",
    "nim 2 3 --normal",
    "split-nim 9",
    "split-nim 6 4",
]


def searched(root: Node) -> int:
    return sum(node.status == SEARCHED for node in root.walk())


def truth_for(game: AnyGame, seat: int) -> Any:
    """An independent solver: the exact payoff for `seat` of every position, by plain recursion."""

    @cache
    def value(state: Any) -> float:
        if game.is_terminal(state):
            return game.utility(state, seat)
        values = [value(game.result(state, move)) for move in game.actions(state)]
        return max(values) if game.to_move(state) == seat else min(values)

    return value


def assert_values_hold(game: AnyGame, root: Node) -> None:
    """Exact values are the true minimax values for Max; bounds hold; pruned nodes carry none."""
    truth = truth_for(game, game.to_move(root.state))
    assert root.bound == EXACT_VALUE and root.value == truth(root.state)
    for node in root.walk():
        if node.status != SEARCHED:
            assert node.value is None and not node.children
            continue
        true_value = truth(node.state)
        if node.bound == EXACT_VALUE:
            assert node.value == true_value
        elif node.bound == AT_LEAST:
            assert node.value is not None and true_value >= node.value
        else:
            assert node.bound == AT_MOST and node.value is not None and true_value <= node.value


@pytest.mark.parametrize("words", GAMES)
def test_minimax_tree_has_every_node_the_engine_visits(words: str) -> None:
    game = games.create(words)
    state = game.initial_state()
    root, visited = trace(game, state, "minimax")
    engine = search(game, state, "minimax", every_move=True, time=inf, cache=False, book=False)
    whole = tree_size(game, state)
    assert whole is not None and visited == searched(root) == engine.nodes == whole.nodes
    assert all(node.status == SEARCHED and node.bound == EXACT_VALUE for node in root.walk())
    assert_values_hold(game, root)


@pytest.mark.parametrize("every_move", [False, True])
@pytest.mark.parametrize("words", GAMES)
def test_alphabeta_tree_visits_what_the_engine_visits(words: str, every_move: bool) -> None:
    game = games.create(words)
    state = game.initial_state()
    root, visited = trace(game, state, "alphabeta", every_move=every_move)
    engine = search(game, state, "alphabeta", table=Table(0), every_move=every_move, time=inf, book=False)
    assert visited == searched(root) == engine.nodes
    assert root.value == engine.value
    assert_values_hold(game, root)


def test_alphabeta_prunes_but_the_root_searches_every_move() -> None:
    game = games.create("nim 2 2 1")
    root, _ = trace(game, game.initial_state(), "alphabeta", every_move=True)
    assert PRUNED in {node.status for node in root.walk()}
    assert all(child.status == SEARCHED for child in root.children)  # as search_root does


def toy_trees() -> st.SearchStrategy[Any]:
    leaves = st.integers(-3, 3)
    return st.recursive(
        leaves,
        lambda children: st.tuples(st.sampled_from([0, 1]), st.lists(children, min_size=1, max_size=3)),
        max_leaves=24,
    )


def toy_truth(tree: Any) -> float:
    """Minimax payoff for seat 0 straight from the nested tree."""
    if isinstance(tree, int):
        return tree
    values = [toy_truth(child) for child in tree[1]]
    return max(values) if tree[0] == 0 else min(values)


@given(toy_trees())
def test_pruning_never_changes_the_root_value_on_toy_trees(tree: Any) -> None:
    game = TreeGame(tree)
    state = game.initial_state()
    max_sign = 1 if game.to_move(state) == 0 else -1
    minimax_root, minimax_visits = trace(game, state, "minimax")
    assert minimax_root.value == max_sign * toy_truth(tree)
    assert minimax_visits == search(game, state, "minimax", every_move=True, time=inf, cache=False, book=False).nodes
    for every_move in (False, True):
        root, visited = trace(game, state, "alphabeta", every_move=every_move)
        assert root.value == minimax_root.value
        assert (
            visited
            == search(game, state, "alphabeta", table=Table(0), every_move=every_move, time=inf, book=False).nodes
        )
        assert_values_hold(game, root)


def test_explore_refuses_a_tree_over_the_limit_saying_how_big() -> None:
    game = games.create("simple-nim 9")
    whole = tree_size(game, game.initial_state())
    assert whole is not None
    full = whole.nodes
    with pytest.raises(TreeTooBig, match=f"{full:,} nodes"):
        explore(game, game.initial_state(), "minimax", max_nodes=full - 1)
    assert explore(game, game.initial_state(), "minimax", max_nodes=full).nodes == full


def test_cli_draws_simple_nim_6_with_pruning_and_the_footer(tmp_path: Any) -> None:
    game = games.create("simple-nim 6")
    with_pruning = search(game, game.initial_state(), "alphabeta", table=Table(0), time=inf, book=False).nodes
    svg = tmp_path / "tree.svg"
    run = nimmax("tree", "simple-nim", "6", "--algorithm", "alphabeta", "--svg", str(svg))
    assert run.returncode == 0, run.stderr
    assert "✂ pruned" in run.stdout and "Max (First) to move" in run.stdout and "Min (Second)" in run.stdout
    assert f"alpha-beta visited {with_pruning} nodes" in run.stdout
    assert f"minimax (no pruning) visits {simple_nim_tree_size(6)}" in run.stdout
    assert svg.read_text().lstrip().startswith("<svg") and "pruned" in svg.read_text()


def test_cli_minimax_tree_of_plates_shows_every_node() -> None:
    run = nimmax("tree", "plates")
    assert run.returncode == 0, run.stderr
    assert "minimax visited 31 nodes" in run.stdout  # 1 + 3 plates + 9 pairs + 18 kept notes
    assert "1 → plate 1: 1,20,50   Min (B) to move   value +20   ◀ perfect play" in run.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["tree", "simple-nim", "6", "--algorithm", "negamax"],
        ["tree", "simple-nim", "6", "--max-nodes", "0"],
        ["tree", "chess"],
        ["tree", "simple-nim", "6", "--svg", "/no/such/dir/tree.svg"],
    ],
)
def test_cli_bad_input_exits_2(args: list[str]) -> None:
    run = nimmax(*args)
    assert run.returncode == 2 and "Traceback" not in run.stderr and run.stderr.strip()


def test_cli_refuses_a_big_tree_naming_its_size() -> None:
    run = nimmax("tree", "simple-nim", "20")
    assert run.returncode == 2
    assert f"{simple_nim_tree_size(20):,} nodes" in run.stderr and "2,000" in run.stderr


def test_tree_bench_and_plates_cores_import_no_presentation_library() -> None:
    import subprocess
    import sys

    from .cli_helpers import ROOT

    code = (
        "import sys, nimmax.tree, nimmax.bench, nimmax.games.plates\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'rich', 'prompt_toolkit')))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert loaded.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "words", ["tictactoe --position xo./.x./o..", "tictactoe --position x../.o./...", "tictactoe --size 3 --k 3"]
)
def test_tictactoe_trees_count_what_the_engines_count(words: str) -> None:
    game = games.create(words)
    state = game.initial_state()
    root, visited = trace(game, state, "alphabeta")
    assert visited == searched(root) == search(game, state, "alphabeta", table=Table(0), time=inf, book=False).nodes
    assert_values_hold(game, root)
    if "position" in words:
        minimax_root, minimax_visits = trace(game, state, "minimax")
        assert (
            minimax_visits == search(game, state, "minimax", every_move=True, time=inf, cache=False, book=False).nodes
            and minimax_root.value == root.value
        )


def solitaire_trees() -> st.SearchStrategy[Any]:
    """One-player trees with chance nodes: seat 0 moves, chance draws."""
    leaves = st.integers(-3, 3)
    return st.recursive(
        leaves,
        lambda children: st.one_of(
            st.tuples(st.just(0), st.lists(children, min_size=1, max_size=3)),
            st.lists(children, min_size=1, max_size=3).map(
                lambda nodes: ("chance", [(1 / len(nodes), node) for node in nodes])
            ),
        ),
        max_leaves=20,
    ).filter(lambda tree: not isinstance(tree, int) and tree[0] != "chance")


@given(solitaire_trees())
def test_chance_as_adversary_is_traced_as_the_engines_count_it(tree: Any) -> None:
    """In a one-player game minimax and alpha-beta play chance as an adversary; the traced tree follows them."""
    game = TreeGame(tree, players=1)
    state = game.initial_state()
    minimax_root, minimax_visits = trace(game, state, "minimax")
    engine = search(game, state, "minimax", every_move=True, time=inf, cache=False, book=False)
    assert minimax_visits == engine.nodes and minimax_root.value == engine.value
    root, visited = trace(game, state, "alphabeta")
    assert (
        visited == search(game, state, "alphabeta", table=Table(0), time=inf, book=False).nodes
        and root.value == engine.value
    )


def test_a_two_player_game_with_chance_is_refused() -> None:
    game = TreeGame((0, [("chance", [(0.5, 1), (0.5, -1)]), (1, [0])]))
    for algorithm in ("minimax", "alphabeta"):
        with pytest.raises(BadInput, match="expectimax"):
            trace(game, game.initial_state(), algorithm)
