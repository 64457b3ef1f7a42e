"""Writes of a night at the table: starting it, entries, rounds, seats, the end.

Every write locks the night's row first, so phones that save at the same instant
queue behind each other: each entry counts once and a round goes through once.
"""

from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from scorekeeper.games import HOUSE_RULES, game_for
from scorekeeper.models import Entry, Group, Night, Round, RoundEdit, Seat, User
from scorekeeper.names import clean_name
from scorekeeper.ofc import FantasylandState, next_fantasyland
from scorekeeper.ofc.games import PRESETS, Game
from scorekeeper.table import at_or_after, next_dealer

MAX_POINTS = 999


class Refused(ValueError):
    """A write that the rules do not allow; the message is for the person at the table."""


@dataclass(frozen=True)
class SeatRequest:
    """Who sits down: a member, or a guest known by name only."""

    user: User | None = None
    guest_name: str = ""


def _lock(night: Night) -> Night:
    return Night.objects.select_for_update().get(pk=night.pk)


def _lock_for(night: Night, by: User) -> Night:
    """Lock the night for a change to the table itself (rounds, seats, its end), which
    only someone at the table, or whoever started the night, may make."""
    night = _lock(night)
    at_table = night.seats.filter(user=by, last_round__isnull=True).exists()
    if not at_table and night.started_by_id != by.pk:
        raise Refused("Only the players at this table can change the night.")
    return night


def _bump(night: Night) -> None:
    Night.objects.filter(pk=night.pk).update(version=F("version") + 1)


def _fantasyland_of(round_: Round) -> dict[int, FantasylandState]:
    return {int(seat_id): FantasylandState(*value) for seat_id, value in round_.fantasyland.items()}


def open_round(night: Night) -> Round | None:
    return night.rounds.filter(recorded_at__isnull=True).order_by("-number").first()


def playing_seats(night: Night, number: int) -> list[Seat]:
    return [seat for seat in night.seats.all() if seat.plays(number)]


def _check_points(points: int) -> None:
    if not -MAX_POINTS <= points <= MAX_POINTS:
        raise Refused(f"A total must be between -{MAX_POINTS} and {MAX_POINTS}.")


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
) -> Night:
    """Open a night with its seats in clockwise order; `first_dealer` indexes `seats`.

    A night already running in the group is usually the same table tapped twice, so a
    second one needs `beside_running` (a second table the same evening).
    """
    Group.objects.select_for_update().filter(pk=group.pk).first()  # one start at a time
    running = group.nights.filter(ended_at__isnull=True).select_related("started_by").first()
    if running is not None and not beside_running:
        by = running.started_by.name if running.started_by else "someone"
        raise Refused(
            f"A night is already running, started by {by}. Open it from the group page, "
            "or tick “Start a second table” to play two nights at once."
        )
    if game_id not in PRESETS:
        raise Refused("Pick one of the games on the list.")
    _check_house_rules(rules)
    game = game_for(game_id, rules)
    if not game.min_players <= len(seats) <= game.max_players:
        raise Refused(
            f"{game.name} takes {game.min_players} to {game.max_players} players, got {len(seats)}."
        )
    if not 0 <= first_dealer < len(seats):
        raise Refused("Pick who deals first among the players.")
    if point_cents < 0:
        raise Refused("The point value cannot be negative.")
    member_ids = set(group.memberships.filter(left_at=None).values_list("user_id", flat=True))
    names: list[str] = []
    for request in seats:
        if request.user is not None:
            if request.user.pk not in member_ids:
                raise Refused(f"{request.user.name} is not in this group.")
            names.append(request.user.name)
        else:
            names.append(clean_name(request.guest_name))
    lowered = [name.lower() for name in names]
    duplicates = sorted({name for name in names if lowered.count(name.lower()) > 1})
    if duplicates:
        raise Refused(f"{duplicates[0]} is seated twice. Each player takes one seat.")

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
    group.default_rules = rules
    group.default_point_cents = point_cents
    group.save(update_fields=["default_game", "default_rules", "default_point_cents"])
    return night


def _check_house_rules(rules: dict) -> None:
    for name, value in rules.items():
        if name not in HOUSE_RULES:
            raise Refused(f"{name} is not a house rule.")
        if name == "stay_limit":
            if value is not None and (type(value) is not int or value < 0):
                raise Refused("Stays in a row must be a whole number, or none.")
        elif type(value) is not bool:
            raise Refused(f"{name} is on or off.")


