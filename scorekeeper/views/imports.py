"""Past nights from a file: upload the app's export (CSV or JSON) or a spreadsheet's CSV,
see what it makes, import it."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper.forms.imports import ConfirmForm, UploadForm, problem_words, sign_nights
from scorekeeper.models import Group
from scorekeeper.services.errors import Refused
from scorekeeper.services.import_take_back import take_back_import
from scorekeeper.services.imports import game_names, import_nights, people_of
from scorekeeper.table.spreadsheet.sheet import Sheet
from scorekeeper.views.access import AuthenticatedRequest, member_group


def _salt(request: AuthenticatedRequest, group: Group) -> str:
    # A preview's token imports into its own group, by whoever uploaded the file.
    return f"scorekeeper.import:{group.pk}:{request.user.pk}"


def _preview(group: Group, sheet: Sheet) -> list[dict]:
    """Each night as the preview shows it: its day, stake and players, each with who
    they are in the group, their points and their money."""
    people = people_of(group, sheet.people)
    return [
        {
            "night": night,
            "players": [
                {
                    "name": people[name].name,
                    "member": people[name].user is not None,
                    "points": points,
                    "cents": cents,
                }
                for name, points, cents in zip(
                    night.players, night.points, night.cents, strict=True
                )
            ],
        }
        for night in sheet.nights
    ]


@require_http_methods(["GET", "POST"])
@login_required
def group_import(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    """Upload, preview, import: a file whose lines all add up is shown as the nights
    it makes, and imported whole from the preview's signed nights; a file with a line
    that does not add up is shown with each such line, and imports nothing."""
    group = member_group(request, group_id)
    upload = UploadForm(
        currency=group.currency, point_cents=group.default_point_cents, games=game_names()
    )
    context: dict = {"group": group, "upload": upload}
    if request.method == "POST" and "nights" in request.POST:
        confirm = ConfirmForm(request.POST, salt=_salt(request, group))
        if confirm.is_valid():
            nights = confirm.cleaned_data["nights"]
            try:
                made = import_nights(
                    group=group,
                    nights=nights,
                    by=request.user,
                    settled=confirm.cleaned_data["settled"],
                    preview=confirm.preview,
                )
            except Refused as error:
                confirm.add_error(None, str(error))
            else:
                messages.success(
                    request,
                    ngettext("%(count)d night imported.", "%(count)d nights imported.", len(made))
                    % {"count": len(made)},
                )
                return redirect("group_table", group_id=group.pk)
        context["confirm"] = confirm
    elif request.method == "POST":
        upload = UploadForm(
            request.POST,
            request.FILES,
            currency=group.currency,
            point_cents=group.default_point_cents,
            games=game_names(),
        )
        context["upload"] = upload
        if upload.is_valid():
            sheet = upload.sheet
            context |= {
                "sheet": sheet,
                "json": upload.is_json,
                "problems": [problem_words(problem) for problem in sheet.problems],
                "nights": _preview(group, sheet),
            }
            if sheet.nights and not sheet.problems:
                token = sign_nights(sheet.nights, _salt(request, group))
                context["confirm"] = ConfirmForm(initial={"nights": token}, salt="")
    return render(request, "scorekeeper/group_import.html", context)


@require_POST
@login_required
def import_take_back(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    """The button on the group's record line of an import: its nights gone again, or
    the refusal in words; back to the group's record either way."""
    group = member_group(request, group_id)
    try:
        count = take_back_import(
            group=group, preview=str(request.POST.get("preview", ""))[:64], by=request.user
        )
    except Refused as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(
            request,
            ngettext(
                "The import is taken back: %(count)d night is gone.",
                "The import is taken back: %(count)d nights are gone.",
                count,
            )
            % {"count": count},
        )
    return redirect("group_changes", group_id=group.pk)
