"""The locks every write takes, and the version bump that tells the phones.

Each write to a night locks the night's row first (SQLite: the transaction is
``BEGIN IMMEDIATE``; PostgreSQL: ``SELECT ... FOR UPDATE``), so phones that save
at the same instant queue behind each other: each entry counts once and a
round goes through once. Writes that change who belongs where (starting a
night, leaving a group, seating a member) lock the group the same way.
"""

from django.db.models import F
from django.utils.translation import gettext as _

from scorekeeper.models import Group, Night, User
from scorekeeper.services.errors import Refused


def lock_group(group_id: int) -> None:
    """Hold the group's row until the transaction ends: one membership change at a time."""
    Group.objects.select_for_update().filter(pk=group_id).first()


def lock_night(night: Night) -> Night:
    """The night read again with its row locked until the transaction ends."""
    return Night.objects.select_for_update().get(pk=night.pk)


def lock_for_table_change(night: Night, by: User) -> Night:
    """Lock the night for a change to the table itself (rounds, seats, its end), which
    only someone at the table, or whoever started the night, may make."""
    night = lock_night(night)
    if not night.is_at_table(by):
        raise Refused(_("Only the players at this table can change the night."))
    return night


def bump_version(night: Night) -> None:
    """Something changed: the phones' next poll gets the page again."""
    Night.objects.filter(pk=night.pk).update(version=F("version") + 1)
