from django.conf import settings
from django.http import HttpRequest
from django.utils import translation


def site(request: HttpRequest) -> dict:
    _follow_the_accounts_language(request)
    return {"open_signup": settings.OFCBOARD_OPEN_SIGNUP}


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
