"""What the phones' polls compare, one SQL statement each.

Every phone at every table asks every 2 s whether anything changed, and almost
always nothing did: this is the app's hottest path. Each read checks, in one
statement written out (no query is built per poll), that the session is still there
and not expired, the membership (the same rule as ``for_member``: in the group now),
and fetches what the login check needs.

On PostgreSQL the statement is prepared once per connection: planning its joins cost
five times what running it does (0.62 ms against 0.12 ms of the database's time).
Django leaves psycopg's prepared statements off for the sake of connection poolers
that hand a connection to another client between statements; psycopg's own pool,
and PgBouncer from 1.21 with ``max_prepared_statements``, keep them right.
``DATABASE_PREPARED=0`` turns it off for an older pooler (ofcboard/settings.py).
"""

from dataclasses import dataclass
from functools import cache

from django.contrib.sessions.models import Session
from django.db import connection
from django.db.backends.utils import CursorWrapper
from django.utils import timezone

from scorekeeper.models import Membership, Night, User
from scorekeeper.models.groups import nights_version


@dataclass(frozen=True)
class Polled:
    """What a member's phone compares its page with, and their login's state."""

    version: str
    is_over: bool
    password: str  # the user's password hash: what their session's hash is made from
    is_active: bool


@cache
def _statement(sql: str, vendor: str) -> str:
    """``sql`` with the tables' names quoted as ``vendor``'s database wants them: made
    once, not on every poll."""
    quote = connection.ops.quote_name
    return sql.format(
        night=quote(Night._meta.db_table),
        membership=quote(Membership._meta.db_table),
        user=quote(User._meta.db_table),
        session=quote(Session._meta.db_table),
    )


_NIGHT = (
    "SELECT n.version, n.ended_at IS NOT NULL, u.password, u.is_active"
    " FROM {night} n"
    " JOIN {membership} m ON m.group_id = n.group_id AND m.left_at IS NULL"
    " JOIN {user} u ON u.id = m.user_id"
    " JOIN {session} s ON s.session_key = %s AND s.expire_date > %s"
    " WHERE n.id = %s AND m.user_id = %s"
)

_GROUP = (
    "SELECT COUNT(n.id), COALESCE(SUM(n.version), 0), u.password, u.is_active"
    " FROM {membership} m"
    " JOIN {user} u ON u.id = m.user_id"
    " JOIN {session} s ON s.session_key = %s AND s.expire_date > %s"
    " LEFT JOIN {night} n ON n.group_id = m.group_id"
    " WHERE m.group_id = %s AND m.user_id = %s AND m.left_at IS NULL"
    " GROUP BY u.password, u.is_active"
)


def _cursor() -> CursorWrapper:
    """Django's cursor, or on PostgreSQL one that binds on the server, which psycopg
    prepares from its fifth run on a connection (``prepare_threshold`` in settings);
    either way Django counts and logs the statement like any other."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    import psycopg

    # As connection.cursor() starts: the health check when it is on, then a connection.
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    raw = psycopg.Cursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(raw)
    return connection.make_cursor(raw)


def _fetch(sql: str, object_id: int, user_id: int, session_key: str) -> tuple | None:
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with _cursor() as cursor:
        statement = _statement(sql, connection.vendor)
        cursor.execute(statement, [session_key, now, object_id, user_id])
        return cursor.fetchone()


def night_poll(night_id: int, user_id: int, session_key: str) -> Polled | None:
    """The night's version and end, or None unless ``user_id`` is in its group now
    and their session ``session_key`` is still there."""
    row = _fetch(_NIGHT, night_id, user_id, session_key)
    if row is None:
        return None
    version, is_over, password, is_active = row
    return Polled(str(version), bool(is_over), password, bool(is_active))


def group_poll(group_id: int, user_id: int, session_key: str) -> Polled | None:
    """The fingerprint of the group's nights (see :func:`nights_version`), or None
    unless ``user_id`` is in the group now and their session is still there."""
    row = _fetch(_GROUP, group_id, user_id, session_key)
    if row is None:
        return None
    count, versions, password, is_active = row
    return Polled(nights_version(count, versions), False, password, bool(is_active))
