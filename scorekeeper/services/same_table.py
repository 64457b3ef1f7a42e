"""The next night in one tap: the same table as last time, through start_night."""

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from scorekeeper.models import Group, Night, Round, User
from scorekeeper.services.errors import Refused
from scorekeeper.services.nights import SeatRequest, start_night


@dataclass(frozen=True)
class SameTable:
    night: Night
    missing: list[str]  # members of last time who are no longer in the group


def last_night(group: Group) -> Night | None:
    """The group's newest finished night, as the group page lists it first."""
    return group.nights.filter(ended_at__isnull=False).order_by("-started_at", "-pk").first()


@transaction.atomic
def start_same_table(*, group: Group, started_by: User) -> SameTable:
    """Start a night like the group's last finished one: its players still at the table
    at the end, in the same seats (members who left the group since are left out, and
    named), the button one seat on from where it stopped, and that night's game, point
    value, loss cap and house rules. Refused in words when there is no night to copy or
    too few players are left; start_night's own refusals stand."""
    last = last_night(group)
    if last is None:
        raise Refused(_("No night has finished yet, so there is no last table to copy."))
    current = set(group.memberships.current().values_list("user_id", flat=True))
    seated = [seat for seat in last.seats.select_related("user") if seat.last_round is None]
    stopped = (
        Round.objects.filter(night=last, recorded_at__isnull=False).order_by("-number").first()
        or Round.objects.filter(night=last).order_by("-number").first()
    )
    kept = [seat for seat in seated if seat.user_id is None or seat.user_id in current]
    missing = [seat.name for seat in seated if seat not in kept]
    if len(kept) < 2:
        raise Refused(
            _(
                "Too few players of last time are still in the group: "
                "start the night on the start page."
            )
        )
    # The seat after the last dealer, clockwise, among those sitting down again.
    after = stopped.dealer.position if stopped else 0
    later = [index for index, seat in enumerate(kept) if seat.position > after]
    first_dealer = later[0] if later else 0
    night = start_night(
        group=group,
        started_by=started_by,
        game_id=last.game,
        rules=dict(last.rules),
        point_cents=last.point_cents,
        seats=[
            SeatRequest(user=seat.user) if seat.user_id else SeatRequest(guest_name=seat.name)
            for seat in kept
        ],
        first_dealer=first_dealer,
        loss_cap_cents=last.loss_cap_cents,
    )
    return SameTable(night=night, missing=missing)
