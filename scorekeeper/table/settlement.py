"""Who pays whom at the end of a night, and the optional loss cap on a night's money.

Pure Python, no Django: balances are a mapping from any hashable player key
(a seat id, a name) to whole cents, winners positive, losers negative.

Ties are broken by one fixed ranking of the keys (see ``_tie_key``): int keys
by value first, then any other key by type name, ``str`` and ``repr``. Only the
keys and amounts matter, never the mapping's order, so the same balances always
give the same payments and a page that re-renders does not reshuffle them.
"""

from __future__ import annotations

import heapq
from collections import defaultdict, deque
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

#: Up to this many players with a non-zero balance, ``settle`` searches every
#: subset (2**15 = 32768 states, a few tens of milliseconds in CPython).
EXACT_LIMIT = 15


def settle(balances: Mapping[K, int]) -> list[tuple[K, K, int]]:
    """Return ``(payer, payee, cents)`` payments that zero every balance.

    The balances must be whole cents summing to zero (``ValueError``
    otherwise; ``TypeError`` for a value that is not an ``int``). Every payment
    is at least one cent, and there are as few as possible: the number of
    players with a non-zero balance minus the largest number of disjoint groups
    of them whose balances sum to zero. That is exact for up to
    ``EXACT_LIMIT`` such players; above it a fast fallback still never makes
    more than one payment fewer than there are players.

    Payments come largest first, then by the payer's and payee's rank.

    >>> settle({"ann": 600, "bob": 400, "cy": 300, "dee": -700, "eve": -600})
    [('eve', 'ann', 600), ('dee', 'bob', 400), ('dee', 'cy', 300)]
    >>> settle({"ann": 0, "bob": 0})
    []
    """
    _check_balances(balances)
    players = sorted((key for key, cents in balances.items() if cents), key=_tie_key)
    rank = {player: index for index, player in enumerate(players)}
    amounts = {player: balances[player] for player in players}

    payments: list[tuple[K, K, int]] = []
    for group in _zero_sum_groups(players, amounts):
        payments.extend(_settle_group(group, amounts, rank))
    payments.sort(key=lambda payment: (-payment[2], rank[payment[0]], rank[payment[1]]))
    return payments


def square_leaver(balances: Mapping[K, int], leaver: K) -> list[tuple[K, K, int]]:
    """Return ``(payer, payee, cents)`` payments that square ``leaver`` against the
    table as it stands when they leave, so they can pay (or be paid) before they go.

    The rule: the fewest payments against the current standings. A leaver who lost
    pays the players who are up, largest balance first; one who won is paid by the
    players who are down, largest debt first. Each of the others gives or takes at
    most their own balance, so nobody is asked to pay more than they are down or
    receives more than they are up, and the leaver's whole balance goes in as few
    payments as it can (taking the largest first needs the fewest). Ties go by the
    keys' rank, as in :func:`settle`. Only the leaver's money moves: what the others
    still owe each other waits for the end of the night, when they settle among
    themselves in the fewest payments with these payments counted.

    It is fair because it changes nobody's result: whoever takes the leaver's money
    now has it counted against their balance at the end, so each player still ends
    the night exactly at their own result; the rule only chooses who hands over the
    cash tonight, and the fewest hands is the least fuss for someone with their coat
    on. Proportional shares would give each winner a part of it and make a small
    payment to everyone instead of one or two.

    ``balances`` are whole cents (the table's money at the leaver's last round);
    they need not sum to zero. Should the others not hold enough to cover the
    leaver's balance, the payments cover what they hold.

    >>> square_leaver({"bram": -500, "anna": 800, "cora": 200, "dan": -500}, "bram")
    [('bram', 'anna', 500)]
    >>> square_leaver({"bram": -900, "anna": 800, "cora": 200, "dan": -100}, "bram")
    [('bram', 'anna', 800), ('bram', 'cora', 100)]
    >>> square_leaver({"bram": 300, "anna": -200, "cora": -200, "dan": 100}, "bram")
    [('anna', 'bram', 200), ('cora', 'bram', 100)]
    >>> square_leaver({"bram": 0, "anna": 5, "cora": -5}, "bram")
    []
    """
    _check_cents(balances)
    left = balances[leaver]
    sign = 1 if left < 0 else -1  # the others who take from (or give to) the leaver
    others = sorted(
        (key for key, cents in balances.items() if key != leaver and sign * cents > 0),
        key=lambda key: (-sign * balances[key], _tie_key(key)),
    )
    payments: list[tuple[K, K, int]] = []
    owed = abs(left)
    for other in others:
        if not owed:
            break
        cents = min(owed, sign * balances[other])
        payments.append((leaver, other, cents) if left < 0 else (other, leaver, cents))
        owed -= cents
    return payments


