"""`nimmax tree`: the traced tree counts what the engines count, and pruning never changes a
value."""

from __future__ import annotations

from functools import cache
from math import inf
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nimmax import games
from nimmax.commands.tree import (
    AT_LEAST,
    AT_MOST,
    DRAWN,
    EXACT_VALUE,
    PRUNED,
    SEARCHED,
    Node,
    TreeTooBig,
    explore,
    trace,
    tree_size,
)
from nimmax.game import AnyGame, BadInput
from nimmax.search import Table, search

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
    engine = search(
        game, state, "alphabeta", table=Table(0), every_move=every_move, time=inf, book=False
    )
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
        lambda children: st.tuples(
            st.sampled_from([0, 1]), st.lists(children, min_size=1, max_size=3)
        ),
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
    assert (
        minimax_visits
        == search(game, state, "minimax", every_move=True, time=inf, cache=False, book=False).nodes
    )
    for every_move in (False, True):
        root, visited = trace(game, state, "alphabeta", every_move=every_move)
        assert root.value == minimax_root.value
        assert (
            visited
            == search(
                game,
                state,
                "alphabeta",
                table=Table(0),
                every_move=every_move,
                time=inf,
                book=False,
            ).nodes
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
    with_pruning = search(
        game, game.initial_state(), "alphabeta", table=Table(0), time=inf, book=False
    ).nodes
    svg = tmp_path / "tree.svg"
    run = nimmax("tree", "simple-nim", "6", "--algorithm", "alphabeta", "--svg", str(svg))
    assert run.returncode == 0, run.stderr
    assert (
        "✂ pruned" in run.stdout
        and "Max (First) to move" in run.stdout
        and "Min (Second)" in run.stdout
    )
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
        "import sys, nimmax.commands.tree, nimmax.commands.bench, nimmax.games.plates\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'rich', "
        "'prompt_toolkit')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert loaded.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "words",
    [
        "tictactoe --position xo./.x./o..",
        "tictactoe --position x../.o./...",
        "tictactoe --size 3 --k 3",
    ],
)
def test_tictactoe_trees_count_what_the_engines_count(words: str) -> None:
    game = games.create(words)
    state = game.initial_state()
    root, visited = trace(game, state, "alphabeta")
    assert (
        visited
        == searched(root)
        == search(game, state, "alphabeta", table=Table(0), time=inf, book=False).nodes
    )
    assert_values_hold(game, root)
    if "position" in words:
        minimax_root, minimax_visits = trace(game, state, "minimax")
        assert (
            minimax_visits
            == search(
                game, state, "minimax", every_move=True, time=inf, cache=False, book=False
            ).nodes
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
    """In a one-player game minimax and alpha-beta play chance as an adversary; the traced tree
    follows them."""
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


# --- Trees bigger than a picture -------------------------------------------------------------


def by_path(root: Node) -> dict[tuple[Any, ...], tuple[Node, int]]:
    """Every node by its moves from the root, with its ply."""
    found: dict[tuple[Any, ...], tuple[Node, int]] = {}
    waiting: list[tuple[Node, tuple[Any, ...]]] = [(root, ())]
    while waiting:
        node, path = waiting.pop()
        found[path] = node, len(path)
        waiting.extend((child, (*path, child.move)) for child in node.children)
    return found


@pytest.mark.parametrize("words", ["simple-nim 8", "plates", "nim 1 2 3", "split-nim 9"])
@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta"])
@pytest.mark.parametrize("drawn", [1, 6, 40])
def test_a_tree_bigger_than_the_picture_is_drawn_to_the_ply_that_fits_the_rest_counted(
    words: str, algorithm: str, drawn: int
) -> None:
    game = games.create(words.split())
    state = game.initial_state()
    whole = explore(game, state, algorithm, max_nodes=10**6)
    cut = explore(game, state, algorithm, max_nodes=10**6, drawn=drawn)
    assert whole.drawn_depth is None and whole.hidden == 0
    full = by_path(whole.root)
    plies = [
        sum(node.status == SEARCHED and ply <= depth for node, ply in full.values())
        for depth in range(99)
    ]
    fits = [depth for depth, count in enumerate(plies) if count <= drawn]
    expected_depth = None if plies[-1] <= drawn else max(fits)
    assert cut.drawn_depth == expected_depth and cut.nodes == whole.nodes
    assert searched(cut.root) + cut.hidden == searched(whole.root)
    for path, (node, ply) in by_path(cut.root).items():
        same = full[path][0]
        assert (node.value, node.bound, node.status) == (same.value, same.bound, same.status)
        if expected_depth is not None and ply == expected_depth:
            assert not node.children and node.hidden == searched(same) - (same.status == SEARCHED)
        else:
            assert node.hidden == 0 and len(node.children) == len(same.children)


def test_cli_depth_draws_that_many_plies_and_counts_the_rest() -> None:
    run = nimmax("tree", "simple-nim", "8", "--depth", "1")
    assert run.returncode == 0, run.stderr
    below = [line for line in run.stdout.splitlines() if "nodes below, not drawn" in line]
    # simple-nim 8 takes 1 to 3: the root's three children, each with its subtree counted
    assert len(below) == 3
    hidden = sum(simple_nim_tree_size(left) - 1 for left in (7, 6, 5))
    assert f"Drawn to 1 ply: {hidden:,} nodes searched below them" in run.stdout


def nodes_by_ply(game: AnyGame, state: Any) -> list[int]:
    """The whole tree's nodes at each ply, by plain recursion (the oracle)."""
    counts: list[int] = []

    def walk(position: Any, ply: int) -> None:
        counts[ply:] = counts[ply:] or [0]
        counts[ply] += 1
        if not game.is_terminal(position):
            for move in game.actions(position):
                walk(game.result(position, move), ply + 1)

    walk(state, 0)
    return counts


def test_cli_a_tree_over_the_picture_answers_with_a_bounded_picture_and_svg(tmp_path: Any) -> None:
    words = ["tictactoe", "--position", "x../.o./..."]
    game = games.create(words)
    plies = nodes_by_ply(game, game.initial_state())
    total = sum(plies)
    drawn = max(depth for depth in range(len(plies)) if sum(plies[: depth + 1]) <= DRAWN)
    assert total > DRAWN and drawn < len(plies) - 1
    svg = tmp_path / "tree.svg"
    run = nimmax("tree", *words, "--max-nodes", "100000", "--svg", str(svg))
    assert run.returncode == 0, run.stderr
    assert f"minimax visited {total:,} nodes" in run.stdout
    hidden = total - sum(plies[: drawn + 1])
    assert f"Drawn to {drawn} plies: {hidden:,} nodes searched below them" in run.stdout
    assert len(run.stdout.splitlines()) < 2 * DRAWN
    assert svg.read_text().lstrip().startswith("<svg") and svg.stat().st_size < 20 << 20
