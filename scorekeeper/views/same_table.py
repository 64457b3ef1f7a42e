"""The group page's "Same table as last time"."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorekeeper.services.errors import Refused
from scorekeeper.services.same_table import start_same_table
from scorekeeper.views.access import AuthenticatedRequest, member_group


@require_POST
@login_required
def night_same_table(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    """The group page's "Same table as last time": the night starts at once, or the
    start page says why not, with everything still to pick."""
    group = member_group(request, group_id)
    try:
        same = start_same_table(group=group, started_by=request.user)
    except Refused as error:
        messages.error(request, str(error))
        return redirect("night_start", group_id=group.pk)
    for name in same.missing:
        messages.warning(
            request,
            _("%(name)s is no longer in the group, so the night started without them.")
            % {"name": name},
        )
    return redirect("night_detail", night_id=same.night.pk)
