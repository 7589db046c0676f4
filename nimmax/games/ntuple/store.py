"""The network file: a fixed header (format version, weight type, tuples, games trained, scale,
payload length, sha256 of the payload), the tuples' cells, then the tables zlib-compressed.

A file is read in bounded memory: its size is checked against the header before the payload is
read, the payload inflates to at most the size the tuples call for, and a link or anything but
a regular file is refused. A damaged, cut or foreign file is refused with `BadNetwork`, one line.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import struct
import sys
import zlib
from array import array
from pathlib import Path
from types import MappingProxyType

from nimmax.errors import BadInput, quoted
from nimmax.games.ntuple.network import CELLS, Network

MAGIC = b"nimmax-ntuple\n\0\0"
VERSION = 1
HEADER = struct.Struct("<16sHBHQdQ32s")
"""magic, version, weight type (TYPES), tuple count, games trained, scale, payload bytes, sha256."""
TYPES = MappingProxyType({0: "h", 1: "f"})
"""Weight type codes: int16 read times the scale (shipped), float32 (training checkpoints)."""
MOST_TUPLES, MOST_CELLS = 16, 7
MOST_WEIGHTS = 1 << 28
"""The largest network read: 256 M weights (1 GiB as float32); a header asking more is damaged."""


class BadNetwork(BadInput):
    """A network file that cannot be trusted: damaged, cut short, foreign or not a regular file."""


def encode(network: Network, compact: bool) -> bytes:
    """The file's bytes: int16 tables with a scale when `compact`, else float32 as they are."""
    code, scale = (0, 1.0) if compact else (1, network.scale)
    tables = network.tables
    if compact:
        largest = (
            max((abs(weight) for table in tables for weight in table), default=0.0) * network.scale
        )
        scale = largest / 32767 if largest else 1.0
        factor = network.scale / scale
        tables = [array("h", (round(weight * factor) for weight in table)) for table in tables]
    elif any(table.typecode != "f" for table in tables):
        tables = [array("f", (weight * network.scale for weight in table)) for table in tables]
        scale = 1.0
    raw = b"".join(_little(table).tobytes() for table in tables)
    # a checkpoint is written often, the shipped file once
    payload = zlib.compress(raw, 6 if compact else 1)
    cells = b"".join(bytes([len(shape), *shape]) for shape in network.tuples)
    head = HEADER.pack(
        MAGIC,
        VERSION,
        code,
        len(network.tuples),
        network.games,
        scale,
        len(payload),
        hashlib.sha256(cells + payload).digest(),
    )
    return head + cells + payload


def _little(table: array) -> array:  # type: ignore[type-arg]
    if sys.byteorder == "big":
        table = array(table.typecode, table)
        table.byteswap()
    return table


def save(path: Path, network: Network, compact: bool = False) -> None:
    """Write the network to `path` whole or not at all, replacing (never following) a link there."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.urandom(4).hex()}.tmp")
    descriptor = os.open(
        temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644
    )
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(encode(network, compact))
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def load(path: Path) -> Network:
    """The network in `path`; BadNetwork saying why in one line when it cannot be trusted."""
    shown = quoted(str(path))
    try:
        descriptor = os.open(
            path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        )
    except OSError as error:
        raise BadNetwork(f"cannot read the network {shown}: {error.strerror or error}") from None
    with os.fdopen(descriptor, "rb") as file:
        size = os.fstat(file.fileno())
        if not stat.S_ISREG(size.st_mode):
            raise BadNetwork(f"the network {shown} is not a regular file")
        return decode(file.read(HEADER.size), file, size.st_size, shown)


def decode(head: bytes, file: object, size: int, shown: str) -> Network:
    """The network from its header and the open file's rest, every length checked before it is
    read."""
    read = file.read  # type: ignore[attr-defined]
    if len(head) < HEADER.size or not head.startswith(MAGIC):
        raise BadNetwork(
            f"{shown} is not a nimmax network (its header is "
            f"{'cut short' if len(head) < HEADER.size else 'foreign'})"
        )
    magic, version, code, count, games, scale, length, digest = HEADER.unpack(head)
    if version != VERSION:
        raise BadNetwork(f"{shown} is a network of format {version}, not {VERSION}")
    if code not in TYPES or not 0 < count <= MOST_TUPLES or not scale > 0:
        raise BadNetwork(f"{shown} is damaged (its header is not one nimmax writes)")
    cells = read(min(count * (MOST_CELLS + 1), max(0, size - HEADER.size)))
    tuples, at = _tuples(cells, count, shown)
    weights = sum(16 ** len(shape) for shape in tuples)
    if weights > MOST_WEIGHTS:
        raise BadNetwork(f"{shown} is damaged (its tuples ask for {weights:,} weights)")
    if HEADER.size + at + length != size:
        said = HEADER.size + at + length
        raise BadNetwork(
            f"{shown} is damaged or cut short ({size:,} bytes, its header says {said:,})"
        )
    # the size is checked: at most `length` more
    payload = cells[at:] + read(length - (len(cells) - at))
    if len(payload) != length or hashlib.sha256(cells[:at] + payload).digest() != digest:
        raise BadNetwork(f"{shown} is damaged (its checksum differs)")
    return Network(tuple(tuples), _tables(payload, tuples, TYPES[code], shown), scale, games)


def _tuples(cells: bytes, count: int, shown: str) -> tuple[list[tuple[int, ...]], int]:
    """The `count` tuples the header's rest lists (each its width, then its cells), and the bytes
    they took."""
    tuples: list[tuple[int, ...]] = []
    at = 0
    for _ in range(count):
        width = cells[at] if at < len(cells) else 0
        shape = tuple(cells[at + 1 : at + 1 + width])
        if (
            not 0 < width <= MOST_CELLS
            or len(shape) != width
            or max(shape) >= CELLS
            or len(set(shape)) != width
        ):
            raise BadNetwork(f"{shown} is damaged (a tuple is not a set of board cells)")
        tuples.append(shape)
        at += 1 + width
    return tuples, at


def _tables(
    payload: bytes, tuples: list[tuple[int, ...]], typecode: str, shown: str
) -> list[array]:  # type: ignore[type-arg]
    """Each tuple's table of weights, inflated from the checked payload: no more than the tuples
    call for is ever inflated."""
    weights = sum(16 ** len(shape) for shape in tuples)
    width = array(typecode).itemsize
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(payload, weights * width + 1)
    except zlib.error:
        raise BadNetwork(f"{shown} is damaged (its tables do not inflate)") from None
    if len(raw) != weights * width or not inflater.eof:
        raise BadNetwork(f"{shown} is damaged (its tables are not the size its tuples call for)")
    tables = []
    start = 0
    for shape in tuples:
        table = array(typecode)
        table.frombytes(raw[start : start + width * 16 ** len(shape)])
        tables.append(_little(table))
        start += width * 16 ** len(shape)
    return tables


def games_in(path: Path) -> int | None:
    """The games trained by the network at `path`, read from its header alone; None when it has no
    header of ours (the load that follows says why)."""
    try:
        descriptor = os.open(
            path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        )
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            return None
        head = file.read(HEADER.size)
    if len(head) < HEADER.size or not head.startswith(MAGIC):
        return None
    return int(HEADER.unpack(head)[4])
