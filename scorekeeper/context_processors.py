from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.functional import SimpleLazyObject

from scorekeeper.reads.sign_ins import unread_notices


def site(request: HttpRequest) -> dict:
    _follow_the_accounts_language(request)
    return {
        "open_signup": settings.OFCBOARD_OPEN_SIGNUP,
        "signed_in_elsewhere": _notices(request),
        # The live pages open a stream only where a front holds it (services/push.py).
        "push_on": bool(settings.PUSH_URL),
    }


def _notices(request: HttpRequest) -> list:
    """The notes that this account was signed in on another phone, read only when a
    page shows them (a fragment never does: no query for a poll)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.has_sign_in_notice:
        return []
    session = getattr(request, "session", None)
    key = session.session_key if session is not None else None
    return SimpleLazyObject(lambda: unread_notices(user, key))  # type: ignore[return-value]


def _follow_the_accounts_language(request: HttpRequest) -> None:
    """A page rendered for someone whose account's language was switched on another
    phone speaks it, and account_language (scorekeeper/site/middleware.py) puts it in this
    phone's cookie. Here, because a page being rendered has its user loaded already:
    an unchanged poll renders nothing and never looks the account up."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return
    chosen = getattr(user, "language", "")
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    if chosen and chosen != cookie and translation.check_for_language(chosen):
        translation.activate(chosen)
        request.LANGUAGE_CODE = chosen  # type: ignore[attr-defined]
        request.account_language = chosen  # type: ignore[attr-defined]
