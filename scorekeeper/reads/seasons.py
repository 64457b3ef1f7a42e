"""Which nights a page reads: all time, a calendar year, or one of the group's own
seasons (:class:`scorekeeper.models.seasons.Season`).

A night belongs to a season by the day it started in the local time zone (the one
:mod:`scorekeeper.dates` writes days in), so a night shown as 31 Dec is in that
year. Each season is a range of start moments, from the local midnight of its first
day to the next one's: a page reads a season with two comparisons on ``started_at``
in its one query, never night by night.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from babel.dates import format_skeleton
from django.db.models import Q
from django.utils import timezone

from scorekeeper.i18n import language
from scorekeeper.models import Group, Night
from scorekeeper.table.formatting import locale_of


@dataclass(frozen=True)
class SeasonChoice:
    """One season as a page offers it."""

    key: str  # what ``?season=`` says: the year ("2025"), or the season's id
    name: str  # "2025" (as the language writes a year), or the season's own name
    first_day: date
    next_first_day: date | None  # the day the next season starts; None: it runs on

    @property
    def last_day(self) -> date | None:
        return self.next_first_day - timedelta(days=1) if self.next_first_day else None

    def nights(self, path: str = "") -> Q:
        """The condition on a night (``path`` leads to it: ``"night__"`` from a seat)
        that it started in this season."""
        started = f"{path}started_at"
        condition = Q(**{f"{started}__gte": _local_midnight(self.first_day)})
        if self.next_first_day is not None:
            condition &= Q(**{f"{started}__lt": _local_midnight(self.next_first_day)})
        return condition


@dataclass(frozen=True)
class Seasons:
    """The picker of a page: every season to pick, newest first, and the one shown."""

    choices: list[SeasonChoice]
    shown: SeasonChoice | None  # None: all time
    own: bool  # the group's own seasons; else calendar years

    @property
    def key(self) -> str:
        """``?season=`` of the season shown, "" for all time (for links that keep it)."""
        return self.shown.key if self.shown else ""


def seasons(group: Group, asked: str | None) -> Seasons | None:
    """The seasons of ``group`` to pick from and the one ``asked`` for (``?season=``:
    empty or missing for all time), or None when ``asked`` is none of them. One
    query, two for a group without seasons of its own (the years its finished nights
    started in)."""
    choices = own_seasons(group)
    own = bool(choices)
    if not own:
        years = Night.objects.filter(group=group, ended_at__isnull=False).datetimes(
            "started_at", "year", tzinfo=timezone.get_current_timezone()
        )
        choices = [_year(moment.year) for moment in years]
    choices.sort(key=lambda choice: choice.first_day, reverse=True)
    if not asked:
        return Seasons(choices, None, own)
    shown = next((choice for choice in choices if choice.key == asked), None)
    return Seasons(choices, shown, own) if shown else None


def own_seasons(group: Group) -> list[SeasonChoice]:
    """The group's own seasons, oldest first, each running until the next (one query)."""
    own = list(group.seasons.order_by("starts_on"))
    nexts: list[date | None] = [season.starts_on for season in own[1:]]
    return [
        SeasonChoice(str(season.pk), season.name, season.starts_on, next_day)
        for season, next_day in zip(own, [*nexts, None], strict=False)
    ]


def _year(year: int) -> SeasonChoice:
    first = date(year, 1, 1)
    name = format_skeleton("y", first, locale=locale_of(language()))  # "2025", "2025年"
    return SeasonChoice(str(year), name, first, date(year + 1, 1, 1) if year < 9999 else None)


def _local_midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min), timezone.get_current_timezone())
