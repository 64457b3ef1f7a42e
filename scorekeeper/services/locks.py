"""The locks every write takes, and the one door every change to a night goes through.

Each change to a night happens inside :func:`night_change`, which locks the night's
row first (SQLite: the transaction is ``BEGIN IMMEDIATE``; PostgreSQL:
``SELECT ... FOR UPDATE``), so phones that save at the same instant queue behind each
other: each entry counts once and a round goes through once. On the way out it stores
each seat's money again (:mod:`scorekeeper.services.money`) and bumps the night's
version, which the phones' polls compare. Writes that change who belongs
where (starting a night, leaving a group, seating a member) lock the group the same way.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection
from django.db.models import F
from django.db.transaction import TransactionManagementError
from django.utils.translation import gettext as _

from scorekeeper.models import Group, Night, User
from scorekeeper.services.errors import Refused
from scorekeeper.services.money import store_money

# Who may make a change: the refusal in words for ``user`` at the locked night, or "".
Rule = Callable[[Night, User], str]


def at_table(night: Night, user: User) -> str:
    """Rounds, seats, the night's rules, its end, its screen link: :meth:`Night.is_at_table`."""
    if night.is_at_table(user):
        return ""
    return _("Only the players at this table can change the night.")


def in_group(night: Night, user: User) -> str:
    """Payments: any member of the night's group now (:meth:`Night.has_member`)."""
    if night.has_member(user):
        return ""
    return _("%(name)s is not in this group.") % {"name": user.name}


def lock_group(group_id: int) -> None:
    """Hold the group's row until the transaction ends: one membership change at a time."""
    Group.objects.select_for_update().filter(pk=group_id).first()


class _Writes:
    """Watches the statements of a block for any that change a row."""

    def __init__(self) -> None:
        self.seen = False

    def __call__(self, execute: Callable, sql: str, params: Any, many: bool, context: Any) -> Any:
        # A row written to any table counts: which of them a page shows is not for the
        # door to keep a list of (a list is what a forgotten bump came from).
        if not self.seen and sql.lstrip()[:6].upper() in {"INSERT", "UPDATE", "DELETE"}:
            self.seen = True
        return execute(sql, params, many, context)


@contextmanager
def night_change(night: Night, *, by: User, may: Rule | None) -> Iterator[Night]:
    """The one door for a change to ``night``: yields the night read again with its row
    locked until the transaction ends, once ``may`` lets ``by`` make the change
    (:class:`Refused` in words otherwise).

    On the way out each seat's stored money is worked out again and the night's version
    goes up by one, so every phone's next poll gets the page again, when the block
    wrote anything to the database, and only if it
    ended without an exception: a refusal raised inside bumps nothing, and the
    transaction it leaves takes back what the block wrote. Nobody has to remember the
    bump: a block that only read, or answered a save sent again "already saved",
    leaves the version as it was.

    ``may=None`` is for entries, whose rule (:meth:`Seat.entry_refusal`) is about the
    seat and the round: :func:`~scorekeeper.services.entry_keys.slot_or_earlier_save`
    checks it inside, before anything is written. Call inside ``transaction.atomic``.
    """
    if not connection.in_atomic_block:
        raise TransactionManagementError("A night is changed inside transaction.atomic.")
    locked = Night.objects.select_for_update().get(pk=night.pk)
    refusal = may(locked, by) if may is not None else ""
    if refusal:
        raise Refused(refusal)
    writes = _Writes()
    with connection.execute_wrapper(writes):
        yield locked
    if writes.seen:
        store_money([locked.pk])
        Night.objects.filter(pk=locked.pk).update(version=F("version") + 1)
        locked.version += 1  # the row is locked: this is the stored value
