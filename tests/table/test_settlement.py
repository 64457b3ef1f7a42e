"""Who pays whom: exact, fewest payments, deterministic; and the loss cap."""

import random
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.table.settlement import EXACT_LIMIT, CappedBalances, apply_loss_cap, settle
from tests.examples import examples

# ---------------------------------------------------------------------------
# Helpers, written independently of the module under test.


def apply_payments(balances: Mapping, payments: Sequence[tuple]) -> dict:
    """Balances left after everyone pays what they were told to."""
    left = dict(balances)
    for payer, payee, cents in payments:
        left[payer] += cents
        left[payee] -= cents
    return left


def set_partitions(items: list) -> Iterator[list[list]]:
    """Every way to split ``items`` into non-empty blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for index in range(len(partition)):
            yield [*partition[:index], [first, *partition[index]], *partition[index + 1 :]]


def brute_force_fewest_payments(balances: Mapping) -> int:
    """Non-zero players minus the most zero-sum blocks over all set partitions."""
    amounts = [cents for cents in balances.values() if cents]
    most_blocks = max(
        len(partition)
        for partition in set_partitions(amounts)
        if all(sum(block) == 0 for block in partition)
    )
    return len(amounts) - most_blocks


def zero_sum(values: list[int]) -> dict[str, int]:
    """Name the values p0, p1, ... and add one player who balances them."""
    balances = {f"p{index}": cents for index, cents in enumerate(values)}
    balances[f"p{len(values)}"] = -sum(values)
    return balances


# Small amounts from a short list make zero-sum sub-groups common, which is
# where a greedy settlement goes wrong; wider ranges cover the rest.
small_amounts = st.sampled_from([-600, -400, -300, -200, -100, 100, 200, 300, 400, 600])
amounts = st.one_of(small_amounts, st.integers(-5000, 5000))


def balances_of(min_players: int, max_players: int) -> st.SearchStrategy[dict[str, int]]:
    return st.lists(amounts, min_size=min_players - 1, max_size=max_players - 1).map(zero_sum)


# ---------------------------------------------------------------------------
# settle: examples


def test_five_players_settle_in_three_payments_where_greedy_takes_four():
    balances = {"a": 6, "b": 4, "c": 3, "d": -7, "e": -6}

    payments = settle(balances)

    assert len(payments) == 3
    assert sorted(payments) == [("d", "b", 4), ("d", "c", 3), ("e", "a", 6)]
    assert all(cents == 0 for cents in apply_payments(balances, payments).values())


def test_nobody_owes_anything_means_no_payments():
    assert settle({}) == []
    assert settle({"anna": 0, "ben": 0}) == []


def test_two_players_make_one_payment_from_loser_to_winner():
    assert settle({"anna": 1250, "ben": -1250}) == [("ben", "anna", 1250)]


def test_players_with_zero_balance_never_pay_or_get_paid():
    payments = settle({"anna": 500, "ben": 0, "cy": -500})

    assert payments == [("cy", "anna", 500)]


def test_balances_that_do_not_sum_to_zero_raise_value_error():
    with pytest.raises(ValueError, match="sum to zero"):
        settle({"anna": 500, "ben": -499})


def test_balances_that_are_not_whole_cents_raise_type_error():
    with pytest.raises(TypeError):
        settle({"anna": 5.0, "ben": -5.0})
    with pytest.raises(TypeError):
        settle({"anna": True, "ben": -1})


def test_seat_ids_and_names_both_work_as_keys():
    assert settle({3: -200, 1: 200}) == [(3, 1, 200)]
    assert settle({("seat", 2): 200, ("seat", 1): -200}) == [(("seat", 1), ("seat", 2), 200)]


def test_equal_amounts_are_paired_by_key_not_by_dict_order():
    forward = settle({"anna": 100, "ben": 100, "cy": -100, "dee": -100})
    backward = settle({"dee": -100, "cy": -100, "ben": 100, "anna": 100})

    assert forward == backward == [("cy", "anna", 100), ("dee", "ben", 100)]


def test_fifteen_players_at_the_exact_limit_are_settled_to_the_cent():
    # The brute force over every set partition is out of reach at 15 players
    # (1.4 billion of them): this checks the payments square everyone, in at most n - 1.
    rng = random.Random(15)
    values = [rng.randrange(-5000, 5000) for _ in range(EXACT_LIMIT - 1)]
    balances = zero_sum(values)
    assert sum(1 for cents in balances.values() if cents) == EXACT_LIMIT

    payments = settle(balances)

    assert all(cents == 0 for cents in apply_payments(balances, payments).values())
    assert len(payments) <= EXACT_LIMIT - 1


def test_many_players_with_matching_pairs_still_find_the_optimum():
    # Ten exact pairs plus the five players of the three-payment example: 25 players,
    # over the exact limit, but peeling the pairs leaves an exact search.
    balances = {f"w{i}": 100 * (i + 1) for i in range(10)}
    balances |= {f"l{i}": -100 * (i + 1) for i in range(10)}
    balances |= {"a": 6, "b": 4, "c": 3, "d": -7, "e": -6}

    payments = settle(balances)

    assert len(payments) == 10 + 3
    assert all(cents == 0 for cents in apply_payments(balances, payments).values())


# ---------------------------------------------------------------------------
# settle: properties


@given(balances_of(1, 8))
def test_payments_settle_every_balance_exactly(balances):
    left = apply_payments(balances, settle(balances))

    assert all(cents == 0 for cents in left.values())


@given(balances_of(1, 8))
def test_every_payment_is_positive_and_between_two_different_players(balances):
    for payer, payee, cents in settle(balances):
        assert cents > 0
        assert payer != payee
        assert balances[payer] < 0 < balances[payee]


@settings(max_examples=examples(150))
@given(balances_of(1, 8))
def test_payment_count_equals_brute_force_optimum_up_to_eight_players(balances):
    assert len(settle(balances)) == brute_force_fewest_payments(balances)


@settings(max_examples=examples(30), deadline=None)
@given(balances_of(16, 30))
def test_more_than_fifteen_players_never_take_more_than_n_minus_one_payments(balances):
    payments = settle(balances)
    players = sum(1 for cents in balances.values() if cents)

    assert len(payments) <= max(players - 1, 0)
    assert all(cents == 0 for cents in apply_payments(balances, payments).values())


@settings(deadline=None)
@given(balances_of(1, 16), st.randoms(use_true_random=False))
def test_same_balances_in_another_order_give_the_same_payments(balances, rng):
    shuffled_keys = list(balances)
    rng.shuffle(shuffled_keys)
    shuffled = {key: balances[key] for key in shuffled_keys}

    assert settle(shuffled) == settle(balances)


@given(balances_of(1, 8), st.integers(-1000, 1000).filter(bool))
def test_any_imbalance_raises_value_error(balances, off_by):
    key = next(iter(balances))
    balances[key] += off_by

    with pytest.raises(ValueError):
        settle(balances)


# ---------------------------------------------------------------------------
# apply_loss_cap: examples


def test_cap_takes_the_forgiven_cents_off_winners_in_proportion():
    capped = apply_loss_cap({"anna": 700, "ben": 300, "cy": -1000}, 600)

    assert capped == CappedBalances(
        balances={"anna": 420, "ben": 180, "cy": -600},
        forgiven={"cy": 400},
        reduced={"anna": 280, "ben": 120},
        cap=600,
    )
    assert capped.total_forgiven == 400


def test_leftover_cent_goes_to_the_largest_remainder_not_the_largest_winner():
    # 7 forgiven cents over 60/30/10: exact shares 4.2, 2.1, 0.7. Rounded down
    # they make 6, and the missing cent goes to the 0.7.
    capped = apply_loss_cap({"anna": 60, "ben": 30, "cy": 10, "dee": -100}, 93)

    assert capped.reduced == {"anna": 4, "ben": 2, "cy": 1}
    assert capped.balances == {"anna": 56, "ben": 28, "cy": 9, "dee": -93}


def test_equal_remainders_give_the_extra_cents_by_key_order():
    # 200 forgiven over three equal winners: 66.67 each, two cents left over.
    capped = apply_loss_cap({"cy": 100, "anna": 100, "ben": 100, "dee": -300}, 100)

    assert capped.reduced == {"anna": 67, "ben": 67, "cy": 66}
    assert capped.balances == {"cy": 34, "anna": 33, "ben": 33, "dee": -100}


def test_equal_remainders_prefer_the_larger_winner():
    # 10 forgiven over 60/25/15: 6, 2.5, 1.5; the half cent goes to the 25.
    capped = apply_loss_cap({"anna": 15, "ben": 25, "cy": 60, "dee": -100}, 90)

    assert capped.reduced == {"anna": 1, "ben": 3, "cy": 6}


def test_several_capped_losers_and_one_under_the_cap():
    balances = {"anna": 1500, "ben": 500, "cy": -900, "dee": -800, "eve": -300}

    capped = apply_loss_cap(balances, 500)

    assert capped.forgiven == {"cy": 400, "dee": 300}
    assert capped.balances == {"anna": 975, "ben": 325, "cy": -500, "dee": -500, "eve": -300}


def test_cap_above_every_loss_changes_nothing():
    balances = {"anna": 300, "ben": -200, "cy": -100}

    capped = apply_loss_cap(balances, 200)

    assert capped.balances == balances
    assert capped.forgiven == {}
    assert capped.reduced == {}
    assert capped.total_forgiven == 0


def test_capped_balances_keep_the_input_order_and_zero_players():
    capped = apply_loss_cap({"zed": -900, "amy": 0, "bob": 900}, 100)

    assert list(capped.balances) == ["zed", "amy", "bob"]
    assert capped.balances == {"zed": -100, "amy": 0, "bob": 100}


@pytest.mark.parametrize("cap", [0, -100])
def test_cap_must_be_more_than_zero(cap):
    with pytest.raises(ValueError, match="more than 0"):
        apply_loss_cap({"anna": 100, "ben": -100}, cap)


def test_cap_needs_zero_sum_balances():
    with pytest.raises(ValueError, match="sum to zero"):
        apply_loss_cap({"anna": 100, "ben": -99}, 50)


# ---------------------------------------------------------------------------
# apply_loss_cap: properties


@given(balances_of(1, 10), st.integers(1, 6000))
def test_cap_keeps_the_sum_zero_and_nobody_pays_more_than_the_cap(balances, cap):
    capped = apply_loss_cap(balances, cap)

    assert sum(capped.balances.values()) == 0
    assert all(cents >= -cap for cents in capped.balances.values())
    assert capped.total_forgiven == sum(capped.reduced.values())


@given(balances_of(1, 10), st.integers(1, 6000))
def test_cap_never_turns_a_win_into_a_loss_and_leaves_others_alone(balances, cap):
    capped = apply_loss_cap(balances, cap)

    for key, before in balances.items():
        after = capped.balances[key]
        if before > 0:
            assert 0 <= after <= before
        elif before >= -cap:
            assert after == before
        else:
            assert after == -cap
            assert capped.forgiven[key] == -cap - before


@given(balances_of(1, 10), st.integers(1, 6000))
def test_each_winner_gives_up_their_share_to_within_a_cent(balances, cap):
    capped = apply_loss_cap(balances, cap)
    owed = sum(cents for cents in balances.values() if cents > 0)

    for key, before in balances.items():
        if before > 0:
            exact = Fraction(capped.total_forgiven * before, owed)
            assert abs(capped.reduced.get(key, 0) - exact) < 1


@given(balances_of(2, 10), st.integers(1, 6000))
def test_a_larger_winner_never_gives_up_less_than_a_smaller_one(balances, cap):
    capped = apply_loss_cap(balances, cap)
    winners = [key for key, cents in balances.items() if cents > 0]

    for larger in winners:
        for smaller in winners:
            if balances[larger] > balances[smaller]:
                assert capped.reduced.get(larger, 0) >= capped.reduced.get(smaller, 0)


@given(balances_of(1, 8), st.integers(1, 6000))
def test_capped_balances_still_settle(balances, cap):
    capped = apply_loss_cap(balances, cap)

    payments = settle(capped.balances)

    assert all(cents == 0 for cents in apply_payments(capped.balances, payments).values())
