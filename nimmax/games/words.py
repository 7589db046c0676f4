"""Reading a game's command-line words ("nim 2 3 5 --normal") into typed options."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from nimmax.game import BadGameSpec


@dataclass(frozen=True)
class Option:
    """One `--name [VALUE]` a game accepts; `kind` is int, str or bool (a flag)."""

    name: str
    kind: type
    help: str
    default: Any = None
    minimum: int | None = None


@dataclass(frozen=True)
class Words:
    """A game's words, parsed: the positional arguments and every option's value."""

    positional: tuple[str, ...]
    options: dict[str, Any]

    def __getitem__(self, name: str) -> Any:
        return self.options[name]


def parse_words(game: str, argv: Sequence[str], options: Sequence[Option], usage: str) -> Words:
    """Split `argv` into positionals and declared options; BadGameSpec says what was wrong."""
    by_name = {option.name: option for option in options}
    values: dict[str, Any] = {option.name.lstrip("-").replace("-", "_"): option.default for option in options}
    positional: list[str] = []
    items = list(argv)
    index = 0
    while index < len(items):
        word = items[index]
        index += 1
        name, has_value, inline = word.partition("=")
        if not name.startswith("--"):
            positional.append(word)
            continue
        option = by_name.get(name)
        if option is None:
            known = ", ".join(by_name) or "none"
            raise BadGameSpec(f"{game}: unknown option {name!r} (options: {known}); usage: {usage}")
        field = name.lstrip("-").replace("-", "_")
        if option.kind is bool:
            if has_value:
                raise BadGameSpec(f"{game}: {name} is a flag and takes no value")
            values[field] = True
            continue
        if has_value:
            text = inline
        elif index < len(items):
            text = items[index]
            index += 1
        else:
            raise BadGameSpec(f"{game}: {name} needs a value; usage: {usage}")
        values[field] = _convert(game, option, text)
    return Words(tuple(positional), values)


def _convert(game: str, option: Option, text: str) -> Any:
    if option.kind is int:
        number = parse_count(game, option.name, text)
        if option.minimum is not None and number < option.minimum:
            raise BadGameSpec(f"{game}: {option.name} must be at least {option.minimum}, not {number}")
        return number
    return text


def parse_count(game: str, what: str, text: str) -> int:
    """A non-negative whole number, or BadGameSpec naming what was expected."""
    stripped = text.strip()
    if not stripped.isdigit():
        raise BadGameSpec(f"{game}: {what} must be a non-negative whole number, not {text!r}")
    return int(stripped)
