"""A strict Content-Security-Policy, and the language a logged-in person picked."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

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


def account_language(get_response: Handler) -> Handler:
    """The language kept on a logged-in account wins over the cookie and the phone's
    Accept-Language, which LocaleMiddleware has looked at before anyone was logged in."""

    def middleware(request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        language = getattr(user, "language", "") if user and user.is_authenticated else ""
        if language and translation.check_for_language(language):
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()  # type: ignore[attr-defined]
        return get_response(request)

    return middleware
