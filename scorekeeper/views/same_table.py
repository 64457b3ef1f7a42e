"""The group page's "Same table as last time": "Who's here tonight?", then the night."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper.forms.same_table import WhoIsHereForm
from scorekeeper.i18n import language
from scorekeeper.services.errors import Refused
from scorekeeper.services.same_table import last_table, start_same_table
from scorekeeper.table.formatting import names
from scorekeeper.views.access import AuthenticatedRequest, member_group


@require_http_methods(["GET", "POST"])
@login_required
@vary_on_headers("HX-Request")
def night_same_table(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    """GET: last time's players ticked in their seats, the button where it will start,
    the game and the stake, and the members who did not play then. POST: the night
    starts with those ticked, and says who was left out; a refusal is said on the page
    with the ticks kept. With no finished night, or one still running, the start page
    says why.

    htmx asks again (a GET with the ticks) each time a box is ticked or unticked, and
    gets only who deals first with those ticks, the dealer line and the mark beside
    the name."""
    group = member_group(request, group_id)
    try:
        table = last_table(group)
    except Refused as error:
        messages.error(request, str(error))
        if request.htmx:  # the whole page goes, not only the dealer line
            return HttpResponseClientRedirect(reverse("night_start", args=[group.pk]))
        return redirect("night_start", group_id=group.pk)
    # htmx's GET carries the ticks as they are now; none ticked is no query at all.
    refresh = bool(request.htmx) and request.method == "GET"
    form = WhoIsHereForm(
        request.GET if refresh else request.POST or None,
        choices=[(chair.key, chair.name) for chair in table.players + table.others],
        ticked=[chair.key for chair in table.players],
    )
    if request.method == "POST" and form.is_valid():
        try:
            same = start_same_table(
                group=group, started_by=request.user, here=form.cleaned_data["here"]
            )
        except Refused as error:
            if not group.nights.running().exists():
                form.add_error(None, str(error))
            else:  # the start page, where a second table can be ticked
                messages.error(request, str(error))
                return redirect("night_start", group_id=group.pk)
        else:
            for name in same.missing:
                messages.warning(
                    request,
                    _("%(name)s is no longer in the group, so the night started without them.")
                    % {"name": name},
                )
            if same.left_out:
                messages.info(
                    request,
                    _("Started without %(names)s.") % {"names": names(same.left_out, language())},
                )
            return redirect("night_detail", night_id=same.night.pk)
    ticked = form.ticked()
    context = {
        "group": group,
        "table": table,
        "form": form,
        "players": [(chair, chair.key in ticked) for chair in table.players],
        "others": [(chair, chair.key in ticked) for chair in table.others],
        "dealer": table.dealer(ticked),
    }
    if refresh:
        context["chairs"] = table.players + table.others
        return render(request, "scorekeeper/same_table.html#dealer-note", context)
    return render(request, "scorekeeper/same_table.html", context)
