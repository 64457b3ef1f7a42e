"""Starting a night and ending it.

Entries and rounds are in :mod:`.rounds`, seats coming and going in :mod:`.seats`,
the locks every write takes in :mod:`.locks`.
"""

from dataclasses import dataclass

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.converters import new_link_token
from scorekeeper.models import Change, Group, Night, Round, Seat, SeatDraw, User
from scorekeeper.ofc import HOUSE_RULES, PRESETS, TABLE_RULES
from scorekeeper.services.errors import Refused, checked_name
from scorekeeper.services.groups import (
    check_names_apart,
    checked_house_rules,
    checked_table_rules,
)
from scorekeeper.services.locks import at_table, group_change, night_change, record, started_on
from scorekeeper.table.names import name_key, taken_by
from scorekeeper.terms import game_name

# Sent once a night's end is committed: the site keeps a backup then
# (scorekeeper/copies/backups_kept.py listens, connected in apps.py).
night_ended = Signal()


@dataclass(frozen=True)
class SeatRequest:
    """Who sits down: a member, or a guest known by name only."""

    user: User | None = None
    guest_name: str = ""


@transaction.atomic
def start_night(
    *,
    group: Group,
    started_by: User,
    game_id: str,
    rules: dict,
    point_cents: int,
    seats: list[SeatRequest],
    first_dealer: int,
    loss_cap_cents: int | None = None,
    beside_running: bool = False,
    drawn: bool = False,
) -> Night:
    """Open a night with its seats in clockwise order; `first_dealer` indexes `seats`.

    A night already running in the group is usually the same table tapped twice, so a
    second one needs `beside_running` (a second table the same evening). `drawn`: the
    app drew the seats and the first dealer (services/seat_draws.py), which every phone
    and the record say.
    """
    with group_change(group, by=started_by):  # one start at a time
        running = group.nights.filter(ended_at__isnull=True).select_related("started_by").first()
        if running is not None and not beside_running:
            by = running.started_by.name if running.started_by else _("someone")
            raise Refused(
                _(
                    "A night is already running, started by %(name)s. Open it from the group "
                    "page, or tick “Start a second table” to play two nights at once."
                )
                % {"name": by}
            )
        if game_id not in PRESETS:
            raise Refused(_("Pick one of the games on the list."))
        checked_house_rules(rules)
        game = PRESETS[game_id].with_house_rules(rules)
        if not game.min_players <= len(seats) <= game.max_players:
            raise Refused(
                _("%(game)s takes %(least)d to %(most)d players, got %(count)d.")
                % {
                    "game": game_name(game),
                    "least": game.min_players,
                    "most": game.max_players,
                    "count": len(seats),
                }
            )
        if not 0 <= first_dealer < len(seats):
            raise Refused(_("Pick who deals first among the players."))
        if point_cents < 0:
            raise Refused(_("The point value cannot be negative."))
        member_ids = set(group.memberships.current().values_list("user_id", flat=True))
        names: list[str] = []
        for request in seats:
            if request.user is not None:
                if request.user.pk not in member_ids:
                    raise Refused(_("%(name)s is not in this group.") % {"name": request.user.name})
                names.append(request.user.name)
            else:
                names.append(checked_name(request.guest_name))
        keys = [name_key(name) for name in names]
        duplicates = sorted({name for name in names if keys.count(name_key(name)) > 1})
        if duplicates:
            raise Refused(
                _("%(name)s is seated twice. Each player takes one seat.") % {"name": duplicates[0]}
            )
        guests = [name for name, request in zip(names, seats, strict=True) if request.user is None]
        check_guest_names(group, guests)
        check_names_apart(group, guests, seated=names)

        night = Night.objects.create(
            group=group,
            game=game_id,
            rules=rules,
            point_cents=point_cents,
            currency=group.currency,
            loss_cap_cents=loss_cap_cents,
            started_by=started_by,
        )
        created = [
            Seat.objects.create(night=night, position=index + 1, user=request.user, name=name)
            for index, (request, name) in enumerate(zip(seats, names, strict=True))
        ]
        Round.objects.create(night=night, number=1, dealer=created[first_dealer])
        group.default_game = game_id
        # The table's own royalties and scoring are the group's to set (set_house_rules):
        # a night that changes them for itself leaves the group's as they were.
        group.default_rules = {name: value for name, value in rules.items() if name in HOUSE_RULES}
        group.default_point_cents = point_cents
        group.save(update_fields=["default_game", "default_rules", "default_point_cents"])
        if drawn:
            SeatDraw.objects.create(night=night)
            record(Change.Kind.NIGHT_STARTED, of_night=night, date=started_on(night), drawn=True)
        else:
            record(Change.Kind.NIGHT_STARTED, of_night=night, date=started_on(night))
        return night


