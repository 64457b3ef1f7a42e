"""Card entry: one seat's board for one round, set on the phone; the app counts."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from scorekeeper.forms.boards import BoardForm, apply_pick, board_initial, picker
from scorekeeper.reads.boards import board_page
from scorekeeper.services.boards import record_board
from scorekeeper.services.errors import Refused
from scorekeeper.views.access import AuthenticatedRequest, member_night


@require_http_methods(["GET", "POST"])
@login_required
def board_entry(
    request: AuthenticatedRequest, night_id: int, number: int, seat_id: int
) -> HttpResponse:
    night = member_night(request, night_id)
    round_ = get_object_or_404(night.rounds.select_related("dealer"), number=number)
    seat = get_object_or_404(night.seats, pk=seat_id)
    chosen = None
    absent = seat.absence(number)
    form: BoardForm | None = None
    if absent:
        pass  # not at the table this round: nothing to set, nothing to save
    elif request.method == "POST" and ("add" in request.POST or "remove" in request.POST):
        # A picker tap without JavaScript: redraw with the card moved, save nothing.
        values = apply_pick(request.POST)
        chosen = values.pop("row")
        form = BoardForm(initial=values)
    elif request.method == "POST":
        form = BoardForm(request.POST)
        chosen = request.POST.get("row")
        if form.is_valid():
            try:
                saved = record_board(
                    night=night,
                    round_number=number,
                    seat=seat,
                    board=form.board(),
                    entered_by=request.user,
                    points=form.cleaned_data["points"],
                )
            except Refused as error:
                form.add_error(None, str(error))
            else:
                if saved.round_recorded:
                    messages.success(request, f"Every board is in: round {number} went through.")
                else:
                    messages.success(request, "Cards saved.")
                return redirect(request.path)

    page = board_page(night, round_, seat)
    entry = page.entry
    if form is None and not absent:
        initial = {"round": number, "seat": seat.pk, **board_initial(entry and entry.board)}
        if entry is not None and entry.board and not entry.awaiting_total:
            initial["points"] = entry.points
        form = BoardForm(initial=initial)
    game = night.game_rules
    context = {
        "night": night,
        "group": night.group,
        "round": round_,
        "seat": seat,
        "entry": entry,
        "game": game,
        "form": form,
        "picker": picker(form, game, page.used, page.jokers_used, chosen) if form else None,
        "absent": absent,
        "typed_open": request.method == "POST" and request.POST.get("typed") == "1",
        "result": page.result,
        "table": page.table,
        "typed": page.typed,
        "waiting": page.waiting,
        "mine": seat.user_id == request.user.pk,
    }
    return render(request, "scorekeeper/board.html", context)
