"""Dates on pages are written by a format's name, so each language writes them its
own way: "j M H:i" in a template gives Chinese "2 十二月 21:30", where
SHORT_DATETIME_FORMAT gives "12月2日 21:30"."""

import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.formats import date_format
from django.utils.timezone import datetime

TEMPLATES = sorted((Path(__file__).resolve().parents[1] / "templates").rglob("*.html"))
NAMED = {"DATE_FORMAT", "MONTH_DAY_FORMAT", "SHORT_DATETIME_FORMAT"}


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda path: path.name)
def test_templates_write_dates_by_a_formats_name(path):
    patterns = re.findall(r"""\|date:["']([^"']*)["']""", path.read_text())
    assert [pattern for pattern in patterns if pattern not in NAMED] == []


def test_the_named_formats_put_a_chinese_date_in_chinese_order():
    with translation.override("zh-hans"):
        assert date_format(datetime(2026, 12, 2, 21, 30), "SHORT_DATETIME_FORMAT") == (
            "12月2日 21:30"
        )
