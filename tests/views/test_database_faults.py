"""A database that cannot answer (restarting, gone, its disk full) is answered 503 in
words, never 500, and a round is recorded whole or not at all."""

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.models import Entry, Round
from tests.helpers import enter, log_in, seats_of

pytestmark = pytest.mark.database

WRITES = ("INSERT", "UPDATE", "DELETE")
QUEUED = {"HTTP_ACCEPT": "application/json"}


def is_write(sql: str) -> bool:
    return sql.lstrip().upper().startswith(WRITES)


def two_at_a_table(make_night):
    """A night of Anna and Bram, with its seats' ids read before any fault."""
    night = make_night(("Anna", "Bram"))
    night.seat_ids = {name: seat.pk for name, seat in seats_of(night).items()}
    return night


def post_total(client: Client, night, name: str, points: int, **headers):
    data = {"round": 1, "seat": night.seat_ids[name], "points": points}
    return client.post(reverse("entry_save", args=[night.pk]), data, **headers)


def last_write_of_the_round(client: Client, night) -> int:
    """How many writes recording Bram's total takes when it completes the round:
    counted on a night of the same shape (the writes do not depend on the night)."""
    enter(night, "Anna", 4)
    with CaptureQueriesContext(connection) as queries:
        assert post_total(client, night, "Bram", -4).status_code == 302
    assert Round.objects.get(night=night, number=1).recorded_at is not None
    return sum(is_write(query["sql"]) for query in queries.captured_queries)


def test_a_full_disk_at_the_last_write_of_a_round_records_none_of_it(make_night):
    rehearsal = two_at_a_table(make_night)
    client = log_in(Client(raise_request_exception=False), "Bram")
    writes = last_write_of_the_round(client, rehearsal)
    night = two_at_a_table(make_night)
    enter(night, "Anna", 4)
    before = list(Entry.objects.filter(round__night=night).values_list("seat__name", "points"))
    seen = 0

    def disk_full_at_the_last_write(execute, sql, params, many, context):
        nonlocal seen
        if is_write(sql):
            seen += 1
            if seen == writes:
                raise OperationalError("database or disk is full")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(disk_full_at_the_last_write):
        response = post_total(client, night, "Bram", -4)
    assert seen == writes
    assert response.status_code == 503
    assert "disk is full" in response.content.decode()
    # Nothing of it: not Bram's total, not the round, not the next one.
    assert list(Entry.objects.filter(round__night=night).values_list("seat__name", "points")) == (
        before
    )
    assert Round.objects.get(night=night, number=1).recorded_at is None
    assert not Round.objects.filter(night=night, number=2).exists()
    # Sent again once the disk has room, it goes through.
    assert post_total(client, night, "Bram", -4).status_code == 302
    assert Round.objects.get(night=night, number=1).recorded_at is not None


def database_gone(execute, sql, params, many, context):
    raise OperationalError("connection to server on socket failed: Connection refused")


@pytest.mark.parametrize("queued", [False, True])
def test_while_the_database_is_gone_pages_polls_and_saves_are_503_in_words(make_night, queued):
    night = two_at_a_table(make_night)
    client = log_in(Client(raise_request_exception=False), "Anna")
    headers = QUEUED if queued else {}
    with connection.execute_wrapper(database_gone):
        answers = [
            client.get(reverse("night_detail", args=[night.pk]), **headers),
            client.get(reverse("night_live", args=[night.pk]) + "?version=x", **headers),
            client.get(reverse("group_live", args=[night.group.pk]), **headers),
            post_total(client, night, "Anna", 5, **headers),
        ]
    for response in answers:
        assert response.status_code == 503
        assert response["Retry-After"].isdigit()
        assert "cannot reach its database" in response.content.decode()
        if queued:
            assert response.json()["saved"] is False
    assert not Entry.objects.exists()
    # Back: the same save goes through.
    assert post_total(client, night, "Anna", 5).status_code == 302


def test_a_bug_is_still_a_plain_500(make_night, monkeypatch):
    night = two_at_a_table(make_night)
    client = log_in(Client(raise_request_exception=False), "Anna")

    def broken(execute, sql, params, many, context):
        raise ZeroDivisionError

    with connection.execute_wrapper(broken):
        response = client.get(reverse("night_detail", args=[night.pk]))
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()
