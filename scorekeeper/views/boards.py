"""Card entry: one seat's board for one round, set on the phone; the app counts."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from scorekeeper.board_forms import BoardForm, apply_pick, board_initial, picker
from scorekeeper.games import game_for
from scorekeeper.models import Seat
from scorekeeper.services.boards import board_result, record_board, round_table, table_cards
from scorekeeper.services.errors import Refused
from scorekeeper.services.nights import playing_seats
from scorekeeper.views.access import member_night


@require_http_methods(["GET", "POST"])
@login_required
def board_entry(request: HttpRequest, night_id: int, number: int, seat_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    round_ = get_object_or_404(night.rounds.select_related("dealer"), number=number)
    seat = get_object_or_404(night.seats, pk=seat_id)
    url = request.path
    chosen = None
    absent = _absence(seat, number)
    if absent:
        form = None  # not at the table this round: nothing to set, nothing to save
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
                return redirect(url)
    else:
        form = None

    entries = list(round_.entries.select_related("seat", "entered_by"))
    entry = next((e for e in entries if e.seat_id == seat.pk), None)
    if form is None and not absent:
        initial = {"round": number, "seat": seat.pk, **board_initial(entry and entry.board)}
        if entry is not None and entry.board and not entry.awaiting_total:
            initial["points"] = entry.points
        form = BoardForm(initial=initial)
    game = game_for(night.game, night.rules)
    used, jokers_used = table_cards(round_, seat)
    boarded = {e.seat_id for e in entries if e.board}
    context = {
        "night": night,
        "group": night.group,
        "round": round_,
        "seat": seat,
        "entry": entry,
        "game": game,
        "form": form,
        "picker": picker(form, game, used, jokers_used, chosen) if form else None,
        "absent": absent,
        "typed_open": request.method == "POST" and request.POST.get("typed") == "1",
        "result": board_result(night, round_, entry) if entry and entry.board else None,
        "table": round_table(night, round_) if round_.is_recorded else None,
        "typed": [e.seat.name for e in entries if not e.board],
        "waiting": [
            s.name for s in playing_seats(night, number) if s.pk not in boarded and s != seat
        ],
        "mine": seat.user_id == request.user.pk,
    }
    return render(request, "scorekeeper/board.html", context)


def _absence(seat: Seat, number: int) -> str:
    """Why ``seat`` has no cards to set in round ``number``, or ""."""
    if seat.last_round is not None and number > seat.last_round:
        return f"{seat.name} has left the table."
    if number < seat.first_round:
        return f"{seat.name} joined the table in round {seat.first_round}."
    return ""
