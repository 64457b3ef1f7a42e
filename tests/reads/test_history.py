"""History across nights: the group's nights, the table, and one player's nights."""

import re

import pytest
from django.urls import reverse

from scorekeeper.models import Group, Night, User
from scorekeeper.reads.history import newest_nights, player_nights
from scorekeeper.services.groups import leave_group
from tests.helpers import finish, play, rounds_of


@pytest.fixture
def two_nights(make_night):
    """Night 1: Anna +15, Bram -3, Chris -12 at 10 ct (Anna made Fantasyland once).
    Night 2: Bram +20, Anna -20 and the guest Gus 0 at 50 ct, with a 5 € loss cap."""
    first = make_night()
    play(first, *rounds_of(2), claims={0: {"Anna": "qq+"}})
    play(first, {"Anna": 0, "Bram": 0, "Chris": 0})  # Anna's Fantasyland hand
    finish(first)
    group = first.group
    second = make_night(
        ("Anna", "Bram"), guests=("Gus",), point_cents=50, loss_cap_cents=500, group=group
    )
    play(second, {"Anna": -12, "Bram": 12, "Gus": 0}, {"Anna": -8, "Bram": 8, "Gus": 0})
    finish(second)
    return group, first, second


def test_the_group_page_lists_its_nights_with_players_and_winner(two_nights, login):
    group, first, second = two_nights
    page = login("Anna").get(reverse("group_detail", args=[group.pk]))

    history = page.context["night_history"]
    assert [summary.night for summary in history] == [second, first]  # newest first
    assert [seat.name for seat in history[1].players] == ["Anna", "Bram", "Chris"]
    assert [(seat.name, seat.points) for seat in history[1].winners] == [("Anna", 15)]
    assert history[1].rounds == 3
    assert [seat.name for seat in history[0].winners] == ["Bram"]
    html = page.content.decode()
    assert "Anna, Bram, and Chris · 3 rounds" in html
    assert 'Bram <span class="plus">+20</span>' in html
    assert reverse("group_table", args=[group.pk]) in html


def test_a_night_that_is_still_running_is_not_in_the_history_list(make_night, login):
    night = play(make_night(), *rounds_of(2))
    page = login("Anna").get(reverse("group_detail", args=[night.group.pk]))
    assert page.context["night_history"] == []
    assert "No finished nights yet." in page.content.decode()


@pytest.mark.database
def test_the_group_page_takes_the_same_queries_for_one_night_and_three(
    make_night, login, django_assert_num_queries
):
    counts = []
    night = make_night()
    group = night.group
    client = login("Anna")
    for _ in range(3):
        play(night, *rounds_of(2))
        finish(night)
        # Nine for the session, the user, the group, its members
        # and nights (their fingerprint, the running ones, a page of the finished ones
        # with players and rounds), four for what is owed, one for what was paid across
        # nights (none here; each one paid adds the query for its parts, once), one for
        # the members' pay details, one for the newest changes on the group's record,
        # one for whom the reader sat with at a night of the last day (whom they may
        # sign in on a new phone).
        with django_assert_num_queries(17) as captured:
            client.get(reverse("group_detail", args=[group.pk]))
        counts.append(len(captured))
        night = make_night(group=group)
    assert counts == [17, 17, 17]


def test_the_group_table_adds_up_every_finished_night(two_nights, login):
    group, _, _ = two_nights
    page = login("Chris").get(reverse("group_table", args=[group.pk]))

    (table,) = page.context["tables"]  # one currency, one table
    rows = {row.name: row for row in table.rows}
    assert list(rows) == ["Bram", "Gus", "Chris", "Anna"]  # most money first
    anna, bram, chris, gus = rows["Anna"], rows["Bram"], rows["Chris"], rows["Gus"]
    assert (anna.nights, anna.rounds, anna.fantasylands) == (2, 5, 1)
    assert anna.stake_lines == [(15, 10, "EUR"), (-20, 50, "EUR")]
    # Night 2: Anna is down 20 x 50 ct = 10 €, capped at 5 €.
    assert anna.money == {"EUR": 150 - 500}
    assert (bram.nights, bram.rounds, bram.fantasylands) == (2, 5, 0)
    assert bram.stake_lines == [(-3, 10, "EUR"), (20, 50, "EUR")]
    assert bram.money == {"EUR": -30 + 500}
    assert (chris.stake_lines, chris.money) == ([(-12, 10, "EUR")], {"EUR": -120})
    assert (gus.user, gus.stake_lines, gus.nights) == (None, [(0, 50, "EUR")], 1)
    html = page.content.decode()
    assert reverse("player_history", args=[group.pk, anna.user.pk]) in html
    assert "(guest)" in html


