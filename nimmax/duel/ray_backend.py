"""The Ray backend: the plan's blocks played as Ray tasks, on this machine or a cluster.

Each block is one streaming task (`block_games`, as every backend plays it) that yields its
finished games in batches, so progress moves as locally. The job ships what a worker needs:
nimmax itself (`py_modules`) and every plugin file the event names (`working_dir`, the
references rewritten to the shipped copies), so a cluster needs only Python and Ray. A block
whose worker is lost is played again from its start once (the same games: its players and
seeds are the block's), its games already counted skipped; lost twice, it is given up and
told to the `lost` hook. Ctrl-C or SIGTERM cancels every task, counts the batches already
in, and a Ray started here is shut down with all its processes before the interrupt is raised.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import logging
import os
import shutil
import signal
import socket
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any

import nimmax
from nimmax import games as registry
from nimmax import plugins
from nimmax.duel.backend import ATTEMPTS, Count, FailedBlock, Lost
from nimmax.duel.planning import Block
from nimmax.duel.play import GameResult, block_games
from nimmax.game import AnyGame, BadInput
from nimmax.interrupt import Held, Terminated
from nimmax.players import Spec
from nimmax.plugins.guard import words_of
from nimmax.search.stack import interpreter

INSTALL = "pip install 'nimmax[ray]'"
"""The command that brings Ray in."""

SEND_EVERY = 0.1
"""Seconds a task gathers finished games before it yields them as one batch."""

STOP_CHECK = 0.05
"""Seconds the driver waits for a batch before it looks for Ctrl-C again."""

CONNECT = 5.0
"""Seconds a cluster's head has to answer before `--address` is called unreachable."""


def ray_module() -> ModuleType:
    """Ray, or BadInput naming the command that installs it."""
    try:
        return importlib.import_module("ray")  # an optional extra: typed as a module, stubs or not
    except ImportError:
        raise BadInput(f"the ray backend needs Ray: {INSTALL}") from None


@dataclass(frozen=True, slots=True)
class RayBackend:
    """The backend of a Ray cluster (a `Backend`): `address` as `ray.init` takes it, None to
    start a Ray on this machine for the event, "auto" to join the one running here."""

    address: str | None = None
    stopping: Callable[[], None] | None = None
    """Called the moment Ctrl-C or SIGTERM is caught, before the last batches are counted."""
    lost: Lost | None = None
    """Told of each block given up after its second lost worker."""

    def __post_init__(self) -> None:
        ray_module()  # without Ray the event is refused before it starts

    def __call__(self, blocks: Sequence[Block], count: Count, /) -> None:
        """Play `blocks` as Ray tasks, counting each game as its batch arrives."""
        if not blocks:
            return
        ray = ray_module()
        owned = not ray.is_initialized()
        # Ray's driver prints its workers' deaths on stdout (a lost block is reported here instead),
        # where they would break --json; nothing else of this process prints there meanwhile.
        with open(os.devnull, "w") as nowhere, contextlib.redirect_stdout(nowhere):
            try:
                # held while Ray starts too: a start cut short strands Ray's agents
                with Held() as held:
                    if owned:
                        _start(ray, self.address, blocks)
                    if held.caught is None:
                        _Tasks(ray, blocks, count, self.lost, owned).gather(held, self.stopping)
            finally:
                if owned:
                    # a Ray started here ends with all its processes; a cluster is only left
                    ray.shutdown()
        if held.caught is not None:
            raise held.caught


def _reachable(address: str) -> None:
    """BadInput unless a `HOST:PORT` address answers within CONNECT seconds: Ray itself would wait
    minutes."""
    host, colon, port = address.rpartition(":")
    if not colon or not port.isdigit():
        raise BadInput(
            f"--address must be auto or HOST:PORT (the head's, e.g. 10.0.0.5:6379), not {address!r}"
        )
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT).close()
    except OSError as error:
        raise BadInput(f"cannot reach Ray at {address}: {error.strerror or error}") from None


