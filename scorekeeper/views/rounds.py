"""The rounds of a night: the list of those that went through, fixing one, and
taking the last one back."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.forms.nights import EditRoundForm
from scorekeeper.reads.nights import recorded_rounds
from scorekeeper.services.errors import Refused
from scorekeeper.services.rounds import edit_round, undo_last_round
from scorekeeper.views.access import AuthenticatedRequest, member_night


@require_GET
@login_required
def night_rounds(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    seats = list(night.seats.all())
    context = {
        "night": night,
        "rounds": recorded_rounds(night),
        "seats": seats,
        "at_table": night.is_at_table(request.user, seats),
    }
    return render(request, "scorekeeper/rounds.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def round_edit(request: AuthenticatedRequest, night_id: int, number: int) -> HttpResponse:
    night = member_night(request, night_id)
    round_ = get_object_or_404(night.rounds.filter(recorded_at__isnull=False), number=number)
    entries = list(round_.entries.select_related("seat"))
    form = EditRoundForm(request.POST or None, entries=entries)
    if request.method == "POST" and form.is_valid():
        try:
            edit_round(night=night, number=number, points=form.points(), edited_by=request.user)
        except Refused as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Round %(number)d fixed.") % {"number": number})
            return redirect("night_rounds", night_id=night.pk)
    edits = list(round_.edits.select_related("edited_by"))
    return render(
        request,
        "scorekeeper/round_edit.html",
        {"night": night, "round": round_, "form": form, "edits": edits},
    )


@require_POST
@login_required
def round_undo(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    try:
        undo_last_round(night=night, by=request.user)
    except Refused as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The last round is open again: fix the totals and save."))
    return redirect("night_detail", night_id=night.pk)
