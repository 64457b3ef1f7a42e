"""A player's record on a phone: from the group page to the players table to Anna's
page, whose figures match the hand count of ``play_two_nights`` (see its docstring)."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import User
from tests.helpers import play_two_nights

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_player_page_shows_the_record_counted_by_hand(make_night, log_in_phone):
    group, _, _ = play_two_nights(make_night)
    page = log_in_phone(User.objects.get(name="Bram"))

    page.goto(f"/groups/{group.pk}/")
    page.get_by_role("link", name="Players", exact=True).click()
    expect(page.locator("h1")).to_have_text("Players")
    # Bram +€0.70 +€2.50, Chris −€3.90, Anna +€3.20 −€8.00; the guest Gus has no line.
    rows = page.locator("[data-testid=players] tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_have_text("Bram 2 0 €3.20")
    expect(rows.nth(2)).to_have_text("Anna 2 1 −€4.80")

    page.get_by_role("link", name="Anna", exact=True).click()
    expect(page.locator("h1")).to_have_text("Anna")
    expect(page.get_by_test_id("record-summary")).to_have_text("2 nights · won 1 · 4 hands")
    money = page.get_by_test_id("record-money")
    expect(money).to_contain_text("−€4.80 over 2 nights")
    expect(money).to_contain_text("Best night: €3.20")
    expect(money).to_contain_text("worst: −€8.00")
    expect(money.locator("svg.ofc-chart")).to_be_visible()
    points = page.get_by_test_id("record-points")
    expect(points).to_contain_text("+16.0 a hand at €0.10 a point")
    expect(points).to_contain_text("−8.0 a hand at €0.50 a point")
    cards = page.get_by_test_id("record-cards")
    expect(cards).to_contain_text("From 2 card hands of 4")
    expect(cards).to_contain_text("Fouled 1 of 2")
    expect(cards).to_contain_text("Royalties 2.0 a hand")
    expect(page.get_by_test_id("best-hands").locator("li").first).to_contain_text(
        "flush, ace-jack-eight-six-three"
    )
    bram = page.locator("[data-testid=head-to-head] tr[data-rival=Bram]")
    expect(bram).to_contain_text("−3 at €0.10")
    expect(bram).to_contain_text("−12 at €0.50")

    # One hand's width: nothing sticks out sideways on a 390 px phone.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
