"""Reads shared by several views: small, explicit and with a fixed number of queries."""

from scorekeeper.group_history import night_summaries
from scorekeeper.models import Group, Membership


def current_members(group: Group) -> list[Membership]:
    return list(group.memberships.filter(left_at=None).select_related("user"))


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
        return f"{names[0]} plays here."
    if len(names) <= 3:
        return ", ".join(names[:-1]) + " and " + names[-1] + " play here."
    return f"{names[0]}, {names[1]} and {len(names) - 2} others play here."


def group_nights_context(group: Group) -> dict[str, list]:
    nights = list(group.nights.all())
    running = [night for night in nights if night.ended_at is None]
    finished = [night for night in nights if night.ended_at is not None]
    # Players and winner of every finished night: two more queries, however many nights.
    history = night_summaries(finished)
    return {"running_nights": running, "finished_nights": finished, "night_history": history}