def _start(ray: ModuleType, address: str | None, blocks: Sequence[Block]) -> None:
    """Connect to (or start) Ray with a runtime environment that carries nimmax and the event's
    plugins."""
    if address is not None and address != "auto" and not address.startswith("ray://"):
        _reachable(address)
    sigterm = signal.getsignal(signal.SIGTERM)  # ray.init sets its own; the command's must stay
    with tempfile.TemporaryDirectory(prefix="nimmax-ray-") as folder:
        environment = _runtime_env(blocks, Path(folder))
        try:
            ray.init(
                address=address,
                runtime_env=environment,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.ERROR,
            )
        except (ConnectionError, ValueError, RuntimeError) as error:
            raise BadInput(f"cannot reach Ray at {address or 'this machine'}: {error}") from None
        # SIGTERM while Ray starts: its handler exits, the command's would raise
        except SystemExit as error:
            if error.code == signal.SIGTERM:
                raise Terminated from None
            raise
        finally:
            if sigterm is not None:
                signal.signal(signal.SIGTERM, sigterm)


def _runtime_env(blocks: Sequence[Block], folder: Path) -> dict[str, Any]:
    """nimmax as a py_module and each plugin file copied into `folder`, the job's working
    directory."""
    environment: dict[str, Any] = {
        "py_modules": [str(Path(nimmax.__file__).parent), *_plugin_modules(blocks)],
        "excludes": ["__pycache__", "*.pyc"],
    }
    files = _plugin_files(blocks)
    if files:
        for path, name in files.items():
            shutil.copyfile(path, folder / name)
        environment["working_dir"] = str(folder)
    return environment


def _references(blocks: Sequence[Block]) -> set[str]:
    """Every plugin reference (`where:Class`) the blocks name, as games or players."""
    found = set()
    for block in blocks[:1]:  # every block names the same game; the specs vary by pairing
        if (words := words_of(block.game)) and plugins.is_reference(words[0]):
            found.add(words[0])
    for block in blocks:
        found.update(
            spec.reference
            for spec in block.specs
            if spec.is_plugin and plugins.is_reference(spec.reference)
        )
    return found


def _is_file(where: str) -> bool:
    return where.endswith(".py") or "/" in where or "\\" in where


def _plugin_files(blocks: Sequence[Block]) -> dict[Path, str]:
    """Each plugin file the blocks name (resolved) and the name of its copy in the job's folder."""
    paths = sorted(
        {
            Path(where).expanduser().resolve()
            for where, _, _ in map(plugins.split_reference, _references(blocks))
            if _is_file(where)
        }
    )
    return {path: f"plugin{number}_{path.name}" for number, path in enumerate(paths)}


def _plugin_modules(blocks: Sequence[Block]) -> list[str]:
    """The top-level packages of plugins named by module that are not installed: shipped as they
    are."""
    installed = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
    shipped = set()
    for where, _, _ in map(plugins.split_reference, _references(blocks)):
        if _is_file(where):
            continue
        spec = importlib.util.find_spec(where.split(".")[0])
        if spec is None or spec.origin is None:
            continue
        path = Path(spec.origin).parent if spec.submodule_search_locations else Path(spec.origin)
        if not any(path.resolve().is_relative_to(place) for place in installed):
            shipped.add(str(path))
    return sorted(shipped)


def _shipped(reference: str, files: dict[Path, str]) -> str:
    """A reference rewritten to the copy of its file in the job's folder (a worker's working
    directory)."""
    if not plugins.is_reference(reference):
        return reference
    where, name, options = plugins.split_reference(reference)
    copy = files.get(Path(where).expanduser().resolve()) if _is_file(where) else None
    if copy is None:
        return reference
    return ":".join(filter(None, (copy, name, options)))


def _shipped_player(spec: Spec, files: dict[Path, str]) -> Spec:
    """A plugin player's spec with its reference rewritten to the shipped copy; any other as it
    is."""
    return replace(spec, reference=_shipped(spec.reference, files)) if spec.is_plugin else spec


def _task_arguments(block: Block, files: dict[Path, str]) -> tuple[Any, ...]:
    """What a task is sent: a block with its plugin references pointing at the shipped files."""
    words = words_of(block.game)
    game: AnyGame | tuple[str, ...] = (
        (_shipped(words[0], files), *words[1:]) if words else block.game
    )
    specs = (_shipped_player(block.specs[0], files), _shipped_player(block.specs[1], files))
    return (game, specs, block.pairing, block.start, block.count, block.seed, block.openings)


# --- in a Ray worker -------------------------------------------------------------------------


