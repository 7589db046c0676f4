"""Waiting for one key at a terminal: the 2048 session's slides and the replay stepper's steps."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output


def read_one_key(
    meanings: Mapping[str, str],
    hint: str,
    accepts: Callable[[str], bool] = lambda meaning: True,
    input: Input | None = None,
    output: Output | None = None,
) -> str:
    """Show `hint` on one line and wait for a key of `meanings` (prompt_toolkit's key name to what
    it means) whose meaning `accepts`: that meaning; another rings the bell. Ctrl-C raises
    KeyboardInterrupt."""
    bindings = KeyBindings()

    def answer(meaning: str) -> Callable[[KeyPressEvent], None]:
        def handler(event: KeyPressEvent) -> None:
            if accepts(meaning):
                event.app.exit(result=meaning)
            else:
                event.app.output.bell()

        return handler

    for key, meaning in meanings.items():
        bindings.add(key)(answer(meaning))

    @bindings.add("c-c")
    def interrupt(event: KeyPressEvent) -> None:
        event.app.exit(exception=KeyboardInterrupt())

    application: Application[str] = Application(
        layout=Layout(Window(FormattedTextControl(hint), height=1)),
        key_bindings=bindings,
        input=input,
        output=output,
        erase_when_done=True,
    )
    return application.run()
