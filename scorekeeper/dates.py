"""Dates and times as the reader's language writes them, from CLDR through Babel like
the app's numbers and money (:mod:`scorekeeper.i18n`), so a new language needs no
date formats of ours: each kind of date below is a CLDR skeleton, which every
language orders and spells its own way. Times are read in the local time zone.

English is CLDR's ``en``, as for money and lists ("Dec 2, 2026", "9:30 PM").
"""

from datetime import date, datetime

from babel.dates import format_skeleton, format_time, format_timedelta, get_datetime_format
from django.utils import timezone

from scorekeeper.i18n import language
from scorekeeper.table.formatting import locale_of

# The kinds of date the pages write, as CLDR skeletons (the fields, not their order).
DAY = "yMMMd"  # "Dec 2, 2026", "2 dec 2026", "2026年12月2日", "2. Dez. 2026"
WEEKDAY = "MMMEd"  # "Wed, Dec 2", "wo 2 dec", "12月2日周三", "Mi., 2. Dez."
DAY_AND_MONTH = "MMMd"  # a moment's date: "Dec 2", "2 dec", "12月2日", "2. Dez."


def day(value: date) -> str:
    """The day, with its year: a night in a list of nights, a payment's date."""
    return format_skeleton(DAY, _local(value), locale=locale_of(language()))


def weekday(value: date) -> str:
    """The weekday, day and month: which night this is, on its own page."""
    return format_skeleton(WEEKDAY, _local(value), locale=locale_of(language()))


def time_of_day(value: datetime) -> str:
    """The time, on the language's own clock ("9:30 PM", "21:30")."""
    return format_time(_local(value), "short", locale=locale_of(language()))


def moment(value: datetime) -> str:
    """The day and month with the time, joined as the language joins a date and a
    time (CLDR's dateTimeFormat): "Dec 2, 9:30 PM", "12月2日 21:30"."""
    locale = locale_of(language())
    local = _local(value)
    joined = get_datetime_format("medium", locale=locale)
    return joined.replace("{1}", format_skeleton(DAY_AND_MONTH, local, locale=locale)).replace(
        "{0}", format_time(local, "short", locale=locale)
    )


def ago(value: datetime) -> str:
    """How long ago ``value`` was, rounded as people say it: "2 hours ago", "2 uur
    geleden", "vor 2 Stunden", "2小时前"."""
    return format_timedelta(
        value - timezone.now(), add_direction=True, locale=locale_of(language())
    )


def _local(value: date) -> date:
    # As Django's |date filter reads a moment: in the current time zone.
    if isinstance(value, datetime) and timezone.is_aware(value):
        return timezone.localtime(value)
    return value
