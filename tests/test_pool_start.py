"""The process pool starts safely or says why it cannot: its worker processes (and the fork server
and resource tracker that start them) never import code lying in the folder a duel runs from, and a
system that refuses more processes or files is one line naming the limit and --jobs, exit 1."""

from __future__ import annotations

import errno
import os
import resource
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from nimmax.duel import pool

from .cli_helpers import ENVIRONMENT, ROOT, nimmax_in_process

LAUNCHER = """import sys
from nimmax.__main__ import run
if __name__ == "__main__":
    sys.exit(run())
"""
"""The `nimmax` command as pip installs it: a script whose own folder, not the current one, leads
the path."""

SHADOWS = (
    "random",
    "typing",
    "pickle",
    "selectors",
    "socket",
    "signal",
    "multiprocessing",
    "nimmax",
)
"""Modules a pool's processes import, each of which a file in the current folder could shadow."""


def installed_nimmax(
    tmp_path: Path, *args: str, cwd: Path, limit_files: int | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `nimmax ARGS` as the installed command runs, from `cwd`."""
    launcher = tmp_path / "bin" / "nimmax"
    launcher.parent.mkdir(exist_ok=True)
    launcher.write_text(LAUNCHER)

    def limited() -> None:
        if limit_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit_files, limit_files))

    return subprocess.run(
        [sys.executable, str(launcher), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT), **ENVIRONMENT},
        cwd=cwd,
        preexec_fn=limited,
    )


@pytest.mark.parametrize("shadowed", [SHADOWS[:4], SHADOWS[4:]], ids=lambda names: "+".join(names))
def test_a_duel_with_jobs_never_imports_modules_from_the_current_folder(
    tmp_path: Path, shadowed: tuple[str, ...]
) -> None:
    """`echo 'open("MARK","w")' > random.py; nimmax duel ... --jobs 2` created MARK and exited
    130."""
    folder = tmp_path / "here"
    folder.mkdir()
    mark = tmp_path / "MARK"
    # each leaves its mark, then hands over the real module as though never there
    for name in shadowed:
        (folder / f"{name}.py").write_text(
            f"open({str(mark)!r}, 'a').write({name!r} + '\\n')\n"
            "import sys\n"
            f"sys.path[:] = [p for p in sys.path if p not in ('', {str(folder)!r})]\n"
            f"del sys.modules[{name!r}]\n"
            f"sys.modules[{name!r}] = __import__({name!r})\n"
        )
    run = installed_nimmax(
        tmp_path,
        "duel",
        "random",
        "random",
        "--game",
        "nim 2 3",
        "--games",
        "4",
        "--jobs",
        "2",
        cwd=folder,
    )
    assert not mark.exists(), mark.read_text()
    assert run.returncode == 0 and "4 games in" in run.stdout, run.stderr


def test_safe_imports_holds_only_within_its_block() -> None:
    before = {name: os.environ.get(name) for name in ("PYTHONSAFEPATH", "PYTHONNOUSERSITE")}
    with pool.safe_imports():
        assert os.environ["PYTHONSAFEPATH"] == "1" and os.environ["PYTHONNOUSERSITE"] == "1"
        flags = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; print(sys.flags.safe_path, sys.flags.no_user_site, sys.path[0])",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        assert flags[:2] == ["True", "1"] and flags[2] != ""  # `-c` puts no current folder first
    assert {name: os.environ.get(name) for name in before} == before


def test_too_few_open_files_for_the_jobs_is_one_line_naming_the_limit(tmp_path: Path) -> None:
    """`ulimit -n 12` with --jobs 8 was a traceback (or "interrupted", exit 130)."""
    run = installed_nimmax(
        tmp_path,
        "duel",
        "random",
        "random",
        "--game",
        "nim 2 3",
        "--games",
        "16",
        "--jobs",
        "8",
        cwd=tmp_path,
        limit_files=12,
    )
    assert run.returncode == 1 and run.stdout == "", run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, run.stderr
    assert "--jobs 8" in run.stderr and "open files is 12 (ulimit -n)" in run.stderr, run.stderr


@pytest.mark.parametrize(
    ("failure", "limit"),
    [
        (EOFError(), "processes"),  # the fork server could not fork (ulimit -u)
        (BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable"), "processes"),
        (OSError(errno.EMFILE, "Too many open files"), "open files"),
    ],
)
def test_a_worker_the_system_refuses_is_one_line_naming_the_limit(
    failure: BaseException, limit: str
) -> None:
    """Every EOFError was read as Ctrl-C: "nimmax: interrupted", exit 130, after a traceback."""
    with mock.patch("multiprocessing.process.BaseProcess.start", side_effect=failure):
        run = nimmax_in_process(
            "duel", "random", "random", "--game", "nim 2 3", "--games", "8", "--jobs", "4"
        )
    assert run.returncode == 1 and run.stdout == "", run.stderr
    assert run.stderr.startswith(
        "nimmax: cannot start the worker processes of --jobs 4 (0 started): "
    ), run.stderr
    assert run.stderr.count("\n") == 1 and f"the limit on {limit} is " in run.stderr, run.stderr
