"""TD(0) self-play for an n-tuple network on 4x4 2048, many games stepped together with numpy.

Each step every game takes the move whose points plus the network's value of the afterstate (the
board slid, before its spawn) is highest; the previous afterstate's value is then moved towards
those points plus that value (towards 0 when the game is over). Updates of one batch that land
on the same weight are averaged, not summed: summed, a big batch overshoots and diverges.
"""

from __future__ import annotations

import functools
import time
from array import array
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from nimmax.games.ntuple.network import Network, runs
from nimmax.games.twenty48_rows import TOP_RANK

RATE = 0.1
"""The learning rate of a whole board's value; each of its features moves by RATE / features."""
WINDOW = 1000
"""Finished games the rolling reach rates are taken over."""
MARKS = (11, 12, 13)
"""The tiles whose reach rates training reports: 2048, 4096, 8192."""


@functools.cache
def _row_tables() -> tuple[Any, Any, Any]:
    """Every 16-bit row slid left and right, and the points a slide makes: merged as
    `twenty48_rows.Slides` merges (each tile at most once, towards the wall; 32768s stay)."""
    rows = np.arange(1 << 16)
    cells = np.stack([(rows >> (4 * place)) & 15 for place in range(4)], axis=1)
    packed = np.take_along_axis(cells, np.argsort(cells == 0, axis=1, kind="stable"), axis=1)
    packed = np.concatenate([packed, np.zeros((len(rows), 2), packed.dtype)], axis=1)
    read = np.zeros(len(rows), np.int64)
    slid, points = np.zeros(len(rows), np.int64), np.zeros(len(rows), np.float64)
    for place in range(4):
        first = np.take_along_axis(packed, read[:, None], axis=1)[:, 0]
        second = np.take_along_axis(packed, np.minimum(read + 1, 5)[:, None], axis=1)[:, 0]
        merged = (first != 0) & (first == second) & (first < TOP_RANK)
        slid |= np.where(merged, first + 1, first) << (4 * place)
        points += np.where(merged, 2.0 ** (first + 1), 0.0)
        read = np.minimum(read + np.where(merged, 2, 1), 4)
    mirror = np.zeros(len(rows), np.int64)
    for place in range(4):
        mirror |= ((rows >> (4 * place)) & 15) << (4 * (3 - place))
    right = mirror[slid[mirror]]
    return slid.astype(np.uint64), right.astype(np.uint64), points


def transpose(board: Any) -> Any:
    """`transpose4` on an array of boards."""
    a = (
        (board & np.uint64(0xF0F00F0FF0F00F0F))
        | ((board & np.uint64(0x0000F0F00000F0F0)) << np.uint64(12))
        | ((board & np.uint64(0x0F0F00000F0F0000)) >> np.uint64(12))
    )
    return (
        (a & np.uint64(0xFF00FF0000FF00FF))
        | ((a & np.uint64(0x00FF00FF00000000)) >> np.uint64(24))
        | ((a & np.uint64(0x00000000FF00FF00)) << np.uint64(24))
    )


def _mirror_columns(board: Any) -> Any:
    nibbles, octets = np.uint64(0xF0F0F0F0F0F0F0F0), np.uint64(0xFF00FF00FF00FF00)
    board = ((board & nibbles) >> np.uint64(4)) | ((board << np.uint64(4)) & nibbles)
    return ((board & octets) >> np.uint64(8)) | ((board << np.uint64(8)) & octets)


def _mirror_rows(board: Any) -> Any:
    words, half = np.uint64(0x0000FFFF0000FFFF), np.uint64(0x00000000FFFFFFFF)
    board = ((board >> np.uint64(16)) & words) | ((board & words) << np.uint64(16))
    return ((board >> np.uint64(32)) & half) | ((board & half) << np.uint64(32))


def images(board: Any) -> Any:
    """The 8 symmetric images of each board, shape (8, n), in `ntuple.symmetries`' order."""
    found = []
    for base in (board, transpose(board)):
        flipped = _mirror_rows(base)
        found += [base, _mirror_columns(base), flipped, _mirror_columns(flipped)]
    return np.stack(found)


