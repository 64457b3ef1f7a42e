"""Dates in templates as the reader's language writes them (:mod:`scorekeeper.dates`,
CLDR through Babel): ``|day``, ``|weekday``, ``|moment`` and ``|time_of_day``, in
place of Django's ``|date`` and ``|time``."""

from django import template

from scorekeeper import dates

register = template.Library()

register.filter("day", dates.day)
register.filter("weekday", dates.weekday)
register.filter("moment", dates.moment)
register.filter("time_of_day", dates.time_of_day)
