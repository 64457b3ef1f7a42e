"""The group's own seasons: the page that sets them, and the season a page reads."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper.forms.seasons import RemoveSeasonForm, SeasonForm
from scorekeeper.models import Group
from scorekeeper.reads.seasons import Seasons, own_seasons, seasons
from scorekeeper.services import seasons as season_services
from scorekeeper.services.errors import Refused
from scorekeeper.views.access import AuthenticatedRequest, member_group
from scorekeeper.views.outcomes import change_and_say


def season_asked(request: HttpRequest, group: Group) -> Seasons:
    """The seasons of ``group`` and the one ``?season=`` asks for (none: all time);
    404 for one the group does not have, like any row that is not there."""
    found = seasons(group, request.GET.get("season"))
    if found is None:
        raise Http404("The group has no such season.")
    return found


@require_http_methods(["GET", "POST"])
@login_required
def group_seasons(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    """The group's own seasons, each with its first and last day; adding one (the
    form), taking one away (``remove``: its id)."""
    group = member_group(request, group_id)
    if "remove" in request.POST:
        _remove(request, group)
        return redirect("group_seasons", group_id=group.pk)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = season_services.add_season(group=group, by=request.user, **form.cleaned_data)
        except Refused as error:
            form.add_error(None, str(error))
        else:
            added = _("The season “%(name)s” is added.") % {"name": season.name}
            messages.success(request, added)
            return redirect("group_seasons", group_id=group.pk)
    context = {"group": group, "form": form, "seasons": own_seasons(group)}
    status = 400 if form.errors else 200
    return render(request, "scorekeeper/seasons.html", context, status=status)


def _remove(request: AuthenticatedRequest, group: Group) -> None:
    form = RemoveSeasonForm(request.POST, seasons=group.seasons.all())
    if not form.is_valid():
        messages.error(request, form.errors["remove"][0])
        return
    season = form.cleaned_data["remove"]
    change_and_say(
        request,
        lambda: season_services.remove_season(group=group, by=request.user, season=season),
        _("The season “%(name)s” is removed.") % {"name": season.name},
    )
