"""The pass a signed-in phone carries for the front, and the address the throttle
counts (IPv6 by its /64), as the front counts them (issue 42)."""

import base64
import hashlib

import pytest
from django.test import RequestFactory

from scorekeeper.site.front_pass import PASS_COOKIE, pass_id, signed_pass
from scorekeeper.site.throttle import client_address
from tests.helpers import make_night


def test_the_pass_is_signed_as_nginx_checks_it():
    value = signed_pass("s3cret", "session-key", 1_900_000_000)
    phone, expires, signature = value.split(".")
    assert phone == pass_id("s3cret", "session-key")
    assert len(phone) == 16
    # secure_link_md5 "$pass_id.$secure_link_expires.<secret>", base64url without padding.
    digest = hashlib.md5(f"{phone}.{expires}.s3cret".encode()).digest()
    assert signature == base64.urlsafe_b64encode(digest).decode().rstrip("=")
    assert len(signature) == 22
    # The id gives the session away to nobody without the secret.
    assert pass_id("other", "session-key") != phone


@pytest.mark.django_db
def test_a_signed_in_phone_is_given_its_pass_and_a_signed_out_one_loses_it(client, settings):
    settings.FRONT_PASS_SECRET = "s3cret"
    night = make_night(("Anna", "Bram"))
    assert PASS_COOKIE not in client.get("/login/").cookies
    client.force_login(night.seats.first().user)
    given = client.get("/").cookies[PASS_COOKIE]
    assert given["httponly"]
    assert given.value.split(".")[0] == pass_id("s3cret", client.session.session_key)
    # Kept while it lasts: not sent again on every answer.
    assert PASS_COOKIE not in client.get("/").cookies
    client.post("/logout/")
    assert client.cookies[PASS_COOKIE].value == ""


@pytest.mark.django_db
def test_without_a_front_there_is_no_pass(client):
    night = make_night(("Anna", "Bram"))
    client.force_login(night.seats.first().user)
    assert PASS_COOKIE not in client.get("/").cookies


@pytest.mark.parametrize(
    ("address", "counted"),
    [
        ("192.168.1.20", "192.168.1.20"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ee:dd:9", "2001:db8:1:2::/64"),
        ("::ffff:10.0.0.5", "::ffff:10.0.0.5"),
        ("", ""),
    ],
)
def test_the_throttle_counts_an_ipv6_address_by_its_64(address, counted):
    request = RequestFactory().get("/", REMOTE_ADDR=address)
    assert client_address(request) == counted
