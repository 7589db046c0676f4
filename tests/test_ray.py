"""`--backend ray`: the same games as `--jobs N`, plugins shipped to the workers, a lost worker's
block played again once and given up after a second loss, Ctrl-C leaving no Ray process behind.

Ray is an optional extra: the tests marked `ray` skip where it is absent (`.[test]`, which CI
installs, brings it); the refusal without Ray runs everywhere. Each Ray test starts a Ray of its own
(seconds on a small machine), so they are few.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from nimmax.duel import timeless

from .cli_helpers import ROOT, nimmax, nimmax_in_process, nimmax_started, readme_session

EXAMPLES = ROOT / "examples"
SLOW_DUEL = ("alphabeta:depth=4", "random", "--game", "connect4", "--games", "200", "--seed", "5")
"""About ten seconds on two CPUs: long enough to kill a worker or press Ctrl-C in the middle."""


def played(*args: str, cwd: Path = ROOT) -> Any:
    """The JSON of a command that must succeed, timing fields removed."""
    done = nimmax(*args, "--json", cwd=cwd, timeout=240)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return timeless(json.loads(done.stdout))


def descendants(pid: int) -> set[int]:
    """The live processes started by `pid`, at any depth, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if stat[0] != "Z":
            children.setdefault(int(stat[1]), []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pids: set[int]) -> set[int]:
    """Those of `pids` still running (not zombies)."""
    living = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            living.add(pid)
    return living


def block_workers(pid: int) -> list[int]:
    """The Ray workers started under `pid` that are playing a block (Ray titles them by the
    task)."""
    found = []
    for child in descendants(pid):
        try:
            title = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if title.startswith(b"ray::play_block"):
            found.append(child)
    return found


def until(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"no {what} within {seconds} s"
        time.sleep(0.1)


@pytest.fixture
def ray() -> Any:
    return pytest.importorskip("ray")


# --- without Ray: runs everywhere ---------------------------------------------------------------


@pytest.mark.parametrize(
    "command", [["duel", "random", "random"], ["tournament", "random", "random", "random"]]
)
def test_without_ray_the_ray_backend_is_one_line_naming_the_extra(command: list[str]) -> None:
    # `import ray` fails as where it is not installed
    with mock.patch.dict(sys.modules, {"ray": None}):
        done = nimmax_in_process(*command, "--games", "10", "--backend", "ray")
    assert done.returncode == 2
    assert done.stderr == "nimmax: the ray backend needs Ray: pip install 'nimmax[ray]'\n"
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--backend", "cloud"], "nimmax: --backend must be one of local, ray, not 'cloud'\n"),
        (
            ["--address", "auto"],
            "nimmax: --address names a Ray cluster: it goes with --backend ray\n",
        ),
        (
            ["--backend", "ray", "--jobs", "2"],
            "nimmax: --jobs sizes the local pool; with --backend ray the cluster's CPUs play the "
            "blocks\n",
        ),
    ],
)
def test_backend_options_that_do_not_fit_are_one_line(options: list[str], message: str) -> None:
    done = nimmax_in_process("duel", "random", "random", "--games", "10", *options)
    assert (done.returncode, done.stderr, done.stdout) == (2, message, "")


def test_a_plugin_game_is_played_by_the_local_pool_too() -> None:
    """A pool's workers load a plugin game from its words: its class lives in a module only the
    process that loaded the file has."""
    args = (
        "duel",
        f"{EXAMPLES}/greedy.py:Greedy",
        "random",
        "--game",
        f"{EXAMPLES}/subtraction.py:Subtraction 25",
    )
    one, two = (
        played(*args, "--games", "30", "--seed", "2", "--jobs", jobs) for jobs in ("1", "2")
    )
    assert one == two and one["games"] == 30


# --- with Ray -------------------------------------------------------------------------------------


