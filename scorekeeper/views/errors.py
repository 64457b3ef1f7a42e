"""Error pages in the app's own words and layout."""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.defaults import server_error as plain_server_error

from scorekeeper.views.offline import queued

# Seconds a phone waits before it sends a kept save again (queue.js reads it).
RETRY_AFTER_SECONDS = 3


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    return render(request, "403_csrf.html", status=403)


def database_trouble(error: BaseException | None) -> str:
    """What to tell the phone when ``error`` means the database cannot answer now (it
    is restarting, gone, locked or its disk is full), or "" for a real bug. The
    transaction around the request was rolled back, so nothing was saved halfway."""
    if not isinstance(error, OperationalError | InterfaceError):
        return ""
    if "disk is full" in str(error) or "No space left" in str(error):
        return _("The server's disk is full: this was not saved, nothing of it. Tell the host.")
    return _(
        "The server cannot reach its database for a moment. Nothing was saved halfway; "
        "try again in a few seconds."
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's handler500, called while the request's exception is being handled:
    a database that cannot answer now is a 503 in words (the phone's queue keeps a
    save and sends it again, a poll just polls again), never a 500. Built without the
    database: no session, no account, no context processors."""
    message = database_trouble(sys.exc_info()[1])
    if not message:
        return plain_server_error(request)
    if queued(request):
        response: HttpResponse = JsonResponse({"saved": False, "message": message}, status=503)
    else:
        response = HttpResponse(render_to_string("503.html", {"message": message}), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
