"""Throttling of the doors a stranger on the Wi-Fi could hammer: logging in and
signing up, so that nobody can lock a member out or use up an invitation link.

Logins, three counts:

- django-axes locks a name together with the address it is tried from (the pair)
  after AXES_FAILURE_LIMIT wrong passwords, for AXES_COOLOFF_TIME. A name alone is
  never locked: wrong passwords for "Bob" from ten other addresses leave Bob's own
  phone logging in as before.
- Wrong passwords for one name from addresses it never logged in from are counted
  per name (LOGIN_TRIES_PER_NAME). Past that the name is slowed down, not locked: it
  logs in only from addresses it logged in from before (KNOWN_FOR) until the hour is
  over, so however many addresses an attacker has, a few dozen passwords an hour is
  all they can try against one name, and Bob's right password from his phone works.
- Wrong passwords from one address, whatever the names (LOGIN_FAILURES_PER_ADDRESS):
  past that, nothing logs in from it until its hour is over.

Sign-ups are counted once the form is valid (an empty post costs nothing), per
invitation link (the main limit) and per address (a table of friends behind one
router fits). The counts live in the ``throttle`` cache (settings.py): the database
by default, so every server process sees the same, sized to keep a million counts
(Django's default keeps 300, and forgot an address's count once 400 others were
counted), or a shared Redis. Each refusal
says in words what happened and how long to wait.
"""

import hashlib
import ipaddress
import math
from datetime import timedelta

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage

from scorekeeper.table.names import MAX_NAME_LENGTH, name_key

# Wrong passwords an hour for one name from addresses it never logged in from.
LOGIN_TRIES_PER_NAME = "20/h"
# Wrong passwords an hour from one address, whatever the names: a table behind one
# router mistyping now and then stays well under it.
LOGIN_FAILURES_PER_ADDRESS = "30/h"
# An address a name logged in from is known for this long after (a phone keeps its
# address on the table's Wi-Fi, a home network its own, for weeks).
KNOWN_FOR = timedelta(days=30)

# A table of friends joins within minutes, a script would make dozens.
SIGNUPS_PER_LINK = "12/h"
SIGNUPS_PER_ADDRESS = "12/h"


def client_address(request: HttpRequest) -> str:
    """The phone's address as it is counted: the connection's, and for an IPv6 address
    its /64, which one home or one phone is given whole (so 2^64 addresses to try
    from); as the front counts it (ofcboard/front.py). Behind the front the server has
    put there the address the front passed on (ofcboard/serve.py,
    believing_the_front); a forwarded header a client sends itself is never read here."""
    address = str(request.META.get("REMOTE_ADDR", ""))
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return address


def login_name(request: HttpRequest | None, credentials: dict | None) -> str:
    """The name a login attempt is counted under, the one name key
    (:func:`scorekeeper.table.names.name_key`): "BOB", " bob" and a full-width "Ｂｏｂ"
    are one name, as they are one account."""
    raw = str((credentials or {}).get("username") or "")[: MAX_NAME_LENGTH * 2]
    return name_key(raw)


def wait_words(wait: timedelta) -> str:
    minutes = max(1, math.ceil(wait.total_seconds() / 60))
    if minutes % 60 == 0:
        hours = minutes // 60
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


def login_locked_message() -> str:
    """The pair's lock (django-axes): this name from this address."""
    return _(
        "Too many wrong passwords for this name from this phone. Wait %(wait)s, then "
        "try again. Other phones can still log in with this name."
    ) % {"wait": wait_words(settings.AXES_COOLOFF_TIME)}


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """What a locked-out login gets: the page it posted to, whose form already says
    why in words (forms/accounts.py), as 429 Too Many Requests."""
    if original_response is None:
        return HttpResponse(login_locked_message(), status=429, content_type="text/plain")
    original_response.status_code = 429
    return original_response


def _count(request: HttpRequest, group: str, key: str, rate: str, *, increment: bool) -> dict:
    """django-ratelimit's count of ``key`` in ``group``: should_limit once over
    ``rate``, and time_left, the seconds until its window ends."""
    usage = get_usage(
        request, group=group, key=lambda group, request: key, rate=rate, increment=increment
    )
    # None only when ratelimit is switched off (RATELIMIT_ENABLE).
    return usage or {"count": 0, "limit": 1, "should_limit": False, "time_left": 0}