@dataclass(frozen=True)
class EntryResult:
    entry: Entry
    round_recorded: bool


def _check_fantasyland_claim(
    game: Game, seat: Seat, current: FantasylandState | None, made: str, stayed: bool
) -> None:
    if (made or stayed) and not game.fantasyland:
        raise Refused("This game is played without Fantasyland.")
    if current is None:
        if stayed:
            raise Refused(f"{seat.name} did not play this hand in Fantasyland, so cannot stay.")
        if made and made not in {option.id for option in game.entry_options}:
            raise Refused("That is not a way into Fantasyland in this game.")
    else:
        if made:
            raise Refused(f"{seat.name} played this hand in Fantasyland: say whether they stayed.")
        if stayed and game.stay_limit is not None and current.stays >= game.stay_limit:
            raise Refused(
                f"{seat.name} has had {game.stay_limit + 1} Fantasyland hands in a row, "
                "the most this game allows."
            )


def _may_enter_for(seat: Seat, by: User, playing: list[Seat], existing: Entry | None) -> None:
    if seat.user_id == by.pk:
        return
    if not any(other.user_id == by.pk for other in playing):
        raise Refused("Only players seated in this round can enter totals.")
    if existing is not None and not seat.is_guest and existing.entered_by_id != by.pk:
        raise Refused(f"{seat.name} already has an entry; only they can change it.")


@dataclass(frozen=True)
class EntrySlot:
    """Where one seat's entry for the open round goes, the night locked."""

    night: Night
    round: Round
    playing: list[Seat]
    game: Game
    existing: Entry | None


def entry_slot(*, night: Night, round_number: int, seat: Seat, entered_by: User) -> EntrySlot:
    """Lock the night and check that `entered_by` may enter for `seat` in this round.

    Call inside a transaction; raises :class:`Refused` in words for the table.
    """
    night = _lock(night)
    if night.is_over:
        raise Refused("This night is over; no more rounds.")
    round_ = open_round(night)
    if round_ is None or round_.number != round_number:
        if night.rounds.filter(number=round_number, recorded_at__isnull=False).exists():
            raise Refused(
                f"Round {round_number} has already gone through. Check the standings; "
                "fix a round from its history if needed."
            )
        raise Refused(
            f"Round {round_number} is not open any more: the table is on round "
            f"{round_.number if round_ else '?'} now. Check your total there."
        )
    playing = playing_seats(night, round_.number)
    if seat.night_id != night.pk or seat not in playing:
        raise Refused(f"{seat.name} is not playing this round.")
    existing = Entry.objects.filter(round=round_, seat=seat).first()
    _may_enter_for(seat, entered_by, playing, existing)
    return EntrySlot(night, round_, playing, game_for(night.game, night.rules), existing)


@transaction.atomic
def record_entry(
    *,
    night: Night,
    round_number: int,
    seat: Seat,
    points: int,
    entered_by: User,
    fantasyland_made: str = "",
    fantasyland_stayed: bool = False,
    board: dict | None = None,
) -> EntryResult:
    """Save one seat's total for the open round; saving the same again changes nothing.

    When every seat is in and the totals add up to zero, the round goes through.
    A total typed for a seat that set its cards keeps the cards (mixed rounds).
    """
    _check_points(points)
    try:
        slot = entry_slot(night=night, round_number=round_number, seat=seat, entered_by=entered_by)
    except Refused:
        # A retry whose first try went through (the answer was lost on the Wi-Fi).
        already = _recorded_entry(night, round_number, seat, points)
        if already is None:
            raise
        return EntryResult(already, round_recorded=False)
    night, round_, existing = slot.night, slot.round, slot.existing
    game = slot.game
    current = _fantasyland_of(round_).get(seat.pk)
    _check_fantasyland_claim(game, seat, current, fantasyland_made, fantasyland_stayed)
    if board is None and existing is not None and existing.board:
        # The cards stay to check the total, and Fantasyland comes from them.
        board = existing.board
        fantasyland_made = existing.fantasyland_made
        fantasyland_stayed = existing.fantasyland_stayed

    values = {
        "points": points,
        "fantasyland_made": fantasyland_made,
        "fantasyland_stayed": fantasyland_stayed,
        "board": board,
        "awaiting_total": False,
    }
    if existing is not None and all(getattr(existing, k) == v for k, v in values.items()):
        # A double tap or a retry changes nothing, but may still complete a round that
        # was undone and is now confirmed as it was.
        recorded = _close_round_if_complete(night, round_, slot.playing, game)
        if recorded:
            _bump(night)
        return EntryResult(existing, round_recorded=recorded)
    entry, _ = Entry.objects.update_or_create(
        round=round_,
        seat=seat,
        defaults={**values, "entered_by": entered_by, "updated_at": timezone.now()},
    )
    if existing is not None and existing.points != points and round_.edits.exists():
        # A reopened round: its history keeps every change, not only those of the fix page.
        RoundEdit.objects.create(
            round=round_, edited_by=entered_by, changes=[[seat.name, existing.points, points]]
        )
    recorded = _close_round_if_complete(night, round_, slot.playing, game)
    _bump(night)
    return EntryResult(entry, round_recorded=recorded)


