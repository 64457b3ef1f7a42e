"""Whether the site answers, for whatever runs it: a front proxy, systemd, a
container's health check (see "Health" in the README).

200 when the app and its database answer, 503 when the database does not. The view
reads no session and no account and sets no cookie, so a check every few seconds costs
the one query of the check. (A request that carries a signed-in phone's session
cookie still has it read after the view, by scorekeeper/site/phones.py
:func:`keep_signed_in`, as on every page.)"""

from django.db import Error, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

# Words for a supervisor's script, not for the people at the table: never translated,
# and never the database's own error (which may name its host or user).
OK = {"app": "ok", "database": "ok"}
DATABASE_DOWN = {"app": "ok", "database": "not answering"}


def database_answers() -> bool:
    """Whether the database runs a trivial query now."""
    try:
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Error:
        return False
    return True


# GET and HEAD only; csrf_exempt so that a POST is refused 405 here rather than 403
# by the CSRF check: nothing here changes anything.
@csrf_exempt
@require_safe
@never_cache
def health(request: HttpRequest) -> JsonResponse:
    if database_answers():
        return JsonResponse(OK)
    return JsonResponse(DATABASE_DOWN, status=503)
