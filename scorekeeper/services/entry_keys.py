"""Where a seat's save goes, and the key a phone makes for each intended save
(``Entry.client_key``): a save sent again (kept offline, retried, tapped twice) is
written once, never lands anywhere else, and never writes an older value over a
newer one. Totals (:mod:`.rounds`) and boards (:mod:`.boards`) both go through
:func:`slot_or_earlier_save`."""

import copy
from collections.abc import Callable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import prefetch_related_objects
from django.utils.translation import gettext, gettext_lazy

from scorekeeper.models import Entry, Night, Round, Seat, User
from scorekeeper.ofc import Game
from scorekeeper.services.errors import Refused

# The longest key a phone makes for one save (see Entry.client_key).
MAX_KEY_LENGTH = 64
KEY_USED = gettext_lazy(
    "This save was already used for another seat or round; nothing was changed."
)


class NotOpen(Refused):
    """A save for a round that is not the open one: typed for a round that went through
    or was taken back before it arrived. It lands nowhere, never in the open round."""


class GoneThrough(NotOpen):
    """A save for a round that went through before it arrived: it lands nowhere. The
    services say what was not used (a total, the cards) where they know it."""

    def __init__(self, number: int, open_number: int | None) -> None:
        self.number, self.open_number = number, open_number
        super().__init__(
            gettext(
                "Round %(number)d has already gone through. Check the standings; "
                "fix a round from its history if needed."
            )
            % {"number": number}
        )


@dataclass(frozen=True)
class EntrySlot:
    """Where one seat's entry for the open round goes, the night locked."""

    round: Round
    playing: list[Seat]
    game: Game
    existing: Entry | None
    entries: list[Entry]  # the round's entries, ``existing`` among them

    def with_saved(self, entry: Entry) -> list[Entry]:
        """The round's entries once ``entry`` is saved in this slot."""
        return [*(other for other in self.entries if other.seat_id != entry.seat_id), entry]


def slot_or_earlier_save(
    night: Night,
    round_number: int,
    seat: Seat,
    entered_by: User,
    key: str,
    *,
    repeats: Callable[[Entry], bool],
) -> EntrySlot | Entry:
    """Where this save goes, or the entry an earlier try of the same save wrote.

    An earlier try is known by the phone's ``key``, or, from a page that sends no key,
    for a round that has gone through since, by an entry of that round for which
    ``repeats`` is true (the same total, the same cards): a try whose answer was lost on
    the Wi-Fi. Either is only answered to someone who may enter for the seat. A keyed
    save that is new to the server and names a round that went through lands nowhere
    (:class:`GoneThrough`): it was typed for that round, and the next one is not its
    own. Call with the night locked (:func:`~scorekeeper.services.locks.night_change`);
    raises :class:`Refused` in words for the table.
    """
    # The seats once, for the slot, the retries' checks and the next round.
    prefetch_related_objects([night], "seats")
    if key:
        replayed = _replayed_entry(key=key, round_number=round_number, seat=seat)
        if replayed is not None:
            _check_may_retry(night, round_number, seat, entered_by, replayed)
            return replayed
    try:
        slot = _entry_slot(night=night, round_number=round_number, seat=seat, entered_by=entered_by)
    except Refused:
        if key:
            _check_not_overtaken(night, round_number, seat, key, None)
        earlier = _recorded_entry(night, round_number, seat)
        if earlier is not None:
            # Only someone who may enter for the seat learns what became of the round.
            _check_may_retry(night, round_number, seat, entered_by, earlier)
        if key or earlier is None or not repeats(earlier):
            raise
        _check_may_retry(night, round_number, seat, entered_by, earlier)
        return earlier
    if key:
        # The open round's entry of the seat is the one a save sent again would overtake.
        _check_not_overtaken(night, round_number, seat, key, slot)
    return slot


