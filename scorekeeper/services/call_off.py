"""Calling off a night started by mistake: gone, as if it never started."""

from django.db import transaction
from django.utils.translation import gettext as _

from scorekeeper.models import Change, Night, User
from scorekeeper.services.errors import Refused
from scorekeeper.services.locks import at_table, night_change, record, started_on


@transaction.atomic
def call_off_night(*, night: Night, by: User) -> None:
    """Delete ``night``, started by mistake, with everything a night has before its
    first round goes through: its seats, its open round and any totals typed into it,
    and its seat draw. Only someone at the table may (the door's rule), and only while
    no round was recorded; after that the night is history: it is ended, not called
    off. Refused in words, with nothing changed."""
    with night_change(night, by=by, may=at_table) as locked:
        if locked.rounds.filter(recorded_at__isnull=False).exists():
            raise Refused(_("This night has rounds recorded: end it instead."))
        # A round's dealer protects its seat, so the rounds (and their entries) go first.
        locked.rounds.all().delete()
        record(Change.Kind.NIGHT_CALLED_OFF, date=started_on(locked))  # kept on the group
        locked.delete()
