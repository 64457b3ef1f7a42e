"""The next night in one tap, and the draw for seats on the start page."""

import re

from django.urls import reverse

from scorekeeper.models import Group, Night, SeatDraw, User
from scorekeeper.services.groups import leave_group
from tests.helpers import finish, make_group, play, play_round


def same_table(client, group: Group):
    return client.post(reverse("night_same_table", args=[group.pk]), follow=True)


def four_at_the_table(make_night) -> Night:
    """A finished night of four at 25 ct a point, with a loss cap, Bram dealing first:
    three rounds, so the button stopped at Dora (seat 4)."""
    group = make_group(members=("Anna", "Bram", "Chris", "Dora"))
    night = make_night(
        ("Anna", "Bram", "Chris", "Dora"),
        group=group,
        game="standard",
        rules={"fantasyland": False},
        dealer=1,
        point_cents=25,
        loss_cap_cents=2000,
    )
    for _ in range(3):
        play_round(night, {"Anna": 2, "Bram": -1, "Chris": -1, "Dora": 0})
    return finish(night)


def test_same_table_starts_round_one_with_the_button_one_seat_on(make_night, login):
    last = four_at_the_table(make_night)
    assert (
        last.rounds.filter(recorded_at__isnull=False).order_by("-number")[0].dealer.name == "Dora"
    )
    client = login("Chris")

    response = same_table(client, last.group)

    night = Night.objects.exclude(pk=last.pk).get()
    assert response.redirect_chain[-1][0] == reverse("night_detail", args=[night.pk])
    assert [seat.name for seat in night.seats.order_by("position")] == [
        "Anna",
        "Bram",
        "Chris",
        "Dora",
    ]
    first = night.rounds.get()
    assert first.number == 1 and first.dealer.name == "Anna"  # Dora's button moved on
    assert (night.game, night.rules, night.point_cents, night.loss_cap_cents) == (
        "standard",
        last.rules,
        25,
        2000,
    )
    assert night.started_by.name == "Chris"


def test_a_member_who_left_is_left_out_and_named(make_night, login):
    last = four_at_the_table(make_night)
    leave_group(group=last.group, user=User.objects.get(name="Dora"))
    page = same_table(login("Anna"), last.group)

    night = Night.objects.exclude(pk=last.pk).get()
    assert [seat.name for seat in night.seats.order_by("position")] == ["Anna", "Bram", "Chris"]
    # Dora dealt last and is gone: the button goes to the next seat still there.
    assert night.rounds.get().dealer.name == "Anna"
    assert "Dora is no longer in the group, so the night started without them." in (
        page.content.decode()
    )


def test_guests_of_last_time_sit_down_again(make_night, login):
    last = finish(
        play(make_night(("Anna", "Bram"), guests=("Gus",)), {"Anna": 1, "Bram": -1, "Gus": 0})
    )
    same_table(login("Anna"), last.group)
    night = Night.objects.exclude(pk=last.pk).get()
    assert [seat.name for seat in night.seats.order_by("position")] == ["Anna", "Bram", "Gus"]
    assert night.rounds.get().dealer.name == "Bram"


def test_without_a_finished_night_or_while_one_runs_it_is_refused_in_words(make_night, login):
    running = make_night()
    client = login("Anna")
    page = same_table(client, running.group)
    assert "No night has finished yet" in page.content.decode()
    finish(play(running, {"Anna": 1, "Bram": -1, "Chris": 0}))
    make_night(group=running.group)
    page = same_table(client, running.group)
    assert "A night is already running" in page.content.decode()
    assert page.redirect_chain[-1][0] == reverse("night_start", args=[running.group_id])
    assert Night.objects.count() == 2


def test_the_group_page_offers_it_only_after_a_night_and_while_none_runs(make_night, login):
    night = make_night()
    client = login("Bram")
    url = reverse("group_detail", args=[night.group_id])
    assert 'data-testid="same-table"' not in client.get(url).content.decode()
    finish(play(night, {"Anna": 1, "Bram": -1, "Chris": 0}))
    page = client.get(url).content.decode()
    assert 'data-testid="same-table"' in page and "Anna, Bram, and Chris" in page
    assert reverse("night_start", args=[night.group_id]) in page  # the full start page too


# --- the draw for seats ------------------------------------------------------------


def test_the_draw_seats_the_chosen_players_in_an_order_every_phone_shows(make_group, login):
    group = make_group(members=("Anna", "Bram", "Chris", "Dora"))
    users = {user.name: user.pk for user in User.objects.all()}
    login("Anna").post(
        reverse("night_start", args=[group.pk]),
        {
            "game": "standard",
            "point_value": "0.10",
            "dealer": "4",  # ignored: the draw picks the dealer
            "draw": "on",
            **{f"seat_{i}": users[name] for i, name in enumerate(("Anna", "Bram", "Dora"), 1)},
            "guest_4": "Gus",
        },
    )
    night = Night.objects.get()
    assert SeatDraw.objects.filter(night=night).exists()
    seated = [seat.name for seat in night.seats.order_by("position")]
    assert sorted(seated) == ["Anna", "Bram", "Dora", "Gus"]
    dealer = night.rounds.get().dealer.name

    said = set()
    for name in ("Anna", "Bram", "Chris"):
        page = login(name).get(reverse("night_detail", args=[night.pk])).content.decode()
        (note,) = re.findall(r'data-testid="seat-draw">(.*?)</p>', page, re.S)
        said.add(" ".join(re.sub(r"<[^>]+>", "", note).split()))
    first, second, third, fourth = (f"{i} {name}" for i, name in enumerate(seated, 1))
    expected = f"{first}, {second}, {third}, and {fourth}"
    assert said == {f"Seats were drawn: {expected}. {dealer} deals first."}


def test_without_the_draw_the_seats_are_as_picked_and_nothing_is_said(make_night, login):
    night = make_night()
    page = login("Anna").get(reverse("night_detail", args=[night.pk])).content.decode()
    assert "Seats were drawn" not in page


def test_the_draw_is_said_for_the_first_round_only(make_group, login):
    group = make_group(members=("Anna", "Bram"))
    users = [user.pk for user in User.objects.order_by("pk")]
    client = login("Anna")
    client.post(
        reverse("night_start", args=[group.pk]),
        {
            "game": "standard",
            "point_value": "0.10",
            "dealer": "1",
            "draw": "on",
            "seat_1": users[0],
            "seat_2": users[1],
        },
    )
    night = Night.objects.get()
    url = reverse("night_detail", args=[night.pk])
    assert "Seats were drawn" in client.get(url).content.decode()
    play_round(night, {"Anna": 1, "Bram": -1})
    assert "Seats were drawn" not in client.get(url).content.decode()
