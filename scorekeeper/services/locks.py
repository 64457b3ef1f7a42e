"""The locks every write takes, and the doors every change goes through.

One lock order everywhere: the group's row, then its nights' rows by id. Each change
to a night happens inside :func:`night_change`, which locks the night's group and then
the night (SQLite: the transaction is ``BEGIN IMMEDIATE``; PostgreSQL:
``SELECT ... FOR UPDATE``), so phones that save at the same instant queue behind each
other: each entry counts once and a round goes through once. Money that spans nights
(a payment across nights, taking one back, settle-everything) changes through
:func:`nights_change`, which locks the group and then each night it touched, in id
order. Because both doors take the group first, a fix and a payment across nights of
the same group never run side by side: whichever commits second sees the first. On the
way out each door stores the money of the nights it changed again
(:mod:`scorekeeper.services.money`) and bumps their versions, which the phones' polls
compare. Writes that change who belongs where (starting a night, joining or leaving a
group, its house rules and currency) go through :func:`group_change`, which locks the
group the same way; a rebuild of the stored figures (``manage.py rebuild``) through
:func:`figures_change`, which locks every group it touches and then their nights.

Every door keeps the record of changes (:class:`~scorekeeper.models.Change`): inside
it the service says what it changed with :func:`record` (a kind and its values, names
and numbers, never words), and the door writes those entries on the way out, in the
same transaction, only when the block wrote a row and ended without an exception. A
block that wrote rows and recorded nothing is refused with :class:`Unrecorded` (a
programming error, raised in the tests), unless it said with :func:`as_play` that its
writes are the game being played (a player's own total, a round going through), which
the record leaves out. A refused change writes no entry.
"""

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db import connection
from django.db.models import F, QuerySet
from django.db.transaction import TransactionManagementError
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.models import Change, Group, Night, User
from scorekeeper.services import push
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
    """Hold the group's row until the transaction ends: the first lock of every write
    to the group or its nights, so they queue in one order."""
    Group.objects.select_for_update().filter(pk=group_id).values_list("pk").first()


def _lock_nights(night_ids: Iterable[int]) -> list[int]:
    """Hold the nights' rows, in id order (the lock order), until the transaction ends."""
    nights = Night.objects.select_for_update().filter(pk__in=set(night_ids)).order_by("pk")
    return list(nights.values_list("pk", flat=True))


class _Writes:
    """Watches the statements of a block for any that change a row."""

    def __init__(self) -> None:
        self.seen = False

    def __call__(self, execute: Callable, sql: str, params: Any, many: bool, context: Any) -> Any:
        # A row written to any table counts: which of them a page shows is not for the
        # door to keep a list of (a list is what a forgotten bump came from). An update
        # or delete that found no row changed nothing (an insert's count is not known
        # before its RETURNING rows are read: it wrote one).
        result = execute(sql, params, many, context)
        verb = sql.lstrip()[:6].upper()
        if not self.seen and verb == "INSERT":
            self.seen = True
        elif not self.seen and verb in {"UPDATE", "DELETE"}:
            self.seen = getattr(context["cursor"], "rowcount", -1) != 0
        return result


class Unrecorded(Exception):
    """A change wrote rows and said nothing to the record of changes: a programming
    error (a service that forgot :func:`record`), never shown to a person."""


class Recorder:
    """What the block inside a door declares for the record: each :func:`record`
    call, or that its writes are the game being played (:func:`as_play`)."""

    def __init__(self, group_ids: list[int], night_id: int | None, by: User | None) -> None:
        self.group_ids, self.night_id, self.by = group_ids, night_id, by
        self.entries: list[tuple[str, dict[str, Any], int | None]] = []
        self.play = False
        self.money_kept = False

    def write(self, writes: _Writes, door: str) -> None:
        """On the way out of ``door``: the entries, when the block wrote a row; refused
        when it wrote and recorded nothing."""
        if not writes.seen:
            return  # read only, or a save sent again: nothing changed
        if not self.entries and not self.play:
            raise Unrecorded(
                f"A change through {door} wrote rows but recorded nothing: call record() "
                "with what changed (or as_play() for the game's own play)."
            )
        Change.objects.bulk_create(
            Change(
                group_id=group_id,
                night_id=None if kind in _OUTLIVE_THE_NIGHT else night_id or self.night_id,
                by=self.by,
                kind=kind,
                values=values,
            )
            for group_id in self.group_ids
            for kind, values, night_id in self.entries
        )


# The entries kept when their night is gone: a night called off is deleted with it.
_OUTLIVE_THE_NIGHT = {Change.Kind.NIGHT_CALLED_OFF}

_recorder: ContextVar[Recorder | None] = ContextVar("change_recorder", default=None)


