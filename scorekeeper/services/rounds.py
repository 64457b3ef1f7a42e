"""Entries and rounds: a seat's total, a round going through, the next one opening.
Fixing or taking back a round that went through: services/round_fixes.py."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.models import (
    Change,
    Entry,
    Night,
    Round,
    RoundEdit,
    Seat,
    User,
    points_in_range,
    points_out_of_range,
)
from scorekeeper.ofc import FantasylandState, Game, may_stay, next_fantasyland
from scorekeeper.services.card_results import store_card_results
from scorekeeper.services.entry_keys import (
    GoneThrough,
    NotOpen,
    save_entry,
    save_key,
    slot_or_earlier_save,
)
from scorekeeper.services.errors import Refused
from scorekeeper.services.locks import as_play, money_kept, night_change, record
from scorekeeper.table.button import next_dealer
from scorekeeper.table.formatting import signed


@dataclass(frozen=True)
class EntryResult:
    entry: Entry
    round_recorded: bool
    # The night as saved: its version is the one the save made once the door closed.
    night: Night
    # A retry of a save that had gone through (its answer lost on the Wi-Fi): nothing written.
    already_saved: bool = False


def _check_fantasyland_claim(
    game: Game, seat: Seat, current: FantasylandState | None, made: str, stayed: bool
) -> None:
    if (made or stayed) and not game.fantasyland:
        raise Refused(_("This game is played without Fantasyland."))
    if current is None:
        if stayed:
            raise Refused(
                _("%(name)s did not play this hand in Fantasyland, so cannot stay.")
                % {"name": seat.name}
            )
        if made and made not in {option.id for option in game.entry_options}:
            raise Refused(_("That is not a way into Fantasyland in this game."))
    else:
        if made:
            raise Refused(
                _("%(name)s played this hand in Fantasyland: say whether they stayed.")
                % {"name": seat.name}
            )
        if stayed and not may_stay(game, current):
            raise Refused(
                _(
                    "%(name)s has had %(count)d Fantasyland hands in a row, "
                    "the most this game allows."
                )
                % {"name": seat.name, "count": current.stays + 1}
            )


def check_points(points: int) -> None:
    """Refuse a total no hand can come to."""
    if not points_in_range(points):
        raise Refused(points_out_of_range())


def _same_total(points: int) -> Callable[[Entry], bool]:
    return lambda entry: entry.points == points


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
    key: str = "",
) -> EntryResult:
    """Save one seat's total for the open round; saving the same again changes nothing.

    When every seat is in and the totals add up to zero, the round goes through.
    A total typed for a seat that set its cards keeps the cards (mixed rounds).
    `key`, made on the phone, is stored with the entry: a save sent again with the
    same key is answered "already saved" and written once.
    """
    check_points(points)
    with night_change(night, by=entered_by, may=None) as night:
        try:
            slot = slot_or_earlier_save(
                night, round_number, seat, entered_by, key, repeats=_same_total(points)
            )
        except GoneThrough as gone:
            raise NotOpen(_total_not_used(gone, seat, points, entered_by, night)) from None
        if isinstance(slot, Entry):  # an earlier try of this save went through
            return EntryResult(slot, round_recorded=False, night=night, already_saved=True)
        as_play()  # a total and the round going through; for someone else, recorded below
        round_, existing, game = slot.round, slot.existing, slot.game
        current = round_.fantasyland_seats.get(seat.pk)
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
            if key and existing.client_key != key:
                # The same value tapped again on another page: its retries must find it too.
                save_key(existing, key)
            if round_.since_undo([existing])[1]:
                # Saved again as it was in a round reopened with undo: a confirmation.
                confirm_entry(existing)
            # A double tap or a retry changes nothing, but may still complete a round that
            # was undone and is now confirmed as it was.
            recorded = through_or_money_kept(night, round_, slot.playing, game, slot.entries)
            return EntryResult(existing, round_recorded=recorded, night=night)
        entry = save_entry(
            slot,
            seat=seat,
            key=key,
            values={**values, "entered_by": entered_by, "updated_at": timezone.now()},
        )
        if seat.user_id != entered_by.pk:
            record(Change.Kind.TOTAL_FOR, name=seat.name, round=round_.number, points=points)
        if existing is not None and existing.points != points and round_.edits.exists():
            # A reopened round: its history keeps every change, not only those of the fix page.
            changes = [[seat.name, existing.points, points]]
            RoundEdit.objects.create(round=round_, edited_by=entered_by, changes=changes)
            record(Change.Kind.ROUND_FIXED, round=round_.number, changes=changes)
        entries = slot.with_saved(entry)
        recorded = through_or_money_kept(night, round_, slot.playing, game, entries)
        return EntryResult(entry, round_recorded=recorded, night=night)


def _total_not_used(
    gone: GoneThrough, seat: Seat, points: int, entered_by: User, night: Night
) -> str:
    """Why a total typed for a round that went through before it arrived was not used,
    and where the table is now."""
    values = {
        "number": gone.number,
        "points": signed(points),
        "name": seat.name,
        "open": gone.open_number,
    }
    if gone.open_number is None:
        return str(gone)
    stored = Entry.objects.filter(
        round__night=night, round__number=gone.number, seat=seat
    ).values_list("points", flat=True)
    same = list(stored) == [points]
    own = seat.user_id == entered_by.pk
    if same and own:
        text = _(
            "Round %(number)d already went through, with your %(points)s. Round %(open)d is open."
        )
    elif same:
        text = _(
            "Round %(number)d already went through, with %(points)s for %(name)s. "
            "Round %(open)d is open."
        )
    elif own:
        text = _(
            "Round %(number)d already went through: your %(points)s was not used. "
            "Round %(open)d is open."
        )
    else:
        text = _(
            "Round %(number)d already went through: %(points)s for %(name)s was not used. "
            "Round %(open)d is open."
        )
    return text % values


def confirm_entry(entry: Entry) -> None:
    """A total of a reopened round saved again as it was: the table has looked at it."""
    entry.updated_at = timezone.now()
    entry.save(update_fields=["updated_at"])


def through_or_money_kept(
    night: Night,
    round_: Round,
    playing: list[Seat],
    game: Game,
    entries_now: Iterable[Entry] | None = None,
) -> bool:
    """After a save whose only writes are to the open round's entries (a total, cards):
    the round goes through when it is complete, and the door then works out every
    seat's money; otherwise the door is told no seat's money changed, since only the
    rounds that went through count (:func:`~scorekeeper.services.locks.money_kept`)."""
    recorded = close_round_if_complete(night, round_, playing, game, entries_now)
    if not recorded:
        money_kept()
    return recorded


def close_round_if_complete(
    night: Night,
    round_: Round,
    playing: list[Seat],
    game: Game,
    entries_now: Iterable[Entry] | None = None,
) -> bool:
    """Put ``round_`` through when its totals are all in and add up to zero, and open
    the next one. ``entries_now`` are the round's entries as the caller wrote them
    under the night's lock (read here without them)."""
    if entries_now is None:
        entries_now = round_.entries.order_by()
    entries = {entry.seat_id: entry for entry in entries_now}
    if len(entries) < len(playing) or sum(e.points for e in entries.values()) != 0:
        return False
    if any(entry.awaiting_total for entry in entries.values()):
        return False  # a board whose total is not known yet (services/boards.py)
    again, _waiting = round_.since_undo(entries.values())
    if again == "waiting":
        return False  # reopened with undo: waits until changed or confirmed by all
    if again:
        record(Change.Kind.ROUND_THROUGH_AGAIN, round=round_.number, how=again)
    round_.recorded_at = timezone.now()
    round_.recorded_sum = 0
    round_.save(update_fields=["recorded_at", "recorded_sum"])
    if any(entry.board is not None for entry in entries.values()):
        store_card_results([round_.pk])

    current = round_.fantasyland_seats
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
    seats = night.playing_seats(number)
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
