"""The next night like the last ("Who's here tonight?"), and the draw for seats on the
start page."""

import html
import re

from django.urls import reverse

from scorekeeper.models import Group, Night, SeatDraw, User
from scorekeeper.services.groups import leave_group
from scorekeeper.services.seats import leave_seat
from tests.helpers import finish, make_group, play, play_round


def ticked_on(page: str) -> dict[str, str]:
    """The boxes "Who's here tonight?" ticks: the name beside each, by its value."""
    boxes = re.findall(
        r'<input type="checkbox" name="here" value="([^"]+)" checked>.*?'
        r'<span class="who">([^<]+)',
        page,
        re.S,
    )
    return {html.unescape(name).strip(): value for value, name in boxes}


def text_of(page) -> str:
    """The words a person reads on ``page``, tags left out."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.content.decode())).split())


def same_table(client, group: Group, *, untick: tuple[str, ...] = (), tick: tuple = ()):
    """Open "Who's here tonight?" from the group page's button, untick or tick people
    by name, and start the night."""
    url = reverse("night_same_table", args=[group.pk])
    page = client.get(url, follow=True)
    if page.redirect_chain:  # refused before the screen: nothing to tick
        return page
    body = page.content.decode()
    here = [value for name, value in ticked_on(body).items() if name not in untick]
    for name in tick:
        (value,) = re.findall(rf'value="([^"]+)">\s*<span class="who">{name}<', body)
        here.append(value)
    return client.post(url, {"here": here}, follow=True)


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


def bram_left_early(make_night) -> Night:
    """Anna, Bram, Chris and the guest Gus, Anna dealing first; Bram left after round 2
    and the night went on to round 3, whose dealer was Chris (seat 3). Eve is a member
    who did not play."""
    group = make_group(members=("Anna", "Bram", "Chris", "Eve"))
    night = make_night(("Anna", "Bram", "Chris"), group=group, guests=("Gus",))
    play_round(night, {"Anna": 2, "Bram": -1, "Chris": -1, "Gus": 0})
    play_round(night, {"Anna": 2, "Bram": -1, "Chris": -1, "Gus": 0})
    bram = night.seats.get(name="Bram")
    leave_seat(night=night, seat=bram, by=bram.user)
    play_round(night, {"Anna": 2, "Chris": -1, "Gus": -1})
    assert night.rounds.get(number=3).dealer.name == "Chris"
    return finish(night)


def test_who_is_here_shows_last_times_table_ticked_with_the_button_and_the_early_leaver(
    make_night, login
):
    last = bram_left_early(make_night)
    page = login("Anna").get(reverse("night_same_table", args=[last.group_id]))
    body = page.content.decode()
    text = text_of(page)

    assert "Who's here tonight?" in text
    # Everyone of last time, in their seats, ticked; Bram too, flagged.
    assert list(ticked_on(body)) == ["Anna", "Bram", "Chris", "Gus"]
    (last_time,) = re.findall(r'data-testid="last-time">(.*?)</fieldset>', body, re.S)
    assert re.findall(r'class="seat-no" aria-hidden="true">(\d)<', last_time) == list("1234")
    labels = re.findall(r"<label.*?</label>", last_time, re.S)
    (early,) = [label for label in labels if 'data-testid="left-early"' in label]
    assert '<span class="who">Bram<' in early and "checked" in early
    assert text.count("left early last time") == 1
    # Chris dealt the last hand: the button starts one seat on, with the guest Gus.
    mark = r'<span class="who">(\w+)<span id="[^"]+"> <span class="dealer-mark"'
    (button,) = re.findall(mark, body)
    assert button == "Gus"
    assert "The button moves one seat on from last time: Gus deals first." in text
    # The game and the stake; Eve, who did not play, is offered unticked.
    assert "OFC Standard · €0.10/pt" in text
    (also,) = re.findall(r'data-testid="also-here">(.*?)</fieldset>', body, re.S)
    assert "Eve" in also and "checked" not in also


def dealer_line(client, group: Group, *names: str) -> tuple[str, list[str]]:
    """What htmx brings when the boxes of ``names`` are ticked: the dealer line's words,
    and the names each mark beside them is swapped in for (out of band)."""
    page = client.get(reverse("night_same_table", args=[group.pk])).content.decode()
    boxes = re.findall(r'name="here" value="([^"]+)"[^>]*>.*?"who">([^<]+)', page, re.S)
    keys = {name: key for key, name in boxes}
    answer = client.get(
        reverse("night_same_table", args=[group.pk]),
        {"here": [keys[name] for name in names]},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    (line,) = re.findall(r'<p [^>]*id="dealer-note"[^>]*>(.*?)</p>', answer, re.S)
    marked = [
        name
        for name, key in keys.items()
        if re.search(rf'id="dealer-{key}" hx-swap-oob="true"> <span class="dealer-mark"', answer)
    ]
    assert "<form" not in answer and answer.count('hx-swap-oob="true"') == len(keys)
    return line, marked


def test_the_dealer_line_follows_the_ticks(make_night, login):
    last = bram_left_early(make_night)  # Chris dealt last; Gus sits after him
    client = login("Anna")
    one_on = "The button moves one seat on from last time: {} deals first."
    assert dealer_line(client, last.group, "Anna", "Bram", "Chris", "Gus") == (
        one_on.format("Gus"),
        ["Gus"],
    )
    # Gus unticked: nobody of last time sits after Chris, so the button goes round.
    assert dealer_line(client, last.group, "Anna", "Bram", "Chris") == (
        one_on.format("Anna"),
        ["Anna"],
    )
    assert dealer_line(client, last.group, "Bram", "Chris", "Eve") == (
        one_on.format("Bram"),
        ["Bram"],
    )
    # Only Eve, who did not play last time: she deals, and nothing moves "on".
    assert dealer_line(client, last.group, "Eve") == ("Eve deals first.", ["Eve"])
    # Nobody ticked: no dealer, the line is there but hidden, no mark anywhere.
    assert dealer_line(client, last.group) == ("", [])


def test_the_page_after_a_refusal_names_the_dealer_of_the_ticks_it_kept(make_night, login):
    last = bram_left_early(make_night)
    page = same_table(login("Anna"), last.group, untick=("Anna", "Bram", "Gus"))
    assert "Tick at least two players to start the night." in text_of(page)
    assert "The button moves one seat on from last time: Chris deals first." in text_of(page)
    assert "Gus deals first" not in text_of(page)


def test_the_form_asks_for_the_dealer_line_at_each_tick(make_night, login):
    last = bram_left_early(make_night)
    page = login("Anna").get(reverse("night_same_table", args=[last.group_id])).content.decode()
    (form,) = re.findall(r'<form method="post"[^>]*data-testid="who-is-here"[^>]*>', page)
    assert 'hx-trigger="change"' in form and 'hx-target="#dealer-note"' in form
    assert f'hx-get="{reverse("night_same_table", args=[last.group_id])}"' in form
    assert 'hx-params="here"' in form  # never the CSRF token in an address


def test_unticked_players_are_left_out_by_name_and_a_member_can_be_added(make_night, login):
    last = bram_left_early(make_night)
    page = same_table(login("Chris"), last.group, untick=("Bram", "Gus"), tick=("Eve",))

    night = Night.objects.exclude(pk=last.pk).get()
    assert page.redirect_chain[-1][0] == reverse("night_detail", args=[night.pk])
    assert [seat.name for seat in night.seats.order_by("position")] == ["Anna", "Chris", "Eve"]
    # Gus, next after Chris, is not here: the button goes round to Anna.
    assert night.rounds.get().dealer.name == "Anna"
    assert "Started without Bram and Gus." in text_of(page)


def test_too_few_ticked_is_refused_on_the_page_with_the_ticks_kept(make_night, login):
    last = bram_left_early(make_night)
    page = same_table(login("Anna"), last.group, untick=("Bram", "Chris", "Gus"))
    assert page.redirect_chain == []
    assert "Tick at least two players to start the night." in text_of(page)
    assert list(ticked_on(page.content.decode())) == ["Anna"]
    assert Night.objects.count() == 1


def test_more_than_the_game_seats_is_refused_in_words(make_night, login):
    group = make_group(members=("Anna", "Bram", "Chris", "Dora"))
    last = finish(
        play(
            make_night(("Anna", "Bram", "Chris"), group=group, game="pineapple"),
            {"Anna": 1, "Bram": -1, "Chris": 0},
        )
    )
    page = same_table(login("Anna"), last.group, tick=("Dora",))
    assert "Pineapple seats at most 3 players: untick someone." in text_of(page)
    assert Night.objects.count() == 1


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
