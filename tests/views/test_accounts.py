"""Logging in and signing up: the login form itself, and open sign-up."""

from django.urls import reverse

from scorekeeper.models import User
from tests.helpers import PASSWORD


def test_login_ignores_the_case_of_the_name_and_lasts_weeks(client, make_user, settings):
    make_user("Anna")
    response = client.post(reverse("login"), {"username": "ANNA", "password": PASSWORD})
    assert response.status_code == 302
    assert settings.SESSION_COOKIE_AGE >= 14 * 24 * 3600
    assert client.cookies["sessionid"]["max-age"] >= 14 * 24 * 3600


def test_a_wrong_password_is_refused_in_plain_words(client, make_user):
    make_user("Anna")
    response = client.post(reverse("login"), {"username": "Anna", "password": "wrong"})
    assert response.status_code == 200
    assert "do not match" in response.content.decode()


def test_open_sign_up_is_off_by_default_and_can_be_switched_on(client, db, settings):
    assert client.get(reverse("signup")).status_code == 404
    settings.OFCBOARD_OPEN_SIGNUP = True
    response = client.post(reverse("signup"), {"name": "Anna", "password": PASSWORD})
    assert response.status_code == 302
    assert User.objects.filter(name="Anna").exists()
