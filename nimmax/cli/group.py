"""The app as click sees it, built for start-up time: a command is made from its function's
signature only when a run names it (all of them for `nimmax --help`), and help is drawn by typer's
renderer loaded without the rich modules it imports but never calls here."""

from __future__ import annotations

import copy
import importlib
import sys
from collections.abc import Iterator, MutableMapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperCommand, TyperGroup
from typer.models import CommandInfo

if TYPE_CHECKING:
    from typer._click import Command, Context, HelpFormatter

UNDRAWN = MappingProxyType({"rich.markdown": "Markdown", "rich.traceback": "Traceback"})
"""What typer's help renderer imports and nimmax never has it draw: markdown (the app's markup is
rich's) and pretty tracebacks (turned off); together half the renderer's import time."""


class StandIn(type):
    """A class standing in for one of UNDRAWN while typer's renderer is imported: should it be
    used after all, it is the real class, imported then."""

    home: str

    def real(cls) -> Any:
        """The class this one stands in for."""
        return getattr(importlib.import_module(cls.home), cls.__name__)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return cls.real()(*args, **kwargs)

    def __getattr__(cls, name: str) -> Any:
        return getattr(cls.real(), name)


def load_help() -> None:
    """Import typer's help renderer with UNDRAWN's modules stood in for, then forgotten, so whoever
    imports them later (a view drawing the rules) gets the real ones."""
    if "typer.rich_utils" in sys.modules:
        return
    stand_ins = {}
    for name, member in UNDRAWN.items():
        if name not in sys.modules:
            module = type(sys)(name)
            setattr(module, member, StandIn(member, (), {"home": name}))
            stand_ins[name] = module
    sys.modules.update(stand_ins)
    try:
        import typer.rich_utils  # noqa: F401
    finally:
        for name, module in stand_ins.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]


class Subcommand(TyperCommand):
    """A command whose help loads the renderer as `load_help` does."""

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        load_help()
        super().format_help(ctx, formatter)


class Commands(TyperGroup):
    """The app's group: lists its commands without building them; its help loads the renderer as
    `load_help` does."""

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        load_help()
        super().format_help(ctx, formatter)

    def list_commands(self, ctx: Context) -> list[str]:
        return list(self.commands)


class Built(MutableMapping[str, "Command"]):
    """A group's commands by name, in the order registered, each built from its function when first
    asked for."""

    def __init__(self, app: typer.Typer) -> None:
        self.app = app
        self.entries: dict[str, CommandInfo | Command] = {
            info.name or typer.main.get_command_name(getattr(info.callback, "__name__", "")): info
            for info in app.registered_commands
        }

    def __getitem__(self, name: str) -> Command:
        entry = self.entries[name]
        if isinstance(entry, CommandInfo):
            info = copy.copy(entry)
            info.cls = info.cls or Subcommand
            entry = self.entries[name] = typer.main.get_command_from_info(
                info,
                pretty_exceptions_short=self.app.pretty_exceptions_short,
                rich_markup_mode=self.app.rich_markup_mode,
            )
        return entry

    def __setitem__(self, name: str, command: Command) -> None:
        self.entries[name] = command

    def __delitem__(self, name: str) -> None:
        del self.entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)


def command_group(app: typer.Typer) -> TyperGroup:
    """`app` as a click group, its commands built as `Built` does (typer's `get_command` builds them
    all)."""
    bare = copy.copy(app)
    bare.registered_commands = []
    group = typer.main.get_group(bare)  # the app's own options and help, no command yet
    group.commands = Built(app)
    return group
