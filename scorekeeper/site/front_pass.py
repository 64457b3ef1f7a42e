"""What the app signs for its front (ofcboard/front.py) to check by itself, with no
call to the app: nginx's secure_link signature (an MD5 of the text and a secret only
the app and its front know, base64url without padding) and an expiry.

- **A signed-in phone's pass**, so that nginx counts its requests by phone, not by the
  address it shares with every other phone and client behind the same router. The
  pass is a cookie: an id, an expiry and the signature of the two. The id stands for
  the session without giving it away. A pass made up by a client counts as no pass:
  that client is counted by its address.
- **A live page's stream** (:func:`signed_stream`): the address the page listens on,
  "/streams/night-12?expires=T&pass=SIG", signed for the channel and T when the page
  is drawn, for whoever the page is drawn for (the page's own view has checked that
  already). nginx checks it and holds the stream (Nchan); opening it never reaches
  the app, so 10,000 phones coming back after a restart cost the app nothing.

The secret is drawn from SECRET_KEY (:func:`front_secret`, settings.FRONT_PASS_SECRET),
so it is the same at every start and on every node sharing the key: a pass and a
page's stream outlive a restart. Without a front (no secret) nothing is signed.
"""

import base64
import hashlib
import hmac
import time

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac

from scorekeeper.site.middleware import Handler

# The cookie a signed-in phone's pass comes in: "<id>.<expires>.<signature>".
PASS_COOKIE = "ofcfront"
# Where a page's signed stream is opened: "/streams/night-12?expires=T&pass=SIG".
STREAMS_AT = "/streams/"

PASS_DAYS = 7
# A pass this close to its end is replaced on the phone's next answer.
RENEW_SECONDS = 24 * 60 * 60


# A page's stream lasts until the end of the next whole hour: every page drawn within
# an hour names the same address (a live part swapped in keeps its stream), and a
# member removed or a big screen's link taken back keeps hearing "version N" on a
# stream already open for two hours at most, while every fetch is refused at once.
STREAM_HOURS = 1


def front_secret(secret_key: str) -> str:
    """The secret the app and its front share, drawn from Django's SECRET_KEY."""
    return salted_hmac("ofcboard.front", "signed for the front", secret=secret_key).hexdigest()


def _signature(text: str, secret: str) -> str:
    """nginx's secure_link_md5 of "<text>.<secret>", as secure_link reads it."""
    digest = hashlib.md5(f"{text}.{secret}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def pass_id(secret: str, session_key: str) -> str:
    return hmac.new(secret.encode(), session_key.encode(), hashlib.sha256).hexdigest()[:16]


def signed_pass(secret: str, session_key: str, expires: int) -> str:
    """The cookie's value: "<id>.<expires>.<signature>", the signature as nginx's
    secure_link_md5 expects it (ofcboard/front.py: "$pass_id.$secure_link_expires.secret")."""
    phone = pass_id(secret, session_key)
    return f"{phone}.{expires}.{_signature(f'{phone}.{expires}', secret)}"


def stream_expires(now: float) -> int:
    """When a stream named at ``now`` stops opening: the end of the next whole hour."""
    hour = 60 * 60
    return (int(now) // hour + 1 + STREAM_HOURS) * hour


def signed_stream(secret: str, channel: str, now: float) -> str:
    """A page's stream on ``channel`` ("night-12"), as nginx checks it (ofcboard/nginx.conf:
    "$channel.$secure_link_expires.secret")."""
    expires = stream_expires(now)
    signature = _signature(f"{channel}.{expires}", secret)
    return f"{STREAMS_AT}{channel}?expires={expires}&pass={signature}"


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


def stream_url(channel: str) -> str:
    """The address a page drawn now listens on ``channel`` at; "" without a front
    (settings.PUSH_URL empty: nothing is published, the pages poll)."""
    if not settings.PUSH_URL:
        return ""
    return signed_stream(settings.FRONT_PASS_SECRET, channel, time.time())
