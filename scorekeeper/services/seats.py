"""Seats coming and going between hands, and where the button goes when one leaves."""

from django.db import transaction
from django.utils.translation import gettext as _

from scorekeeper.models import Change, Night, Round, Seat, User
from scorekeeper.services.errors import Refused, checked_name
from scorekeeper.services.groups import check_names_apart
from scorekeeper.services.locks import at_table, in_group, night_change, record
from scorekeeper.services.nights import check_guest_names
from scorekeeper.table.button import at_or_after, next_dealer
from scorekeeper.table.names import name_key
from scorekeeper.terms import game_name


def _refuse_leaving_mid_round(round_: Round | None, seat: Seat) -> None:
    if round_ is not None and round_.entries.exists():
        raise Refused(
            _("Round %(number)d is being entered. %(name)s can leave once it goes through.")
            % {"number": round_.number, "name": seat.name}
        )


@transaction.atomic
def add_seat(
    *, night: Night, by: User, user: User | None = None, guest_name: str = "", position: int
) -> Seat:
    """A late arrival takes a seat before `position` (or last) and is dealt the next hand."""
    with night_change(night, by=by, may=at_table) as night:
        return _seat(night, user=user, guest_name=guest_name, position=position, recorded=True)


@transaction.atomic
def deal_me_in(*, night: Night, user: User) -> Seat:
    """A member of the group who is not seated takes the last seat from the next hand,
    with one tap from the night page: any member now may, as they may follow the night."""
    with night_change(night, by=user, may=in_group) as night:
        seat = _seat(night, user=user, guest_name="", position=night.seats.count() + 1)
        record(Change.Kind.DEALT_IN, name=seat.name, position=seat.position)
        return seat


def _seat(
    night: Night, *, user: User | None, guest_name: str, position: int, recorded: bool = False
) -> Seat:
    """The seat of :func:`add_seat` and :func:`deal_me_in`, at the locked ``night``."""
    if night.is_over:
        raise Refused(_("This night is over."))
    round_ = night.open_round()
    game = night.game_rules
    # The open round's hand is on the table (dealt, being played or counted), even
    # before anyone enters a total: a new seat is dealt in from the next one.
    number = round_.number + 1 if round_ is not None else 1
    seated = night.playing_seats(number)
    if len(seated) >= game.max_players:
        raise Refused(
            _("%(game)s takes at most %(count)d players.")
            % {"game": game_name(game), "count": game.max_players}
        )
    # Someone coming back gets their own seat again: the same member, or the same guest.
    # A night has a handful of seats, compared by the one name key in Python (the
    # database's case-insensitive match knows only ASCII capitals on SQLite).
    tonight = list(night.seats.all())
    if user is not None:
        # The door holds the group's row as leave_group does: nobody is seated in
        # the instant they leave the group.
        if not night.group.has_member(user):
            raise Refused(_("%(name)s is not in this group.") % {"name": user.name})
        name = user.name
        earlier = next((seat for seat in tonight if seat.user_id == user.pk), None)
        same_name = [seat for seat in tonight if name_key(seat.name) == name_key(name)]
        clash = any(seat.user_id is None for seat in same_name)
    else:
        name = checked_name(guest_name)
        check_names_apart(night.group, [name], seated=[seat.name for seat in tonight])
        same_name = [seat for seat in tonight if name_key(seat.name) == name_key(name)]
        earlier = next((seat for seat in same_name if seat.user_id is None), None)
        clash = any(seat.user_id is not None for seat in same_name)
    if clash:
        raise Refused(
            _("There is already a %(name)s tonight; add a letter to tell them apart.")
            % {"name": name}
        )
    if user is None and earlier is None:
        # A new guest only: a guest coming back keeps the seat (and name) they had
        # tonight, even if a member of that name has joined since.
        check_guest_names(night.group, [name])
    if earlier is not None and earlier.last_round is None:
        raise Refused(_("%(name)s already has a seat tonight.") % {"name": earlier.name})
    positions = [seat.position for seat in night.seats.exclude(pk=getattr(earlier, "pk", None))]
    position = max(1, min(position, max(positions, default=0) + 1))
    if earlier is not None:
        earlier.position = 0  # out of the way while the others make room
        earlier.save(update_fields=["position"])
    # Make room clockwise, from the end, so the unique positions never collide.
    for seat in night.seats.filter(position__gte=position).order_by("-position"):
        seat.position += 1
        seat.save(update_fields=["position"])
    if earlier is not None:
        # Back after leaving: the same seat, so tonight's results stay in one place.
        earlier.position = position
        earlier.first_round = number
        earlier.last_round = None
        earlier.save(update_fields=["position", "first_round", "last_round"])
        seat = earlier
    else:
        seat = Seat.objects.create(
            night=night, position=position, user=user, name=name, first_round=number
        )
    if recorded:
        kind = Change.Kind.SEAT_BACK if earlier is not None else Change.Kind.SEAT_ADDED
        record(kind, name=seat.name, position=seat.position)
    return seat


@transaction.atomic
def leave_seat(*, night: Night, seat: Seat, by: User) -> None:
    """A player leaves between hands: results stay, Fantasyland is given up."""
    with night_change(night, by=by, may=at_table) as night:
        if night.is_over:
            raise Refused(_("This night is over."))
        round_ = night.open_round()
        _refuse_leaving_mid_round(round_, seat)
        number = round_.number
        playing = night.playing_seats(number)
        if seat not in playing:
            raise Refused(_("%(name)s is not at the table.") % {"name": seat.name})
        if len(playing) <= 2:
            raise Refused(_("A night needs two players; end the night instead."))
        remaining = [other for other in playing if other.pk != seat.pk]
        fantasyland = {k: v for k, v in round_.fantasyland.items() if int(k) != seat.pk}
        dealer = _dealer_without(night, round_, remaining, fantasyland)
        Round.objects.filter(pk=round_.pk).update(fantasyland=fantasyland, dealer=dealer)
        record(Change.Kind.SEAT_LEFT, name=seat.name, round=number)
        if seat.first_round >= number and not seat.entries.exists():
            seat.delete()  # never played a hand tonight: nothing to keep
        else:
            seat.last_round = number - 1
            seat.save(update_fields=["last_round"])


def _dealer_without(night: Night, round_: Round, remaining: list[Seat], fantasyland: dict) -> Seat:
    """The open round's dealer once a seat has gone: as if the button had moved after
    the last hand with the table as it is now (the Fantasyland given up included)."""
    positions = [seat.position for seat in remaining]
    previous = night.rounds.filter(number=round_.number - 1).select_related("dealer").first()
    if previous is None:
        position = at_or_after(positions, round_.dealer.position)
    else:
        position = next_dealer(
            positions,
            previous.dealer.position,
            fantasyland_next=bool(fantasyland),
            fantasyland_this=bool(previous.fantasyland),
            hold=night.game_rules.hold_button,
        )
    return next(seat for seat in remaining if seat.position == position)
