"""Dates a person reads are written by :mod:`scorekeeper.dates` (CLDR through Babel),
one named kind of date each, so every language writes them its own way: no template
writes a date with Django's ``|date`` or ``|time``, and no code with
``django.utils.formats``."""

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import timezone, translation

from scorekeeper import dates

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
CODE = sorted((ROOT / "scorekeeper").rglob("*.py"))
DJANGO_DATE_FILTER = re.compile(r"\|\s*(date|time)\b")
DJANGO_DATE_CODE = re.compile(r"\b(date_format|time_format|strftime)\b|django\.utils\.formats")

# 20:30 UTC is 21:30 in Amsterdam, where the table sits in these tests.
EVENING = datetime(2026, 12, 2, 20, 30, tzinfo=UTC)
TABLE_ZONE = "Europe/Amsterdam"


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda path: path.name)
def test_no_template_writes_a_date_with_djangos_filters(path):
    assert DJANGO_DATE_FILTER.findall(path.read_text()) == []


@pytest.mark.parametrize("path", CODE, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_code_writes_a_date_with_djangos_formats(path):
    assert DJANGO_DATE_CODE.findall(path.read_text()) == []


def test_the_static_checks_see_what_they_refuse():
    assert DJANGO_DATE_FILTER.findall('{{ night.started_at|date:"DATE_FORMAT" }}') == ["date"]
    assert DJANGO_DATE_FILTER.findall("{{ edit.edited_at|time }}") == ["time"]
    assert DJANGO_DATE_FILTER.findall("{{ edit.edited_at|time_of_day }}") == []
    assert DJANGO_DATE_CODE.findall("from django.utils.formats import date_format") != []


KINDS = {
    "en": {
        "day": "Dec 2, 2026",
        "weekday": "Wed, Dec 2",
        "moment": "Dec 2, 9:30\u202fPM",
        "time_of_day": "9:30\u202fPM",
    },
    "nl": {
        "day": "2 dec 2026",
        "weekday": "wo 2 dec",
        "moment": "2 dec, 21:30",
        "time_of_day": "21:30",
    },
    "zh-hans": {
        "day": "2026年12月2日",
        "weekday": "12月2日周三",
        "moment": "12月2日 21:30",
        "time_of_day": "21:30",
    },
    "de": {
        "day": "2. Dez. 2026",
        "weekday": "Mi., 2. Dez.",
        "moment": "2. Dez., 21:30",
        "time_of_day": "21:30",
    },
}


@pytest.mark.parametrize(
    ("language", "kind"),
    [(language, kind) for language, kinds in KINDS.items() for kind in kinds],
)
def test_each_kind_of_date_in_each_language_at_the_tables_local_time(language, kind):
    with translation.override(language), timezone.override(TABLE_ZONE):
        assert getattr(dates, kind)(EVENING) == KINDS[language][kind]


@pytest.mark.parametrize("kind", ["day", "weekday", "moment", "time_of_day"])
def test_each_kind_is_a_template_filter_of_the_same_name(kind):
    template = Template("{% load dates %}{{ when|" + kind + " }}")
    with translation.override("zh-hans"), timezone.override(TABLE_ZONE):
        assert template.render(Context({"when": EVENING})) == KINDS["zh-hans"][kind]


def test_a_moment_late_at_night_is_the_next_day_where_the_table_is():
    late = datetime(2026, 12, 2, 23, 30, tzinfo=UTC)
    with translation.override("en"), timezone.override(TABLE_ZONE):
        assert dates.day(late) == "Dec 3, 2026"
    with translation.override("en"), timezone.override("UTC"):
        assert dates.day(late) == "Dec 2, 2026"