def row_text(html, name):
    """The words of ``name``'s row in the table, tags stripped."""
    row = re.search(rf'<tr data-player="{name}">(.*?)</tr>', html, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", " ", row).split())


def test_the_group_table_ranks_by_money_not_by_points_added_across_stakes(make_night, login):
    # Anna wins 40 points at 10 ct and loses 12 at 50 ct: more points than Bram, less money.
    low = make_night(("Anna", "Bram"), point_cents=10)
    play(low, {"Anna": 40, "Bram": -40})
    finish(low)
    high = make_night(("Anna", "Bram"), point_cents=50, group=low.group)
    play(high, {"Anna": -12, "Bram": 12})
    finish(high)

    page = login("Anna").get(reverse("group_table", args=[low.group.pk]))

    bram, anna = page.context["tables"][0].rows
    assert (bram.name, bram.money, anna.name, anna.money) == (
        "Bram",
        {"EUR": -400 + 600},
        "Anna",
        {"EUR": 400 - 600},
    )
    html = page.content.decode()
    assert html.index('data-player="Bram"') < html.index('data-player="Anna"')
    assert row_text(html, "Anna") == "Anna −€2.00 +40 at €0.10 −12 at €0.50 2 2 0"
    assert row_text(html, "Bram") == "Bram €2.00 −40 at €0.10 +12 at €0.50 2 2 0"


def test_the_group_table_ranks_by_the_groups_own_currency_first(make_night, login):
    # A group that plays in dollars, and once abroad in euros (first in the alphabet).
    home = make_night(("Anna", "Bram"))
    Group.objects.filter(pk=home.group_id).update(currency="USD")
    Night.objects.filter(pk=home.pk).update(currency="USD")
    play(home, {"Anna": -5, "Bram": 5})
    finish(home)
    away = make_night(("Anna", "Bram"), group=home.group)
    Night.objects.filter(pk=away.pk).update(currency="EUR")
    play(away, {"Anna": 100, "Bram": -100})
    finish(away)

    page = login("Anna").get(reverse("group_table", args=[home.group.pk]))

    # One table per currency, the group's own first, each ranked within itself: the
    # euro night abroad does not put Anna above Bram in the dollar table.
    dollars, euros = page.context["tables"]
    assert [(row.name, row.money, row.nights) for row in dollars.rows] == [
        ("Bram", {"USD": 50}, 1),
        ("Anna", {"USD": -50}, 1),
    ]
    assert [(row.name, row.money) for row in euros.rows] == [
        ("Anna", {"EUR": 1000}),
        ("Bram", {"EUR": -1000}),
    ]
    assert euros.rows[0].stake_lines == [(100, 10, "EUR")]
    html = page.content.decode()
    assert "Ranked by money won in USD" in html and "Ranked by money won in EUR" in html
    assert html.index('data-currency="USD"') < html.index('data-currency="EUR"')


def test_members_who_left_stay_in_the_history(two_nights, login):
    group, first, _ = two_nights
    chris = User.objects.get(name="Chris")
    leave_group(group=group, user=chris)
    client = login("Anna")

    table = client.get(reverse("group_table", args=[group.pk]))
    row = next(row for row in table.context["tables"][0].rows if row.name == "Chris")
    assert row.left and row.stake_lines == [(-12, 10, "EUR")]
    assert "(left)" in table.content.decode()

    page = client.get(reverse("player_history", args=[group.pk, chris.pk]))
    assert page.status_code == 200
    assert [(line.night, line.points, line.cents) for line in page.context["history"].nights] == [
        (first, -12, -120)
    ]
    # Wherever Chris's name is shown with the nights he played, it says he left.
    left = '<span class="badge left">left</span>'
    group_page = client.get(reverse("group_detail", args=[group.pk])).content.decode()
    assert f"Anna, Bram, and Chris {left}" in group_page
    settlement = client.get(reverse("night_settle", args=[first.pk])).content.decode()
    assert re.search(
        rf'<tr data-seat="Chris">\s*<td>(<span class="swatch[^"]*"[^>]*></span>)?Chris {left}',
        settlement,
    )
    assert f"Chris {left}" in settlement.split('data-testid="payments"')[1]


def test_a_players_history_lists_their_nights_with_points_and_money(two_nights, login):
    group, first, second = two_nights
    anna = User.objects.get(name="Anna")
    page = login("Bram").get(reverse("player_history", args=[group.pk, anna.pk]))
    history = page.context["history"]
    assert [(line.night, line.points, line.cents, line.place) for line in history.nights] == [
        (second, -20, -500, 3),
        (first, 15, 150, 1),
    ]
    assert history.points == -5
    assert history.money_lines == [(-350, "EUR")]
    html = page.content.decode()
    assert "−€3.50" in html and "−€5.00" in html and "€1.50" in html


def test_someone_who_never_was_a_member_has_no_history_page(two_nights, make_user, login):
    group, _, _ = two_nights
    stranger = make_user("Zed")
    page = login("Anna").get(reverse("player_history", args=[group.pk, stranger.pk]))
    assert page.status_code == 404


@pytest.mark.database
@pytest.mark.parametrize("count", [2, 6])
def test_the_group_table_takes_the_same_queries_however_many_rounds(
    make_night, login, django_assert_num_queries, count
):
    night = make_night()
    play(night, *rounds_of(count))
    finish(night)
    another = make_night(("Anna", "Bram"), group=night.group)
    play(another, *[{"Anna": 3, "Bram": -3}] * count)
    finish(another)
    client = login("Anna")
    # The session, the user, the group, its own seasons and the
    # years its nights started in (the season picker), each person's totals per stake
    # added up by the database, the members with their accounts.
    with django_assert_num_queries(7):
        page = client.get(reverse("group_table", args=[night.group.pk]))
    assert {row.name: row.rounds for row in page.context["tables"][0].rows} == {
        "Anna": 2 * count,
        "Bram": 2 * count,
        "Chris": count,
    }


def test_pages_of_nights_keep_their_order_when_nights_started_at_the_same_moment(
    make_group, make_night
):
    group = make_group(members=("Anna", "Bram"))
    nights = [finish(make_night(("Anna", "Bram"), group=group)) for _ in range(7)]
    # Three started at one moment, between the others: the pk breaks the tie.
    same = nights[2].started_at
    Night.objects.filter(pk__in=[night.pk for night in nights[2:5]]).update(started_at=same)
    pages, before = [], None
    while True:
        shown, before = newest_nights(group.nights.all(), before=before, count=2)
        pages.append([night.pk for night in shown])
        if before is None:
            break
    expected = [night.pk for night in reversed(nights)]
    assert pages == [expected[0:2], expected[2:4], expected[4:6], expected[6:7]]


def test_a_players_pages_of_nights_skip_the_nights_they_sat_out(make_group, make_night):
    group = make_group(members=("Anna", "Bram", "Chris"))
    anna = User.objects.get(name="Anna")
    played = []
    for number in range(5):
        players = ("Anna", "Bram") if number % 2 == 0 else ("Bram", "Chris")
        night = make_night(players, group=group)
        play(night, {players[0]: number, players[1]: -number})
        finish(night)
        if "Anna" in players:
            played.append(night)
    first = player_nights(group, anna, count=2)
    assert [(line.night, line.points, line.cents, line.place) for line in first.nights] == [
        (played[2], 4, 40, 1),
        (played[1], 2, 20, 1),
    ]
    rest = player_nights(group, anna, before=first.older_than, count=2)
    assert ([line.night for line in rest.nights], rest.older_than) == ([played[0]], None)
