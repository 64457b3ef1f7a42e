"""The settlement's payments are polled: a payment marked on one phone shows as paid
on the others, and nobody outside the group learns anything from the poll."""

import html
import json
import re

import pytest
from django.urls import reverse

from scorekeeper.models import Night, User
from scorekeeper.models.payments import TabPayment
from scorekeeper.reads.owed import owed_across_nights
from scorekeeper.services.payments import mark_paid
from tests.helpers import finish, make_night, play, rounds_of, seats_of, settle_url
from tests.services.test_money_moments import bram_leaves


def poll(client, night: Night, version: object):
    return client.get(reverse("night_settle_live", args=[night.pk]), {"version": version})


@pytest.mark.database
def test_the_poll_answers_204_until_a_payment_is_marked_then_the_paid_lines(
    make_night, login, django_assert_num_queries
):
    night = finish(play(make_night(), *rounds_of(2)))
    night.refresh_from_db()
    anna, bram = login("Anna"), None
    with django_assert_num_queries(3):  # the session, the user, the version
        assert poll(anna, night, night.version).status_code == 204  # never 286: keep asking

    from django.test import Client

    bram = Client()
    bram.force_login(night.seats.get(name="Bram").user)
    seats = {seat.name: seat.pk for seat in night.seats.all()}
    bram.post(
        reverse("payment_mark", args=[night.pk]),
        {"payer": seats["Bram"], "payee": seats["Anna"], "cents": 30},
    )

    fragment = poll(anna, night, night.version)
    body = fragment.content.decode()
    assert fragment.status_code == 200
    assert body.lstrip().startswith('<div id="settlement-live"') and "<html" not in body
    assert "Paid ✓" in body and "Marked by Bram." in body
    night.refresh_from_db()
    assert f"version={night.version}" in body  # the next poll asks from here


def test_a_stranger_polling_gets_404(make_night, make_user, login):
    night = finish(play(make_night(), *rounds_of(2)))
    night.refresh_from_db()
    make_user("Eve")
    assert poll(login("Eve"), night, night.version).status_code == 404


def test_a_payment_across_nights_from_the_group_page_and_its_undo_reach_the_settlement_poll(
    make_night, login
):
    night = finish(play(make_night(), *rounds_of(2)))
    night.refresh_from_db()
    anna = login("Anna")
    owed = owed_across_nights(night.group)
    payment = owed.payments[0]
    seen = night.version
    assert poll(anna, night, seen).status_code == 204
    anna.post(
        reverse("owed_pay", args=[night.group_id]),
        {
            "payer": payment.payer.key,
            "payee": payment.payee.key,
            "currency": payment.currency,
            "fingerprint": owed.fingerprint,
            "amount": payment.amount_input,
        },
    )
    # The settlement's "Mark paid" for that line is gone: the phone showing it is told.
    changed = poll(anna, night, seen)
    assert changed.status_code == 200
    night.refresh_from_db()
    seen = night.version
    tab = TabPayment.objects.get()
    anna.post(reverse("owed_undo", args=[night.group_id, tab.pk]))
    assert poll(anna, night, seen).status_code == 200


def _share_text(body: str) -> str:
    found = re.search(r'<textarea id="share-text"[^>]*>(.*?)</textarea>', body, re.S)
    assert found, "no share text"
    return html.unescape(found.group(1))


def _picture(body: str) -> dict:
    found = re.search(r'<script id="night-picture" type="application/json">(.*?)</script>', body)
    assert found, "no picture data"
    return json.loads(found.group(1))


def test_the_share_text_and_the_picture_come_with_the_payments_from_one_read(db, login):
    # The night of issue 40: the page said "All square" while the picture, drawn when
    # the page opened, still had the payments marked since as unpaid.
    night = finish(play(make_night(), *rounds_of(2)))
    night.refresh_from_db()
    anna = login("Anna")
    opened = anna.get(settle_url(night)).content.decode()
    assert "✓ paid" not in _share_text(opened)
    seats = seats_of(night)
    for payer, cents in (("Chris", 120), ("Bram", 30)):
        mark_paid(
            night=night,
            payer=seats[payer],
            payee=seats["Anna"],
            cents=cents,
            marked_by=User.objects.get(name=payer),
        )

    live = poll(anna, night, night.version)
    body = live.content.decode()
    assert live.status_code == 200
    assert "All square: every payment is marked paid." in body
    text = _share_text(body)
    assert "Chris → Anna €1.20 ✓ paid" in text and "Bram → Anna €0.30 ✓ paid" in text
    assert [line["state"] for line in _picture(body)["payments"]] == ["Paid ✓", "Paid ✓"]
    night.refresh_from_db()
    assert live["OFC-Version"] == str(night.version)  # the moment it shows, for live.js


def test_a_leavers_settlement_follows_the_night_to_its_end(db, login):
    night, _anna = bram_leaves()
    night.refresh_from_db()
    bram = login("Bram")
    opened = bram.get(settle_url(night)).content.decode()
    assert "The night is still running" in opened and "If we stopped now" in opened
    seen = night.version

    finish(night)
    body = poll(bram, night, seen).content.decode()
    assert "Who pays whom" in body
    assert "The night is still running" not in body and "If we stopped now" not in body
    assert "still playing" not in _share_text(body)
    assert _picture(body)["running"] == ""
