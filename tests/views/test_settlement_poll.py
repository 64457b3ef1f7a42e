"""The settlement's payments are polled: a payment marked on one phone shows as paid
on the others, and nobody outside the group learns anything from the poll."""

import pytest
from django.urls import reverse

from scorekeeper.models import Night
from scorekeeper.models.payments import TabPayment
from scorekeeper.reads.owed import owed_across_nights
from tests.helpers import finish, play, rounds_of


def poll(client, night: Night, version: object):
    return client.get(reverse("night_settle_live", args=[night.pk]), {"version": version})


@pytest.mark.database
def test_the_poll_answers_204_until_a_payment_is_marked_then_the_paid_lines(
    make_night, login, django_assert_num_queries
):
    night = finish(play(make_night(), *rounds_of(2)))
    night.refresh_from_db()
    anna, bram = login("Anna"), None
    with django_assert_num_queries(2):  # the user, the night's version
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
    assert body.lstrip().startswith('<div id="payments-live"') and "<html" not in body
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
