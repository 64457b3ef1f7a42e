"""A strict Content-Security-Policy: every script and style comes from our own files."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
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
