"""Sessions are read from a store that every server process on the machine shares (the
database, without Redis): a logout answered by one process ends the session in all of
them, where a cache in each process's own memory would let the others answer the
phone as still logged in."""

import os
import re
import urllib.parse
from http.cookiejar import CookieJar
from urllib.error import HTTPError
from urllib.request import HTTPCookieProcessor, HTTPRedirectHandler, build_opener

import pytest
from django.test import Client

from tests.helpers import make_night, start_server
from tests.test_many_nodes import _cookie, database_url

pytestmark = pytest.mark.database

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class _Stay(HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.mark.django_db(transaction=True)
def test_a_logout_in_one_server_process_ends_the_session_in_every_one(tmp_path):
    night = make_night(("Anna", "Bram"))
    client = Client()
    client.force_login(night.seats.get(name="Anna").user)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": database_url(),
        "OFCBOARD_TABLE": "1",
    }
    env.pop("CACHE_URL", None)
    server, port = start_server(env, "--workers", "2")
    base = f"http://127.0.0.1:{port}"
    jar = CookieJar()
    session = _cookie("sessionid", client.cookies["sessionid"].value, "127.0.0.1")
    jar.set_cookie(session)
    phone = build_opener(HTTPCookieProcessor(jar), _Stay())

    def status(path: str, data: dict | None = None) -> int:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        try:
            with phone.open(base + path, body, timeout=30) as response:
                return response.status
        except HTTPError as error:
            return error.code

    night.refresh_from_db()
    poll = f"/nights/{night.pk}/live/?version={night.version}"
    try:
        # Each request on a new connection: both processes answer some of them.
        assert {status(poll) for _ in range(20)} == {204}
        with phone.open(base + f"/nights/{night.pk}/", timeout=30) as page:
            token = CSRF.search(page.read().decode()).group(1)
        assert status("/logout/", {"csrfmiddlewaretoken": token}) == 302
        jar.set_cookie(session)  # a copy of the cookie kept elsewhere is sent all the same
        assert {status(poll) for _ in range(20)} == {302}  # to the login page
    finally:
        server.terminate()
        server.wait(10)
