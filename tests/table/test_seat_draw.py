"""The draw for seats: a permutation of the players, every order and every first
dealer as likely as the others."""

from collections import Counter
from itertools import permutations

from scorekeeper.table.seat_draw import draw_seats

PLAYERS = ("Anna", "Bram", "Chris", "Dora")
DRAWS = 4800  # 200 expected for each of the 24 orders

# Chi-squared values a fair draw exceeds with probability 1e-6 (worked out once from
# the distribution's survival function): 23 degrees of freedom for 24 orders, 3 for
# four first dealers. A fair draw fails this test once in a million runs.
CRITICAL_23 = 70.55
CRITICAL_3 = 30.67


def chi_squared(counts: Counter, cells: list, total: int) -> float:
    expected = total / len(cells)
    return sum((counts[cell] - expected) ** 2 / expected for cell in cells)


def test_the_seats_are_a_permutation_of_the_players_and_the_dealer_one_of_them():
    for _ in range(50):
        seats, dealer = draw_seats(PLAYERS)
        assert sorted(seats) == sorted(PLAYERS)
        assert 0 <= dealer < len(PLAYERS)


def test_every_order_and_every_first_dealer_come_up_as_often_as_chance_says():
    draws = [draw_seats(PLAYERS) for _ in range(DRAWS)]
    orders = Counter(tuple(seats) for seats, _ in draws)
    dealers = Counter(dealer for _, dealer in draws)

    every_order = list(permutations(PLAYERS))
    assert set(orders) == set(every_order)
    assert chi_squared(orders, every_order, DRAWS) < CRITICAL_23
    assert chi_squared(dealers, [0, 1, 2, 3], DRAWS) < CRITICAL_3


def test_a_fixed_draw_would_fail_the_check():
    # The check itself can fail: always the same order is far past the threshold.
    orders = Counter({PLAYERS: DRAWS})
    assert chi_squared(orders, list(permutations(PLAYERS)), DRAWS) > CRITICAL_23
