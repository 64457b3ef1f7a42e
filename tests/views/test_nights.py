"""The night page from a phone: forms, refusals, polling, the chart and query counts."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.models import Entry, Night, User
from tests.helpers import fix_state_of, play, play_round, rounds_of, settle_url


def post_entry(client, night, seat_name, points, *, number=1, htmx=False, **extra):
    seat = night.seats.get(name=seat_name)
    data = {"round": number, "seat": seat.pk, "points": points, **extra}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("entry_save", args=[night.pk]), data, **headers)


def test_the_night_page_shows_round_dealer_and_the_entry_form(login, make_night):
    night = make_night()
    body = login("Bram").get(reverse("night_detail", args=[night.pk])).content.decode()
    assert "Round 1" in body
    assert 'data-testid="dealer">Anna<' in body
    assert "Your total" in body
    assert 'inputmode="numeric"' in body
    assert "QQ or better on top" in body


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ("", "Enter a total"),
        ("abc", "A total is a whole number"),
        ("1.5", "whole number"),
        ("1000", "between −999 and 999"),
        ("-1000", "between −999 and 999"),
    ],
)
def test_bad_totals_are_refused_in_plain_words(login, make_night, points, message):
    night = make_night()
    response = post_entry(login("Anna"), night, "Anna", points)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Entry.objects.exists()


@pytest.mark.parametrize("typed", ["−7", "-7", " -7 "])
def test_a_typed_minus_sign_of_any_kind_counts(login, make_night, typed):
    night = make_night()
    post_entry(login("Anna"), night, "Anna", typed)
    assert Entry.objects.get().points == -7


def test_a_fantasyland_claim_the_game_lacks_is_refused(client, login, make_night):
    night = make_night(game="standard")
    response = post_entry(login("Anna"), night, "Anna", 5, fantasyland="aa")
    assert "not a way into Fantasyland" in response.content.decode()
    response = post_entry(client, night, "Anna", 5, fantasyland="stayed")
    assert "cannot stay" in response.content.decode()
    assert not Entry.objects.exists()


def test_an_htmx_entry_returns_the_form_and_the_live_fragment(login, make_night):
    night = make_night()
    response = post_entry(login("Anna"), night, "Anna", 7, htmx=True)
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="entry-form"' in body
    assert 'id="live" hx-swap-oob="true"' in body
    assert "<html" not in body
    assert "Sum so far +7, 2 to go" in body


def test_an_htmx_entry_reads_the_night_it_saved_once(login, make_night):
    # The answer is read at the version the save made, not at the one the page was
    # loaded with (found moved on, and read again).
    night = make_night()
    client = login("Anna")
    with CaptureQueriesContext(connection) as captured:
        post_entry(client, night, "Anna", 7, htmx=True)
    round_reads = [q for q in captured.captured_queries if 'AS "played"' in q["sql"]]
    assert len(round_reads) == 1


def test_an_invalid_htmx_entry_returns_the_form_with_its_errors(login, make_night):
    night = make_night()
    response = post_entry(login("Anna"), night, "Anna", "x", htmx=True)
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="entry-form"')
    assert "A total is a whole number" in body


def test_every_phone_sees_by_how_much_the_totals_are_off(login, make_night):
    night = make_night()
    play(night, {"Anna": 7, "Bram": 17, "Chris": -21})
    body = login("Chris").get(reverse("night_detail", args=[night.pk])).content.decode()
    assert "3 points too many. Check your counts." in body


def test_the_poll_answers_204_when_nothing_changed(client, login, make_night):
    night = make_night()
    login("Anna")
    url = reverse("night_live", args=[night.pk])
    night.refresh_from_db()
    seen = night.version
    anna = night.seats.get(name="Anna").pk
    assert client.get(url, {"version": seen, "round": 1, "seat": anna}).status_code == 204
    play(night, {"Bram": 4})
    response = client.get(url, {"version": seen, "round": 1, "seat": anna})
    assert response.status_code == 200
    assert "+4" in response.content.decode()
    assert 'id="entry-form"' not in response.content.decode()  # same round: form untouched


def test_the_poll_replaces_the_form_when_a_new_round_opens(client, login, make_night):
    night = make_night(("Anna", "Bram"))
    login("Anna")
    play(night, {"Anna": 2, "Bram": -2})
    response = client.get(reverse("night_live", args=[night.pk]), {"version": 1, "round": 1})
    body = response.content.decode()
    assert 'id="entry-form" hx-swap-oob="true"' in body
    assert 'id="round-head" class="round-head" hx-swap-oob="true"' in body
    assert "Round 2" in body


def test_the_poll_stops_when_the_night_is_over(client, login, make_night):
    night = make_night(("Anna", "Bram"))
    login("Anna").post(reverse("night_end", args=[night.pk]))
    night.refresh_from_db()
    response = client.get(reverse("night_live", args=[night.pk]), {"version": night.version})
    assert response.status_code == 286


@pytest.mark.database
def test_the_poll_with_nothing_new_costs_few_queries(
    client, login, make_night, django_assert_num_queries
):
    night = make_night()
    login("Anna")
    night.refresh_from_db()
    # The session, the user, then the night's version through the membership.
    with django_assert_num_queries(3):
        client.get(reverse("night_live", args=[night.pk]), {"version": night.version, "round": 1})


def count_page_queries(client, night) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse("night_detail", args=[night.pk])).status_code == 200
    return len(captured)


@pytest.mark.database
def test_night_page_queries_do_not_grow_with_rounds(
    client, login, make_night, django_assert_num_queries
):
    night = make_night()
    login("Anna")
    play(night, {"Anna": 1, "Bram": 1, "Chris": -2})
    few = count_page_queries(client, night)
    for _ in range(8):
        play(night, {"Anna": 3, "Bram": -1, "Chris": -2})
    many = count_page_queries(client, night)
    assert few == many
    with django_assert_num_queries(few):
        client.get(reverse("night_detail", args=[night.pk]))


def test_fixing_a_round_from_its_page(client, login, make_night):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 2, "Bram": -2})
    login("Bram")
    anna, bram = night.seats.order_by("position")
    url = reverse("round_edit", args=[night.pk, 1])
    state = fix_state_of(night, 1)
    response = client.post(
        url, {f"points_{anna.pk}": "5", f"points_{bram.pk}": "-4", "state": state}
    )
    assert "1 point too many" in response.content.decode()
    response = client.post(
        url, {f"points_{anna.pk}": "5", f"points_{bram.pk}": "−5", "state": state}
    )
    assert response.status_code == 302
    assert sorted(Entry.objects.values_list("points", flat=True)) == [-5, 5]
    history = client.get(reverse("night_rounds", args=[night.pk])).content.decode()
    assert "Fixed by Bram" in history


def test_a_round_not_yet_through_cannot_be_fixed(login, make_night):
    night = make_night(("Anna", "Bram"))
    response = login("Anna").get(reverse("round_edit", args=[night.pk, 1]))
    assert response.status_code == 404


def test_starting_a_night_from_the_form(client, login, make_group):
    group = make_group(members=("Anna", "Bram", "Chris"))
    anna, bram, _ = User.objects.order_by("pk")
    login("Anna")
    page = client.get(reverse("night_start", args=[group.pk]), {"game": "progressive"})
    assert page.status_code == 200
    response = client.post(
        reverse("night_start", args=[group.pk]),
        {
            "game": "progressive",
            "point_value": "0.25",
            "fantasyland": "on",
            "seat_1": anna.pk,
            "seat_2": bram.pk,
            "guest_3": "Gus",
            "dealer": "2",
            "loss_cap": "",
        },
    )
    night = Night.objects.get()
    assert response.url == reverse("night_detail", args=[night.pk])
    assert night.point_cents == 25
    assert [s.name for s in night.seats.all()] == ["Anna", "Bram", "Gus"]
    assert night.rounds.get().dealer.name == "Bram"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"seat_1": "me"}, "Seat at least two players."),
        ({"seat_1": "me", "guest_2": "Gus", "dealer": "4"}, "Pick who deals first"),
        (
            {"seat_1": "me", "guest_2": "Gus", "guest_3": "Hal", "guest_4": "Ida"},
            "takes 2 to 3 players, got 4",
        ),
        ({"seat_1": "me", "guest_2": "G2s"}, "only have letters and spaces"),
        (
            {"seat_1": "me", "guest_2": "Gus", "point_value": "0.105"},
            "A point value has at most 2 decimals, for example €0.10.",
        ),
    ],
)
def test_a_bad_night_form_is_refused_and_creates_nothing(client, login, make_group, data, message):
    group = make_group(members=("Anna",))
    anna = User.objects.get(name="Anna")
    login("Anna")
    form = {"game": "pineapple", "point_value": "0.10", "dealer": "1", "fantasyland": "on"}
    form.update({k: (anna.pk if v == "me" else v) for k, v in data.items()})
    response = client.post(reverse("night_start", args=[group.pk]), form)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Night.objects.exists()


def test_a_point_value_with_a_decimal_comma_is_understood(login, make_group):
    group = make_group(members=("Anna", "Bram"))
    anna, bram = User.objects.order_by("pk")
    login("Anna").post(
        reverse("night_start", args=[group.pk]),
        {
            "game": "standard",
            "point_value": "0,25",
            "loss_cap": "€ 20,00",
            "dealer": "1",
            "seat_1": anna.pk,
            "seat_2": bram.pk,
        },
    )
    night = Night.objects.get()
    assert (night.point_cents, night.loss_cap_cents) == (25, 2000)


def test_the_night_page_shows_money_after_the_loss_cap(login, make_night):
    night = make_night(("Anna", "Bram", "Chris"), point_cents=100)
    night.loss_cap_cents = 500
    night.save()
    play(night, {"Anna": 12, "Bram": -3, "Chris": -9})
    body = login("Anna").get(reverse("night_detail", args=[night.pk])).content.decode()
    assert "−€5.00" in body  # Chris is down 9 points at €1 but pays at most €5
    assert "−€9.00" not in body
    assert "loss cap of €5.00" in body


def test_an_arrival_is_seated_last_unless_told_otherwise(client, login, make_night):
    night = make_night(("Anna", "Bram", "Chris"), game="standard")
    page = login("Anna").get(reverse("seat_add", args=[night.pk]))
    body = page.content.decode()
    assert body.index("after Chris (last)") < body.index("between Anna and Bram")
    client.post(reverse("seat_add", args=[night.pk]), {"guest": "Gus", "position": "4"})
    assert [s.name for s in night.seats.order_by("position")] == ["Anna", "Bram", "Chris", "Gus"]


def test_starting_a_second_night_warns_and_needs_the_box_ticked(client, login, make_night):
    night = make_night(("Anna", "Bram"))
    anna, bram = User.objects.order_by("pk")
    login("Anna")
    url = reverse("night_start", args=[night.group_id])
    assert "A night is already running" in client.get(url).content.decode()
    form = {
        "game": "standard",
        "point_value": "0.10",
        "dealer": "1",
        "seat_1": anna.pk,
        "seat_2": bram.pk,
    }
    response = client.post(url, form)
    assert "already running, started by Anna" in response.content.decode()
    assert Night.objects.count() == 1
    client.post(url, {**form, "beside_running": "on"})
    assert Night.objects.count() == 2


def test_the_poll_takes_the_form_away_from_a_player_who_left(client, login, make_night):
    from scorekeeper.services.seats import leave_seat

    night = make_night()
    play(night, {"Anna": 1, "Bram": 1, "Chris": -2})  # Chris has played, so his seat stays
    chris = night.seats.get(name="Chris")
    login("Chris")
    leave_seat(night=night, seat=chris, by=User.objects.get(name="Anna"))
    response = client.get(
        reverse("night_live", args=[night.pk]), {"version": 1, "round": 2, "seat": chris.pk}
    )
    body = response.content.decode()
    assert 'id="entry-form" hx-swap-oob="true"' in body
    assert "You are not in this round." in body
    assert "Deal me in from the next hand" in body  # he may come back (issue 32)
    assert 'id="actions" hx-swap-oob="true"' in body
    assert "End the night" not in body


def test_a_refused_save_from_someone_not_seated_says_why(login, make_night):
    from scorekeeper.services.seats import leave_seat

    night = make_night()
    play(night, {"Anna": 1, "Bram": 1, "Chris": -2})
    chris = night.seats.get(name="Chris")
    leave_seat(night=night, seat=chris, by=User.objects.get(name="Anna"))
    response = post_entry(login("Chris"), night, "Chris", 3, number=2, htmx=True)
    assert "Chris is not playing this round" in response.content.decode()


def test_a_guests_total_can_be_changed_by_anyone_seated(client, login, make_night):
    night = make_night(("Anna", "Bram"), guests=("Gus",))
    post_entry(login("Anna"), night, "Gus", -5)
    body = login("Bram").get(reverse("night_detail", args=[night.pk])).content.decode()
    gus = night.seats.get(name="Gus").pk
    assert f"?for={gus}#entry-form" in body and "Change Gus's total" in body
    post_entry(client, night, "Gus", -7)
    assert Entry.objects.get(seat__name="Gus").points == -7


def test_an_out_of_date_form_gets_a_plain_page(make_night, login):
    night = make_night(("Anna", "Bram"))
    client = login("Anna", csrf_checks=True)
    response = client.post(reverse("night_end", args=[night.pk]))
    assert response.status_code == 403
    assert "This page was out of date" in response.content.decode()
    night.refresh_from_db()
    assert not night.is_over


def test_the_night_page_has_the_chart_and_a_settle_link(make_night, login):
    night = play(make_night(), *rounds_of(4))
    page = login("Anna").get(reverse("night_detail", args=[night.pk]))
    html = page.content.decode()
    assert 'class="ofc-chart"' in html
    assert "Anna +15" in html  # the line's label
    assert f'href="{settle_url(night)}"' in html


def test_the_night_page_has_no_chart_before_the_first_round(make_night, login):
    night = make_night()
    page = login("Anna").get(reverse("night_detail", args=[night.pk]))
    assert "ofc-chart" not in page.content.decode()


def test_the_stay_box_is_offered_until_the_games_stay_limit(login, make_night):
    # Progressive Ultimate allows three stays in a row: four Fantasyland hands.
    night = make_night(game="ultimate")
    play_round(night, {"Anna": 10, "Bram": 5, "Chris": -15}, Chris={"fantasyland_made": "trips"})
    client = login("Chris")
    url = reverse("night_detail", args=[night.pk])
    for _ in range(3):
        body = client.get(url).content.decode()
        assert 'value="stayed"' in body and "Last Fantasyland hand" not in body
        play_round(night, {"Anna": 1, "Bram": -2, "Chris": 1}, Chris={"fantasyland_stayed": True})
    body = client.get(url).content.decode()
    assert 'value="stayed"' not in body
    assert "Last Fantasyland hand in a row for Chris." in body
