"""Answering a poll when nothing changed in one query: no session, user, night or
group is loaded for it (see :mod:`scorekeeper.reads.polls`).

The login is checked as Django's ``get_user`` checks it: a model-backend login, an
active user, the session's hash of their password, and the session still in the
database and not expired (the statement checks those two). Anything else, and any
change, goes to the full view, which answers as it always has (a redirect to log in,
a 404).

Which user a session key logged in never changes while the key exists: Django gives
the session a new key at every login and at every password change, and deletes it at
logout. So each process remembers, per key, the user and hash it read from the
session once, and only asks the database whether the key is still there.
"""

from collections.abc import Callable
from functools import lru_cache

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.base import SessionBase
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.crypto import constant_time_compare

from scorekeeper.models import User
from scorekeeper.reads.polls import Polled

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
# The session engines that keep a row per session for the statement to find.
ENGINES_WITH_ROWS = {
    "django.contrib.sessions.backends.db",
    "django.contrib.sessions.backends.cached_db",
}
_MOST_REMEMBERED = 20_000

# session key -> (user id, the session's hash of their password)
_logins: dict[str, tuple[int, str]] = {}


def _login_in(session: SessionBase) -> tuple[int, str] | None:
    if session.get(BACKEND_SESSION_KEY) != MODEL_BACKEND:
        return None
    if MODEL_BACKEND not in settings.AUTHENTICATION_BACKENDS:
        return None
    session_hash = session.get(HASH_SESSION_KEY)
    try:
        user_id = User._meta.pk.to_python(session.get(SESSION_KEY))
    except ValidationError:
        return None
    if user_id is None or not session_hash:
        return None
    return user_id, session_hash


def _login(request: HttpRequest) -> tuple[str, int, str] | None:
    """(session key, user id, session hash) of the request's login, if it has one."""
    if settings.SESSION_ENGINE not in ENGINES_WITH_ROWS:
        return None
    key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    if not key:
        return None
    known = _logins.get(key)
    if known is None:
        known = _login_in(request.session)  # read once from the session itself
        if known is None or request.session.session_key != key:
            return None
        if len(_logins) >= _MOST_REMEMBERED:
            _logins.clear()
        _logins[key] = known
    return key, *known


def unchanged(
    request: HttpRequest, read: Callable[[int, int, str], Polled | None], object_id: int
) -> Polled | None:
    """What ``read`` says of ``object_id`` when the phone already shows its version
    and the person polling is logged in and a member now; None otherwise."""
    login = _login(request)
    if login is None:
        return None
    return _checked(read, object_id, *login, request.GET.get("version", ""))


def unchanged_remembered(
    session_key: str, version: str, read: Callable[[int, int, str], Polled | None], object_id: int
) -> Polled | None:
    """The same answer as :func:`unchanged`, for a session key this process has
    already read the login of; None for any other (the full view reads it)."""
    if settings.SESSION_ENGINE not in ENGINES_WITH_ROWS:
        return None
    known = _logins.get(session_key)
    if known is None:
        return None
    return _checked(read, object_id, session_key, *known, version)


def _checked(
    read: Callable[[int, int, str], Polled | None],
    object_id: int,
    session_key: str,
    user_id: int,
    session_hash: str,
    version: str,
) -> Polled | None:
    polled = read(object_id, user_id, session_key)
    if polled is None or polled.version != version:
        return None
    if not polled.is_active:
        return None
    expected = _session_hash_for(polled.password, settings.SECRET_KEY)
    return polled if constant_time_compare(session_hash, expected) else None


@lru_cache(maxsize=_MOST_REMEMBERED)
def _session_hash_for(password: str, secret_key: str) -> str:
    """The hash a session of the user with this password hash carries (Django's HMAC
    of it with the secret key): the same for every poll until the password changes."""
    return User(password=password).get_session_auth_hash()


def answer(response: HttpResponse) -> HttpResponse:
    """The quick answer, with the headers the full one has: it depends on the cookie
    (the session was not opened, so the session middleware does not say so)."""
    patch_vary_headers(response, ("Cookie",))
    return response
