"""Card entry: one seat's board for one round, set on the phone; the app counts."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper.forms.boards import BoardForm, apply_pick, board_initial, picker
from scorekeeper.models import Night, Round, Seat, User
from scorekeeper.reads.boards import RoundStatus, board_page, round_status
from scorekeeper.reads.polls import night_now
from scorekeeper.services.boards import record_board
from scorekeeper.services.errors import Refused
from scorekeeper.views.access import AuthenticatedRequest, member_night
from scorekeeper.views.offline import invalid_reply, queued, refused_reply, saved_reply
from scorekeeper.views.polling import unchanged_poll


def _status_context(
    user: User,
    night: Night,
    number: int,
    round_: Round | None,
    seat: Seat | None,
    status: RoundStatus | None,
    *,
    total_box: bool,
) -> dict:
    """What the status area says, and whether it still has something to wait for.

    ``total_box``: the phone's form shows the box for a typed total.
    """
    absent = seat.absence(number) if seat else ""
    gone = round_ is None or seat is None  # dropped by an undo or the end of the night
    return {
        "night": night,
        "number": number,
        "round": round_,
        "seat": seat,
        "entry": status.entry if status else None,
        "typed": status.typed if status else [],
        "waiting": status.waiting if status else [],
        "absent": absent,
        "gone": gone,
        "mine": seat is not None and seat.user_id == user.pk,
        "total_box": total_box,
        "polling": not (gone or absent or night.is_over or (round_ and round_.is_recorded)),
    }


@require_http_methods(["GET", "POST"])
@login_required
def board_entry(
    request: AuthenticatedRequest, night_id: int, number: int, seat_id: int
) -> HttpResponse:
    """GET: the seat's board for round ``number`` in the picker while the round is
    open; once it went through, the board as it counted, read-only, with the way back
    to the night. POST: the board saved (services.boards.record_board), or refused in
    words with nothing saved; cards for a round that went through meanwhile are
    refused so, and the page then shows the board as it counted, not the form."""
    night = member_night(request, night_id)
    round_ = get_object_or_404(night.rounds.select_related("dealer"), number=number)
    seat = get_object_or_404(night.seats, pk=seat_id)
    chosen = None
    absent = seat.absence(number)
    form: BoardForm | None = None
    if absent:
        # Not at the table this round: nothing to set, nothing to save.
        if request.method == "POST" and queued(request):
            return refused_reply(absent)
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
                    key=form.cleaned_data["key"],
                )
            except Refused as error:
                if queued(request):
                    return refused_reply(str(error))
                round_.refresh_from_db()
                if round_.is_recorded:
                    # The page shows the board as the round counted it, and no form.
                    messages.error(request, str(error))
                else:
                    form.add_error(None, str(error))
            else:
                if saved.round_recorded:
                    messages.success(
                        request,
                        _("Every board is in: round %(number)d went through.") % {"number": number},
                    )
                else:
                    messages.success(request, _("Cards saved."))
                if queued(request):
                    return saved_reply(already=False)
                return redirect(request.path)
        elif queued(request):
            return invalid_reply(form)

    page = board_page(night, round_, seat)
    entry = page.entry
    if form is None and not absent:
        initial = {"round": number, "seat": seat.pk, **board_initial(entry and entry.board)}
        if entry is not None and entry.board and not entry.awaiting_total:
            initial["points"] = entry.points
        form = BoardForm(initial=initial)
    game = night.game_rules
    # The same condition as the template's, for the box where a total is typed.
    total_box = bool(page.status.typed or (form and form["points"].value()))
    context = {
        **_status_context(
            request.user, night, number, round_, seat, page.status, total_box=total_box
        ),
        "group": night.group,
        "game": game,
        "form": form,
        "picker": picker(form, game, page.used, page.jokers_used, chosen) if form else None,
        "typed_open": request.method == "POST" and request.POST.get("typed") == "1",
        "result": page.result,
        "table": page.table,
    }
    return render(request, "scorekeeper/board.html", context)


@require_GET
@login_required
@unchanged_poll(night_now)
def board_live(
    request: AuthenticatedRequest, night_id: int, number: int, seat_id: int
) -> HttpResponse:
    """The card page's polled status area: answered without rendering while the night's
    ``version`` is the one the phone shows, and with 286 (stop polling) once there is
    nothing more to wait for: the round went through, or is gone.

    The phone also sends ``total=1`` when its form shows the box for a typed total.
    """
    night = member_night(request, night_id)
    round_ = night.rounds.filter(number=number).first()
    seat = night.seats.filter(pk=seat_id).first()
    status = round_status(night, round_, seat) if round_ and seat else None
    context = _status_context(
        request.user, night, number, round_, seat, status, total_box=request.GET.get("total") == "1"
    )
    return render(
        request, "scorekeeper/board.html#live", context, status=200 if context["polling"] else 286
    )
