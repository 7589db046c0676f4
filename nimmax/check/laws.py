"""The laws `nimmax check` tries, and what it reports: a finding per law, a report per game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from nimmax.game import AnyGame, Capability, Game, defined

Status = Literal["passed", "failed", "skipped"]


@dataclass(frozen=True)
class Law:
    """One law of the Game protocol: its name, what it says, and the member it needs."""

    name: str
    says: str
    needs: str | None = None
    """The optional member the law is about: the law is skipped when the game does not declare its
    capability (or, for `key`, keeps the default and declares no OFFSET_KEY; for `position`, has no
    `--position`)."""


LAWS = (
    Law("unchanged", "result() never changes the state it is given"),
    Law("rebuilt", "states hash, and compare equal when the same moves rebuild them"),
    Law("to-move", "to_move() is a seat, or CHANCE in a game with chance"),
    Law("actions", "a terminal state has no actions; any other has actions (or chance outcomes)"),
    Law("legal", "every action applies; a move outside them raises IllegalMove"),
    Law("chance", "chance probabilities are positive and sum to 1"),
    Law("zero-sum", "utilities are numbers, summing to zero in a two-player game"),
    Law("notation", "parse_move(format_move(move)) gives the move back"),
    Law(
        "position",
        "the position read from format_position() writes the same, with the same mover and moves",
        "position",
    ),
    Law("search-actions", "search_actions() are legal actions", "search_actions"),
    Law("evaluate", "evaluate() is a finite number for every seat", "evaluate"),
    Law(
        "key",
        "equal keys give equal values less their offsets (and distance to the end) on small "
        "exhaustive searches",
        "key",
    ),
    Law(
        "capabilities",
        "each capability declared has its member, and each capability's member defined is declared",
    ),
)


@dataclass(frozen=True)
class Finding:
    """A law's verdict: passed, failed with its shortest counterexample, or skipped."""

    law: Law
    status: Status
    checked: int = 0
    """Positions the law was tried on."""
    moves: tuple[str, ...] | None = None
    """The counterexample: the moves from the start to the position that breaks the law."""
    detail: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "law": self.law.name,
            "says": self.law.says,
            "status": self.status,
            "checked": self.checked,
            "counterexample": list(self.moves) if self.moves is not None else None,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Report:
    """Every law's finding for one game."""

    game: str
    playouts: int
    seed: int
    positions: int
    findings: tuple[Finding, ...]
    interruption: KeyboardInterrupt | None = field(default=None, compare=False)
    """The Ctrl-C or SIGTERM that cut the playouts short: the findings are those of the positions
    before it."""

    @property
    def holds(self) -> bool:
        """Whether no law failed."""
        return all(finding.status != "failed" for finding in self.findings)

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "playouts": self.playouts,
            "seed": self.seed,
            "positions": self.positions,
            "interrupted": self.interruption is not None,
            "passed": self.holds,
            "laws": [finding.as_json() for finding in self.findings],
        }


@dataclass
class Tally:
    """What one law has seen so far: positions tried and its shortest failure."""

    checked: int = 0
    moves: tuple[str, ...] | None = None
    detail: str = ""

    def fail(self, moves: tuple[str, ...], detail: str) -> None:
        if self.moves is None or len(moves) < len(self.moves):
            self.moves, self.detail = moves, detail


def runs(law: Law, game: AnyGame, reads_positions: bool) -> bool:
    """Whether `law` applies to `game`: its capability declared, its member defined, its reader
    given."""
    if law.needs is None:
        return True
    if law.needs == "position":
        return reads_positions
    if law.needs == "key" and Capability.OFFSET_KEY in game.capabilities:
        return True
    capability = next((each for each in Capability if each.member == law.needs), None)
    if capability is not None:
        return capability in game.capabilities
    return getattr(type(game), law.needs, None) is not getattr(Game, law.needs, None)


def capabilities_kept(game: AnyGame) -> str | None:
    """Why the game's declared capabilities and the members it defines disagree, or None: a
    capability declared whose member it does not define (engines go without it), or a member defined
    whose capability neither the class nor the game declares (engines would never call it)."""
    members = defined(type(game))
    missing = sorted(each.name for each in game.capabilities - members)
    unused = sorted(each.member for each in members - game.capabilities - type(game).capabilities)
    why = [f"declares {name} but does not define {Capability[name].member}" for name in missing]
    why += [f"defines {member} but does not declare {Capability(member).name}" for member in unused]
    return "; ".join(why) or None
