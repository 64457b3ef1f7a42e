"""The phones an account is signed in on, as sessions: kept signed in while used,
listed on the account page, and signed out from another phone.

A session lasts settings.SESSION_COOKIE_AGE (a year) from the last time it was
renewed; :func:`keep_signed_in` renews it at most once every RENEW_EVERY, so a phone
in use never drops out and a poll every two seconds writes nothing.
"""

import time
from importlib import import_module

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from scorekeeper.services.sign_ins import forget_phone, phone_seen, record_phone
from scorekeeper.site.middleware import Handler

RENEW_EVERY = 24 * 60 * 60
_RENEWED = "renewed"

_BROWSERS = (
    ("Edg/", "Edge"),
    ("SamsungBrowser", "Samsung Internet"),
    ("Firefox", "Firefox"),
    ("FxiOS", "Firefox"),
    ("CriOS", "Chrome"),
    ("Chrome", "Chrome"),
    ("Safari", "Safari"),
)
_DEVICES = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("Macintosh", "Mac"),
    ("Windows", "Windows"),
    ("Linux", "Linux"),
)


def phone_label(request: HttpRequest) -> str:
    """What the browser says it is, in brand names: "iPhone · Safari"; "" when it
    says nothing we know."""
    agent = request.META.get("HTTP_USER_AGENT", "")[:500]
    device = next((name for mark, name in _DEVICES if mark in agent), "")
    browser = next((name for mark, name in _BROWSERS if mark in agent), "")
    return " · ".join(part for part in (device, browser) if part)


def _store(session_key: str | None = None):
    return import_module(settings.SESSION_ENGINE).SessionStore(session_key)


def end_session(session_key: str) -> None:
    """Sign the phone with ``session_key`` out: its next page asks it to sign in."""
    _store(session_key).delete(session_key)


def sign_out_other_phones(user, *, this_phone: str) -> None:
    """Every phone of ``user`` but ``this_phone`` signed out, and off the list."""
    for key in user.phones.exclude(session_key=this_phone).values_list("session_key", flat=True):
        end_session(key)
        forget_phone(session_key=key)


def phones_signed_in(user) -> list:
    """``user``'s phones whose sessions still hold: one that ended without signing
    out (a year unused, or signed out by a password change) is taken off the list."""
    phones = []
    for phone in user.phones.select_related("signed_in_by"):
        if _store(phone.session_key).exists(phone.session_key):
            phones.append(phone)
        else:
            forget_phone(session_key=phone.session_key)
    return phones


def record_login(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """On every sign-in (user_logged_in): list this phone on the account; when a
    sign-in code put it there, the account's older phones are told
    (services/sign_ins.record_phone)."""
    if request is None or not hasattr(request, "session"):
        return
    if request.session.session_key is None:
        request.session.save()
    key = request.session.session_key
    assert key is not None
    request.session[_RENEWED] = time.time()
    sign_in = getattr(request, "sign_in_code", None)
    record_phone(user=user, session_key=key, label=phone_label(request), sign_in=sign_in)


def record_logout(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """On signing out (user_logged_out): this phone is off the account's list."""
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        forget_phone(session_key=key)


def keep_signed_in(get_response: Handler) -> Handler:
    """A phone in use stays signed in: once a day its session is renewed for another
    SESSION_COOKIE_AGE, and its row on the account page says it was used."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        session = getattr(request, "session", None)
        user = getattr(request, "user", None)
        if session is None or user is None or not user.is_authenticated:
            return response
        renewed = session.get(_RENEWED, 0)
        if time.time() - renewed > RENEW_EVERY and session.session_key:
            session[_RENEWED] = time.time()  # saved, and its cookie set anew
            phone_seen(user=user, session_key=session.session_key, label=phone_label(request))
        return response

    return middleware
