"""`nimmax check`: the Game protocol's laws tried on seeded random playouts.

Each law is tried on every position the playouts reach (a few sampled moves at each), and a
broken one is reported with the shortest counterexample found: the moves from the start.
Laws of capabilities (`search_actions`, `evaluate`) run only where the game declares them, the
key law where it defines `key`; `capabilities` compares what the game declares with what it
defines. Modules: `laws` (the laws, the report), `checker` (the playouts, each law's test of a
position), `solver` (the key law's values).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any

from nimmax.check.checker import Checker
from nimmax.check.laws import LAWS, Finding, Law, Report, Status, Tally, capabilities_kept, runs
from nimmax.game import AnyGame, BadGameSpec, Capability
from nimmax.plugins.guard import unguarded

__all__ = [
    "LAWS",
    "PLAYOUTS",
    "Finding",
    "Law",
    "Report",
    "check",
    "playout_moves",
    "position_reader",
]

PLAYOUTS = 100


def check(
    game: AnyGame,
    playouts: int = PLAYOUTS,
    seed: int = 0,
    position: Callable[[str], Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Try every law on `playouts` seeded random playouts of `game`; `position` reads a
    position's text into a state (the game's `--position`), when the game has one. A plugin game
    is tried as its own code, outside the boundary that would stop at a broken law unreported."""
    spec, game = game.spec, unguarded(game)
    active = [
        law for law in LAWS if law.name != "capabilities" and runs(law, game, position is not None)
    ]
    tallies = {law.name: Tally() for law in active}
    checker = Checker(game, random.Random(seed), position)
    interruption: KeyboardInterrupt | None = None
    try:
        for number in range(playouts):
            if progress is not None:
                progress(number, playouts)
            _playout(checker, active, tallies)
    # the findings so far are kept; the caller raises it once shown
    except KeyboardInterrupt as error:
        interruption = error
    return Report(spec, playouts, seed, checker.count, _findings(game, tallies), interruption)


def _playout(checker: Checker, active: list[Law], tallies: dict[str, Tally]) -> None:
    """One playout: each active law tried at each position, a crash and the key law's pairs
    settled."""
    for path, state, rebuilt in checker.playout():
        checker.count += 1
        for law in active:
            tally = tallies[law.name]
            tally.checked += 1
            subject = copy.deepcopy(state) if checker.mutates else state
            try:
                broken = checker.laws[law.name](path, subject, rebuilt)
            # the game's own code raised (or exited): that breaks the law too
            except (Exception, SystemExit) as error:
                broken = f"{type(error).__name__}: {error}"
            if broken:
                tally.fail(tuple(path), broken)
    if checker.crash is not None:
        law_name, where, why = checker.crash
        tallies[law_name].fail(where, why)
        checker.crash = None
    if "key" in tallies:
        for where, why in checker.settle():
            tallies["key"].fail(where, why)


def _skipped(law: Law) -> str:
    """Why a law did not run on the game."""
    capability = next((each for each in Capability if each.member == law.needs), None)
    if capability is not None:
        return f"the game does not declare {capability.name} ({law.needs})"
    return f"the game keeps the default {law.needs}"


def _findings(game: AnyGame, tallies: dict[str, Tally]) -> tuple[Finding, ...]:
    """Every law's finding, in the order of LAWS: the capabilities law read from the game itself."""
    findings = []
    for law in LAWS:
        kept = tallies.get(law.name)
        if law.name == "capabilities":
            why = capabilities_kept(game)
            findings.append(Finding(law, "failed", 0, (), why) if why else Finding(law, "passed"))
        elif kept is None:
            findings.append(Finding(law, "skipped", detail=_skipped(law)))
        else:
            status: Status = "failed" if kept.moves is not None else "passed"
            findings.append(Finding(law, status, kept.checked, kept.moves, kept.detail))
    return tuple(findings)


def position_reader(words: Sequence[str]) -> Callable[[str], Any] | None:
    """How `--position` reads a position of the registered game these words build; None for a
    game without `--position` (a plugin, or a game whose words are its position)."""
    from nimmax import games

    name = words[0].lower() if words else ""
    try:
        info = games.lookup(name)
    except BadGameSpec:
        return None
    if not any(option.name == "--position" for option in info.signature.each_option()):
        return None
    rest = list(words[1:])
    # the position given is where the game starts; others are read in its place
    if "--position" in rest:
        at = rest.index("--position")
        del rest[at : at + 2]
    return lambda text: games.create([name, *rest, "--position", text]).initial_state()


def playout_moves(game: AnyGame, moves: Sequence[str]) -> Any:
    """The state the moves of a counterexample lead to, from the start."""
    state = game.initial_state()
    for text in moves:
        state = game.result(state, game.parse_move(text, state))
    return state
