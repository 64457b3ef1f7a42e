"""Who may see what: every group page looks its object up through the user's own
groups, so a stranger gets the same 404 as for something that does not exist.

The request types say what a view may rely on: a logged-in user (``login_required``),
and with django-htmx's middleware, ``request.htmx``.
"""

from django.conf import settings
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django_htmx.middleware import HtmxDetails

from scorekeeper.models import Group, Night, User
from scorekeeper.site.network import table_base_url


class AuthenticatedRequest(HttpRequest):
    user: User


class HtmxHttpRequest(AuthenticatedRequest):
    htmx: HtmxDetails


def member_group(request: HttpRequest, group_id: int) -> Group:
    return get_object_or_404(Group.objects.for_member(request.user), pk=group_id)


def member_night(request: HttpRequest, night_id: int) -> Night:
    return get_object_or_404(
        Night.objects.for_member(request.user).select_related("group"), pk=night_id
    )


def site_url(request: HttpRequest) -> str:
    """Where links and QR codes point (``http://192.0.2.5:8000``). Behind a list of
    allowed hosts, Django has vetted the Host header; on the table's Wi-Fi, which
    accepts any (settings.py), it comes from the configured or detected address."""
    if "*" in settings.ALLOWED_HOSTS:
        return table_base_url(request.META.get("HTTP_HOST", ""), int(settings.OFCBOARD_PORT))
    return request.build_absolute_uri("/")
