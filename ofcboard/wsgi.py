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

The quick answer still passes through the middlewares that put headers on every
answer (security headers, Content-Length, X-Frame-Options, the Content-Security-Policy,
``private, no-store``): only those that load something a 204 does not need are left
out, so its headers are the full view's (tests/test_quick_poll.py compares them).
"""

import os
import re
from collections.abc import Callable, Iterable
from typing import Any

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ofcboard.settings")

django_application = get_wsgi_application()

from django.conf import settings  # noqa: E402
from django.core import signals  # noqa: E402
from django.core.exceptions import DisallowedHost  # noqa: E402
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest  # noqa: E402
from django.db import DatabaseError  # noqa: E402
from django.http import HttpRequest, HttpResponse  # noqa: E402
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


_answer_with_headers = _with_headers(_the_answer)


def _quick_answer(environ: dict[str, Any]) -> HttpResponse | None:
    """The unchanged poll's answer, or None for Django to answer."""
    if environ.get("REQUEST_METHOD") != "GET":
        return None
    match = POLL_PATH.match(environ.get("PATH_INFO", ""))
    if match is None:
        return None
    request = WSGIRequest(environ)
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    if not session_key:
        return None
    # As Django's handler starts a request (its database connections are checked and
    # dropped if broken or too old); closing the response ends it.
    signals.request_started.send(sender=WSGIHandler, environ=environ)
    try:
        polled = polling.unchanged_remembered(
            session_key, request.GET.get("version", ""), POLLS[match[1]], int(match[2])
        )
    except DatabaseError:
        return None
    if polled is None:
        return None
    answer = HttpResponseStopPolling() if polled.is_over else HttpResponse(status=204)
    request.quick_answer = polling.answer(answer)  # type: ignore[attr-defined]
    try:
        return _answer_with_headers(request)  # type: ignore[no-any-return]
    except DisallowedHost:  # CommonMiddleware's check of ALLOWED_HOSTS: Django's 400
        return None


def application(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
    response = _quick_answer(environ)
    if response is None:
        return django_application(environ, start_response)  # type: ignore[no-any-return]
    # As Django's WSGIHandler sends a response (closing it sends request_finished).
    status = f"{response.status_code} {response.reason_phrase}"
    headers = [
        *response.items(),
        *(("Set-Cookie", cookie.output(header="")) for cookie in response.cookies.values()),
    ]
    start_response(status, headers)
    return response
