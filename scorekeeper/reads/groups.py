"""What the group pages show: its members, its nights, and its invitation."""

import segno
from django.db.models import OuterRef, Subquery
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from scorekeeper.models import Group, Membership, Night, Round
from scorekeeper.models.groups import nights_version
from scorekeeper.reads.history import NightSummary, night_summaries
from scorekeeper.reads.owed import owed_across_nights


def current_members(group: Group) -> list[Membership]:
    return list(group.current_memberships())


def member_sentence(group: Group) -> str:
    """ "Anna, Bram and 3 others play here." for the join page."""
    names = list(
        group.memberships.filter(left_at=None)
        .order_by("joined_at")
        .values_list("user__name", flat=True)
    )
    if not names:
        return ""
    if len(names) == 1:
        return gettext("%(name)s plays here.") % {"name": names[0]}
    if len(names) <= 3:
        return gettext("%(names)s and %(last)s play here.") % {
            "names": ", ".join(names[:-1]),
            "last": names[-1],
        }
    others = len(names) - 2
    text = ngettext(
        "%(first)s, %(second)s and %(count)d other play here.",
        "%(first)s, %(second)s and %(count)d others play here.",
        others,
    )
    return text % {"first": names[0], "second": names[1], "count": others}


def group_nights(group: Group) -> dict[str, str | list[Night] | list[NightSummary]]:
    """The nights running now, each with the number of the round being played
    (``night.open_round_number``), the finished ones with their players and winner,
    and the ``nights_version`` of what is shown, for the page's poll."""
    open_rounds = Round.objects.filter(night=OuterRef("pk"), recorded_at__isnull=True)
    nights = list(
        group.nights.annotate(
            open_round_number=Subquery(open_rounds.order_by("-number").values("number")[:1])
        )
    )
    running = [night for night in nights if night.ended_at is None]
    finished = [night for night in nights if night.ended_at is not None]
    # Players and winner of every finished night: two more queries, however many nights.
    history = night_summaries(finished)
    return {
        "running_nights": running,
        "finished_nights": finished,
        "night_history": history,
        # From the rows shown, so the page and its fingerprint always agree.
        "nights_version": nights_version(len(nights), sum(night.version for night in nights)),
    }


def qr_svg(url: str) -> SafeString:
    """The invitation link as a QR code, inline SVG drawn on the server."""
    # Dark on white whatever the theme: phone cameras read that best.
    svg = segno.make(url, error="m").svg_inline(
        scale=5,
        border=2,
        dark="#000",
        light="#fff",
        svgclass="qr",
        title=gettext("Invitation link"),
    )
    return mark_safe(svg)


def group_page(group: Group, base_url: str) -> dict:
    """Everything the group page shows: members, nights, what is still owed across
    them, and the invitation at ``base_url`` with its QR code."""
    link = group.invite_url(base_url)
    return {
        "group": group,
        "members": current_members(group),
        "invite_url": link,
        "qr": qr_svg(link),
        **group_nights(group),
        "owed": owed_across_nights(group),
    }
