"""What a phone's poll compares with the version it shows, one query each.

Every phone at every table asks every 2 s whether anything changed, and almost always
nothing did. The answer goes through Django's request, session and auth machinery as
any page does; what it reads is only the version, through the same membership rule
as the pages (``for_member``), so a stranger and a member who left find nothing and
get the pages' 404.
"""

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet

from scorekeeper.models import Group, Night, User

Person = User | AnonymousUser


@dataclass(frozen=True)
class Current:
    """What the phone's page should show: its ``version``, and whether there is
    nothing more to wait for (``is_over``: the phone may stop asking)."""

    version: str
    is_over: bool = False


def _night(nights: "QuerySet[Night]") -> Current | None:
    # At most one row (one night by its key): read as it is, without first()'s ordering
    # and limit, which cost a poll 40 % more of Python's time than the query itself.
    for version, ended_at in nights.order_by().values_list("version", "ended_at"):
        return Current(str(version), is_over=ended_at is not None)
    return None


def night_now(user: Person, *, night_id: int, **_: object) -> Current | None:
    """A member's night: its version, over once the night ended."""
    return _night(Night.objects.for_member(user).filter(pk=night_id))


def settlement_now(user: Person, *, night_id: int, **_: object) -> Current | None:
    """A member's night for its settlement's poll: its version, never over (payments
    are marked after the night ends)."""
    now = night_now(user, night_id=night_id)
    return Current(now.version) if now is not None else None


def shared_night_now(user: Person, *, token: str) -> Current | None:
    """The night a big screen's shared link shows, to anyone holding the link."""
    return _night(Night.objects.shared(token))


def group_now(user: Person, *, group_id: int) -> Current | None:
    """The fingerprint of a member's group's nights (see :func:`nights_version`)."""
    version = Group.objects.for_member(user).filter(pk=group_id).nights_version()
    return Current(version) if version is not None else None