def _recorded_entry(night: Night, number: int, seat: Seat, points: int) -> Entry | None:
    return Entry.objects.filter(
        round__night=night,
        round__number=number,
        round__recorded_at__isnull=False,
        seat=seat,
        points=points,
    ).first()


def _close_round_if_complete(night: Night, round_: Round, playing: list[Seat], game: Game) -> bool:
    entries = {entry.seat_id: entry for entry in round_.entries.all()}
    if len(entries) < len(playing) or sum(e.points for e in entries.values()) != 0:
        return False
    if any(entry.awaiting_total for entry in entries.values()):
        return False  # a board whose total is not known yet (services/boards.py)
    round_.recorded_at = timezone.now()
    round_.recorded_sum = 0
    round_.save(update_fields=["recorded_at", "recorded_sum"])

    current = _fantasyland_of(round_)
    upcoming: dict[int, FantasylandState] = {}
    for seat in playing:
        entry = entries[seat.pk]
        after = next_fantasyland(
            game,
            current.get(seat.pk),
            entry=entry.fantasyland_made or None,
            stayed=entry.fantasyland_stayed,
        )
        if after is not None:
            upcoming[seat.pk] = after
    _open_next_round(night, round_, upcoming, game)
    return True


def _open_next_round(
    night: Night, previous: Round, upcoming: dict[int, FantasylandState], game: Game
) -> Round:
    number = previous.number + 1
    seats = playing_seats(night, number)
    upcoming = {
        seat_id: value
        for seat_id, value in upcoming.items()
        if any(seat.pk == seat_id for seat in seats)
    }
    position = next_dealer(
        [seat.position for seat in seats],
        previous.dealer.position,
        fantasyland_next=bool(upcoming),
        fantasyland_this=bool(previous.fantasyland),
        hold=game.hold_button,
    )
    dealer = next(seat for seat in seats if seat.position == position)
    return Round.objects.create(
        night=night,
        number=number,
        dealer=dealer,
        fantasyland={
            str(seat_id): [value.cards, value.stays] for seat_id, value in upcoming.items()
        },
    )


@transaction.atomic
def edit_round(*, night: Night, number: int, points: dict[int, int], edited_by: User) -> Round:
    """Correct a recorded round's totals; the change is kept in the round's history."""
    night = _lock_for(night, edited_by)
    round_ = night.rounds.filter(number=number, recorded_at__isnull=False).first()
    if round_ is None:
        raise Refused(f"Round {number} has not gone through, so there is nothing to fix.")
    if night.payments.exists():
        raise Refused(
            "Payments of this night are already marked paid. Undo those marks on the "
            "settlement first, so nobody pays twice."
        )
    entries = {entry.seat_id: entry for entry in round_.entries.select_related("seat")}
    if set(points) != set(entries):
        raise Refused("Give a total for every player of the round.")
    for value in points.values():
        _check_points(value)
    total = sum(points.values())
    if total != 0:
        raise Refused(f"The totals must add up to zero; they are {describe_difference(total)}.")
    changes = []
    for seat_id, entry in entries.items():
        if entry.points != points[seat_id]:
            changes.append([entry.seat.name, entry.points, points[seat_id]])
            entry.points = points[seat_id]
            entry.save(update_fields=["points"])
    if changes:
        RoundEdit.objects.create(round=round_, edited_by=edited_by, changes=changes)
        _bump(night)
    return round_


