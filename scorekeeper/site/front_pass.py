"""The pass a signed-in phone carries for the front (ofcboard/front.py), so that nginx
counts its requests by phone, not by the address it shares with every other phone and
client behind the same router.

The pass is a cookie: an id, an expiry and nginx's secure_link signature of the two
with a secret that only the app and its front know (ofcboard/serve.py makes one at
each start). The id stands for the session without giving it away. nginx checks the
signature and the expiry itself, with no call to the app, so a pass made up by a
client counts as no pass: that client is counted by its address. Without a front
(no secret) there is no pass.
"""

import base64
import hashlib
import hmac
import time

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.http import HttpRequest, HttpResponse

from ofcboard.front import PASS_COOKIE
from scorekeeper.site.middleware import Handler

PASS_DAYS = 7
# A pass this close to its end is replaced on the phone's next answer.
RENEW_SECONDS = 24 * 60 * 60


def pass_id(secret: str, session_key: str) -> str:
    return hmac.new(secret.encode(), session_key.encode(), hashlib.sha256).hexdigest()[:16]


def signed_pass(secret: str, session_key: str, expires: int) -> str:
    """The cookie's value: "<id>.<expires>.<signature>", the signature as nginx's
    secure_link_md5 expects it (ofcboard/front.py: "$pass_id.$secure_link_expires.secret")."""
    phone = pass_id(secret, session_key)
    digest = hashlib.md5(f"{phone}.{expires}.{secret}".encode()).digest()
    signature = base64.urlsafe_b64encode(digest).decode().rstrip("=")
    return f"{phone}.{expires}.{signature}"


def _still_good(secret: str, session_key: str, value: str, now: float) -> bool:
    try:
        expires = int(value.split(".")[1])
    except (IndexError, ValueError):
        return False
    fresh = signed_pass(secret, session_key, expires)
    return hmac.compare_digest(fresh, value) and expires - now > RENEW_SECONDS


def front_pass(get_response: Handler) -> Handler:
    """Middleware: every answer to a signed-in phone carries its pass, made anew when it
    has none for this session or its pass ends within a day; a phone signed out is
    given none."""
    secret = settings.FRONT_PASS_SECRET
    if not secret:
        raise MiddlewareNotUsed

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        held = request.COOKIES.get(PASS_COOKIE, "")
        user = getattr(request, "user", None)
        session_key = request.session.session_key if user and user.is_authenticated else None
        now = time.time()
        if session_key is None:
            if held:
                response.delete_cookie(PASS_COOKIE, samesite="Lax")
        elif not _still_good(secret, session_key, held, now):
            expires = int(now) + PASS_DAYS * 24 * 60 * 60
            response.set_cookie(
                PASS_COOKIE,
                signed_pass(secret, session_key, expires),
                max_age=PASS_DAYS * 24 * 60 * 60,
                httponly=True,
                secure=settings.SESSION_COOKIE_SECURE,
                samesite="Lax",
            )
        return response

    return middleware
