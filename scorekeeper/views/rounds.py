"""The rounds of a night: the list of those that went through, fixing one, and
taking the last one back."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.forms.nights import EditRoundForm
from scorekeeper.i18n import difference
from scorekeeper.reads.nights import recorded_rounds
from scorekeeper.services.errors import Refused
from scorekeeper.services.round_fixes import OutOfDateFix, edit_round, fix_state, undo_last_round
from scorekeeper.views.access import AuthenticatedRequest, HtmxHttpRequest, member_night
from scorekeeper.views.outcomes import change_and_say
from scorekeeper.views.paging import older_than


@require_GET
@login_required
def night_rounds(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    """The rounds that went through, newest first, a page at a time: the phone asks
    for the older ones (``?before=`` a round number) as the list is scrolled."""
    night = member_night(request, night_id)
    seats = list(night.seats.all())
    before = older_than(request)
    page = recorded_rounds(night, before=before)
    context = {
        "night": night,
        "rounds": page.rounds,
        "older_than": page.older_than,
        "seats": seats,
        "at_table": night.is_at_table(request.user, seats),
    }
    if before is not None and request.htmx:
        return render(request, "scorekeeper/rounds.html#round-list", context)
    return render(request, "scorekeeper/rounds.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def round_edit(request: AuthenticatedRequest, night_id: int, number: int) -> HttpResponse:
    night = member_night(request, night_id)
    round_ = get_object_or_404(night.rounds.filter(recorded_at__isnull=False), number=number)
    entries = list(round_.entries.select_related("seat"))
    initial = {"state": fix_state(round_, entries)}
    form = EditRoundForm(request.POST or None, entries=entries, initial=initial)
    refusal = ""
    if request.method == "POST" and form.is_valid():
        try:
            edit_round(
                night=night,
                number=number,
                points=form.points(),
                edited_by=request.user,
                seen=form.cleaned_data["state"],
            )
        except OutOfDateFix as error:
            # Start again from the round as it is now, with what changed said above it.
            refusal = str(error)
            entries = list(round_.entries.select_related("seat"))
            form = EditRoundForm(entries=entries, initial={"state": fix_state(round_, entries)})
        except Refused as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Round %(number)d fixed.") % {"number": number})
            return redirect("night_rounds", night_id=night.pk)
    edits = list(round_.edits.select_related("edited_by"))
    return render(
        request,
        "scorekeeper/round_edit.html",
        {
            "night": night,
            "round": round_,
            "form": form,
            "edits": edits,
            "refusal": refusal,
            "sum_now": _sum_words(_typed_sum(form)),
            "sum_words": _sum_templates(),
        },
    )


def _typed_sum(form: EditRoundForm) -> int:
    """What the totals on the page add up to (those that are whole numbers)."""
    total = 0
    for field in form.visible_fields():
        value = str(field.value() if field.value() is not None else "").strip()
        value = value.replace("\u2212", "-").replace("+", "")
        try:
            total += int(value)
        except ValueError:
            continue
    return total


def _sum_words(total: int) -> str:
    if total == 0:
        return _("The totals add up to zero.")
    said = difference(total)
    return said[:1].upper() + said[1:]


def _sum_templates() -> dict[str, str]:
    """The sum's words for sum.js to fill in as totals are typed ({count} for the
    number), from the same messages the server says them with."""
    marker = "%(count)d"

    def forms(one: str, other: str) -> tuple[str, str]:
        return (
            ngettext(one, other, 1).replace(marker, "{count}"),
            ngettext(one, other, 2).replace(marker, "{count}"),
        )

    many = forms("%(count)d point too many", "%(count)d points too many")
    few = forms("%(count)d point too few", "%(count)d points too few")
    return {
        "zero": _("The totals add up to zero."),
        "many_one": many[0],
        "many_other": many[1],
        "few_one": few[0],
        "few_other": few[1],
    }


@require_POST
@login_required
def round_undo(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    change_and_say(
        request,
        lambda: undo_last_round(night=night, by=request.user),
        _("The last round is open again: fix the totals and save."),
    )
    return redirect("night_detail", night_id=night.pk)
