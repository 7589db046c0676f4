"""Positions read from records: `--position RECORD@N`, wherever a game's words are given, is the
position after ply N of a record, as the record's game words starting there."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nimmax import games
from nimmax.errors import quoted
from nimmax.files import read_text
from nimmax.match import MAX_RECORD_BYTES, BadRecord, GameRecord, Ply

if TYPE_CHECKING:
    from nimmax.players import Spec


def at_ply(words: Sequence[str]) -> list[str]:
    """Game words whose `--position` is `RECORD@N` (the position after ply N of a record), as the
    record's game words starting there; other words as they are. BadInput where the record cannot
    be read, has fewer plies, is another game's, or its game cannot start from that position."""
    words = list(words)
    at = next(
        (index for index, word in enumerate(words) if word.split("=")[0] == "--position"), None
    )
    if at is None:
        return words
    text = words[at].partition("=")[2] or (words[at + 1] if at + 1 < len(words) else "")
    path, sign, ply = text.rpartition("@")
    if not (sign and path and ply.isdigit() and (path.endswith(".json") or Path(path).is_file())):
        return words
    record = GameRecord.from_json(
        read_text(Path(path), MAX_RECORD_BYTES, "a record", BadRecord), Path(path).parent
    )
    states, number = record.positions(), int(ply)
    if number >= len(states):
        last = len(states) - 1
        raise BadRecord(
            f"{quoted(path)} has {last} plies: --position {quoted(path)}@N takes N from 0 to {last}"
        )
    name, *rest = shlex.split(record.game)
    info = games.lookup(name)
    if games.lookup(words[0]).name != info.name:
        raise BadRecord(f"{quoted(path)} is a record of {info.name}, not of {words[0]}")
    game, state = games.create(record.game), states[number]
    shown = game.format_position(state)
    parsed = info.signature.parse(rest)
    option = next(
        (option for option in info.signature.each_option() if option.name == "--position"), None
    )
    if option is not None:
        spec = info.signature.spec(parsed.positional, **{**parsed.options, option.field: shown})
    else:  # the game's words are its position (Nim's piles)
        spec = info.signature.spec((shown,), **parsed.options)
    if games.create(spec).initial_state() != state:
        raise BadRecord(
            f"{info.name} cannot start from ply {number} of a record; nimmax replay "
            f"{quoted(path)} shows it"
        )
    return spec.split()


def players(record: GameRecord) -> list[Spec]:
    """The record's players, each read from the words it keeps (`random:seed=3`, a plugin's
    reference)."""
    # the players and their engines load when a record is played on
    from nimmax.players import parse_spec

    return [parse_spec(words) for words in record.players]


def plies(record: GameRecord) -> list[Ply]:
    """A record's moves as plies (no clock, no search), for a match to go on from."""
    game = games.create(record.game)
    states = record.positions()
    return [
        Ply(before, game.to_move(before), game.parse_move(text, before), after, 0.0, None)
        for text, before, after in zip(record.moves, states, states[1:], strict=False)
    ]


def with_analysis(text: str, moves: Sequence[object]) -> str:
    """A record's text with `analyze --write`'s analysis stored in it (`analysis`: analyze's JSON
    moves)."""
    import json

    data = json.loads(text)
    data["analysis"] = list(moves)
    return json.dumps(data, indent=2) + "\n"


def analysis_of(text: str) -> dict[int, dict[str, Any]]:
    """The analysis a record stores, by ply (none where it was never analysed, or the field is not
    analyze's)."""
    import json

    try:
        stored = json.loads(text).get("analysis", [])
    except (ValueError, AttributeError, RecursionError):
        return {}
    if not isinstance(stored, list):
        return {}
    return {
        move["ply"]: move
        for move in stored
        if isinstance(move, dict) and type(move.get("ply")) is int
    }
