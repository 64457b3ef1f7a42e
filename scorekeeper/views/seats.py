"""Seats coming and going between hands: a late arrival sits down, someone leaves."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper.forms.nights import AddSeatForm
from scorekeeper.models import User
from scorekeeper.models.groups import MembershipQuerySet
from scorekeeper.services.errors import Refused
from scorekeeper.services.seats import add_seat, deal_me_in, leave_seat
from scorekeeper.views.access import AuthenticatedRequest, member_night
from scorekeeper.views.outcomes import change_and_say


@require_http_methods(["GET", "POST"])
@login_required
def seat_add(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    seats = [seat for seat in night.seats.all() if seat.last_round is None]
    seated = {seat.user_id for seat in seats}  # someone who left may come back
    members = (
        User.objects.filter(
            MembershipQuerySet.current_through("memberships__"), memberships__group=night.group
        )
        .exclude(pk__in=[user_id for user_id in seated if user_id is not None])
        .order_by("memberships__joined_at", "memberships__pk")
    )
    form = AddSeatForm(request.POST or None, members=members, seats=seats)
    if request.method == "POST" and form.is_valid():
        try:
            seat = add_seat(
                night=night,
                by=request.user,
                user=form.cleaned_data["member"],
                guest_name=form.cleaned_data["guest"],
                position=form.cleaned_data["position"],
            )
        except Refused as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request,
                _("%(name)s is seated and plays from round %(number)d.")
                % {"name": seat.name, "number": seat.first_round},
            )
            return redirect("night_detail", night_id=night.pk)
    return render(request, "scorekeeper/seat_add.html", {"night": night, "form": form})


@require_POST
@login_required
def seat_leave(request: AuthenticatedRequest, night_id: int, seat_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    seat = get_object_or_404(night.seats, pk=seat_id)
    change_and_say(
        request,
        lambda: leave_seat(night=night, seat=seat, by=request.user),
        _("%(name)s has left the table; their results stay.") % {"name": seat.name},
    )
    return redirect("night_detail", night_id=night.pk)


@require_POST
@login_required
def seat_deal_me_in(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    """A member following a running night takes a seat from the next hand, one tap."""
    night = member_night(request, night_id)
    try:
        seat = deal_me_in(night=night, user=request.user)
    except Refused as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("You are dealt in from round %(number)d.") % {"number": seat.first_round},
        )
    return redirect("night_detail", night_id=night.pk)