@dataclass(frozen=True)
class CappedBalances(Generic[K]):
    """Balances after a loss cap, and who gave up how much.

    ``balances`` has every key of the input, in the input's order, still
    summing to zero. ``forgiven`` maps each capped loser to the cents they do
    not pay; ``reduced`` maps each winner to the cents taken off what they are
    owed. Both leave out players with nothing to report, and
    ``sum(forgiven.values()) == sum(reduced.values())``. ``cap`` is the loss cap
    applied, 0 when none was (:func:`night_money` of a night without one).
    """

    balances: Mapping[K, int]
    forgiven: Mapping[K, int]
    reduced: Mapping[K, int]
    cap: int

    @property
    def total_forgiven(self) -> int:
        """Cents the capped losers do not pay, all together."""
        return sum(self.forgiven.values())


def apply_loss_cap(balances: Mapping[K, int], cap: int) -> CappedBalances[K]:
    """Limit every loss to ``cap`` cents and take the difference off the winners.

    Each winner gives up a share of the forgiven total in proportion to what
    they are owed, rounded to the cent by largest remainder: everyone first
    gets the rounded-down share, then the cents still missing go one each to
    the largest remainders (ties: the larger winner, then the key's rank).

    A winner never gives up more than they are owed, so nobody's winnings turn
    into a loss: the forgiven total F is at most the total owed T (the capped
    losers still pay something), so the exact share F*w/T is at most w; the
    rounded-down share is below it when the division leaves a remainder, so
    the extra cent brings it to at most w.

    >>> capped = apply_loss_cap({"ann": 700, "bob": 300, "cy": -1000}, 600)
    >>> capped.balances
    {'ann': 420, 'bob': 180, 'cy': -600}
    >>> capped.forgiven, capped.reduced
    ({'cy': 400}, {'ann': 280, 'bob': 120})
    """
    if isinstance(cap, bool) or not isinstance(cap, int):
        raise TypeError(f"the loss cap must be a whole number of cents, not {cap!r}")
    if cap <= 0:
        raise ValueError(f"the loss cap must be more than 0 cents, not {cap}")
    _check_balances(balances)

    forgiven = {key: -cents - cap for key, cents in balances.items() if -cents > cap}
    total_forgiven = sum(forgiven.values())
    winners = sorted(
        (key for key, cents in balances.items() if cents > 0),
        key=lambda key: (-balances[key], _tie_key(key)),
    )
    total_owed = sum(balances[key] for key in winners)

    reduced: dict[K, int] = {}
    remainders: list[tuple[int, int, K]] = []
    for position, key in enumerate(winners):
        share, remainder = divmod(total_forgiven * balances[key], total_owed)
        reduced[key] = share
        # Sorting on (-remainder, position) puts the largest remainder first
        # and, among equal ones, keeps the winners' order (larger, then rank).
        remainders.append((-remainder, position, key))
    missing = total_forgiven - sum(reduced.values())
    for _, _, key in sorted(remainders)[:missing]:
        reduced[key] += 1

    capped = {
        key: cents + forgiven.get(key, 0) - reduced.get(key, 0) for key, cents in balances.items()
    }
    return CappedBalances(
        balances=capped,
        forgiven=forgiven,
        reduced={key: cents for key, cents in reduced.items() if cents},
        cap=cap,
    )


def night_money(
    points: Mapping[K, int], point_cents: int, loss_cap: int | None
) -> CappedBalances[K]:
    """A night's money: each player's ``points`` times ``point_cents``, then every
    loss limited to ``loss_cap`` cents by :func:`apply_loss_cap` when the night has a
    cap (``None`` or 0: it has none).

    Recorded rounds always add up to zero; were the points ever off, the money is
    left uncapped rather than refused, so a page still shows what they come to.

    >>> night_money({"ann": 28, "bob": 1, "cy": -29}, 10, 150).balances
    {'ann': 145, 'bob': 5, 'cy': -150}
    >>> night_money({"ann": 28, "bob": 1, "cy": -29}, 10, None).balances
    {'ann': 280, 'bob': 10, 'cy': -290}
    >>> night_money({"ann": 30, "bob": -20}, 10, 100).balances  # off: no cap
    {'ann': 300, 'bob': -200}
    """
    for key, value in points.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"the points of {key!r} must be a whole number, not {value!r}")
    balances = {key: value * point_cents for key, value in points.items()}
    if loss_cap and sum(balances.values()) == 0:
        return apply_loss_cap(balances, loss_cap)
    return CappedBalances(balances=balances, forgiven={}, reduced={}, cap=0)


def _check_balances(balances: Mapping[K, int]) -> None:
    _check_cents(balances)
    total = sum(balances.values())
    if total:
        raise ValueError(f"balances must sum to zero, but they sum to {total} cents")


def _check_cents(balances: Mapping[K, int]) -> None:
    for key, cents in balances.items():
        # bool is an int subclass, but True cents is always a bug upstream.
        if isinstance(cents, bool) or not isinstance(cents, int):
            raise TypeError(f"the balance of {key!r} must be whole cents, not {cents!r}")


