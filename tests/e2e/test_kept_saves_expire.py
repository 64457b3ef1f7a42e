"""Saves another account kept on this phone are dropped after a day, with a word to
whoever logs in next; another account's younger ones stay."""

import json
import time

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

DAY_MS = 24 * 60 * 60 * 1000


def kept_save(user: int, age_ms: int, key: str) -> dict:
    return {
        "key": key, "url": "/nights/1/entry/", "page": "/nights/1/", "user": str(user),
        "kind": "total", "for": "", "round": "1", "seat": "1", "points": "7",
        "fields": [["points", "7"]], "why": "wifi", "kept": int(time.time() * 1000) - age_ms,
    }  # fmt: skip


def test_another_accounts_saves_kept_over_a_day_are_dropped_and_said(make_user, log_in_phone):
    anna = make_user("Anna")
    page = log_in_phone(anna)
    page.goto("/")
    others = [
        kept_save(anna.pk + 100, DAY_MS + 60_000, "old"),
        kept_save(anna.pk + 100, 3_600_000, "young"),
    ]
    page.evaluate("(items) => localStorage.setItem('ofcboard.queue', items)", json.dumps(others))
    page.reload()
    expect(page.locator("#queued")).to_contain_text(
        "Saves kept on this phone for another account waited more than a day and were dropped."
    )
    left = json.loads(page.evaluate("localStorage.getItem('ofcboard.queue')"))
    assert [item["key"] for item in left] == ["young"]