@transaction.atomic
def undo_last_round(*, night: Night, by: User) -> Round:
    """Take back the last round that went through: it opens again for editing."""
    night = _lock_for(night, by)
    if night.is_over:
        raise Refused("This night is over.")
    current = open_round(night)
    last = night.rounds.filter(recorded_at__isnull=False).order_by("-number").first()
    if last is None:
        raise Refused("No round has gone through yet.")
    if current is not None and current.entries.exists():
        raise Refused(
            f"Round {current.number} already has entries; a round can only be undone "
            "before anyone enters the next hand."
        )
    if current is not None:
        current.delete()
    last.recorded_at = None
    last.recorded_sum = None
    last.save(update_fields=["recorded_at", "recorded_sum"])
    RoundEdit.objects.create(round=last, edited_by=by, changes=[], note="reopened with undo")
    _bump(night)
    return last


def _refuse_mid_round(round_: Round | None, what: str) -> None:
    if round_ is not None and round_.entries.exists():
        raise Refused(f"Round {round_.number} is being entered. {what} once it goes through.")


@transaction.atomic
def add_seat(
    *, night: Night, by: User, user: User | None = None, guest_name: str = "", position: int
) -> Seat:
    """A late arrival takes a seat before `position` (or last) and is dealt the next hand."""
    night = _lock_for(night, by)
    if night.is_over:
        raise Refused("This night is over.")
    round_ = open_round(night)
    game = game_for(night.game, night.rules)
    number = round_.number if round_ is not None else 1
    if round_ is not None and round_.entries.exists():
        number += 1  # this hand is already being counted: dealt in from the next one
    seated = playing_seats(night, number)
    if len(seated) >= game.max_players:
        raise Refused(f"{game.name} takes at most {game.max_players} players.")
    # Someone coming back gets their own seat again: the same member, or the same guest.
    if user is not None:
        # Locked like leave_group, so nobody is seated in the instant they leave the group.
        Group.objects.select_for_update().filter(pk=night.group_id).first()
        if not night.group.memberships.filter(user=user, left_at=None).exists():
            raise Refused(f"{user.name} is not in this group.")
        name = user.name
        earlier = night.seats.filter(user=user).first()
        clash = night.seats.filter(name__iexact=name, user__isnull=True).exists()
    else:
        name = clean_name(guest_name)
        earlier = night.seats.filter(name__iexact=name, user__isnull=True).first()
        clash = night.seats.filter(name__iexact=name, user__isnull=False).exists()
    if clash:
        raise Refused(f"There is already a {name} tonight; add a letter to tell them apart.")
    if earlier is not None and earlier.last_round is None:
        raise Refused(f"{earlier.name} already has a seat tonight.")
    if earlier is not None and number != (round_.number if round_ is not None else 1):
        raise Refused(
            f"{earlier.name} can come back between hands, once round {round_.number} goes through."
        )
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
    _bump(night)
    return seat


@transaction.atomic
def leave_seat(*, night: Night, seat: Seat, by: User) -> None:
    """A player leaves between hands: results stay, Fantasyland is given up."""
    night = _lock_for(night, by)
    if night.is_over:
        raise Refused("This night is over.")
    round_ = open_round(night)
    _refuse_mid_round(round_, f"{seat.name} can leave")
    number = round_.number
    playing = playing_seats(night, number)
    if seat not in playing:
        raise Refused(f"{seat.name} is not at the table.")
    if len(playing) <= 2:
        raise Refused("A night needs two players; end the night instead.")
    remaining = [other for other in playing if other.pk != seat.pk]
    fantasyland = {k: v for k, v in round_.fantasyland.items() if int(k) != seat.pk}
    dealer = _dealer_without(night, round_, remaining, fantasyland)
    Round.objects.filter(pk=round_.pk).update(fantasyland=fantasyland, dealer=dealer)
    if seat.first_round >= number and not seat.entries.exists():
        seat.delete()  # never played a hand tonight: nothing to keep
    else:
        seat.last_round = number - 1
        seat.save(update_fields=["last_round"])
    _bump(night)


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
            hold=game_for(night.game, night.rules).hold_button,
        )
    return next(seat for seat in remaining if seat.position == position)


@transaction.atomic
def end_night(*, night: Night, by: User) -> Night:
    """No more rounds. A round that has not gone through is dropped with its entries."""
    night = _lock_for(night, by)
    if night.is_over:
        return night
    night.rounds.filter(recorded_at__isnull=True).delete()
    night.ended_at = timezone.now()
    night.save(update_fields=["ended_at"])
    _bump(night)
    return night


def describe_difference(total: int) -> str:
    """ "3 points too many" for a sum of +3; "1 point too few" for -1."""
    unit = "point" if abs(total) == 1 else "points"
    return f"{abs(total)} {unit} too {'many' if total > 0 else 'few'}"