def _tie_key(key: Hashable) -> tuple[int, int, str, str, str]:
    """Rank player keys the same way whatever order they arrive in.

    Int keys (seat ids) sort by value; everything else by type name, ``str``
    and ``repr``. Two different keys equal on all three keep their input order,
    which only happens for odd objects, never for ints or strings.
    """
    if isinstance(key, int) and not isinstance(key, bool):
        return (0, key, "", "", "")
    return (1, 0, type(key).__qualname__, str(key), repr(key))


def _zero_sum_groups(players: list[K], amounts: Mapping[K, int]) -> list[list[K]]:
    """Split the players into as many disjoint zero-sum groups as we can afford.

    A creditor and a debtor with exactly opposite balances can always form a
    group of their own without losing anything: in a best split, putting the
    two together and merging what is left of their old groups keeps the count.
    So pairs go first, which also shrinks the exact search.
    """
    pairs, rest = _peel_matching_pairs(players, amounts)
    if len(rest) <= EXACT_LIMIT:
        return pairs + _most_zero_sum_groups(rest, amounts)
    # Too many for the exact search: one group settled greedily makes at most
    # len(rest) - 1 payments, so the whole night stays within n - 1.
    return [*pairs, rest]


def _peel_matching_pairs(
    players: list[K], amounts: Mapping[K, int]
) -> tuple[list[list[K]], list[K]]:
    debtors_by_debt: dict[int, deque[K]] = defaultdict(deque)
    for player in players:
        if amounts[player] < 0:
            debtors_by_debt[-amounts[player]].append(player)
    pairs: list[list[K]] = []
    paired: set[K] = set()
    for player in players:
        debtors = debtors_by_debt.get(amounts[player])
        if amounts[player] > 0 and debtors:
            debtor = debtors.popleft()
            pairs.append([debtor, player])
            paired.update((debtor, player))
    return pairs, [player for player in players if player not in paired]


def _most_zero_sum_groups(players: list[K], amounts: Mapping[K, int]) -> list[list[K]]:
    """Partition zero-sum ``players`` into the largest number of zero-sum groups.

    Subsets are bitmasks over ``players`` (bit i is ``players[i]``).
    ``best[mask]`` is the most disjoint zero-sum groups that fit inside
    ``mask``. If ``mask`` does not sum to zero, some player is outside every
    group, so ``best[mask]`` is the best of ``best[mask - i]``; if it does,
    whatever is left over around the groups of ``mask - i`` sums to zero and is
    one more group. Hence: ``best[mask] = max_i best[mask - i] + (sum == 0)``.
    """
    count = len(players)
    if not count:
        return []
    sums = [0]
    for player in players:
        # Doubling the list gives the sum of every subset in 2**count steps.
        sums += [subtotal + amounts[player] for subtotal in sums]

    full = (1 << count) - 1
    best = bytearray(full + 1)
    for mask in range(1, full + 1):
        most = 0
        rest = mask
        while rest:
            bit = rest & -rest
            if best[mask ^ bit] > most:
                most = best[mask ^ bit]
            rest ^= bit
        best[mask] = most + (sums[mask] == 0)

    # Walk back from the full set one player at a time along a best chain;
    # each time the remaining players sum to zero, the ones dropped since the
    # last such point form a group. The lowest bit that keeps the chain optimal
    # is taken, so the walk is deterministic.
    groups: list[list[K]] = []
    mask = open_mask = full
    while mask:
        target = best[mask] - (sums[mask] == 0)
        rest = mask
        while best[mask ^ (rest & -rest)] != target:
            rest ^= rest & -rest
        mask ^= rest & -rest
        if sums[mask] == 0:
            group = open_mask ^ mask
            groups.append([players[i] for i in range(count) if group >> i & 1])
            open_mask = mask
    return groups


def _settle_group(
    group: list[K], amounts: Mapping[K, int], rank: Mapping[K, int]
) -> list[tuple[K, K, int]]:
    """Largest debtor pays largest creditor until the zero-sum group is square.

    Every payment clears at least one of the two and the last clears both, so
    a group of k players takes at most k - 1 payments.
    """
    # Heaps of (-cents, rank, player): biggest first, lower rank on a tie; the
    # rank is unique, so the player itself is never compared.
    debtors = [(amounts[p], rank[p], p) for p in group if amounts[p] < 0]
    creditors = [(-amounts[p], rank[p], p) for p in group if amounts[p] > 0]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    payments: list[tuple[K, K, int]] = []
    while debtors and creditors:
        debt, debtor_rank, debtor = heapq.heappop(debtors)
        credit, creditor_rank, creditor = heapq.heappop(creditors)
        cents = min(-debt, -credit)
        payments.append((debtor, creditor, cents))
        if -debt > cents:
            heapq.heappush(debtors, (debt + cents, debtor_rank, debtor))
        if -credit > cents:
            heapq.heappush(creditors, (credit + cents, creditor_rank, creditor))
    return payments
