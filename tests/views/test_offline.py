"""The answers a phone's queue reads, and the installable app's files."""

import re

from django.urls import reverse

from scorekeeper.models import Entry
from tests.helpers import enter, seats_of

KEY = "0123456789abcdef0123456789abcdef"
QUEUED = {"HTTP_ACCEPT": "application/json"}


def queued_save(client, night, seat, points, *, key=KEY, number=1):
    data = {"round": number, "seat": seat.pk, "points": points, "key": key}
    return client.post(reverse("entry_save", args=[night.pk]), data, **QUEUED)


def test_a_queued_total_is_answered_saved_then_already_saved(login, make_night):
    night = make_night()
    anna = seats_of(night)["Anna"]
    client = login("Anna")
    first = queued_save(client, night, anna, "12")
    assert first.status_code == 200 and first.json() == {"saved": True, "already": False}
    again = queued_save(client, night, anna, "12")
    assert again.json() == {"saved": True, "already": True}
    assert Entry.objects.get().client_key == KEY


def test_a_queued_total_whose_round_went_through_is_refused_in_words(login, make_night):
    night = make_night(("Anna", "Bram"))
    enter(night, "Anna", -3, by="Bram")
    enter(night, "Bram", 3)
    response = queued_save(login("Anna"), night, seats_of(night)["Anna"], "5")
    assert response.status_code == 409
    assert response.json()["message"] == (
        "Round 1 already went through: your +5 was not used. Round 2 is open."
    )
    assert Entry.objects.filter(round__number=2).count() == 0


def test_a_queued_total_out_of_range_is_refused_with_the_reason(login, make_night):
    night = make_night()
    response = queued_save(login("Anna"), night, seats_of(night)["Anna"], "5000")
    assert response.status_code == 400
    assert "between" in response.json()["message"]
    assert not Entry.objects.exists()


def test_a_malformed_key_is_refused_and_saves_nothing(login, make_night):
    night = make_night()
    response = queued_save(login("Anna"), night, seats_of(night)["Anna"], "5", key="x' or 1")
    assert response.status_code == 400 and "Reload the page" in response.json()["message"]
    assert not Entry.objects.exists()


def test_a_queued_board_for_a_seat_that_left_is_refused(login, make_night):
    night = make_night(("Anna", "Bram", "Chris"))
    chris = seats_of(night)["Chris"]
    chris.last_round = 0
    chris.save()
    url = reverse("board_entry", args=[night.pk, 1, chris.pk])
    response = login("Anna").post(url, {"save": "1", "key": KEY}, **QUEUED)
    assert response.status_code == 409 and "left the table" in response.json()["message"]


def test_the_save_forms_carry_the_key_field(login, make_night):
    night = make_night()
    page = login("Anna").get(reverse("night_detail", args=[night.pk])).content.decode()
    assert 'name="key"' in page and "data-queue-form" in page and "data-queue " in page
    board = login("Anna").get(
        reverse("board_entry", args=[night.pk, 1, seats_of(night)["Anna"].pk])
    )
    assert 'name="key"' in board.content.decode()


def test_the_service_worker_is_served_from_the_root_and_names_the_static_files(client):
    response = client.get(reverse("service_worker"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    body = response.content.decode()
    # By their hashed names, as `make run` serves them.
    assert re.search(r'"/static/ofcboard/queue\.[0-9a-f]{12}\.js"', body)
    assert re.search(r'"/static/django_htmx/htmx-2\.min\.[0-9a-f]{12}\.js"', body)
    assert 'const STATIC_URL = "/static/";' in body
    assert reverse("service_worker") == "/service-worker.js"
