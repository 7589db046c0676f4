"""Game theory the tests check nimmax against, computed here without nimmax's engines or games.

Nim by Bouton's theorem, Split-Nim (Grundy's game) by Sprague-Grundy values found by mex,
Simple-Nim by its period, the size of plain minimax's tree on Simple-Nim by its recurrence, and
Kalah by its rules read literally and plain minimax over them.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache


def nim_sum(piles: Iterable[int]) -> int:
    """The nim-sum: the pile sizes added in binary without carry (exclusive or); 0 for no piles."""
    total = 0
    for pile in piles:
        total ^= pile
    return total


def nim_mover_wins(piles: Iterable[int], *, misere: bool) -> bool:
    """Bouton's theorem: the mover wins iff the nim-sum is not 0, except in misère play with no
    pile above one, where the mover wins iff the number of ones is even."""
    piles = list(piles)
    if misere and all(pile <= 1 for pile in piles):
        return sum(piles) % 2 == 0
    return nim_sum(piles) != 0


def mex(values: Iterable[int]) -> int:
    """The minimum excludant: the least whole number not among `values`."""
    present = set(values)
    return next(value for value in range(len(present) + 1) if value not in present)


@cache
def grundy(pile: int) -> int:
    """Grundy value of one Split-Nim pile: the mex over every split into two unequal parts."""
    return mex(grundy(pile - smaller) ^ grundy(smaller) for smaller in range(1, (pile + 1) // 2))


def split_nim_mover_wins(piles: Iterable[int]) -> bool:
    """Sprague-Grundy: a sum of games is won by the mover iff the nim-sum of their values is not
    0."""
    return nim_sum(grundy(pile) for pile in piles) != 0


def simple_nim_mover_wins(counters: int, max_take: int, *, misere: bool) -> bool:
    """Take 1..max_take: the mover loses exactly on 1 (misère) or 0 (normal) modulo max_take + 1."""
    return counters % (max_take + 1) != (1 if misere else 0)


def simple_nim_tree_size(counters: int) -> int:
    """Nodes plain minimax visits on Simple-Nim taking 1 to 3: t(n) = 1 + t(n-1) + t(n-2) + t(n-3),
    t(0) = 1 and t(negative) = 0 (the root plus the tree after each move)."""
    sizes = [1]
    for n in range(1, counters + 1):
        sizes.append(1 + sum(sizes[n - take] for take in (1, 2, 3) if take <= n))
    return sizes[counters]


# --- Kalah: the rules read literally, on a list, sharing no code with nimmax ---------------------
# Layout: index 0..n-1 South's pits, n South's store, n+1..2n North's pits, 2n+1 North's store.


def kalah_sow(board: tuple[int, ...], player: int, pit: int) -> tuple[tuple[int, ...], int]:
    """Sow pit `pit` (1-based from the mover's left); the new board and the player to move."""
    n = (len(board) - 2) // 2
    cells = list(board)
    my_pits = list(range(player * (n + 1), player * (n + 1) + n))
    my_store = player * (n + 1) + n
    their_store = (1 - player) * (n + 1) + n
    here = my_pits[pit - 1]
    hand, cells[here] = cells[here], 0
    assert hand > 0
    while hand > 0:
        here = (here + 1) % len(cells)
        if here == their_store:
            continue
        cells[here] += 1
        hand -= 1
    next_player = 1 - player
    if here == my_store:
        next_player = player
    elif here in my_pits and cells[here] == 1:
        # Opposite pits face each other across the board: pit k of South faces pit n+1-k of North.
        opposite = len(cells) - 2 - here
        if cells[opposite] > 0:
            cells[my_store] += cells[opposite] + 1
            cells[here] = cells[opposite] = 0
    south, north = cells[0:n], cells[n + 1 : 2 * n + 1]
    if sum(south) == 0 or sum(north) == 0:
        cells[n] += sum(south)
        cells[2 * n + 1] += sum(north)
        for index in list(range(0, n)) + list(range(n + 1, 2 * n + 1)):
            cells[index] = 0
    return tuple(cells), next_player


def kalah_over(board: tuple[int, ...]) -> bool:
    """Whether either side's pits are empty: the game is over."""
    n = (len(board) - 2) // 2
    return sum(board[0:n]) == 0 or sum(board[n + 1 : 2 * n + 1]) == 0


def kalah_margin(board: tuple[int, ...], player: int) -> int:
    """Seeds `player` ends with minus the opponent's, each side's pits swept to its store."""
    n = (len(board) - 2) // 2
    south = board[n] + sum(board[0:n])
    north = board[2 * n + 1] + sum(board[n + 1 : 2 * n + 1])
    return south - north if player == 0 else north - south


@cache
def kalah_solved(board: tuple[int, ...], player: int) -> int:
    """Perfect-play final margin for `player`, the side to move: plain minimax from South's view."""
    n = (len(board) - 2) // 2
    if kalah_over(board):
        return kalah_margin(board, player)
    outcomes = []
    for pit in range(1, n + 1):
        if board[player * (n + 1) + pit - 1] > 0:
            after, mover = kalah_sow(board, player, pit)
            south_view = kalah_solved(after, mover) if mover == 0 else -kalah_solved(after, mover)
            outcomes.append(south_view)
    best = max(outcomes) if player == 0 else min(outcomes)
    return best if player == 0 else -best


KALAH_4_3 = 6
"""South's margin in Kalah(4, 3) by `kalah_solved` (5.2 M positions, some minutes: not run by the
tests)."""


@cache
def kalah_solved_within(board: tuple[int, ...], player: int) -> tuple[int, int]:
    """The perfect-play final margin for `player`, the side to move, and the plies to the end when
    each side breaks ties by the quickest win and the slowest loss (a draw's plies: the fewest)."""
    n = (len(board) - 2) // 2
    if kalah_over(board):
        return kalah_margin(board, player), 0
    outcomes = []
    for pit in range(1, n + 1):
        if board[player * (n + 1) + pit - 1] > 0:
            after, mover = kalah_sow(board, player, pit)
            margin, plies = kalah_solved_within(after, mover)
            outcomes.append((margin if mover == player else -margin, plies + 1))
    best = max(margin for margin, _ in outcomes)
    lengths = [plies for margin, plies in outcomes if margin == best]
    return best, max(lengths) if best < 0 else min(lengths)


# --- Nim-family ends: the payoff and the plies when the winner wins quickest, the loser slowest ---


def best_end(outcomes: Iterable[tuple[int, int]]) -> tuple[int, int]:
    """The mover's (payoff, plies) among its moves' outcomes: a win soonest, a loss latest."""
    return max(outcomes, key=lambda pair: (pair[0], -pair[1] if pair[0] > 0 else pair[1]))


@cache
def nim_end(piles: tuple[int, ...], misere: bool) -> tuple[int, int]:
    """Nim by plain recursion over every take: (payoff for the mover, plies to the end)."""
    if not any(piles):
        return (1 if misere else -1), 0  # the other side took the last counter
    outcomes = []
    for index, pile in enumerate(piles):
        for take in range(1, pile + 1):
            payoff, plies = nim_end(
                tuple(sorted((*piles[:index], pile - take, *piles[index + 1 :]))), misere
            )
            outcomes.append((-payoff, plies + 1))
    return best_end(outcomes)


@cache
def simple_nim_end(counters: int, max_take: int, misere: bool) -> tuple[int, int]:
    """Simple-Nim by plain recursion: (payoff for the mover, plies to the end)."""
    if not counters:
        return (1 if misere else -1), 0
    outcomes = []
    for take in range(1, min(max_take, counters) + 1):
        payoff, plies = simple_nim_end(counters - take, max_take, misere)
        outcomes.append((-payoff, plies + 1))
    return best_end(outcomes)
