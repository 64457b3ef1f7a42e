"""The rules the app counts by, in plain words, with the tables read from the engine;
and the rules one night plays, changed for that night until its first round is recorded."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper.forms.groups import HouseRulesForm
from scorekeeper.reads.rules import night_rules_page, paid_sections, rules_tables
from scorekeeper.services.errors import Refused
from scorekeeper.services.nights import change_night_rules
from scorekeeper.views.access import AuthenticatedRequest, member_night


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "scorekeeper/rules.html", rules_tables())


@require_http_methods(["GET", "POST"])
@login_required
def night_rules(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    """The rules page as this night plays it; while no round is recorded, whoever is
    at the table may change the night's own royalties and scoring (for it only)."""
    night = member_night(request, night_id)
    page = night_rules_page(night, request.user)
    form = None
    if page.changeable:
        form = HouseRulesForm(
            request.POST or None, base=night.rules, sections=paid_sections(night.game_rules)
        )
    if request.method == "POST":
        if form is None:
            messages.error(request, page.fixed_reason)
            return redirect("night_rules", night_id=night.pk)
        if form.is_valid():
            try:
                change_night_rules(night=night, by=request.user, table_rules=form.table_rules())
            except Refused as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Tonight's house rules are changed, for tonight only."))
                return redirect("night_rules", night_id=night.pk)
    context = {**rules_tables(night.game_rules), "night": night, "page": page, "form": form}
    return render(request, "scorekeeper/rules.html", context)