@dataclass
class Trainer:
    """A network's float32 weights (one flat array) and `batch` games in play, stepped together."""

    tuples: tuple[tuple[int, ...], ...]
    batch: int = 1024
    seed: int = 0
    rate: float = RATE
    weights: Any = None
    games: int = 0
    moves: int = 0
    reached: deque[int] = field(default_factory=lambda: deque(maxlen=WINDOW))
    scores: deque[int] = field(default_factory=lambda: deque(maxlen=WINDOW))

    def __post_init__(self) -> None:
        sizes = [16 ** len(cells) for cells in self.tuples]
        self.offsets = np.cumsum([0, *sizes[:-1]]).astype(np.uint64)
        if self.weights is None:
            self.weights = np.zeros(sum(sizes), np.float32)
        self.runs = [runs(cells) for cells in self.tuples]
        self.features = 8 * len(self.tuples)
        self.left, self.right, self.points = _row_tables()
        self.random = np.random.default_rng(self.seed)
        self.boards = self.spawn(self.spawn(np.zeros(self.batch, np.uint64)))
        self.score = np.zeros(self.batch, np.int64)
        self.previous: Any = None
        """Each game's last afterstate's feature indices, shape (batch, features), or None."""
        self.previous_mask: Any = None
        """Which games have that afterstate (a game just started has none); None for all."""

    @classmethod
    def resume(cls, network: Network, **options: Any) -> Trainer:
        """A trainer that goes on from `network`'s weights and its count of games."""
        weights = np.concatenate(
            [
                np.frombuffer(table, np.float32 if table.typecode == "f" else np.int16)
                for table in network.tables
            ]
        )
        return cls(
            network.tuples,
            weights=weights.astype(np.float32) * np.float32(network.scale),
            games=network.games,
            **options,
        )

    def network(self) -> Network:
        """The weights as a network (float tables) with the games trained."""
        tables, start = [], 0
        for cells in self.tuples:
            size = 16 ** len(cells)
            tables.append(array("f", self.weights[start : start + size].tobytes()))
            start += size
        return Network(self.tuples, tables, 1.0, self.games)

    def spawn(self, boards: Any) -> Any:
        """Each board with a 2 (p 0.9) or a 4 on an empty cell chosen uniformly."""
        shifts = np.arange(0, 64, 4, dtype=np.uint64)
        empty = ((boards[:, None] >> shifts) & np.uint64(15)) == 0
        cell = np.argmax(self.random.random(empty.shape) * empty, axis=1).astype(np.uint64)
        rank = np.where(self.random.random(len(boards)) < 0.1, 2, 1).astype(np.uint64)
        return boards | (rank << (np.uint64(4) * cell))

    def indices(self, boards: Any) -> Any:
        """The flat weight index of each feature of each board, shape (n, features)."""
        turned = images(boards)
        columns = []
        for offset, parts in zip(self.offsets, self.runs, strict=True):
            at = np.zeros_like(turned)
            for shift, mask, place in parts:
                at |= ((turned >> np.uint64(shift)) & np.uint64(mask)) << np.uint64(place)
            columns.append(at + offset)
        return np.concatenate(columns).T.astype(np.int64)

    def value(self, boards: Any) -> Any:
        """The network's value of each board."""
        return self.weights[self.indices(boards)].sum(axis=1, dtype=np.float64)

    def slide(self, boards: Any, table: Any) -> tuple[Any, Any]:
        """Every row slid by `table` (left or right), and the points made."""
        slid = np.zeros_like(boards)
        gained = np.zeros(len(boards))
        for row in range(4):
            shift = np.uint64(16 * row)
            line = ((boards >> shift) & np.uint64(0xFFFF)).astype(np.int64)
            slid |= table[line] << shift
            gained += self.points[line]
        return slid, gained

    def afterstates(self, boards: Any) -> tuple[Any, Any]:
        """The four slides of each board, shape (4, n), in MOVES' order (left, up, right, down), and
        their points."""
        turned = transpose(boards)
        left, left_points = self.slide(boards, self.left)
        up, up_points = self.slide(turned, self.left)
        right, right_points = self.slide(boards, self.right)
        down, down_points = self.slide(turned, self.right)
        return np.stack([left, transpose(up), right, transpose(down)]), np.stack(
            [left_points, up_points, right_points, down_points]
        )

    def step(self) -> None:
        """One move in every game, with its TD update; finished games start again."""
        boards = self.boards
        after, points = self.afterstates(boards)
        legal = after != boards[None, :]
        values = self.value(after.reshape(-1)).reshape(4, -1)
        choice = np.argmax(np.where(legal, points + values, -np.inf), axis=0)
        lost = ~legal.any(axis=0)
        column = np.arange(len(boards))
        chosen, gained = after[choice, column], points[choice, column]
        target = np.where(lost, 0.0, gained + values[choice, column])
        if self.previous is not None:
            self.learn(
                self.previous, target - self.weights[self.previous].sum(axis=1, dtype=np.float64)
            )
        self.moves += int((~lost).sum())
        self.score += np.where(lost, 0, gained).astype(np.int64)
        if lost.any():
            self.finish(boards[lost], self.score[lost])
            self.score[lost] = 0
            chosen = chosen.copy()
            fresh = self.spawn(self.spawn(np.zeros(int(lost.sum()), np.uint64)))
            previous = self.indices(chosen)
            chosen[lost] = fresh
            self.boards = self.spawn_some(chosen, ~lost)
            self.previous = previous
            self.previous_mask = ~lost
        else:
            self.previous = self.indices(chosen)
            self.previous_mask = None
            self.boards = self.spawn(chosen)

    def spawn_some(self, boards: Any, which: Any) -> Any:
        """`boards` with a spawn on those `which` marks (the others are fresh games, spawned
        already)."""
        boards = boards.copy()
        boards[which] = self.spawn(boards[which])
        return boards

    def learn(self, features: Any, delta: Any) -> None:
        """Move each feature's weight by rate / features times its board's delta, averaged over a
        weight's updates."""
        mask = self.previous_mask
        if mask is not None:  # a fresh game has no afterstate behind it yet
            features, delta = features[mask], delta[mask]
        flat = features.ravel()
        unique, inverse = np.unique(flat, return_inverse=True)
        totals = np.bincount(inverse, weights=np.repeat(delta, features.shape[1]))
        counts = np.bincount(inverse)
        self.weights[unique] += (self.rate / self.features * totals / counts).astype(np.float32)

    def finish(self, boards: Any, scores: Any) -> None:
        """Count finished games: their largest tile and score."""
        shifts = np.arange(0, 64, 4, dtype=np.uint64)
        best = ((boards[:, None] >> shifts) & np.uint64(15)).max(axis=1)
        self.games += len(boards)
        self.reached.extend(int(rank) for rank in best)
        self.scores.extend(int(score) for score in scores)

    def rates(self, marks: Sequence[int] = MARKS) -> list[float]:
        """The share of the last WINDOW finished games that reached each tile of `marks`
        (exponents)."""
        seen = len(self.reached) or 1
        return [sum(rank >= mark for rank in self.reached) / seen for mark in marks]


def run(
    trainer: Trainer,
    keep: Callable[[Network], None],
    games: int,
    seconds: float,
    report: Callable[[Trainer], None],
    every: float = 60.0,
) -> Network:
    """Step `trainer` until it has trained `games` games or `seconds` pass, calling `report` after
    each step and `keep` with the network every `every` seconds and at the end; a Ctrl-C or SIGTERM
    (KeyboardInterrupt) keeps what was learned, then goes on up."""
    start = last = time.monotonic()
    try:
        while trainer.games < games and time.monotonic() - start < seconds:
            trainer.step()
            report(trainer)
            if time.monotonic() - last >= every:
                keep(trainer.network())
                last = time.monotonic()
    finally:
        network = trainer.network()
        keep(network)
    return network
