"""The table's moments on three phones (issue 32): a round that goes through on one
phone is news on the other within a poll, and buzzes it; a fix is news too; a member
not seated deals themselves in from the next hand and the round on the table does not
wait for them. Screenshots of the news, the More menu and the fix page, at 390 and
360 px, light and dark, go to test-results/night-moments/."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.models import User
from scorekeeper.services.groups import join_group
from tests.helpers import make_user

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("test-results/night-moments")

# Every call to navigator.vibrate is recorded, where the browser has it or not.
RECORD_BUZZ = """
window.__buzz = [];
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true,
  value: function (pattern) { window.__buzz.push(pattern); return true; },
});
"""


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (390, 360):
        for scheme in ("light", "dark"):
            page.set_viewport_size({"width": width, "height": 844})
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=SHOTS / f"{name}-{width}-{scheme}.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(color_scheme="light")


def save_total(page, points: int) -> None:
    page.locator("#id_points").fill(str(points))
    page.locator("#entry-form").get_by_role("button", name="Save").click()


def buzzes(page) -> int:
    return page.evaluate("window.__buzz.length")


def test_the_tables_moments_reach_every_phone(make_night, log_in_phone):
    night = make_night(("Anna", "Bram"))
    join_group(group=night.group, user=make_user("Dan"))
    phones = {}
    for name in ("Anna", "Bram", "Dan"):
        page = log_in_phone(User.objects.get(name=name))
        page.context.add_init_script(RECORD_BUZZ)
        page.goto(f"/nights/{night.pk}/")
        phones[name] = page
    anna, bram, dan = phones["Anna"], phones["Bram"], phones["Dan"]
    expect(anna.locator("#news")).to_be_hidden()
    assert buzzes(anna) == buzzes(bram) == 0  # never on page load

    # Dan, following along, deals himself in: from the next hand, not this one.
    dan.get_by_role("button", name="Deal me in from the next hand").click()
    expect(dan.get_by_test_id("dealt-from")).to_have_text(
        "You play from round 2. You can follow along until then."
    )
    expect(anna.get_by_test_id("moment")).to_have_text(["Dan plays from round 2."])
    expect(anna.get_by_test_id("waiting")).to_have_text("Waiting for Anna and Bram.")

    # The round goes through on Anna's phone: Bram's phone says it, and buzzes.
    save_total(bram, -6)
    save_total(anna, 6)
    expect(bram.get_by_test_id("moment").first).to_have_text(
        "Round 1 went through · Anna +6 · Bram −6"
    )
    assert buzzes(bram) >= 1
    expect(bram.locator(".standings")).to_contain_text("+6")
    expect(bram.get_by_test_id("waiting")).to_have_text("Waiting for Anna, Bram, and Dan.")
    shoot(bram, "news")

    # Bram starts his next entry: the news he has seen goes from his phone only.
    bram.locator("#id_points").click()
    expect(bram.locator("#news")).to_be_hidden()
    expect(anna.locator("#news")).to_be_visible()

    # Anna fixes round 1 with the +/- buttons and the running sum.
    anna.get_by_test_id("more").locator("summary").first.click()
    expect(anna.get_by_test_id("more").get_by_role("link", name="Big screen")).to_be_visible()
    shoot(anna, "more")
    anna.goto(f"/nights/{night.pk}/rounds/1/edit/")
    fields = anna.locator("input.points")
    fields.nth(0).fill("9")
    expect(anna.get_by_test_id("fix-sum")).to_have_text("3 points too many")
    fields.nth(1).fill("9")
    anna.get_by_role("button", name="Switch plus and minus for Bram").click()
    expect(anna.get_by_test_id("fix-sum")).to_have_text("The totals add up to zero.")
    shoot(anna, "round-edit")
    anna.get_by_role("button", name="Save the fix").click()
    expect(bram.get_by_test_id("moment")).to_contain_text(
        ["Anna fixed round 1: Anna +6 → +9 and Bram −6 → −9."]
    )
    expect(bram.locator("#news")).to_be_visible()
