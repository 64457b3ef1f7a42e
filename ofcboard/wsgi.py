"""WSGI entry point: `python -m ofcboard.serve` serves it (see ofcboard/serve.py).

Every phone asks every 2 s whether its night changed, and almost always nothing did.
That answer (an empty 204, or htmx's 286 once the night is over) is given here,
before Django's request machinery: no URL resolving, no session, user or message
middleware, only the one statement of :mod:`scorekeeper.reads.polls` and the checks
of :mod:`scorekeeper.views.polling`. It is given only to a session key this process
has already seen log in through the full view, and only when the statement says the
session is still there, the person is a member now, active, with the same password,
and the version is the phone's. Anything else (another page, a stranger, a left
member, a changed night, a missing or unknown cookie, a database error) goes to
Django unchanged, which answers as it always has.

The quick answer's headers are those of the middlewares that put headers on every
answer (security headers, Content-Length, X-Frame-Options, the Content-Security-Policy,
``private, no-store``): only those that load something a 204 does not need are left
out, so its headers are the full view's (tests/test_quick_poll.py compares them in
every language). They are made by those middlewares once for each kind of request
(see :class:`QuickAnswers`) and reused.
"""

import os
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from urllib.parse import parse_qsl

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ofcboard.settings")

django_application = get_wsgi_application()

from django.conf import settings  # noqa: E402
from django.core import signals  # noqa: E402
from django.core.exceptions import DisallowedHost  # noqa: E402
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest  # noqa: E402
from django.db import DatabaseError  # noqa: E402
from django.http import HttpRequest, HttpResponse, parse_cookie  # noqa: E402
from django.utils.module_loading import import_string  # noqa: E402
from django_htmx.http import HttpResponseStopPolling  # noqa: E402

from scorekeeper.reads.polls import group_poll, night_poll  # noqa: E402
from scorekeeper.views import polling  # noqa: E402

StartResponse = Callable[..., Any]

# The addresses of the two polls (scorekeeper/urls.py: night_live, group_live).
POLLS = {"nights": night_poll, "groups": group_poll}
POLL_PATH = re.compile(r"/(nights|groups)/([0-9]+)/live/\Z")

# What these middlewares do (load the session, the user, messages; check a form's
# token; serve or compress files; read htmx headers; count failed logins) has no
# part in an empty answer to a member: every other one of settings.MIDDLEWARE runs.
NOT_FOR_THE_QUICK_POLL = {
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
}


def _with_headers(view: Callable[[HttpRequest], HttpResponse]) -> Callable[..., HttpResponse]:
    """``view`` inside the app's header-setting middlewares, in the app's order."""
    handler = view
    for path in reversed(settings.MIDDLEWARE):
        if path not in NOT_FOR_THE_QUICK_POLL:
            handler = import_string(path)(handler)
    return handler


def _the_answer(request: HttpRequest) -> HttpResponse:
    return request.quick_answer  # type: ignore[attr-defined, no-any-return]


Answer = tuple[str, list[tuple[str, str]]]


class QuickAnswers:
    """The quick answers' status and headers, made by the middlewares once for each
    kind of request and then reused.

    Those middlewares read nothing of a request but its scheme (HSTS, also as the
    TLS proxy's header gives it), its host (ALLOWED_HOSTS) and what picks its language
    (the language cookie, then Accept-Language); for the same of those, and the same
    answer (204, or 286 once the night is over), the headers are the same.
    """

    MOST = 1000

    def __init__(self) -> None:
        self._with_headers = _with_headers(_the_answer)
        self._made: dict[tuple, Answer] = {}

    def answer(self, environ: dict[str, Any], cookies: dict[str, str], is_over: bool) -> Answer:
        """Raises DisallowedHost for a host not allowed (Django answers it)."""
        kind = (
            is_over,
            environ.get("wsgi.url_scheme"),
            environ.get("HTTP_X_FORWARDED_PROTO"),
            environ.get("HTTP_HOST"),
            environ.get("SERVER_NAME"),
            environ.get("SERVER_PORT"),
            cookies.get(settings.LANGUAGE_COOKIE_NAME),
            environ.get("HTTP_ACCEPT_LANGUAGE"),
        )
        made = self._made.get(kind)
        if made is None:
            made = self._make(environ, is_over)
            if len(self._made) >= self.MOST:
                self._made.clear()
            self._made[kind] = made
        return made

    def _make(self, environ: dict[str, Any], is_over: bool) -> Answer:
        request = WSGIRequest(dict(environ))
        answer = HttpResponseStopPolling() if is_over else HttpResponse(status=204)
        request.quick_answer = polling.answer(answer)  # type: ignore[attr-defined]
        response = self._with_headers(request)
        status = f"{response.status_code} {response.reason_phrase}"
        headers = [
            *response.items(),
            *(("Set-Cookie", cookie.output(header="")) for cookie in response.cookies.values()),
        ]
        return status, headers


_answers = QuickAnswers()


def _last(query_string: str, name: str) -> str:
    """The last value of ``name`` in the query string (as ``request.GET.get``)."""
    found = ""
    for key, value in parse_qsl(query_string, keep_blank_values=True):
        if key == name:
            found = value
    return found


def _quick_answer(environ: dict[str, Any]) -> Answer | None:
    """The unchanged poll's status and headers, or None for Django to answer."""
    if environ.get("REQUEST_METHOD") != "GET":
        return None
    match = POLL_PATH.match(environ.get("PATH_INFO", ""))
    if match is None:
        return None
    cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
    session_key = cookies.get(settings.SESSION_COOKIE_NAME, "")
    if not session_key:
        return None
    # As Django's handler starts a request (its database connections are checked and
    # dropped if broken or too old); closing the answer ends it.
    signals.request_started.send(sender=WSGIHandler, environ=environ)
    try:
        polled = polling.unchanged_remembered(
            session_key,
            _last(environ.get("QUERY_STRING", ""), "version"),
            POLLS[match[1]],
            int(match[2]),
        )
    except DatabaseError:
        return None
    if polled is None:
        return None
    try:
        return _answers.answer(environ, cookies, polled.is_over)
    except DisallowedHost:  # CommonMiddleware's check of ALLOWED_HOSTS: Django's 400
        return None


class _NoBody:
    """An answer without a body; closing it ends the request as Django's does."""

    def __iter__(self) -> Iterator[bytes]:
        return iter(())

    def close(self) -> None:
        signals.request_finished.send(sender=WSGIHandler)


def application(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
    answer = _quick_answer(environ)
    if answer is None:
        return django_application(environ, start_response)  # type: ignore[no-any-return]
    start_response(*answer)
    return _NoBody()