def play_block(
    game: AnyGame | tuple[str, ...],
    specs: tuple[Spec, Spec],
    pairing: int,
    start: int,
    count: int,
    seed: int,
    openings: int = 0,
) -> Iterator[list[GameResult]]:
    """A Ray task: one block's games by `block_games`, yielded in batches of about SEND_EVERY
    seconds."""
    built = registry.create(list(game)) if isinstance(game, tuple) else game
    batch: list[GameResult] = []
    sent = time.monotonic()
    with interpreter():  # the policy a command enters, for this task's span
        for result in block_games(Block(built, specs, pairing, start, count, seed, openings)):
            batch.append(result)
            if time.monotonic() - sent >= SEND_EVERY:
                yield batch
                batch, sent = [], time.monotonic()
    if batch:
        yield batch


# --- in the driver ---------------------------------------------------------------------------


class _Tasks:
    """The tasks of one event: each block's task, its attempts and the games of it counted so
    far."""

    def __init__(
        self,
        ray: ModuleType,
        blocks: Sequence[Block],
        count: Count,
        lost: Lost | None,
        shipped: bool,
    ) -> None:
        self.ray, self.blocks, self.count, self.lost = ray, blocks, count, lost
        self.remote = ray.remote(num_returns="streaming", max_retries=0, num_cpus=1)(play_block)
        # plugin files are shipped only to a Ray started here; a caller's own Ray has its own
        # runtime env
        self.files = _plugin_files(blocks) if shipped else {}
        self.counted = [0] * len(blocks)
        self.attempts = [0] * len(blocks)
        self.running: dict[Any, int] = {}  # a task's generator -> its block's number
        self.stopped = False
        self.lost_errors = (
            ray.exceptions.WorkerCrashedError,
            ray.exceptions.NodeDiedError,
            ray.exceptions.LocalRayletDiedError,
            ray.exceptions.ObjectLostError,
            ray.exceptions.OutOfMemoryError,
        )
        for number in range(len(blocks)):
            self.submit(number)

    def submit(self, number: int) -> None:
        """Start (or start again) the task of block `number`."""
        self.attempts[number] += 1
        self.running[self.remote.remote(*_task_arguments(self.blocks[number], self.files))] = number

    def gather(self, held: Held, stopping: Callable[[], None] | None) -> None:
        """Count batches as they come until every block is played or given up, or a signal is held;
        then cancel what still runs, having counted the batches already in."""
        try:
            while self.running and held.caught is None:
                ready, _ = self.ray.wait(list(self.running), num_returns=1, timeout=STOP_CHECK)
                for generator in ready:
                    # after a Ctrl-C a task may end by it: not an error of its own
                    if held.caught is None:
                        self.take(generator)
            if held.caught is not None:
                if stopping is not None:
                    stopping()
                self.drain()
        finally:
            for generator in self.running:
                with contextlib.suppress(Exception):  # a task that has just ended
                    self.ray.cancel(generator, force=True)

    def drain(self) -> None:
        """Count the batches tasks have already yielded; what else a stopped task says is
        dropped."""
        self.stopped = True
        for generator in list(self.running):
            with contextlib.suppress(Exception):
                while generator in self.running and self.ray.wait([generator], timeout=0)[0]:
                    self.take(generator)

    def take(self, generator: Any) -> None:
        """Count the next batch of a ready task, or settle its end: done, lost (retried or given
        up), failed."""
        number = self.running[generator]
        try:
            batch = self.ray.get(next(generator))
        except StopIteration:
            del self.running[generator]
            return
        except self.lost_errors as error:
            del self.running[generator]
            if self.stopped:
                return
            if self.attempts[number] < ATTEMPTS:
                self.submit(number)
            elif self.lost is not None:
                block = self.blocks[number]
                reason = f"its worker was lost {ATTEMPTS} times ({type(error).__name__})"
                self.lost(FailedBlock(block.pairing, block.start, block.count, reason))
            return
        except self.ray.exceptions.RayTaskError as error:  # the game's own error, raised as locally
            raise _cause(error) from None
        block = self.blocks[number]
        for result in batch:
            # a replayed block's first games were counted
            if result.index >= block.start + self.counted[number]:
                self.counted[number] += 1
                self.count(block.pairing, result)


def _cause(error: Any) -> Exception:
    """The exception a task raised, as its own type where Ray kept it."""
    cause = getattr(error, "cause", None)
    return cause if isinstance(cause, Exception) else RuntimeError(str(error))
