"""A night at the table: the page every phone keeps open, and its writes."""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseStopPolling

from scorekeeper.models import Night
from scorekeeper.night_forms import (
    AddSeatForm,
    EditRoundForm,
    EntryForm,
    StartNightForm,
    initial_for,
)
from scorekeeper.night_results import night_chart
from scorekeeper.night_state import night_state
from scorekeeper.ofc.games import PRESETS
from scorekeeper.queries import current_members
from scorekeeper.services.errors import Refused
from scorekeeper.services.nights import SeatRequest, end_night, start_night
from scorekeeper.services.rounds import edit_round, record_entry, undo_last_round
from scorekeeper.services.seats import add_seat, leave_seat
from scorekeeper.views.access import member_group, member_night


@require_http_methods(["GET", "POST"])
@login_required
def night_start(request: HttpRequest, group_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    members = [membership.user for membership in current_members(group)]
    game_id = request.GET.get("game") or group.default_game
    if game_id not in PRESETS:
        game_id = "standard"
    rules = group.default_rules if game_id == group.default_game else {}
    initial = initial_for(PRESETS[game_id], group.default_point_cents, rules)
    initial["seat_1"] = str(request.user.pk)  # whoever starts the night usually plays
    form = StartNightForm(
        request.POST or None,
        members=members,
        initial=initial,
        seat_count=PRESETS[game_id].max_players,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        game = PRESETS[data["game"]]
        seats = [SeatRequest(user=user, guest_name=guest or "") for guest, user in data["seats"]]
        try:
            night = start_night(
                group=group,
                started_by=request.user,
                game_id=data["game"],
                rules=form.rules(game),
                point_cents=int(data["point_value"] * 100),
                seats=seats,
                first_dealer=data["dealer_index"],
                loss_cap_cents=int(data["loss_cap"] * 100) if data["loss_cap"] else None,
                beside_running=data["beside_running"],
            )
        except Refused as error:
            form.add_error(None, str(error))
        else:
            return redirect("night_detail", night_id=night.pk)
    context = {
        "group": group,
        "form": form,
        "games": PRESETS.values(),
        "game_id": game_id,
        "running": group.nights.filter(ended_at__isnull=True).first(),
    }
    return render(request, "scorekeeper/night_start.html", context)


def _night_context(
    request: HttpRequest,
    night: Night,
    entry_form: EntryForm | None = None,
    for_seat: int | None = None,
) -> dict:
    state = night_state(night)
    mine = state.line_for_user(request.user)
    target = mine
    if for_seat is not None:
        target = next((line for line in state.lines if line.seat.pk == for_seat), mine)
    if entry_form is None and state.round is not None and target is not None:
        entry = target.entry
        initial = {"round": state.round.number, "seat": target.seat.pk}
        if entry is not None:
            initial["points"] = entry.points
            initial["fantasyland"] = (
                "stayed" if entry.fantasyland_stayed else entry.fantasyland_made
            )
        entry_form = EntryForm(initial=initial)
    return {
        "night": night,
        "state": state,
        "mine": mine,
        "target": target,
        "entry_form": entry_form,
        "group": night.group,
        # Only the table changes the table (services check it too); others follow along.
        "at_table": night.is_at_table(request.user, [line.seat for line in state.seats]),
        "chart": night_chart(night),
    }


@require_GET
@login_required
def night_detail(request: HttpRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    for_seat = request.GET.get("for")
    context = _night_context(
        request, night, for_seat=int(for_seat) if for_seat and for_seat.isdigit() else None
    )
    return render(request, "scorekeeper/night.html", context)


@require_GET
@login_required
def night_live(request: HttpRequest, night_id: int) -> HttpResponse:
    """The polled fragment: answered without rendering when nothing changed."""
    night = member_night(request, night_id)
    known = request.GET.get("v", "")
    if known == str(night.version):
        return HttpResponseStopPolling() if night.is_over else HttpResponse(status=204)
    context = _night_context(request, night)
    round_now = context["state"].round
    context["oob_head"] = True
    # Replace the entry form only when a new round opened, never under someone's thumb.
    mine = context["mine"]
    context["oob_form"] = (
        request.GET.get("r", "") != str(round_now.number if round_now else "")
        # ...or when this phone's player sat down or left the table.
        or request.GET.get("s", "") != str(mine.seat.pk if mine else "")
    )
    return render(request, "scorekeeper/night.html#live", context)


@require_POST
@login_required
def entry_save(request: HttpRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    form = EntryForm(request.POST)
    if form.is_valid():
        seat = night.seats.filter(pk=form.cleaned_data["seat"]).first()
        made, stayed = form.claim()
        try:
            if seat is None:
                raise Refused("That seat is not at this table.")
            record_entry(
                night=night,
                round_number=form.cleaned_data["round"],
                seat=seat,
                points=form.cleaned_data["points"],
                entered_by=request.user,
                fantasyland_made=made,
                fantasyland_stayed=stayed,
            )
        except Refused as error:
            form.add_error(None, str(error))
        else:
            if request.htmx:
                night.refresh_from_db()
                return render(
                    request, "scorekeeper/night.html#entry-saved", _night_context(request, night)
                )
            return redirect("night_detail", night_id=night.pk)
    seat_id = (
        form.cleaned_data.get("seat") if form.is_bound and hasattr(form, "cleaned_data") else None
    )
    context = _night_context(request, night, entry_form=form, for_seat=seat_id)
    if request.htmx:
        return render(request, "scorekeeper/night.html#entry-form", context)
    return render(request, "scorekeeper/night.html", context, status=200)


@require_http_methods(["GET", "POST"])
@login_required
def round_edit(request: HttpRequest, night_id: int, number: int) -> HttpResponse:
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
            messages.success(request, f"Round {number} fixed.")
            return redirect("night_rounds", night_id=night.pk)
    edits = list(round_.edits.select_related("edited_by"))
    return render(
        request,
        "scorekeeper/round_edit.html",
        {"night": night, "round": round_, "form": form, "edits": edits},
    )


@require_GET
@login_required
def night_rounds(request: HttpRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    rounds = list(
        night.rounds.filter(recorded_at__isnull=False)
        .select_related("dealer")
        .prefetch_related("entries__seat", "edits__edited_by")
        .order_by("-number")
    )
    seats = list(night.seats.all())
    context = {
        "night": night,
        "rounds": rounds,
        "seats": seats,
        "at_table": night.is_at_table(request.user, seats),
    }
    return render(request, "scorekeeper/rounds.html", context)


def _run(
    request: HttpRequest, night: Night, action: Callable[[], object], success: str
) -> HttpResponse:
    try:
        action()
    except Refused as error:
        messages.error(request, str(error))
    else:
        if success:
            messages.success(request, success)
    return redirect("night_detail", night_id=night.pk)


@require_POST
@login_required
def round_undo(request: HttpRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    return _run(
        request,
        night,
        lambda: undo_last_round(night=night, by=request.user),
        "The last round is open again: fix the totals and save.",
    )


@require_http_methods(["GET", "POST"])
@login_required
def seat_add(request: HttpRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    seats = [seat for seat in night.seats.all() if seat.last_round is None]
    seated = {seat.user_id for seat in seats}  # someone who left may come back
    members = [m.user for m in current_members(night.group) if m.user_id not in seated]
    form = AddSeatForm(request.POST or None, members=members, seats=seats)
    if request.method == "POST" and form.is_valid():
        member = form.cleaned_data["member"]
        user = next((u for u in members if str(u.pk) == member), None)
        try:
            seat = add_seat(
                night=night,
                by=request.user,
                user=user,
                guest_name=form.cleaned_data["guest"],
                position=form.cleaned_data["position"],
            )
        except Refused as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{seat.name} is seated and plays from the next hand dealt.")
            return redirect("night_detail", night_id=night.pk)
    return render(request, "scorekeeper/seat_add.html", {"night": night, "form": form})


@require_POST
@login_required
def seat_leave(request: HttpRequest, night_id: int, seat_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    seat = get_object_or_404(night.seats, pk=seat_id)
    return _run(
        request,
        night,
        lambda: leave_seat(night=night, seat=seat, by=request.user),
        f"{seat.name} has left the table; their results stay.",
    )


@require_POST
@login_required
def night_end(request: HttpRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    return _run(
        request,
        night,
        lambda: end_night(night=night, by=request.user),
        "The night is over. Here are the final standings.",
    )