def _used_up(usage: dict) -> bool:
    # Read before this try is counted: its share is used up once the count is there.
    return usage["count"] >= usage["limit"]


def _wait(usage: dict) -> str:
    return wait_words(timedelta(seconds=usage["time_left"]))


def _known_key(name: str, address: str) -> str:
    pair = hashlib.sha256(f"{name}\0{address}".encode()).hexdigest()
    return f"login-known-{pair}"


def remember_login(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """On every login (user_logged_in): this name is known at this address, so a flood
    of wrong passwords for it from elsewhere never keeps it out from here."""
    if request is not None:
        name = login_name(request, {"username": user.get_username()})
        caches["throttle"].set(
            _known_key(name, client_address(request)), True, KNOWN_FOR.total_seconds()
        )


def _is_known(request: HttpRequest, name: str) -> bool:
    return bool(caches["throttle"].get(_known_key(name, client_address(request))))


def login_refusal(request: HttpRequest, name: str) -> str:
    """Before a password is checked: the refusal in words when this address, or this
    name from an address it never logged in from, has had its share of wrong
    passwords; else ""."""
    address = client_address(request)
    by_address = _count(
        request, "login-address", address, LOGIN_FAILURES_PER_ADDRESS, increment=False
    )
    if _used_up(by_address):
        return _(
            "Too many wrong passwords were tried from this phone or its network. Nobody "
            "can log in from here for %(wait)s; then try again."
        ) % {"wait": _wait(by_address)}
    if _is_known(request, name):
        return ""
    by_name = _count(request, "login-name", name, LOGIN_TRIES_PER_NAME, increment=False)
    if _used_up(by_name):
        return _(
            "Many wrong passwords were just tried for this name, so for %(wait)s it logs "
            "in only from phones it logged in from before. Try from your own phone, or "
            "wait, then try again."
        ) % {"wait": _wait(by_name)}
    return ""


def count_wrong_password(request: HttpRequest, name: str) -> None:
    """A wrong password for ``name`` from this address (django-axes counts the pair)."""
    with transaction.atomic():  # as in signup_refusal
        _count(
            request,
            "login-address",
            client_address(request),
            LOGIN_FAILURES_PER_ADDRESS,
            increment=True,
        )
        if not _is_known(request, name):
            _count(request, "login-name", name, LOGIN_TRIES_PER_NAME, increment=True)


def signup_refusal(request: HttpRequest, link: str = "") -> str:
    """Count one valid sign-up from this address (and through invitation ``link``);
    the refusal in words once either has had its share, else ""."""
    # On SQLite the transaction takes the write lock first (BEGIN IMMEDIATE), so the
    # database cache's read-then-write count is exact across server processes.
    with transaction.atomic():
        address = client_address(request)
        by_address = _count(request, "signup-address", address, SIGNUPS_PER_ADDRESS, increment=True)
        by_link = (
            _count(request, "signup-link", link, SIGNUPS_PER_LINK, increment=True) if link else None
        )
    if by_link and by_link["should_limit"]:
        return _(
            "Many accounts were just made with this invitation link. Wait %(wait)s, then "
            "try again, or ask the group for a new link."
        ) % {"wait": _wait(by_link)}
    if by_address["should_limit"]:
        return _(
            "Many accounts were just made from this phone or its network. Wait %(wait)s, "
            "then try again."
        ) % {"wait": _wait(by_address)}
    return ""


# Codes that match nothing, an hour, from one address: a table mistyping now and then
# stays far under it; guessing one of 2^40 codes at this rate takes forever.
WRONG_CODES_PER_ADDRESS = "30/h"


def code_refusal(request: HttpRequest) -> str:
    """Before a typed or opened code (a group's, a sign-in's) is looked up: the
    refusal in words once this address has had its share of codes that matched
    nothing, else ""."""
    usage = _count(
        request, "code-address", client_address(request), WRONG_CODES_PER_ADDRESS, increment=False
    )
    if _used_up(usage):
        return _(
            "Too many codes that match nothing were tried from this phone or its network. "
            "Wait %(wait)s, then try again."
        ) % {"wait": _wait(usage)}
    return ""


def count_wrong_code(request: HttpRequest) -> None:
    """A code that matched nothing, from this address."""
    with transaction.atomic():  # as in signup_refusal
        _count(
            request,
            "code-address",
            client_address(request),
            WRONG_CODES_PER_ADDRESS,
            increment=True,
        )
