"""Calling off a night started by mistake, from the night page's "More" menu."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorekeeper.services.call_off import call_off_night
from scorekeeper.views.access import AuthenticatedRequest, member_night
from scorekeeper.views.outcomes import change_and_say


@require_POST
@login_required
def night_call_off(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    """The night is gone and the group page says so; a refusal is said on the night."""
    night = member_night(request, night_id)
    gone = change_and_say(
        request,
        lambda: call_off_night(night=night, by=request.user),
        _("The night was called off."),
    )
    if gone:
        return redirect("group_detail", group_id=night.group_id)
    return redirect("night_detail", night_id=night.pk)
