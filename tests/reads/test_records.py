"""A player's record: money across nights, points per stake, and what their cards say.

Every expected figure is counted by hand from the two nights of ``two_nights_with_cards``.
"""

import pytest

from scorekeeper.models import User
from scorekeeper.reads.history import member_records
from scorekeeper.reads.records import card_record, per_hand, player_record
from scorekeeper.services.groups import join_group, leave_group
from tests.helpers import play_nights, play_two_nights


@pytest.fixture
def two_nights_with_cards(make_night):
    return play_two_nights(make_night)


def test_the_fixture_plays_as_counted_by_hand(two_nights_with_cards):
    _, first, second = two_nights_with_cards
    totals = {
        (night.pk, seat.name): sum(entry.points for entry in seat.entries.all())
        for night in (first, second)
        for seat in night.seats.all()
    }
    assert totals == {
        (first.pk, "Anna"): 32,
        (first.pk, "Bram"): 7,
        (first.pk, "Chris"): -39,
        (second.pk, "Anna"): -16,
        (second.pk, "Bram"): 5,
        (second.pk, "Gus"): 11,
    }


def test_a_record_counts_nights_won_and_money_per_currency(two_nights_with_cards):
    group, first, second = two_nights_with_cards
    record = player_record(group, User.objects.get(name="Anna"))

    assert (record.nights, record.won, record.hands, record.left) == (2, 1, 4, False)
    [euros] = record.currencies
    # +32 x 10 ct, then -16 x 50 ct.
    assert (euros.currency, euros.cents, euros.nights) == ("EUR", 320 - 800, 2)
    assert (euros.best.night, euros.best.cents) == (first, 320)
    assert (euros.worst.night, euros.worst.cents) == (second, -800)
    # The running total: +3.20 after night 1, -4.80 after night 2.
    (line,) = euros.chart.lines
    assert line.title == line.label.text == "Anna −€4.80"
    assert len(line.points) == 3  # 0, then after each night
    assert all("€" in tick.text for tick in euros.chart.y_ticks)  # the axis says money


def test_points_a_hand_are_kept_per_stake(two_nights_with_cards):
    group, _, _ = two_nights_with_cards
    record = player_record(group, User.objects.get(name="Anna"))
    assert [(s.point_cents, s.points, s.hands, s.per_hand) for s in record.stakes] == [
        (10, 32, 2, "+16.0"),
        (50, -16, 2, "−8.0"),
    ]


def test_the_cards_say_fouls_fantasyland_and_royalties(two_nights_with_cards):
    group, _, _ = two_nights_with_cards
    anna = card_record(group, User.objects.get(name="Anna"))
    # Two card hands: night 1 round 1 (royalties 4), night 2 round 1 (fouled).
    assert (anna.hands, anna.fouls, anna.royalties, anna.royalties_per_hand) == (2, 1, 4, "2.0")
    assert (anna.made, anna.could_make, anna.stayed, anna.in_fantasyland) == (0, 2, 0, 0)

    bram = card_record(group, User.objects.get(name="Bram"))
    # Three card hands, one of them (night 1 round 2) alone at the table, in Fantasyland.
    assert (bram.hands, bram.fouls, bram.royalties) == (3, 0, 8 + 34 + 6)
    assert (bram.made, bram.could_make, bram.stayed, bram.in_fantasyland) == (1, 2, 1, 1)


def test_best_hands_are_the_strongest_rows_of_boards_that_stood(two_nights_with_cards):
    group, first, second = two_nights_with_cards
    bram = card_record(group, User.objects.get(name="Bram"))
    assert [
        (hand.description, hand.row, hand.night, hand.round_number) for hand in bram.best_hands
    ] == [
        ("full house, eights full of fours", "bottom", first, 2),
        ("full house, sevens full of queens", "bottom", second, 1),
        ("flush, jack-nine-seven-five-two", "middle", first, 2),
    ]
    # Anna's fouled board of night 2 (aces on top, a full house below) does not count.
    anna = card_record(group, User.objects.get(name="Anna"))
    assert [hand.row for hand in anna.best_hands] == ["bottom", "middle", "top"]
    assert {hand.night for hand in anna.best_hands} == {first}


