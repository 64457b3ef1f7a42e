"""Throttled doors: wrong passwords per name and per address, sign-ups per
invitation link and per address; each refusal in words, with the wait."""

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from scorekeeper.models import Membership, User
from scorekeeper.throttle import SIGNUPS_PER_ADDRESS, SIGNUPS_PER_LINK
from tests.helpers import PASSWORD, log_in, make_night, seats_of

LIMIT = 10  # settings.AXES_FAILURE_LIMIT


def try_login(client, name, password, address="192.0.2.10"):
    return client.post(
        reverse("login"), {"username": name, "password": password}, REMOTE_ADDR=address
    )


def test_wrong_passwords_for_one_name_lock_it_even_for_the_right_one(client, make_user):
    make_user("Anna")
    for attempt in range(LIMIT - 1):
        # From many addresses: the count is per name too.
        response = try_login(client, "anna", "wrong", address=f"192.0.2.{attempt + 1}")
        assert "do not match" in response.content.decode()
    locked = try_login(client, "ANNA", "wrong", address="198.51.100.1")
    assert locked.status_code == 429
    phone = Client()
    right = try_login(phone, "Anna", PASSWORD, address="198.51.100.2")
    assert right.status_code == 429
    body = right.content.decode()
    assert "Too many wrong passwords for this name" in body and "Wait 15 minutes" in body
    assert "_auth_user_id" not in phone.session


def test_wrong_passwords_from_one_address_lock_it_for_every_name(client, make_user):
    for name in ("Anna", "Bram"):
        make_user(name)
    for attempt in range(LIMIT):
        try_login(client, f"Nobody {'x' * attempt}", "wrong", address="203.0.113.7")
    response = try_login(client, "Bram", PASSWORD, address="203.0.113.7")
    assert response.status_code == 429
    # Another phone on the Wi-Fi logs in as before.
    assert try_login(Client(), "Bram", PASSWORD, address="203.0.113.8").status_code == 302


def test_a_right_password_before_the_limit_still_works(client, make_user):
    make_user("Anna")
    for _ in range(3):
        try_login(client, "Anna", "wrong")
    assert try_login(client, "Anna", PASSWORD).status_code == 302


def signup(client, group, name, address):
    return client.post(
        reverse("join", args=[group.invite_token]),
        {"action": "signup", "signup-name": name, "signup-password": PASSWORD},
        REMOTE_ADDR=address,
    )


NAMES = [
    "Bea",
    "Cleo",
    "Dirk",
    "Edda",
    "Finn",
    "Gert",
    "Hugo",
    "Ines",
    "Jory",
    "Kees",
    "Lies",
    "Mart",
    "Noor",
    "Olaf",
]


def test_sign_ups_through_one_link_are_counted_per_address_and_per_link(make_group):
    group = make_group(members=("Anna",))
    per_address = int(SIGNUPS_PER_ADDRESS.split("/")[0])
    per_link = int(SIGNUPS_PER_LINK.split("/")[0])
    for name in NAMES[:per_address]:
        assert signup(Client(), group, name, "192.0.2.50").status_code == 302
    refused = signup(Client(), group, "Zed", "192.0.2.50")
    assert refused.status_code == 429
    assert "from this phone. Wait an hour" in refused.content.decode()
    # Other phones go on until the link itself has had its share of attempts.
    for index, name in enumerate(NAMES[per_address : per_link - 1]):
        assert signup(Client(), group, name, f"192.0.2.{index + 60}").status_code == 302
    refused = signup(Client(), group, "Zed", "192.0.2.99")
    assert refused.status_code == 429
    assert "with this invitation link" in refused.content.decode()
    assert not User.objects.filter(name="Zed").exists()
    # Anna, and everyone but the one refused try among the link's attempts.
    assert Membership.objects.filter(group=group).count() == 1 + per_link - 1


def test_open_sign_up_is_counted_per_address(client, db, settings):
    settings.OFCBOARD_OPEN_SIGNUP = True
    per_address = int(SIGNUPS_PER_ADDRESS.split("/")[0])
    for name in NAMES[: per_address + 1]:
        response = Client().post(
            reverse("signup"), {"name": name, "password": PASSWORD}, REMOTE_ADDR="192.0.2.70"
        )
    assert response.status_code == 429
    assert User.objects.count() == per_address


@pytest.mark.django_db(transaction=True)
def test_the_table_keeps_playing_while_logins_are_hammered():
    from tests.services.test_concurrency import run_at_once

    night = make_night(("Anna", "Bram"))
    anna, bram = log_in(Client(), "Anna"), log_in(Client(), "Bram")
    seats = seats_of(night)
    answers: list[int] = []

    def hammer(address):
        for _ in range(15):
            try_login(Client(), "Anna", "wrong", address=address)

    def play():
        for number in range(1, 6):
            for client, name, points in ((anna, "Anna", 3), (bram, "Bram", -3)):
                response = client.post(
                    reverse("entry_save", args=[night.pk]),
                    {"round": number, "seat": seats[name].pk, "points": points},
                )
                answers.append(response.status_code)
                poll = client.get(reverse("night_live", args=[night.pk]))
                answers.append(poll.status_code)

    errors = run_at_once([play] + [lambda a=a: hammer(f"192.0.2.{a}") for a in range(3)])
    assert errors == []
    assert answers == [302, 200] * 10
    assert night.rounds.filter(recorded_at__isnull=False).count() == 5


def test_sign_up_counts_are_shared_through_the_database_cache(make_group, settings):
    # As `make run` has them: in the database, so every server process sees one count.
    settings.CACHES = {
        **settings.CACHES,
        "throttle": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "ofcboard_throttle",
        },
    }
    call_command("createcachetable", verbosity=0)  # what `migrate` does (apps.py)
    group = make_group(members=("Anna",))
    per_address = int(SIGNUPS_PER_ADDRESS.split("/")[0])
    for name in NAMES[:per_address]:
        assert signup(Client(), group, name, "192.0.2.80").status_code == 302
    assert signup(Client(), group, "Zed", "192.0.2.80").status_code == 429


def test_a_clients_own_forwarded_for_changes_nothing_in_the_count(client, make_user, settings):
    """Only the server believes a forwarded address, and only from the trusted proxy
    (ofcboard/serve.py puts it in REMOTE_ADDR): a header a client sends itself neither
    spreads its wrong passwords over made-up addresses nor aims them at another phone,
    even where CLIENT_IP_HEADER is still set, as the README once told a proxied
    deployment to do."""
    settings.CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    make_user("Anna")
    for attempt in range(LIMIT):
        client.post(
            reverse("login"),
            {"username": f"Nobody {'x' * attempt}", "password": "wrong"},
            REMOTE_ADDR="192.0.2.10",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{attempt}",  # a new "address" every time
        )
    still_the_same_phone = try_login(Client(), "Anna", PASSWORD, address="192.0.2.10")
    assert still_the_same_phone.status_code == 429
    # The address it named in its headers is not locked out.
    assert try_login(Client(), "Anna", PASSWORD, address="198.51.100.3").status_code == 302
