"""Two phones fixing the same round, and an invitation link for one person, in real
browsers at a phone's size."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Entry, Group, User
from tests.helpers import play

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_fix_from_an_out_of_date_page_is_refused_and_shows_the_totals_now(
    make_night, log_in_phone
):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 2, "Bram": -2})
    anna_seat, bram_seat = night.seats.order_by("position")
    fix_url = f"/nights/{night.pk}/rounds/1/edit/"

    anna = log_in_phone(User.objects.get(name="Anna"))
    anna.goto(fix_url)  # Anna opens "fix round 1"...
    bram = log_in_phone(User.objects.get(name="Bram"))
    bram.goto(fix_url)
    bram.fill(f"#id_points_{anna_seat.pk}", "5")
    bram.fill(f"#id_points_{bram_seat.pk}", "-5")
    bram.get_by_role("button", name="Save the fix").click()  # ...Bram saves first...
    expect(bram.get_by_text("Round 1 fixed.")).to_be_visible()

    anna.fill(f"#id_points_{anna_seat.pk}", "3")
    anna.fill(f"#id_points_{bram_seat.pk}", "-3")
    anna.get_by_role("button", name="Save the fix").click()  # ...Anna from the old page.
    refusal = anna.get_by_test_id("out-of-date")
    expect(refusal).to_contain_text("Round 1 changed while this page was open")
    expect(refusal).to_contain_text("Bram changed it")
    expect(anna.locator(f"#id_points_{anna_seat.pk}")).to_have_value("5")
    assert anna.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert sorted(Entry.objects.values_list("points", flat=True)) == [-5, 5]

    # Starting again from the page she now has, her fix counts.
    anna.fill(f"#id_points_{anna_seat.pk}", "3")
    anna.fill(f"#id_points_{bram_seat.pk}", "-3")
    anna.get_by_role("button", name="Save the fix").click()
    expect(anna.get_by_text("Round 1 fixed.")).to_be_visible()
    assert sorted(Entry.objects.values_list("points", flat=True)) == [-3, 3]


def test_a_link_for_one_person_lets_one_in_and_tells_the_next(make_group, log_in_phone, phone):
    group = make_group(name="Friday OFC", members=("Anna",))
    anna = log_in_phone(User.objects.get(name="Anna"))
    anna.goto(f"/groups/{group.pk}/")
    anna.select_option("#id_uses", "1")
    anna.get_by_role("button", name="New code and link").click()
    expect(anna.get_by_test_id("link-limits")).to_contain_text("Lets 1 more person join.")
    link = anna.locator("#invite-link").input_value()
    assert link.endswith(f"/join/{Group.objects.get().invite_token}/")

    bram = phone()
    bram.goto(link)
    bram.fill("#id_signup-name", "Bram")
    bram.get_by_role("button", name="Join").click()
    bram.wait_for_url(f"**/groups/{group.pk}/")

    chris = phone()
    chris.goto(link)
    expect(chris.locator("h1")).to_have_text("This code no longer works")
    expect(chris.get_by_role("alert")).to_contain_text("let in as many people as they allowed")