def test_head_to_head_sums_the_pair_results_where_both_set_cards(two_nights_with_cards):
    group, _, _ = two_nights_with_cards
    anna = card_record(group, User.objects.get(name="Anna"))
    lines = {
        rival.name: (rival.hands, rival.won, rival.lost, rival.stake_lines)
        for rival in anna.head_to_head
    }
    assert lines == {
        "Bram": (2, 0, 2, [(-3, 10, "EUR"), (-12, 50, "EUR")]),
        "Chris": (1, 1, 0, [(10, 10, "EUR")]),
        "Gus": (1, 0, 1, [(-14, 50, "EUR")]),
    }
    assert anna.head_to_head[0].name == "Bram"  # most hands first
    gus = next(rival for rival in anna.head_to_head if rival.name == "Gus")
    assert gus.user_id is None

    # Bram's lone board of night 1 round 2 gives no pair result against anyone.
    bram = card_record(group, User.objects.get(name="Bram"))
    assert {rival.name: rival.hands for rival in bram.head_to_head} == {
        "Anna": 2,
        "Chris": 1,
        "Gus": 1,
    }
    against_anna = next(rival for rival in bram.head_to_head if rival.name == "Anna")
    assert against_anna.stake_lines == [(3, 10, "EUR"), (12, 50, "EUR")]


def test_a_player_who_left_keeps_their_record(two_nights_with_cards):
    group, _, _ = two_nights_with_cards
    chris = User.objects.get(name="Chris")
    leave_group(group=group, user=chris)

    record = player_record(group, chris)
    assert (record.left, record.nights, record.won, record.hands) == (True, 1, 0, 2)
    assert record.currencies[0].cents == -390
    assert (record.cards.hands, record.cards.fouls) == (1, 1)
    assert [row.user.name for row in member_records(group) if row.left] == ["Chris"]


def test_the_members_table_ranks_by_money_and_counts_nights_won(two_nights_with_cards):
    group, _, _ = two_nights_with_cards
    records = member_records(group)
    # Bram +70 ct +250 ct; Chris -390; Anna +320 -800. Gus is a guest: no line.
    assert [(r.user.name, r.nights, r.won, r.money) for r in records] == [
        ("Bram", 2, 0, {"EUR": 70 + 250}),
        ("Chris", 1, 0, {"EUR": -390}),
        ("Anna", 2, 1, {"EUR": 320 - 800}),
    ]


def test_a_member_who_never_played_has_a_line_of_zeros(two_nights_with_cards, make_user):
    group, _, _ = two_nights_with_cards
    join_group(group=group, user=make_user("Dana"))
    dana = next(record for record in member_records(group) if record.user.name == "Dana")
    assert (dana.nights, dana.won, dana.money) == (0, 0, {})
    record = player_record(group, dana.user)
    assert (record.nights, record.hands, record.cards.hands, record.currencies) == (0, 0, 0, [])


def test_per_hand_rounds_to_one_decimal_with_a_real_minus():
    assert (per_hand(15, 4), per_hand(-7, 4), per_hand(0, 0)) == ("+3.8", "−1.8", "0.0")


@pytest.mark.parametrize(
    "points, hands, shown",
    [(5, 4, "+1.3"), (-5, 4, "−1.3"), (1, 20, "+0.1"), (-1, 20, "−0.1"), (1, 21, "0.0")],
)
def test_per_hand_rounds_a_half_away_from_zero(points, hands, shown):
    assert per_hand(points, hands) == shown


@pytest.mark.database
@pytest.mark.parametrize("nights", [2, 6])
def test_a_record_takes_the_same_queries_however_many_nights(
    make_group, make_night, django_assert_num_queries, nights
):
    group = make_group(members=("Anna", "Bram"))
    play_nights(make_night, group, nights)
    anna = User.objects.get(name="Anna")
    # The seats of their nights, whether they left, the stored results of their boards,
    # the seats those were against (a light list, instead of every board of every
    # round they set cards in, each with its round and night: half the time at 300).
    with django_assert_num_queries(4):
        record = player_record(group, anna)
    assert (record.nights, record.cards.hands) == (nights, nights)
    # The memberships, the seats of the finished nights.
    with django_assert_num_queries(2):
        records = member_records(group)
    assert records[0].nights == nights
