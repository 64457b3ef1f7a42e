"""The app's JSON export imports back as it was: for random histories of nights (games,
house rules, scoring systems, stakes, currencies, loss caps, rounds played by cards,
Fantasyland made and stayed, late guests and leavers), the nights imported into a new
group export the same JSON again, but for what the import makes again (MADE_AGAIN)."""

import json
import random

from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from scorekeeper.models import Entry, Group, Night, Round, Seat, User
from scorekeeper.ofc import may_stay
from scorekeeper.services.groups import join_group
from scorekeeper.services.nights import end_night
from scorekeeper.services.rounds import record_entry
from scorekeeper.services.seats import add_seat, leave_seat
from tests.examples import examples
from tests.helpers import body_text, log_in, make_group, make_night, open_round, set_cards
from tests.management.test_backup import empty_the_database
from tests.views.test_import import confirm, upload

# What the import makes again rather than reads: the group it goes into (its id and
# name), each night's number there, and who typed each total (whoever imported it).
MADE_AGAIN = {"group": ("id", "name"), "night": ("id",), "entry": ("entered_by",)}

RULES = (
    {},
    {"scoring": {"scoop": 0, "majority": 1}},
    {"scoring": {"scoop": 5, "majority": 2}, "hold_button": True},
    {"fantasyland": False},
)

night_plan = st.fixed_dictionaries(
    {
        "game": st.sampled_from(("standard", "pineapple", "progressive", "ultimate")),
        "rules": st.sampled_from(RULES),
        "point_cents": st.sampled_from((5, 10, 50)),
        "currency": st.sampled_from(("EUR", "JPY")),
        "loss_cap": st.sampled_from((None, 200)),
        "card_rounds": st.integers(0, 2),
        "deal": st.integers(0, 2**32),
        "rounds": st.lists(st.integers(-40, 40), min_size=1, max_size=4),
        "fantasyland": st.booleans(),
        "late_guest": st.booleans(),
        # Bram leaves after the third round, or after the last (before the night ends).
        "leaver": st.sampled_from((None, "middle", "end")),
    }
)


def export_of(group: Group) -> dict:
    client = log_in(Client(), "Anna")
    document = json.loads(body_text(client.get(reverse("group_export", args=[group.pk, "json"]))))
    for key in MADE_AGAIN["group"]:
        document["group"].pop(key)
    for night in document["nights"]:
        for key in MADE_AGAIN["night"]:
            night.pop(key)
        for round_ in night["rounds"]:
            for entry in round_["entries"]:
                for key in MADE_AGAIN["entry"]:
                    entry.pop(key)
    return document


def deal_cards(night: Night, deal: int) -> None:
    deck = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
    random.Random(deal).shuffle(deck)
    for seat in night.playing_seats(open_round(night).number):
        hand, deck = deck[:13], deck[13:]
        set_cards(night, seat.name, hand[:3], hand[3:8], hand[8:])


def play_totals(night: Night, points: int, claim: str, stay: bool) -> None:
    """One round of totals: the first player ``points``, the last the other way; the
    first claims ``claim`` or, in Fantasyland, stays when ``stay`` and the game lets them."""
    round_ = open_round(night)
    seats = night.playing_seats(round_.number)
    totals = dict.fromkeys(seats, 0)
    totals[seats[0]] += points
    totals[seats[-1]] -= points
    game = night.game_rules
    in_fantasyland = round_.fantasyland_seats.get(seats[0].pk)
    for seat, total in totals.items():
        claims = {}
        if seat == seats[0] and game.fantasyland:
            if in_fantasyland is not None:
                claims["fantasyland_stayed"] = stay and may_stay(game, in_fantasyland)
            elif claim:
                claims["fantasyland_made"] = claim
        by = seat.user or night.started_by
        record_entry(
            night=night,
            round_number=round_.number,
            seat=seat,
            points=total,
            entered_by=by,
            **claims,
        )


def play_night(group: Group, plan: dict) -> None:
    anna = User.objects.get(name="Anna")
    night = make_night(
        ("Anna", "Bram"),
        group=group,
        game=plan["game"],
        rules=plan["rules"],
        point_cents=plan["point_cents"],
        loss_cap_cents=plan["loss_cap"],
    )
    Night.objects.filter(pk=night.pk).update(currency=plan["currency"])
    night.refresh_from_db()
    for number in range(plan["card_rounds"]):
        deal_cards(night, plan["deal"] + number)
    options = night.game_rules.entry_options
    claim = options[0].id if plan["fantasyland"] and options else ""
    for index, points in enumerate(plan["rounds"]):
        if index == 1 and plan["late_guest"]:
            add_seat(night=night, by=anna, guest_name="Gus", position=9)
        if index == 2 and plan["late_guest"] and plan["leaver"] == "middle":
            leave_seat(night=night, seat=night.seats.get(name="Bram"), by=anna)
        night.refresh_from_db()
        play_totals(night, points, claim if index == 0 else "", stay=index == 1)
    if plan["late_guest"] and plan["leaver"] == "end" and len(plan["rounds"]) > 1:
        leave_seat(night=night, seat=night.seats.get(name="Bram"), by=anna)
    end_night(night=Night.objects.get(pk=night.pk), by=anna)


@settings(
    max_examples=examples(6),
    deadline=None,
    # A failing history is shown as found: shrinking nights of play takes minutes.
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plans=st.lists(night_plan, min_size=1, max_size=3))
def test_the_json_export_imports_back_as_it_was(db, client, plans):
    empty_the_database()
    group = make_group(members=("Anna", "Bram", "Chris"))
    for plan in plans:
        play_night(group, plan)
    exported = export_of(group)
    data = body_text(
        log_in(client, "Anna").get(reverse("group_export", args=[group.pk, "json"]))
    ).encode()

    other = make_group("Copy", members=("Anna",))
    for name in ("Bram", "Chris"):
        join_group(group=other, user=User.objects.get(name=name))
    preview = upload(client, other, data)
    assert preview.context["problems"] == [], preview.context["problems"]
    answer = confirm(client, other, preview)
    assert answer.status_code == 302, answer.content.decode()[-2000:]
    assert export_of(other) == exported
    # Who played each hand in Fantasyland, and the cards' scores, as the table had them.
    assert table_state(other) == table_state(group)


def table_state(group: Group) -> list:
    """Who played each round in Fantasyland, by name, and each board's stored score:
    what the export does not show but the pages read."""
    rounds = Round.objects.filter(night__group=group).order_by("night__started_at", "number")
    names = {seat.pk: seat.name for seat in Seat.objects.filter(night__group=group)}
    entries = Entry.objects.filter(round__night__group=group).order_by(
        "round__night__started_at", "round__number", "seat__position"
    )
    return [
        sorted((names[int(pk)], value) for pk, value in round_.fantasyland.items())
        for round_ in rounds
    ] + [entry.card_result for entry in entries]
