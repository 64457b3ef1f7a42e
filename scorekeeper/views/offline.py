"""Saves kept on the phone while the Wi-Fi was gone, and the installable app over HTTPS.

The phone's queue (``static/ofcboard/queue.js``) sends a kept save with
``Accept: application/json`` and reads the answer in a few words: saved (or
already saved), refused with the reason (the queue drops it), or form errors.
Anything else (a login page, a server error) leaves the save queued.
"""

import hashlib
import json

from django.conf import settings
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from scorekeeper.i18n import sentences


def queued(request: HttpRequest) -> bool:
    """A save sent by the phone's queue, which wants the answer as data."""
    return request.headers.get("Accept", "").startswith("application/json")


def saved_reply(*, already: bool) -> JsonResponse:
    return JsonResponse({"saved": True, "already": already})


def refused_reply(message: str) -> JsonResponse:
    # 409: the table moved on or the rules say no; sending it again cannot help.
    return JsonResponse({"saved": False, "message": message}, status=409)


def invalid_reply(form: Form) -> JsonResponse:
    messages = [str(error) for errors in form.errors.values() for error in errors]
    return JsonResponse({"saved": False, "message": sentences(messages)}, status=400)


# What a phone needs to open the night page without a connection.
OFFLINE_FILES = [
    "ofcboard/app.css",
    "ofcboard/app.js",
    "ofcboard/queue.js",
    "ofcboard/live.js",
    "ofcboard/wake_lock.js",
    "ofcboard/picker.js",
    "ofcboard/share_image.js",
    "ofcboard/icon-192.png",
    "ofcboard/icon-512.png",
    "ofcboard/icons.svg",
    "django_htmx/htmx-2.min.js",
    "django_htmx/django-htmx.js",
]


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site's root so that it may serve every page; the
    browser registers it over HTTPS only. Rendered, so that it names the static files
    by their current (hashed) addresses, and changes when they do."""
    files = [static(name) for name in OFFLINE_FILES]
    version = hashlib.sha256("\n".join(files).encode()).hexdigest()[:12]
    return render(
        request,
        "scorekeeper/service_worker.js",
        # As JSON, the one notation a script reads without escaping surprises.
        {
            "files": json.dumps(files),
            "version": version,
            # The folder's address itself: static("") asks the manifest of hashed
            # names for a file called "", which it has not (a 500 with DEBUG off).
            "static_url": json.dumps(settings.STATIC_URL),
            "login_url": json.dumps(reverse("login")),
        },
        content_type="application/javascript",
    )


@require_GET
@cache_control(max_age=60 * 60 * 24)
def manifest(request: HttpRequest, language: str) -> JsonResponse:
    """The installable app's manifest in one language (its name and description as a
    phone shows them when the app is added), linked from every page in the page's
    language; the language is in the address, so each is cached on its own."""
    if language not in dict(settings.LANGUAGES):
        raise Http404
    with translation.override(language):
        data = {
            "name": "OFC Board",
            "short_name": "OFC Board",
            "description": gettext("Scores for a night of Open Face Chinese poker."),
            "lang": language,
            "dir": "rtl" if translation.get_language_bidi() else "ltr",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": "#14171c",
            "theme_color": "#14171c",
            "icons": [
                {
                    "src": static(f"ofcboard/icon-{size}.png"),
                    "sizes": f"{size}x{size}",
                    "type": "image/png",
                    "purpose": "any maskable",
                }
                for size in (192, 512)
            ],
        }
    return JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )
