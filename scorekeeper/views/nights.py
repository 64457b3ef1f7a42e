"""A night at the table: starting it, the page every phone keeps open, its poll,
a seat's total, and the end of the night."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper.converters import row_id
from scorekeeper.forms.groups import HouseRulesForm
from scorekeeper.forms.nights import EntryForm, StartNightForm, initial_for
from scorekeeper.i18n import language
from scorekeeper.models import Night, SeatDraw, User
from scorekeeper.ofc import PRESETS
from scorekeeper.reads.groups import current_members
from scorekeeper.reads.night_state import NightState
from scorekeeper.reads.nights import night_page
from scorekeeper.reads.polls import night_now
from scorekeeper.reads.rules import paid_sections
from scorekeeper.services.entry_keys import NotOpen
from scorekeeper.services.errors import Refused
from scorekeeper.services.nights import SeatRequest, end_night, start_night
from scorekeeper.services.rounds import record_entry
from scorekeeper.services.seat_draws import start_drawn_night
from scorekeeper.table.formatting import names
from scorekeeper.views.access import (
    AuthenticatedRequest,
    HtmxHttpRequest,
    member_group,
    member_night,
)
from scorekeeper.views.offline import invalid_reply, queued, refused_reply, saved_reply
from scorekeeper.views.outcomes import change_and_say
from scorekeeper.views.polling import shown_version, unchanged_poll
from scorekeeper.views.pushed_parts import asked_in
from scorekeeper.views.shared_parts import SharedNight, shared_night


@require_http_methods(["GET", "POST"])
@login_required
def night_start(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    members = [membership.user for membership in current_members(group)]
    game_id = request.GET.get("game") or group.default_game
    if game_id not in PRESETS:
        game_id = "standard"
    rules = group.default_rules if game_id == group.default_game else {}
    initial = initial_for(PRESETS[game_id], group.default_point_cents, rules, group.currency)
    initial["seat_1"] = str(request.user.pk)  # whoever starts the night usually plays
    form = StartNightForm(
        request.POST or None,
        members=members,
        initial=initial,
        seat_count=PRESETS[game_id].max_players,
        currency=group.currency,
    )
    # The group's own royalties and scoring, which this night may change for itself;
    # a post without them (a script, an old page) plays the group's.
    posted_house = any(name.startswith("house-") for name in request.POST)
    house = HouseRulesForm(
        request.POST if posted_house else None,
        prefix="house",
        base=group.house_rules,
        sections=paid_sections(PRESETS[game_id]),
    )
    house_valid = house.is_valid() if posted_house else True
    if request.method == "POST" and all([form.is_valid(), house_valid]):
        data = form.cleaned_data
        seats = [SeatRequest(user=user, guest_name=guest or "") for guest, user in data["seats"]]
        start = start_drawn_night if data["draw"] else start_night
        try:
            night = start(
                group=group,
                started_by=request.user,
                game_id=data["game"],
                rules={
                    **form.rules(PRESETS[data["game"]]),
                    **(house.table_rules() if posted_house else group.house_rules),
                },
                point_cents=data["point_value"],
                seats=seats,
                first_dealer=data["dealer_index"],
                loss_cap_cents=data["loss_cap"],
                beside_running=data["beside_running"],
            )
        except Refused as error:
            form.add_error(None, str(error))
        else:
            return redirect("night_detail", night_id=night.pk)
    context = {
        "group": group,
        "form": form,
        "house": house,
        "games": PRESETS.values(),
        "game_id": game_id,
        "running": group.nights.filter(ended_at__isnull=True).first(),
    }
    return render(request, "scorekeeper/night_start.html", context)


def _night_context(
    user: User,
    night: Night,
    entry_form: EntryForm | None = None,
    for_seat: int | None = None,
    shared: SharedNight | None = None,
) -> dict:
    """Everything the night page shows ``user``, from one moment. ``shared`` is the
    night's shared parts when the caller has them: only the person's own part is read
    then, and used if it was read at their version."""
    page = None
    if shared is not None:
        page = night_page(night, user, for_seat=for_seat, shown=False)
    if page is None or shared is None or shared.version != night.version:
        page = night_page(night, user, for_seat=for_seat)
        assert page.shown is not None
        shared = shared_night(night, page.shown)
    if entry_form is None and page.entry_initial is not None:
        entry_form = EntryForm(initial=page.entry_initial, night=night)
    return {
        "night": night,
        "group": night.group,
        "state": page.state,
        "shared": shared,
        "own": shared.own(user),
        "mine": page.mine,
        "target": page.target,
        "at_table": page.at_table,
        "entry_form": entry_form,
        "news": shared.moments,
        "seated": page.seated,
        "dealt_from": next(
            (
                line.seat.first_round
                for line in page.state.seats
                if line.seat.user_id == user.pk and line.seat.last_round is None
            ),
            None,
        ),
    }


def _seat_draw(night: Night, state: NightState) -> str:
    """The drawn seats in order ("1 Dora, 2 Anna and 3 Bram"), while the first round is
    being played: every phone opening the night then says the seats were drawn, and how
    ("" otherwise)."""
    if state.round is None or state.round.number != 1 or state.rounds_played:
        return ""
    if not SeatDraw.objects.filter(night=night).exists():
        return ""
    seats = sorted((line.seat for line in state.seats), key=lambda seat: seat.position)
    return names([f"{seat.position} {seat.name}" for seat in seats], language())


@require_GET
@login_required
def night_detail(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    context = _night_context(request.user, night, for_seat=row_id(request.GET.get("for", "")))
    context["seat_draw"] = _seat_draw(night, context["state"])
    asked_in(night.pk, get_language())  # its changes are pushed in this language too
    return render(request, "scorekeeper/night.html", context)


@require_GET
@login_required
@unchanged_poll(night_now)
def night_live(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    """The polled fragment. The phone sends what it shows: the night's ``version``,
    the open ``round`` and its own ``seat``."""
    night = member_night(request, night_id)
    if night.is_over:
        # Every phone on the night lands on who pays whom, as the one that ended it does.
        return HttpResponseClientRedirect(reverse("night_settle", args=[night.pk]))
    # Every phone of the night shares the version's parts: rendered by the first to ask.
    shared = shared_night(night)
    asked_in(night.pk, get_language())
    own = shared.own(request.user)
    # Replace the entry form only when a new round opened, never under someone's thumb...
    oob_form = (
        request.GET.get("round", "") != str(shared.round_number or "")
        # ...or when this phone's player sat down or left the table.
        or request.GET.get("seat", "") != str(own.seat or "")
    )
    if oob_form:
        # The form and the table's actions are this phone's own: read for it alone.
        context = _night_context(request.user, night, shared=shared)
    else:
        context = {"night": night, "shared": shared, "own": own, "news": shared.moments}
    context.update(oob_head=True, oob_form=oob_form)
    return shown_version(render(request, "scorekeeper/night.html#live", context), night)


@require_POST
@login_required
def entry_save(request: HtmxHttpRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    form = EntryForm(request.POST, night=night)
    if form.is_valid():
        made, stayed = form.claim()
        try:
            result = record_entry(
                night=night,
                round_number=form.cleaned_data["round"],
                seat=form.cleaned_data["seat"],
                points=form.cleaned_data["points"],
                entered_by=request.user,
                fantasyland_made=made,
                fantasyland_stayed=stayed,
                key=form.cleaned_data["key"],
            )
        except NotOpen as error:
            if queued(request):
                return refused_reply(str(error))
            # A form for the round the table is on, empty, under the words of what
            # became of this one: never the old round's value in the open round's form.
            context = {**_night_context(request.user, night), "not_used": str(error)}
            return _entry_answer(request, context)
        except Refused as error:
            if queued(request):
                return refused_reply(str(error))
            form.add_error(None, str(error))
        else:
            if queued(request):
                return saved_reply(already=result.already_saved)
            if request.htmx:
                # Read at the version the save made, not found moved on and read again;
                # the shared parts rendered from it are kept for the pushed message.
                night.version = result.night.version
                context = _night_context(request.user, night)
                saved = render(request, "scorekeeper/night.html#entry-saved", context)
                return shown_version(saved, night)
            return redirect("night_detail", night_id=night.pk)
    elif queued(request):
        return invalid_reply(form)
    seat = form.cleaned_data.get("seat") if hasattr(form, "cleaned_data") else None
    context = _night_context(request.user, night, entry_form=form, for_seat=seat and seat.pk)
    return _entry_answer(request, context)


def _entry_answer(request: HtmxHttpRequest, context: dict) -> HttpResponse:
    """The entry form with what the save came to, alone for htmx, else in its page."""
    if request.htmx:
        form = render(request, "scorekeeper/night.html#entry-form", context)
        return shown_version(form, context["night"])
    return render(request, "scorekeeper/night.html", context)


@require_POST
@login_required
def night_end(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    """The night ends and the phone lands on its settlement: who pays whom."""
    night = member_night(request, night_id)
    ended = change_and_say(
        request,
        lambda: end_night(night=night, by=request.user),
        _("The night is over. Here is who pays whom."),
    )
    return redirect("night_settle" if ended else "night_detail", night_id=night.pk)