def _entry_slot(*, night: Night, round_number: int, seat: Seat, entered_by: User) -> EntrySlot:
    """Check that ``entered_by`` may enter for ``seat`` in round ``round_number``, the
    open round of ``night``, locked by the caller. Raises :class:`Refused` in words."""
    if night.is_over:
        raise Refused(gettext("This night is over; no more rounds."))
    round_ = night.open_round()
    if round_ is None or round_.number != round_number:
        if night.rounds.filter(number=round_number, recorded_at__isnull=False).exists():
            raise GoneThrough(round_number, round_.number if round_ else None)
        raise NotOpen(
            gettext(
                "Round %(number)d is not open any more: the table is on round "
                "%(now)s now. Check your total there."
            )
            % {"number": round_number, "now": round_.number if round_ else "?"}
        )
    playing = night.playing_seats(round_.number)
    if seat.night_id != night.pk or seat not in playing:
        raise Refused(gettext("%(name)s is not playing this round.") % {"name": seat.name})
    entries = list(round_.entries.order_by())
    existing = next((entry for entry in entries if entry.seat_id == seat.pk), None)
    refusal = seat.entry_refusal(entered_by, playing, existing)
    if refusal:
        raise Refused(refusal)
    return EntrySlot(round_, playing, night.game_rules, existing, entries)


def _recorded_entry(night: Night, number: int, seat: Seat) -> Entry | None:
    """The seat's entry in round `number` if that round went through: what a retry whose
    first try succeeded (the answer lost on the Wi-Fi) is compared with."""
    return Entry.objects.filter(
        round__night=night, round__number=number, round__recorded_at__isnull=False, seat=seat
    ).first()


def _replayed_entry(*, key: str, round_number: int, seat: Seat) -> Entry | None:
    """The entry an earlier try with this phone's `key` saved, or None when the key is new.

    Call with the night locked, so two phones sending one key are answered in turn.
    A key is one intended save: sent for another seat or round it is refused (and a
    replay is only answered "saved" to someone who may enter for the seat: the caller
    checks).
    """
    if len(key) > MAX_KEY_LENGTH:
        raise Refused(gettext("This save cannot be read. Reload the page and save again."))
    entry = Entry.objects.filter(client_key=key).select_related("round").first()
    if entry is not None and (entry.seat_id != seat.pk or entry.round.number != round_number):
        raise Refused(KEY_USED)
    return entry


def _check_not_overtaken(
    night: Night, round_number: int, seat: Seat, key: str, slot: EntrySlot | None
) -> None:
    """A save with a new ``key`` sent again after the seat's entry was saved anew (on
    another phone, or on this one from another page) is refused: its value is older
    than the entry's. The entry is the ``slot``'s when the round is open, else read."""
    if slot is not None:
        entry = slot.existing
    else:
        entry = Entry.objects.filter(
            round__night=night, round__number=round_number, seat=seat
        ).first()
    if entry is None or key not in entry.earlier_keys:
        return
    by = entry.entered_by.name if entry.entered_by else seat.name
    raise Refused(
        gettext(
            "%(name)s's entry for round %(number)s was saved again since, by %(by)s: "
            "this older save was not applied."
        )
        % {"name": seat.name, "number": round_number, "by": by}
    )


def _check_may_retry(
    night: Night, round_number: int, seat: Seat, entered_by: User, entry: Entry
) -> None:
    """A retry is answered "saved" only to someone who may enter this seat's total."""
    refusal = seat.entry_refusal(entered_by, night.playing_seats(round_number), entry)
    if refusal:
        raise Refused(refusal)


def save_entry(slot: EntrySlot, *, seat: Seat, key: str, values: dict) -> Entry:
    """Write the seat's entry in ``slot`` with the phone's key; a key another night's
    entry holds (the only write the night's lock cannot order) is refused in words.
    The slot's entry was read under the night's lock, so it is written as read: one
    statement, an update or an insert. Only a keyed save needs a savepoint, to ask
    after the key if the insert fails."""
    earlier = slot.existing
    fields = {**values, "client_key": key}
    if earlier is not None:
        fields["earlier_keys"] = earlier.with_key(key)
        entry = copy.copy(earlier)  # the slot's stays as it was read, for the caller
        for name, value in fields.items():
            setattr(entry, name, value)
    else:
        entry = Entry(round=slot.round, seat=seat, earlier_keys=[], **fields)
    try:
        with transaction.atomic(savepoint=bool(key)):
            if earlier is not None:
                entry.save(update_fields=list(fields))
            else:
                entry.save(force_insert=True)
    except IntegrityError:
        if key and Entry.objects.filter(client_key=key).exists():
            raise Refused(KEY_USED) from None
        raise
    return entry


def save_key(entry: Entry, key: str) -> None:
    """``key`` on an entry saved as it was (the same value from another page), so that
    this save's retries find it too."""
    try:
        with transaction.atomic():
            entry.earlier_keys = entry.with_key(key)
            entry.client_key = key
            entry.save(update_fields=["client_key", "earlier_keys"])
    except IntegrityError:
        raise Refused(KEY_USED) from None
