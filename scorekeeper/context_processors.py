from datetime import UTC, datetime

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

from scorekeeper.dates import moment
from scorekeeper.site.phones import NOTICE


def site(request: HttpRequest) -> dict:
    _follow_the_accounts_language(request)
    session = getattr(request, "session", None)
    notice = session.get(NOTICE) if session is not None else None
    return {
        "open_signup": settings.OFCBOARD_OPEN_SIGNUP,
        "signed_in_elsewhere": _said(notice),
        # The live pages open a stream only where a front holds it (services/push.py).
        "push_on": bool(settings.PUSH_URL),
    }


def _said(notice: dict | None) -> dict | None:
    """The note that this account was signed in on another phone, ready to show."""
    if not notice:
        return None
    when = datetime.fromtimestamp(notice.get("at", 0), tz=UTC)
    return {"by": notice.get("by", ""), "when": moment(when)}


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
