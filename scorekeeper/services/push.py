"""Changes pushed to the phones, through the front that holds their streams.

Each live page opens one stream (Server-Sent Events) on its night's or its group's
channel, at the address scorekeeper/site/front_pass.stream_url signed for it when the
page was drawn: "/streams/night-12?expires=T&pass=SIG". The page's own view has already checked
who may see it, so the pass says only "this page may listen to this channel until T".
nginx checks the pass itself and its Nchan module holds the stream (ofcboard/front.py):
opening a stream never reaches the app, so a waiting phone costs it no thread and no
database connection, and 10,000 phones coming back after a restart cost it nothing.
This signed address is the one door to a stream; there is no stream view in the app.
When a door's transaction commits, :func:`after_commit` publishes each changed
channel's new version once ("version 58") to the front, which sends it down every
stream on the channel; the page then asks for its fragment as it always did, through
its own view and its access rule. The versions are read on the request's thread, just
after the commit; the posts go out from a thread of their own
(:mod:`scorekeeper.services.publisher`), so a front that hangs costs a save nothing.

Taken back: a member removed, a big screen's link taken back, keeps a stream already
named until its T (two hours at most, scorekeeper/site/front_pass.py), and hears on it
only "version N", never what changed: every fetch of the page or its parts is refused
at once, as before. The pass is signed with a secret drawn from SECRET_KEY, so a
page's stream outlives a restart of the server.

A night's own pages (the night, its cards) listen on the night's channel, which is
for its group's members: the message for a running night carries the night page's
live part too, as each member's phone would fetch it (views/pushed_parts.py, through
:data:`night_told`), so the phones at the table show a change without asking for it.
Its big screen, a member's or one shared by link, listens on the night's screen
channel, told the version alone. The group page and every settlement listen on
the group's, where each change to any of its nights is published too. So a change
across nights (a payment that clears 300 finished nights) is one message on the
group's channel, plus one for each of those nights still running, whose own pages
show it.

Without a front (settings.PUSH_URL empty: `make run` on a machine with no nginx, or the
tests' own servers), nothing is published, no page names a stream, and the pages poll
every 2 s as before.
"""

import logging
from collections.abc import Iterable

from django.conf import settings
from django.db import transaction
from django.dispatch import Signal

from scorekeeper.models import Group, Night
from scorekeeper.services.publisher import publisher

# Sent with night_id and version as a night's message is made: what a receiver returns
# (a line of text) goes in the message after the version.
night_told = Signal()
log = logging.getLogger(__name__)


def is_on() -> bool:
    return bool(settings.PUSH_URL)


def night_channel(night_id: int) -> str:
    return f"night-{night_id}"


def screen_channel(night_id: int) -> str:
    """A night's big screens, a member's or one shared by link: told the version alone,
    never the members' night page that the night's channel carries."""
    return f"screen-{night_id}"


def group_channel(group_id: int) -> str:
    return f"group-{group_id}"


def after_commit(*, night_ids: Iterable[int] = (), group_ids: Iterable[int] = ()) -> None:
    """Publish the new versions of these nights and groups once the transaction we are
    in commits (never, when it rolls back)."""
    if not is_on():
        return
    nights, groups = sorted(set(night_ids)), sorted(set(group_ids))
    if nights or groups:
        transaction.on_commit(lambda: publish(nights, groups))


def publish(night_ids: list[int], group_ids: list[int]) -> None:
    """The versions as committed, read now (a query for the nights, one per group) and
    handed to the publishing thread: two saves committed close together may publish in
    either order, and each phone compares what it is told with what it shows, so an
    older version arriving late costs one empty poll, never a wrong page."""
    versions = Night.objects.filter(pk__in=night_ids).order_by().values_list("pk", "version")
    for night_id, version in versions:
        # What a receiver failed to make is left out, and logged: the phones ask for it.
        told = night_told.send_robust(Night, night_id=night_id, version=version)
        for receiver, failed in told:
            if isinstance(failed, Exception):
                log.error("%s failed for night %s", receiver, night_id, exc_info=failed)
        carried = [said for _, said in told if isinstance(said, str) and said]
        _send(night_channel(night_id), "\n".join([f"version {version}", *carried]), version)
        _send(screen_channel(night_id), f"version {version}", version)
    for group_id in group_ids:
        fingerprint = Group.objects.filter(pk=group_id).nights_version()
        if fingerprint is not None:
            _send(group_channel(group_id), f"version {fingerprint}")


def _send(channel: str, message: str, version: int | None = None) -> None:
    # A group's fingerprint has no order: its phones ask for the page whenever it differs.
    publisher.send(settings.PUSH_URL.rstrip("/") + "/" + channel, message, version)