def record(kind: Change.Kind, *, of_night: Night | None = None, **values: Any) -> None:
    """Put a change on the record: its kind and its values (names, numbers, codes,
    lists and dicts of those; never words, which the reader's language gives where it
    is shown, :mod:`scorekeeper.reads.changes`). Called inside a door, which writes it
    on the way out, with who and when, if the change went through; on the door's night,
    or ``of_night`` (a night the change made)."""
    recorder = _recorder.get()
    if recorder is None:
        raise Unrecorded("record() is called inside a door (night_change, nights_change...).")
    recorder.entries.append((str(kind), values, of_night.pk if of_night else None))


def as_play() -> None:
    """The block's writes are the game being played (a player's own total or board,
    a round going through), not a change the record keeps."""
    recorder = _recorder.get()
    if recorder is None:
        raise Unrecorded("as_play() is called inside a door.")
    recorder.play = True


def money_kept() -> None:
    """The block's writes change no seat's money: a total or cards for a round that has
    not gone through (only recorded rounds count). The door then leaves each seat's
    stored figures as they are, which working them out again would find unchanged."""
    recorder = _recorder.get()
    if recorder is None:
        raise Unrecorded("money_kept() is called inside a door.")
    recorder.money_kept = True


def started_on(night: Night) -> str:
    """The day a night started, as the record keeps it (ISO, the site's time zone)."""
    return timezone.localdate(night.started_at).isoformat()


@contextmanager
def _recording(
    group_ids: list[int], night_id: int | None, by: User | None, door: str
) -> Iterator[tuple[_Writes, Recorder]]:
    """Watch the block's writes (yielded: whether it wrote, and what it declared) and
    collect its :func:`record` calls; on a clean way out, write the entries (or refuse
    a change that recorded nothing)."""
    recorder = Recorder(group_ids, night_id, by)
    writes = _Writes()
    token = _recorder.set(recorder)
    try:
        with connection.execute_wrapper(writes):
            yield writes, recorder
    finally:
        _recorder.reset(token)
    recorder.write(writes, door)


@contextmanager
def night_change(night: Night, *, by: User, may: Rule | None) -> Iterator[Night]:
    """The one door for a change to ``night``: yields the night read again with its row
    locked until the transaction ends, once ``may`` lets ``by`` make the change
    (:class:`Refused` in words otherwise).

    On the way out each seat's stored money is worked out again (unless the block said
    with :func:`money_kept` that it changed none) and the night's version goes up by
    one, so every phone's next poll gets the page again, when the block wrote anything
    to the database, and only if it ended without an exception: a refusal raised
    inside bumps nothing, and the
    transaction it leaves takes back what the block wrote. Nobody has to remember the
    bump: a block that only read, or answered a save sent again "already saved",
    leaves the version as it was.

    ``may=None`` is for entries, whose rule (:meth:`Seat.entry_refusal`) is about the
    seat and the round: :func:`~scorekeeper.services.entry_keys.slot_or_earlier_save`
    checks it inside, before anything is written. Call inside ``transaction.atomic``.
    """
    if not connection.in_atomic_block:
        raise TransactionManagementError("A night is changed inside transaction.atomic.")
    lock_group(night.group_id)  # the lock order: the group first, then its night
    locked = Night.objects.select_for_update().filter(pk=night.pk).first()
    if locked is None:  # called off (services/call_off.py) since the page was loaded
        raise Refused(_("This night was called off, so nothing was saved."))
    refusal = may(locked, by) if may is not None else ""
    if refusal:
        raise Refused(refusal)
    with _recording([locked.group_id], locked.pk, by, "night_change") as (writes, said):
        yield locked
    if writes.seen:
        if not said.money_kept:
            store_money([locked.pk])
        Night.objects.filter(pk=locked.pk).update(version=F("version") + 1)
        locked.version += 1  # the row is locked: this is the stored value
        push.after_commit(night_ids=[locked.pk], group_ids=[locked.group_id])


# Who may change a group's money: the refusal in words for ``user``, or "".
GroupRule = Callable[[Group, User], str]


def member_of(group: Group, user: User) -> str:
    """Payments across nights and how the group settles: any member of the group now."""
    if group.has_member(user):
        return ""
    return _("%(name)s is not in this group.") % {"name": user.name}


class NightsTouched:
    """What a change across nights tells its door: the nights whose money it changed
    (stored again and bumped on the way out) and the nights whose pages show it
    without their money changing (bumped only)."""

    def __init__(self) -> None:
        self.money: set[int] = set()
        self.shown: set[int] = set()

    def changed_money(self, night_ids: Iterable[int]) -> None:
        self.money.update(night_ids)

    def changed_pages(self, night_ids: Iterable[int]) -> None:
        self.shown.update(night_ids)


