"""Throttling of the doors a stranger on the Wi-Fi could hammer: logging in and
signing up.

Logins are counted by django-axes per name and per address, in the database by
default (every server process sees the same counts, no extra service) or in a
shared cache when one is configured. Sign-ups are counted by django-ratelimit
per invitation link and per address in the ``throttle`` cache (settings.py).
"""

import unicodedata
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_ratelimit.core import is_ratelimited

from scorekeeper.names import MAX_NAME_LENGTH

# Sign-ups: a table of friends joins within minutes, a script would make dozens.
SIGNUPS_PER_LINK = "12/h"
SIGNUPS_PER_ADDRESS = "5/h"


def client_address(request: HttpRequest) -> str:
    """The phone's address: the connection's. Behind the trusted proxy the server has
    put the address the proxy passed there (ofcboard/serve.py, behind_a_proxy); a
    forwarded header a client sends itself is never read here."""
    return str(request.META.get("REMOTE_ADDR", ""))


def login_name(request: HttpRequest, credentials: dict | None) -> str:
    """The name a login attempt is counted under: "ANNA", "anna" and a full-width
    "Ａｎｎａ" are one name, as they are one account."""
    raw = str((credentials or {}).get("username") or "")[: MAX_NAME_LENGTH * 2]
    return " ".join(unicodedata.normalize("NFKC", raw).split()).casefold()


def wait_words(wait: timedelta) -> str:
    minutes = max(1, round(wait.total_seconds() / 60))
    if minutes % 60 == 0:
        hours = minutes // 60
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


def login_locked_message() -> str:
    return _(
        "Too many wrong passwords for this name, or from this phone. Wait %(wait)s, then try again."
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


def signup_refusal(request: HttpRequest, link: str = "") -> str:
    """Count one sign-up attempt from this address (and through invitation ``link``);
    the refusal in words once either has had its share, else ""."""
    # On SQLite the transaction takes the write lock first (BEGIN IMMEDIATE), so the
    # database cache's read-then-write count is exact across server processes.
    with transaction.atomic():
        by_address = is_ratelimited(
            request,
            group="signup-address",
            key=lambda group, request: client_address(request),
            rate=SIGNUPS_PER_ADDRESS,
            increment=True,
        )
        by_link = bool(link) and is_ratelimited(
            request,
            group="signup-link",
            key=lambda group, request: link,
            rate=SIGNUPS_PER_LINK,
            increment=True,
        )
    if by_link:
        return _(
            "Many accounts were just made with this invitation link. "
            "Wait an hour, then try again, or ask the group for a new link."
        )
    if by_address:
        return _("Several accounts were just made from this phone. Wait an hour, then try again.")
    return ""
