"""Three phones at one table: totals arrive live, the sum is checked, the button moves."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import User

pytestmark = pytest.mark.django_db(transaction=True)


def enter_total(page, points: int, fantasyland: str | None = None):
    box = page.locator("#id_points")
    box.fill(str(abs(points)))
    if points < 0:
        page.get_by_role("button", name="Switch plus and minus").click()
    if fantasyland:
        page.locator(".fl-options").get_by_text(fantasyland).click()
    page.locator("#entry-form").get_by_role("button", name="Save").click()


def test_three_phones_check_the_sum_and_follow_the_button(make_night, log_in_phone):
    night = make_night(("Anna", "Bram", "Chris"), game="progressive")
    phones = {name: log_in_phone(User.objects.get(name=name)) for name in ("Anna", "Bram", "Chris")}
    for page in phones.values():
        page.goto(f"/nights/{night.pk}/")
        expect(page.get_by_test_id("dealer")).to_have_text("Anna")

    # Round 1: the totals are 3 too many; every phone shows it without a reload.
    enter_total(phones["Anna"], 7)
    enter_total(phones["Bram"], 17)
    expect(phones["Chris"].locator(".entry-line[data-seat='Bram']")).to_contain_text("+17")
    enter_total(phones["Chris"], -21)
    for page in phones.values():
        expect(page.get_by_test_id("sum-status")).to_have_text(
            "3 points too many. Check your counts."
        )

    # Chris fixes the count; the round goes through and the dealer moves on every phone.
    enter_total(phones["Chris"], -24)
    for page in phones.values():
        expect(page.locator(".round-no")).to_have_text("Round 2")
        expect(page.get_by_test_id("dealer")).to_have_text("Bram")
        expect(page.locator(".standings")).to_contain_text("−24")

    # Round 2: Anna makes Fantasyland with kings: the dealer stays and everyone sees it.
    enter_total(phones["Anna"], 10, fantasyland="KK on top")
    enter_total(phones["Bram"], -4)
    enter_total(phones["Chris"], -6)
    for page in phones.values():
        expect(page.locator(".round-no")).to_have_text("Round 3")
        expect(page.get_by_test_id("dealer")).to_have_text("Bram")
        expect(page.get_by_test_id("fantasyland")).to_have_text(
            "The button stays with Bram: Anna plays Fantasyland (15 cards)."
        )
    # Anna's own form now asks whether she stayed, not whether she made it.
    expect(phones["Anna"].get_by_text("Stayed in Fantasyland")).to_be_visible()
    for page in phones.values():
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_sign_button_turns_any_typed_sign_over(make_night, log_in_phone):
    night = make_night(("Anna", "Bram"))
    page = log_in_phone(User.objects.get(name="Anna"))
    page.goto(f"/nights/{night.pk}/")
    box = page.locator("#id_points")
    flip = page.get_by_role("button", name="Switch plus and minus")
    for typed, flipped in [("5", "-5"), ("+5", "-5"), ("-7", "7"), ("−7", "7"), ("", "-")]:
        box.fill(typed)
        flip.click()
        expect(box).to_have_value(flipped)
