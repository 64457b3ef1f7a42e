"""A strict Content-Security-Policy, private pages, and the language kept on an account."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_cache_control

POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "object-src 'none'",
    ]
)


Handler = Callable[[HttpRequest], HttpResponse]


def content_security_policy(get_response: Handler) -> Handler:
    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        # Django's debug error pages are made of inline scripts and styles.
        if not settings.DEBUG:
            response.headers.setdefault("Content-Security-Policy", POLICY)
        return response

    return middleware


def set_language_cookie(response: HttpResponse, language: str) -> None:
    """The cookie LocaleMiddleware reads before the phone's Accept-Language."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=settings.CSRF_COOKIE_SECURE,
        httponly=True,
    )


def carry_account_language(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """On logging in (the user_logged_in signal): the language kept on the account goes
    with the answer, for account_language to put in the cookie."""
    if request is not None and getattr(user, "language", ""):
        request.account_language = user.language  # type: ignore[attr-defined]


def account_language(get_response: Handler) -> Handler:
    """The language kept on the account goes in the language cookie: when a phone logs
    in, and when a page finds it switched on another phone (see
    :func:`scorekeeper.context_processors.site`). No page, nor the one-query poll,
    has to look the account up for it."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        language = getattr(request, "account_language", "")
        switched_here = settings.LANGUAGE_COOKIE_NAME in response.cookies  # the switcher
        if language and not switched_here and translation.check_for_language(language):
            set_language_cookie(response, language)
        return response

    return middleware


def private_pages(get_response: Handler) -> Handler:
    """Every page the app renders is someone's: a member's totals, a group's
    invitation link. No browser or proxy keeps a copy (``private, no-store``), so
    the back button on a shared phone or a cache on the way shows nothing after
    logging out. Static files never reach this middleware: WhiteNoise answers them
    earlier, with their own long-lived headers."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if "Cache-Control" not in response.headers:
            patch_cache_control(response, private=True, no_store=True)
        return response

    return middleware