@contextmanager
def nights_change(group: Group, *, by: User, may: GroupRule) -> Iterator[NightsTouched]:
    """The door for a change to money that spans nights: the group's row locked until
    the transaction ends, once ``may`` lets ``by`` make the change (:class:`Refused`
    otherwise). The block tells which nights it changed (``touched.add``); on the way
    out, only if the block ended without an exception, those nights are locked in id
    order, the money of those whose money changed is stored again and each one's version
    goes up by one, so every phone showing one of their settlements gets it again. Call inside
    ``transaction.atomic``.
    """
    if not connection.in_atomic_block:
        raise TransactionManagementError("A group's money is changed inside transaction.atomic.")
    locked = Group.objects.select_for_update().get(pk=group.pk)
    refusal = may(locked, by)
    if refusal:
        raise Refused(refusal)
    touched = NightsTouched()
    with _recording([locked.pk], None, by, "nights_change"):
        yield touched
    night_ids = _lock_nights(touched.money | touched.shown)
    if night_ids:
        store_money(touched.money)
        _shown_again(night_ids, [locked.pk])


def _shown_again(night_ids: Iterable[int], group_ids: Iterable[int]) -> None:
    """The locked nights ``night_ids`` (of the groups ``group_ids``) changed: each one's
    version goes up by one and, after commit, their phones are told. Their settlements
    hear it on their group's channel: one message a group, however many nights; only a
    running night's own pages listen on its channel (services/push.py)."""
    Night.objects.filter(pk__in=night_ids).update(version=F("version") + 1)
    running = Night.objects.filter(pk__in=night_ids, ended_at__isnull=True)
    push.after_commit(night_ids=running.values_list("pk", flat=True), group_ids=group_ids)


@contextmanager
def figures_change(nights: QuerySet[Night]) -> Iterator[tuple[list[int], NightsTouched]]:
    """The door of a rebuild of the stored figures (services/rebuild.py), which the
    server's owner runs: the groups of ``nights`` locked, then the nights, in the lock
    order, so a save or a payment at the same moment waits instead of being written over.
    Yields the locked nights' ids and what the block tells of them: on the way out, only
    if the block ended without an exception, the nights whose pages it changed
    (``touched.changed_pages``) go up a version and their phones are told, as after
    any other door. Call inside ``transaction.atomic``.

    Nothing goes on the record: a rebuild stores again what the rounds, entries and
    payments already say, and each of those is on the record as it was made. A figure
    it finds different is one the app failed to keep (a backup of a version that stored
    fewer, a fixed mistake), nothing a member did or could undo; a line saying so on
    each night would read as if the money had changed hands. The server's owner sees
    what was different in the command's own output."""
    if not connection.in_atomic_block:
        raise TransactionManagementError("Stored figures are rebuilt inside transaction.atomic.")
    group_ids = set(nights.values_list("group_id", flat=True))
    list(Group.objects.select_for_update().filter(pk__in=group_ids).order_by("pk").values("pk"))
    locked = list(nights.select_for_update().order_by("pk").values_list("pk", flat=True))
    touched = NightsTouched()
    yield locked, touched
    changed = sorted(touched.shown)
    if changed:
        groups = Night.objects.filter(pk__in=changed).values_list("group_id", flat=True)
        _shown_again(changed, groups)


@contextmanager
def group_change(group: Group, *, by: User | None) -> Iterator[Group]:
    """The door for a change to who belongs to ``group`` and how it plays and pays
    (starting a night, joining, leaving, its house rules and currency): the group's
    row locked until the transaction ends (the first lock, as everywhere), the change
    recorded as made by ``by``. Who may is the service's to check inside. Call inside
    ``transaction.atomic``."""
    if not connection.in_atomic_block:
        raise TransactionManagementError("A group is changed inside transaction.atomic.")
    lock_group(group.pk)
    with _recording([group.pk], None, by, "group_change") as (writes, _said):
        yield group
    if writes.seen:
        # A night started or called off, someone joined or left: the group's page shows it.
        push.after_commit(group_ids=[group.pk])


_THEMSELF: Any = object()


@contextmanager
def member_change(user: User, *, by: User | None = _THEMSELF) -> Iterator[None]:
    """The door for a change to ``user``'s own account that their groups see (how they
    like to be paid, who signed them in where, their password, their phones): recorded
    on each group they are in now, as made by ``by`` (``user`` themself unless said;
    None: the server's owner). It locks no group: the change is to ``user``'s own rows.
    Call inside ``transaction.atomic``."""
    if not connection.in_atomic_block:
        raise TransactionManagementError("A member's details change inside transaction.atomic.")
    group_ids = list(
        user.memberships.current().order_by("group_id").values_list("group_id", flat=True)
    )
    with _recording(group_ids, None, user if by is _THEMSELF else by, "member_change"):
        yield
