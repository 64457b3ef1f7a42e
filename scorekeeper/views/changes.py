"""The record of changes: a night's log and a group's changes, newest first, a page
at a time, for the group's members only (the same 404 as any page of another group)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET

from scorekeeper.reads.changes import ChangesPage, group_changes, night_changes
from scorekeeper.views.access import HtmxHttpRequest, member_group, member_night
from scorekeeper.views.paging import older_than


def _log(request: HtmxHttpRequest, page: ChangesPage, context: dict) -> HttpResponse:
    """The log page, or, for a phone scrolling down, its next older lines."""
    template = "scorekeeper/change_log.html"
    if request.htmx and older_than(request) is not None:
        template += "#change-list"
    return render(request, template, {"page": page, **context})


@require_GET
@login_required
def night_log(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """Every change made to the night: totals entered for someone else, fixes, undos,
    seats, its rules, payments; older ones as the list is scrolled (``?before=``)."""
    night = member_night(request, night_id)
    context = {
        "night": night,
        "title": _("The night's log"),
        "back_url": reverse("night_detail", args=[night.pk]),
        "back_text": _("Back to the night"),
        "more_url": reverse("night_log", args=[night.pk]),
    }
    return _log(request, night_changes(night, before=older_than(request)), context)


@require_GET
@login_required
def group_changes_view(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """Every change made to the group's nights and money, and who joined or left."""
    group = member_group(request, group_id)
    context = {
        "group": group,
        "title": pgettext("the group's record of changes", "Changes"),
        "back_url": reverse("group_detail", args=[group.pk]),
        "back_text": group.name,
        "more_url": reverse("group_changes", args=[group.pk]),
        "show_night": True,
    }
    return _log(request, group_changes(group, before=older_than(request)), context)