_MEMBER_NOT_A_GUEST = gettext_lazy(
    "%(name)s is a member of this group: pick them from the members, "
    "or add a letter to tell the guest apart."
)
_FORMER_MEMBER_NOT_A_GUEST = gettext_lazy(
    "%(name)s was a member of this group. If it is them, they can join again through "
    "the invitation link; if not, add a letter to tell the guest apart."
)


def check_guest_names(group: Group, names: list[str]) -> None:
    """Refuse a guest's (cleaned) name when it is, or looks just like, the name of
    anyone who is or was a member of ``group``, at the table tonight or not: the pages
    would show two people of one name ("Kees → Kees €0.30") and split their money.
    One query, however many guests."""
    # Former members count too: their nights keep their name in the history, the
    # records and what is still owed across nights, where a guest of that name would
    # read as them; they may also join again. If the guest is them, joining again
    # through the invitation link puts tonight beside their own results.
    if not names:
        return
    memberships = list(group.memberships.select_related("user").order_by("pk"))
    current = [m.user.name for m in memberships if m.is_current]
    former = [m.user.name for m in memberships if not m.is_current]
    for name in names:
        for members, same_name in (
            (current, _MEMBER_NOT_A_GUEST),
            (former, _FORMER_MEMBER_NOT_A_GUEST),
        ):
            other = taken_by(name, members)
            if other is None:
                continue
            if name_key(other) == name_key(name):
                raise Refused(same_name % {"name": other})
            raise Refused(
                _('"%(name)s" looks just like "%(other)s". Pick a name the others can tell apart.')
                % {"name": name, "other": other}
            )


@transaction.atomic
def change_night_rules(*, night: Night, by: User, table_rules: dict) -> Night:
    """This night's own royalties and scoring, for this night only; refused once its
    first round is recorded, so every round of a night is counted by the same rules."""
    with night_change(night, by=by, may=at_table) as night:
        if night.is_over:
            raise Refused(_("This night is over; its rules stay as they were played."))
        if night.rounds.filter(recorded_at__isnull=False).exists():
            raise Refused(_("This night's rules are fixed: its first round is recorded."))
        checked_table_rules(table_rules)
        switches = {name: value for name, value in night.rules.items() if name not in TABLE_RULES}
        before, night.rules = night.rules, {**switches, **table_rules}
        night.save(update_fields=["rules"])
        record(Change.Kind.NIGHT_RULES, game=night.game, before=before, after=night.rules)
        return night


@transaction.atomic
def end_night(*, night: Night, by: User) -> Night:
    """No more rounds. A round that has not gone through is dropped with its entries."""
    with night_change(night, by=by, may=at_table) as night:
        if night.is_over:
            return night
        night.rounds.filter(recorded_at__isnull=True).delete()
        night.ended_at = timezone.now()
        night.save(update_fields=["ended_at"])
        record(Change.Kind.NIGHT_ENDED)
        transaction.on_commit(lambda: night_ended.send(sender=Night, night=night), robust=True)
        return night


@transaction.atomic
def share_screen(*, night: Night, by: User) -> Night:
    """A read-only link to the night's big screen; sharing twice keeps the same link."""
    with night_change(night, by=by, may=at_table) as night:
        if night.screen_token is None:
            night.screen_token = new_link_token()
            night.save(update_fields=["screen_token"])
            record(Change.Kind.SCREEN_SHARED)
        return night


@transaction.atomic
def stop_sharing_screen(*, night: Night, by: User) -> Night:
    """The read-only link stops working at once."""
    with night_change(night, by=by, may=at_table) as night:
        night.screen_token = None
        night.save(update_fields=["screen_token"])
        record(Change.Kind.SCREEN_STOPPED)
        return night
