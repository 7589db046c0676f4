"""m,n,k evaluation: open windows weighted by their stones, kept stone by stone, threats by row
parity under gravity, and the threats `threats.Threats` finds, squashed into an estimate."""

from __future__ import annotations

import math

from nimmax.games.mnk.board import Board, Geometry, bits_of, payoff
from nimmax.games.mnk.rules import REMEMBERED_SCORES, Rules, memo
from nimmax.games.mnk.threats import NARROWED_CELLS, Threats

GOOD_THREAT, POOR_THREAT = 60.0, 10.0
"""What a threat under gravity adds to the estimate, on a row of the parity that favours its
owner and on the other (see `Evaluation.parity_score`); an open window of k - 1 stones weighs
4 ** (k - 2)."""
OPEN_FOUR = 600.0
"""What the estimate adds (no gravity, no threat on the board) when the mover can make two
threats with one stone: a win next move unless the opponent wins first."""
FORCED_PLIES = 12
"""Forced blocks `evaluate` plays out at most before it scores a position (quiescence on fours)."""
VCF_WIN = 900.0
"""What the estimate adds when the mover wins by continuous fours: a win beyond the horizon."""


class Evaluation:
    """The estimate a limited search reads at its horizon; in a search's copy (`remember`) with a
    memo of its own: the window score of each position scored."""

    def __init__(self, geometry: Geometry, rules: Rules, threats: Threats, remember: bool) -> None:
        self.geometry, self.rules, self.threats = geometry, rules, threats
        self._scores: dict[int, float] = memo(remember)

    def evaluate(self, state: Board, player: int) -> float:
        """Open lines weighted by how full they are, plus immediate threats, squashed into
        (-0.9, 0.9) so that no estimate looks like a proven result. Without gravity a single
        threat is blocked first (up to FORCED_PLIES in a row) and the position after scored,
        and a move making two threats at once (or one the opponent must answer) weighs in; on
        a board above NARROWED_CELLS so does a victory by continuous fours, a win the horizon
        hides (VCF_WIN)."""
        geometry, threats = self.geometry, self.threats
        gravity = geometry.gravity
        for _ in range(FORCED_PLIES):
            if gravity or state.outcome:
                break
            x_threats, o_threats = state.x_threats, state.o_threats
            mine, theirs = (o_threats, x_threats) if state.player else (x_threats, o_threats)
            if mine or not theirs or theirs & (theirs - 1):
                break
            block = (theirs & -theirs).bit_length() - 1
            state = self.rules.result(state, block)
        if state.outcome:
            return payoff(state.outcome, player) * 0.9
        x, o, mover, _, x_threats, o_threats, _ = state
        score = self.window_score(x, o)
        if gravity:
            score += self.parity_score(x_threats, o_threats)
            playable = (x | o) + geometry.bottom
            x_threats, o_threats = x_threats & playable, o_threats & playable
        mine, theirs = (o_threats, x_threats) if mover else (x_threats, o_threats)
        sign = -1 if mover else 1
        if mine:  # the mover wins at once
            score += sign * 1000.0
        elif theirs & (theirs - 1):  # two threats: one block cannot stop both
            score -= sign * 1000.0
        elif not gravity and not theirs:
            me, them = (o, x) if mover else (x, o)
            if threats.doubles(me, them):
                score += sign * OPEN_FOUR
            elif geometry.cells > NARROWED_CELLS and threats.vcf(me, them):
                score += sign * VCF_WIN
        estimate = 0.9 * math.tanh(score / 200.0)
        return estimate if player == 0 else -estimate

    def parity_score(self, x_threats: int, o_threats: int) -> float:
        """Threats under gravity valued by their row parity (rows counted from the bottom, 1
        first): X's on odd rows and O's on even rows are the ones that win a filled board
        (the odd/even threat rule), so they weigh GOOD_THREAT, the others POOR_THREAT."""
        odd = self.geometry.odd_rows
        good = (x_threats & odd).bit_count() - (o_threats & ~odd).bit_count()
        poor = (x_threats & ~odd).bit_count() - (o_threats & odd).bit_count()
        return GOOD_THREAT * good + POOR_THREAT * poor

    def window_score(self, x: int, o: int) -> float:
        """X's open windows minus O's, each weighted 4 ** (stones in it - 1).

        Remembered, in a search, for the positions scored; a position one stone past a
        remembered one is scored from it by the windows through that stone (about 20, not the
        whole board), so a search's horizon, one ply past the last, costs little.
        """
        geometry, scores = self.geometry, self._scores
        key = x | o << geometry.span
        score = scores.get(key)
        if score is not None:
            return score
        x_moved = x.bit_count() > o.bit_count()
        stones, shift = (x, 0) if x_moved else (o, geometry.span)
        for bit in bits_of(stones):
            base = scores.get(key ^ 1 << bit + shift)
            if base is not None:
                stone = 1 << bit
                gained = (
                    geometry.gain(bit, x ^ stone, o)
                    if x_moved
                    else -geometry.gain(bit, o ^ stone, x)
                )
                score = base + gained
                break
        else:
            score = sum(
                self._line_score(x, o, way) - self._line_score(o, x, way)
                for way in geometry.directions
            )
        if len(scores) >= REMEMBERED_SCORES:
            scores.clear()
        scores[key] = score
        return score

    def _line_score(self, stones: int, blockers: int, shift: int) -> float:
        """Sum over the windows along one direction free of `blockers`: 4 ** stones in them."""
        starts, planes = self.geometry.counters(stones, blockers, shift)
        missing = [starts & ~plane for plane in planes]
        score = 0.0
        for count in range(1, min(self.geometry.k, 1 << len(planes))):
            exact = starts
            for index, plane in enumerate(planes):
                exact &= plane if count >> index & 1 else missing[index]
            score += exact.bit_count() * 4.0 ** (count - 1)
        return score
