"""Which posts to the password pages will hash a password: those, and only those, wait
for the server's lane of their own (ofcboard/lanes.py, HASHING_AT_ONCE).

The server decides before Django runs the request, so a post that Django would turn
away without hashing must not take a place in that lane: anyone could fill it with
posts that have no CSRF token, or come from an address the throttle refuses, and a
member's right password would be answered 503. A post takes the lane when it has a
password, its CSRF token passes Django's own check, and, for a login, the throttle
would let the password be checked; anything else is answered by Django in the
ordinary lane (403, 429 or a form's error) without hashing.
"""

import io
from typing import Any

from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.middleware.csrf import CsrfViewMiddleware

from scorekeeper.site.throttle import login_name, login_refusal
from scorekeeper.table.names import MAX_NAME_LENGTH, tidy_name


class _CsrfVerdict(CsrfViewMiddleware):
    """Django's CSRF check (Origin, Referer over HTTPS, the token against the cookie),
    its verdict only: a refusal is neither rendered nor logged here, as Django does
    both when it answers the post itself."""

    def _reject(self, request: HttpRequest, reason: str) -> HttpResponse:
        return HttpResponseForbidden()


def _a_password_page(request: HttpRequest) -> HttpResponse:
    # Stands for the password pages, none of which is exempt from the CSRF check.
    return HttpResponse()


def _csrf_passes(request: HttpRequest) -> bool:
    verdict = _CsrfVerdict(_a_password_page)
    verdict.process_request(request)
    return verdict.process_view(request, _a_password_page, (), {}) is None


def _field(form: Any, suffix: str) -> str | None:
    """The value of the form's field ``suffix`` or ``<prefix>-<suffix>`` (the
    invitation page's "login-password"), as a form reads it (the last one sent); None
    when there is no such field."""
    names = [name for name in form if name == suffix or name.endswith("-" + suffix)]
    return str(form.get(names[-1])) if names else None


def will_hash_a_password(environ: dict[str, Any]) -> bool:
    """Whether the post in ``environ`` (to a password page, its body read whole by
    the server) will have a password hashed; read-only, it counts nothing."""
    if not int(environ.get("CONTENT_LENGTH") or 0):
        return False
    body = environ["wsgi.input"].read()
    environ["wsgi.input"] = io.BytesIO(body)  # for the app, from its start
    try:
        request = WSGIRequest({**environ, "wsgi.input": io.BytesIO(body)})
        form = request.POST
        if not _field(form, "password"):
            return False
        if not _csrf_passes(request):
            return False
        name = _field(form, "username")
        if name is None:
            return True  # a sign-up: its password is hashed once the form is valid
        # Without a name, or with one too long for any account, the login form never
        # checks the password; nor when the throttle refuses this address or name.
        if not tidy_name(name) or len(tidy_name(name)) > MAX_NAME_LENGTH:
            return False
        return not login_refusal(request, login_name(request, {"username": name}))
    except Exception:
        # Whatever Django cannot read (a broken form, a host it does not serve), it
        # answers itself, without hashing.
        return False
