"""Writes of a group's own seasons: adding one and taking one away.

Each goes through the group's door (:func:`~scorekeeper.services.locks.group_change`):
the group is locked first (the one lock order), so two phones adding a season at the
same instant are checked one after the other, neither name nor start day is taken
twice (the database holds the same two rules, ``Season``'s constraints), and the
change is on the group's record.
"""

from datetime import date

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from scorekeeper.models import Change, Group, User
from scorekeeper.models.seasons import Season
from scorekeeper.models.titles import SEASON_NAME
from scorekeeper.services.errors import Refused, checked_title
from scorekeeper.services.locks import group_change, record
from scorekeeper.table.names import name_key


@transaction.atomic
def add_season(*, group: Group, by: User, name: str, starts_on: date | str) -> Season:
    """A season of ``group`` called ``name`` from ``starts_on`` (a date, or one written
    as year-month-day) until the next season starts. Refused in words for someone not
    in the group, a name the group has already (case aside), a day another season
    starts on, and a date that cannot be read."""
    with group_change(group, by=by):
        if not group.has_member(by):
            raise Refused(_("Only the group's members can change its seasons."))
        name = checked_title(SEASON_NAME, name)
        day = _read_date(starts_on)
        seasons = group.seasons.all()
        if seasons.filter(name_key=name_key(name)).exists():
            raise Refused(
                _("The group has a season called “%(name)s” already. Give this one another name.")
                % {"name": name}
            )
        same_day = seasons.filter(starts_on=day).first()
        if same_day is not None:
            raise Refused(
                _(
                    "“%(name)s” starts on that day already. Two seasons cannot start on the "
                    "same day."
                )
                % {"name": same_day.name}
            )
        try:
            with transaction.atomic():  # a savepoint: the refusal below leaves the rest usable
                season = Season.objects.create(group=group, name=name, starts_on=day)
        except IntegrityError:  # only another install's rows could get here past the lock
            raise Refused(
                _("That season clashes with one the group has. Reload the page.")
            ) from None
        record(Change.Kind.SEASON_ADDED, name=season.name, date=day.isoformat())
        return season


@transaction.atomic
def remove_season(*, group: Group, by: User, season: Season) -> None:
    """Take ``season`` of ``group`` away: its nights count in the season before it (or
    in all time only, when it was the first). No night changes."""
    with group_change(group, by=by):
        if not group.has_member(by):
            raise Refused(_("Only the group's members can change its seasons."))
        name = group.seasons.filter(pk=season.pk).values_list("name", flat=True).first()
        if name is not None:  # else taken away on another phone already
            group.seasons.filter(pk=season.pk).delete()
            record(Change.Kind.SEASON_REMOVED, name=name)


def _read_date(value: date | str) -> date:
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value).strip())
    except ValueError:
        raise Refused(
            _("That date cannot be read. Write it as year-month-day, like 2026-09-01.")
        ) from None
