"""The polled fragments' one rule: while the phone shows the current version, the
answer is empty (204), or htmx's 286 once there is nothing more to wait for.

A poll is an ordinary view: the session, the login and every middleware are
Django's own, so it answers whoever polls as the page would (a redirect to log in,
a 404). Only the fragment is skipped when nothing changed; that costs the session
(kept in a cache, see settings.py), the user and one query for the version.
"""

from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, HttpResponse
from django_htmx.http import HttpResponseStopPolling

from scorekeeper.models import Night
from scorekeeper.reads.polls import Current

View = Callable[..., HttpResponse]
_POLLED = "_polled_now"


def polled(request: HttpRequest) -> Current | None:
    """What :func:`unchanged_poll` read for this request, for the view to render with
    instead of reading it again (None outside a poll)."""
    now = getattr(request, _POLLED, None)
    return now if isinstance(now, Current) else None


def unchanged_poll(current: Callable[..., Current | None]) -> Callable[[View], View]:
    """Answer the view's poll without it when its ``?version=`` is current.

    ``current(request.user, **the URL's arguments)`` reads what is current, or None
    when the person may not see it or it is not there: the view then answers as it
    always does (its 404, or the link taken back).
    """

    def decorator(view: View) -> View:
        @wraps(view)
        def poll(request: HttpRequest, **kwargs: object) -> HttpResponse:
            now = current(request.user, **kwargs)
            if now is not None and request.GET.get("version") == now.version:
                return HttpResponseStopPolling() if now.is_over else HttpResponse(status=204)
            setattr(request, _POLLED, now)
            return view(request, **kwargs)

        return poll

    return decorator


# The night's version a live answer was drawn from, for live.js to order answers by: one
# that arrives after a newer one is not shown (static/ofcboard/live.js).
VERSION_HEADER = "OFC-Version"


def shown_version(response: HttpResponse, night: Night) -> HttpResponse:
    """``response``, a live part of ``night``'s pages, marked with the version it shows."""
    response[VERSION_HEADER] = str(night.version)
    return response
