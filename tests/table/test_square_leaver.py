"""Squaring a player who leaves early against the standings at their leaving
(:func:`scorekeeper.table.settlement.square_leaver`), over random tables."""

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.table.settlement import settle, square_leaver


@st.composite
def tables(draw):
    others = draw(st.lists(st.integers(-5000, 5000), min_size=1, max_size=7))
    balances = {f"p{index}": cents for index, cents in enumerate(others)}
    balances["leaver"] = -sum(others)
    return balances


@given(tables())
def test_only_the_leavers_money_moves_and_all_of_it(balances):
    payments = square_leaver(balances, "leaver")
    after = dict(balances)
    for payer, payee, cents in payments:
        assert "leaver" in (payer, payee) and payer != payee and cents > 0
        after[payer] += cents
        after[payee] -= cents
    assert after["leaver"] == 0
    # Nobody else pays more than they are down or takes more than they are up.
    for key, cents in balances.items():
        assert abs(after[key]) <= abs(cents) and after[key] * cents >= 0
    # The rest still add up, so they settle among themselves at the end.
    assert sum(after.values()) == 0
    settle(after)


@given(tables())
def test_in_the_fewest_payments(balances):
    payments = square_leaver(balances, "leaver")
    owed = abs(balances["leaver"])
    # The fewest others whose balances can cover it: the largest first.
    sign = -1 if balances["leaver"] < 0 else 1
    sizes = sorted(
        (-sign * cents for key, cents in balances.items() if key != "leaver" and -sign * cents > 0),
        reverse=True,
    )
    fewest, covered = 0, 0
    while covered < owed:
        covered += sizes[fewest]
        fewest += 1
    assert len(payments) == fewest


def test_the_same_standings_give_the_same_payments_whatever_their_order():
    one = {"bram": -700, "anna": 300, "cora": 300, "dan": 100}
    other = dict(reversed(list(one.items())))
    assert (
        square_leaver(one, "bram")
        == square_leaver(other, "bram")
        == [
            ("bram", "anna", 300),
            ("bram", "cora", 300),
            ("bram", "dan", 100),
        ]
    )
