"""The record of changes: a night's log and a group's changes, newest first, a page
at a time, for the group's members only (the same 404 as any page of another group)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scorekeeper.reads.changes import group_changes, night_changes
from scorekeeper.views.access import HtmxHttpRequest, member_group, member_night
from scorekeeper.views.paging import older_than


@require_GET
@login_required
def night_log(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """Every change made to the night: totals entered for someone else, fixes, undos,
    seats, its rules, payments; older ones as the list is scrolled (``?before=``)."""
    night = member_night(request, night_id)
    before = older_than(request)
    page = night_changes(night, before=before)
    context = {"night": night, "page": page, "more_url": "night_log", "more_id": night.pk}
    if before is not None and request.htmx:
        return render(request, "scorekeeper/night_log.html#change-list", context)
    return render(request, "scorekeeper/night_log.html", context)


@require_GET
@login_required
def group_changes_view(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """Every change made to the group's nights and money, and who joined or left."""
    group = member_group(request, group_id)
    before = older_than(request)
    page = group_changes(group, before=before)
    context = {"group": group, "page": page, "more_url": "group_changes", "more_id": group.pk}
    if before is not None and request.htmx:
        return render(request, "scorekeeper/group_changes.html#change-list", context)
    return render(request, "scorekeeper/group_changes.html", context)
