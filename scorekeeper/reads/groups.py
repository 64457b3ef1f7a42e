"""What the group pages show: its members, its nights, and its invitation."""

import segno
from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext, ngettext

from scorekeeper.i18n import listed
from scorekeeper.models import Group, Membership, Round, User
from scorekeeper.models.sign_ins import table_mates
from scorekeeper.reads.history import newest_nights, night_summaries
from scorekeeper.reads.owed import owed_across_nights, paid_across_nights
from scorekeeper.reads.qr import QRDrawing, qr_drawing


def current_members(group: Group) -> list[Membership]:
    return list(group.current_memberships())


def member_sentence(group: Group) -> str:
    """ "Anna, Bram and 3 others play here." for the join page."""
    names = list(
        group.memberships.current().order_by("joined_at").values_list("user__name", flat=True)
    )
    if not names:
        return ""
    if len(names) == 1:
        return gettext("%(name)s plays here.") % {"name": names[0]}
    if len(names) <= 3:
        return gettext("%(names)s play here.") % {"names": listed(names)}
    others = len(names) - 2
    text = ngettext(
        "%(first)s, %(second)s and %(count)d other play here.",
        "%(first)s, %(second)s and %(count)d others play here.",
        others,
    )
    return text % {"first": names[0], "second": names[1], "count": others}


def night_history_page(
    group: Group, *, before: int | None = None, through: int | None = None
) -> dict:
    """A page of the group's finished nights, newest first from just after the night
    ``before`` (or from the newest down to the night ``through``, see
    :func:`newest_nights`), with their players and winner, and the pk that fetches the
    next page (``older_than``, None at the end): three queries wherever the page starts."""
    finished = group.nights.filter(ended_at__isnull=False)
    shown, older_than = newest_nights(finished, before=before, through=through)
    return {"night_history": night_summaries(shown), "older_than": older_than}


def group_nights(
    group: Group,
    *,
    before: int | None = None,
    through: int | None = None,
    version: str | None = None,
) -> dict:
    """The nights running now, each with the number of the round being played
    (``night.open_round_number``), a page of the finished ones (see
    :func:`night_history_page`), and the ``nights_version`` for the page's poll
    (``version`` when the caller has just read it)."""
    # Read before the rows: a night that changes in between makes the next poll
    # render again, never miss the change.
    version = version or group.nights_version()
    open_rounds = Round.objects.filter(night=OuterRef("pk"), recorded_at__isnull=True)
    running = list(
        group.nights.filter(ended_at__isnull=True).annotate(
            open_round_number=Subquery(open_rounds.order_by("-number").values("number")[:1])
        )
    )
    return {
        "running_nights": running,
        **night_history_page(group, before=before, through=through),
        "nights_version": version,
    }


def link_qr(url: str, *, title: str = "") -> QRDrawing:
    """A link to open on a phone (the invitation link, a sign-in link), as a QR code
    to draw; ``title`` names it for a screen reader."""
    return qr_drawing(segno.make(url, error="m"), title=title or gettext("Invitation link"))


def group_page(group: Group, base_url: str, reader: User, *, before: int | None = None) -> dict:
    """Everything the group page shows ``reader``: members, nights (the finished ones a
    page at a time, from just after the night ``before``), what is still owed across
    them and what was paid, and the invitation at ``base_url`` with its QR code."""
    link = group.invite_url(base_url)
    members = current_members(group)
    keeper = group.keeper(members)
    return {
        "group": group,
        "keeper": keeper,
        "may_remove": keeper == reader,
        "members": members,
        # Whom the reader may sign in on a new phone: who sat at a night with them.
        "table_mates": table_mates(reader),
        "invite_url": link,
        "qr": link_qr(link),
        **group_nights(group, before=before),
        **owed_part(group, reader),
    }


def owed_part(group: Group, reader: User) -> dict:
    """The group page's "Still owed" part: what is owed, and the latest payments."""
    return {"owed": owed_across_nights(group), "paid": paid_across_nights(group, reader)}
