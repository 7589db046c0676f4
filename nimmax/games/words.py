"""A game's words ("nim 2 3 5 --normal"): one declaration per game drives its usage line, the
parsing of its words, and its `spec`, the words that rebuild it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from nimmax.errors import quoted
from nimmax.game import BadGameSpec
from nimmax.numbers import Option

__all__ = ("OneOf", "Option", "Signature", "Words")


@dataclass(frozen=True)
class OneOf:
    """Groups of options that exclude each other, as in `[--size N | --rows R --cols C]`."""

    groups: tuple[tuple[Option, ...], ...]


@dataclass(frozen=True)
class Words:
    """A game's words, parsed: the positional words and every option's value."""

    positional: tuple[str, ...]
    options: dict[str, Any]

    def __getitem__(self, field: str) -> Any:
        return self.options[field]


@dataclass(frozen=True)
class Signature:
    """The words one game takes: positional words (shown as `positional`; "" when it takes
    none) and options; `note` follows the usage in parentheses."""

    game: str
    positional: str = ""
    options: tuple[Option | OneOf, ...] = ()
    note: str = ""

    def each_option(self) -> Iterator[Option]:
        """Every option, those of OneOf groups included, in the order of the usage."""
        for item in self.options:
            if isinstance(item, OneOf):
                yield from (option for group in item.groups for option in group)
            else:
                yield item

    @property
    def usage(self) -> str:
        """The usage line, e.g. `simple-nim N [--max-take T] [--normal]`."""
        words = [self.game, self.positional] if self.positional else [self.game]
        for item in self.options:
            if isinstance(item, OneOf):
                groups = (" ".join(option.usage for option in group) for group in item.groups)
                words.append("[" + " | ".join(groups) + "]")
            else:
                words.append(f"[{item.usage}]")
        return " ".join(words) + (f"  ({self.note})" if self.note else "")

    def parse(self, argv: Sequence[str]) -> Words:
        """Split `argv` into positional words and option values; BadGameSpec says what was wrong."""
        by_name = {option.name: option for option in self.each_option()}
        values = {
            option.field: False if option.kind is bool else option.default
            for option in by_name.values()
        }
        given: set[str] = set()
        positional: list[str] = []
        index = 0
        while index < len(argv):
            word = argv[index]
            index += 1
            name, has_value, inline = word.partition("=")
            if not name.startswith("--"):
                if not self.positional:
                    raise BadGameSpec(f"{self.game} takes no {quoted(word)}; usage: {self.usage}")
                positional.append(word)
                continue
            option = by_name.get(name)
            if option is None:
                raise BadGameSpec(
                    f"{self.game}: unknown option {quoted(name)}; usage: {self.usage}"
                )
            given.add(name)
            if option.kind is bool:
                if has_value:
                    raise BadGameSpec(f"{self.game}: {name} is a flag and takes no value")
                values[option.field] = True
                continue
            if has_value:
                text = inline
            elif index < len(argv):
                text = argv[index]
                index += 1
            else:
                raise BadGameSpec(f"{self.game}: {name} needs a value; usage: {self.usage}")
            values[option.field] = option.read(text, f"{self.game}: {name}", BadGameSpec)
        self._check_exclusions(given)
        return Words(tuple(positional), values)

    def _check_exclusions(self, given: set[str]) -> None:
        for item in self.options:
            if isinstance(item, OneOf):
                used = [
                    group for group in item.groups if any(option.name in given for option in group)
                ]
                if len(used) > 1:
                    choices = " or ".join(
                        "/".join(option.name for option in group) for group in item.groups
                    )
                    raise BadGameSpec(f"{self.game}: give {choices}, not both")

    def spec(self, positional: Sequence[object] = (), **values: Any) -> str:
        """The words that rebuild a game: the positional words, then each option whose value is
        neither None nor its default (a flag when True)."""
        options = list(self.each_option())
        unknown = set(values) - {option.field for option in options}
        if unknown:
            raise TypeError(f"{self.game} has no option {', '.join(sorted(unknown))}")
        words = [self.game, *map(str, positional)]
        for option in options:
            value = values.get(option.field)
            if value is None or value is False or value == option.default:
                continue
            words += [option.name] if option.kind is bool else [option.name, str(value)]
        return " ".join(words)
