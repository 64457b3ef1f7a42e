"""The password form, for an account that joined by name only: it says the way in."""

from django.urls import reverse

from scorekeeper.services.groups import sign_up
from tests.helpers import PASSWORD


def test_a_name_without_a_password_is_told_who_signs_the_phone_in(client, db):
    sign_up(name="Dana")
    response = client.post(reverse("login"), {"username": "dana", "password": "guess-1234"})
    body = response.content.decode()
    assert "This account has no password" in body
    assert "_auth_user_id" not in client.session


def test_a_wrong_password_for_an_account_with_one_says_so_as_before(client, db):
    sign_up(name="Anna", password=PASSWORD)
    response = client.post(reverse("login"), {"username": "anna", "password": "not-it-9876"})
    body = response.content.decode()
    assert "That name and password do not match" in body
    assert "has no password" not in body
