"""Answering a poll when nothing changed without loading the user: the session, then
one statement (see :mod:`scorekeeper.reads.polls`).

The login is checked as Django's ``get_user`` checks it (a model-backend login, an
active user, the session's hash of their password); anything else, and any change,
goes to the full view, which answers as it always has (a redirect to log in, a 404).
"""

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare

from scorekeeper.models import User
from scorekeeper.reads.polls import Polled

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _session_user_id(request: HttpRequest) -> int | None:
    session = request.session
    if session.get(BACKEND_SESSION_KEY) != MODEL_BACKEND:
        return None
    if MODEL_BACKEND not in settings.AUTHENTICATION_BACKENDS:
        return None
    try:
        return User._meta.pk.to_python(session.get(SESSION_KEY))
    except ValidationError:
        return None


def _session_holds(request: HttpRequest, polled: Polled) -> bool:
    session_hash = request.session.get(HASH_SESSION_KEY)
    if not (polled.is_active and session_hash):
        return False
    expected = User(password=polled.password).get_session_auth_hash()
    return constant_time_compare(session_hash, expected)


def unchanged(
    request: HttpRequest, read: Callable[[int, int], Polled | None], object_id: int
) -> Polled | None:
    """What ``read`` says of ``object_id`` when the phone already shows its version
    and the person polling is logged in and a member now; None otherwise."""
    user_id = _session_user_id(request)
    if user_id is None:
        return None
    polled = read(object_id, user_id)
    if polled is None or polled.version != request.GET.get("version", ""):
        return None
    return polled if _session_holds(request, polled) else None