@pytest.mark.ray
def test_ray_plays_the_games_of_one_and_two_jobs(ray: Any, tmp_path: Path) -> None:
    """A seeded duel of a plugin player on a plugin game, run where only this folder has the plugin
    files (the workers get them with the job), and a three-player tournament: the same JSON, all
    but the timing, on --jobs 1, --jobs 2 and --backend ray."""
    for name in ("greedy.py", "subtraction.py"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    duel = (
        "duel",
        "greedy.py:Greedy",
        "alphabeta:depth=2",
        "--game",
        "subtraction.py:Subtraction 31 --take 1,2,5",
    )
    tournament = (
        "tournament",
        "alphabeta:depth=2",
        "random",
        "minimax:depth=1",
        "--game",
        "tictactoe",
    )
    for args, games in ((duel, "60"), (tournament, "30")):
        runs = [
            played(*args, "--games", games, "--seed", "11", *where, cwd=tmp_path)
            for where in (["--jobs", "1"], ["--jobs", "2"], ["--backend", "ray"])
        ]
        assert runs[0] == runs[1] == runs[2]
        assert runs[2]["failed_blocks"] == [] and not runs[2]["interrupted"]
    assert runs[2]["games"] == 90 and len(runs[2]["pairings"]) == 3


@pytest.mark.ray
def test_a_worker_killed_mid_duel_costs_a_replay_of_its_block_only(ray: Any) -> None:
    """The killed worker's block is played again from its start, its games already counted are
    not counted twice: the duel ends with the games --jobs 2 plays."""
    process = nimmax_started("duel", *SLOW_DUEL, "--backend", "ray", "--json")
    until(lambda: len(block_workers(process.pid)) == 2, 120, "two Ray workers playing blocks")
    time.sleep(1)  # in the middle of their blocks
    os.kill(block_workers(process.pid)[0], signal.SIGKILL)
    out, err = process.communicate(timeout=240)
    assert process.returncode == 0, err
    assert "Traceback" not in err
    assert timeless(json.loads(out)) == played("duel", *SLOW_DUEL, "--jobs", "2")


@pytest.mark.ray
def test_a_block_lost_twice_is_reported_and_the_rest_is_played(ray: Any, tmp_path: Path) -> None:
    """A player whose every move kills its worker: its pairings' blocks are given up after two
    losses each (never a hang), the pairing without it is played in full, and the exit is 1."""
    (tmp_path / "doomed.py").write_text(
        "import os\n\n\nclass Doomed:\n    def choose(self, game, state):\n        os._exit(1)\n"
    )
    players = ("random", "doomed.py:Doomed", "alphabeta:depth=1")
    done = nimmax(
        "tournament",
        *players,
        "--games",
        "10",
        "--seed",
        "3",
        "--backend",
        "ray",
        "--json",
        cwd=tmp_path,
        timeout=240,
    )
    assert done.returncode == 1, done.stderr
    assert (
        done.stderr
        == "nimmax: 2 blocks of 20 games lost their worker twice; the other games' results are "
        "printed\n"
    )
    record = json.loads(done.stdout)
    assert [
        (block["players"], block["first_game"], block["games"]) for block in record["failed_blocks"]
    ] == [
        (["random", "doomed.py:Doomed"], 0, 10),
        (["doomed.py:Doomed", "alphabeta:depth=1"], 0, 10),
    ]
    assert all("lost 2 times" in block["reason"] for block in record["failed_blocks"])
    assert [pairing["games"] for pairing in record["pairings"]] == [0, 10, 0]
    assert record["games"] == 10


@pytest.mark.ray
def test_ctrl_c_prints_the_finished_games_and_leaves_no_ray_process(ray: Any) -> None:
    """Ctrl-C reaches the whole process group, as a terminal sends it: the games finished are
    printed, the exit is 130, and every process the duel started (Ray's own included) is gone."""
    process = nimmax_started("duel", *SLOW_DUEL, "--backend", "ray")
    until(lambda: len(block_workers(process.pid)) == 2, 120, "two Ray workers playing blocks")
    time.sleep(2)  # games are finished
    started = descendants(process.pid)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    lines = err.splitlines()
    assert lines[0].startswith("stopping: ") and lines[-1].startswith("nimmax: interrupted after ")
    assert "Traceback" not in err
    assert "connect4: interrupted after" in out and "wins as first" in out
    until(lambda: not alive(started), 10, "end of every process the duel started")


@pytest.mark.ray
def test_the_readme_cluster_commands_run(ray: Any) -> None:
    """The README's cluster session as written: a head started by `ray start --head`, the
    tournament joining it with `--address auto`, `ray stop` (the other machines' line skipped)."""
    lines = readme_session("On a Ray cluster")
    assert [line[:2] for line in lines] == [
        ["ray", "start"],
        ["ray", "start"],
        ["nimmax", "tournament"],
        ["ray", "stop"],
    ]
    tool = str(Path(sys.executable).parent / "ray")
    started = subprocess.run(
        [tool, *lines[0][1:], "--disable-usage-stats"], capture_output=True, text=True, timeout=120
    )
    try:
        assert started.returncode == 0, started.stderr
        done = nimmax(*lines[2][1:], timeout=240)
        assert done.returncode == 0, done.stderr
        assert "round robin, played 60 of 60 games" in done.stdout
    finally:
        stopped = subprocess.run([tool, *lines[3][1:]], capture_output=True, text=True, timeout=120)
    assert stopped.returncode == 0, stopped.stderr


@pytest.mark.ray
@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("127.0.0.1:1", "nimmax: cannot reach Ray at 127.0.0.1:1: Connection refused\n"),
        (
            "head",
            "nimmax: --address must be auto or HOST:PORT (the head's, e.g. 10.0.0.5:6379), not "
            "'head'\n",
        ),
    ],
)
def test_an_address_that_does_not_answer_is_one_line_at_once(
    ray: Any, address: str, message: str
) -> None:
    """Ray would try to reach a missing head for minutes; nimmax asks it first."""
    done = nimmax_in_process(
        "duel", "random", "random", "--games", "10", "--backend", "ray", "--address", address
    )
    assert (done.returncode, done.stderr, done.stdout) == (2, message, "")
