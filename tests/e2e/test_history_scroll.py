"""A long history on a phone: the group page and a player's page show the newest
nights, and scrolling down loads the older ones in place, through htmx."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import User
from scorekeeper.reads.history import NIGHTS_PER_PAGE
from tests.helpers import finish, play

pytestmark = pytest.mark.django_db(transaction=True)


def test_scrolling_a_long_history_loads_the_older_nights(make_group, make_night, log_in_phone):
    group = make_group(members=("Anna", "Bram"))
    count = NIGHTS_PER_PAGE + 3
    for points in range(count):
        finish(play(make_night(("Anna", "Bram"), group=group), {"Anna": points, "Bram": -points}))
    anna = User.objects.get(name="Anna")
    page = log_in_phone(anna)

    page.goto(f"/groups/{group.pk}/")
    nights = page.locator("[data-testid=nights] .night-row")
    expect(nights).to_have_count(NIGHTS_PER_PAGE)
    page.locator(".older-nights").scroll_into_view_if_needed()
    expect(nights).to_have_count(count)
    expect(page.locator(".older-nights")).to_have_count(0)
    # A night ends on another phone: the poll redraws the list, keeping the older ones.
    finish(play(make_night(("Anna", "Bram"), group=group), {"Anna": 50, "Bram": -50}))
    expect(nights).to_have_count(count + 1, timeout=10_000)
    expect(nights.first).to_contain_text("+50")

    page.goto(f"/groups/{group.pk}/players/{anna.pk}/")
    rows = page.locator("[data-testid=player-history] tbody tr:not(.older-nights)")
    expect(rows).to_have_count(NIGHTS_PER_PAGE)
    page.locator(".older-nights").scroll_into_view_if_needed()
    expect(rows).to_have_count(count + 1)
    # The oldest night last: Anna's first night, level at 0.
    expect(rows.last).to_contain_text("€0.00")
    expect(page.get_by_test_id("record-summary")).to_contain_text(f"{count + 1} nights")
