"""The key a phone makes for each intended save (``Entry.client_key``): a save sent
again (kept offline, retried, tapped twice) is written once, never lands anywhere
else, and never writes an older value over a newer one."""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext, gettext_lazy

from scorekeeper.models import Entry, Night, Round, Seat, User
from scorekeeper.services.errors import Refused

# The longest key a phone makes for one save (see Entry.client_key).
MAX_KEY_LENGTH = 64
KEY_USED = gettext_lazy(
    "This save was already used for another seat or round; nothing was changed."
)


def replayed_entry(
    *, night: Night, round_number: int, seat: Seat, key: str, entered_by: User
) -> Entry | None:
    """The entry an earlier try with this phone's `key` saved, or None when the key is new.

    Call with the night locked, so two phones sending one key are answered in turn.
    A key is one intended save: sent for another seat or round it is refused, and a
    replay is only answered "saved" to someone who may enter for the seat.
    """
    if len(key) > MAX_KEY_LENGTH:
        raise Refused(gettext("This save cannot be read. Reload the page and save again."))
    entry = Entry.objects.filter(client_key=key).select_related("round").first()
    if entry is None:
        _check_not_overtaken(night, round_number, seat, key)
        return None
    if entry.seat_id != seat.pk or entry.round.number != round_number:
        raise Refused(KEY_USED)
    check_may_retry(night, round_number, seat, entered_by, entry)
    return entry


def _check_not_overtaken(night: Night, round_number: int, seat: Seat, key: str) -> None:
    """A save sent again after the seat's entry was saved anew (on another phone, or
    on this one from another page) is refused: its value is older than the entry's."""
    entry = (
        Entry.objects.filter(round__night=night, round__number=round_number, seat=seat)
        .select_related("entered_by")
        .first()
    )
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


def check_may_retry(
    night: Night, round_number: int, seat: Seat, entered_by: User, entry: Entry
) -> None:
    """A retry is answered "saved" only to someone who may enter this seat's total."""
    refusal = seat.entry_refusal(entered_by, night.playing_seats(round_number), entry)
    if refusal:
        raise Refused(refusal)


def save_entry(*, round_: Round, seat: Seat, key: str, values: dict) -> Entry:
    """Write the seat's entry with the phone's key; a key another night's entry holds
    (the only write the night's lock cannot order) is refused in words."""
    earlier = Entry.objects.filter(round=round_, seat=seat).first()
    earlier_keys = earlier.with_key(key) if earlier is not None else []
    try:
        with transaction.atomic():
            entry, _created = Entry.objects.update_or_create(
                round=round_,
                seat=seat,
                defaults={**values, "client_key": key, "earlier_keys": earlier_keys},
            )
    except IntegrityError:
        if key and Entry.objects.filter(client_key=key).exists():
            raise Refused(KEY_USED) from None
        raise
    return entry


def save_key(entry: Entry, key: str) -> None:
    try:
        with transaction.atomic():
            entry.earlier_keys = entry.with_key(key)
            entry.client_key = key
            entry.save(update_fields=["client_key", "earlier_keys"])
    except IntegrityError:
        raise Refused(KEY_USED) from None
