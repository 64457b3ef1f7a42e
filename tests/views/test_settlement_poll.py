"""The settlement's payments are polled: a payment marked on one phone shows as paid
on the others, and nobody outside the group learns anything from the poll."""

import pytest
from django.urls import reverse

from scorekeeper.models import Night
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
    assert "Paid, marked by Bram" in body
    night.refresh_from_db()
    assert f"version={night.version}" in body  # the next poll asks from here


def test_a_stranger_polling_gets_404(make_night, make_user, login):
    night = finish(play(make_night(), *rounds_of(2)))
    night.refresh_from_db()
    make_user("Eve")
    assert poll(login("Eve"), night, night.version).status_code == 404
