"""Why a round is stuck, said where every phone looks first: inside the entry card, in
the first screen of a small phone; one-off messages go; the big screen follows."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import User
from tests.helpers import enter

pytestmark = pytest.mark.django_db(transaction=True)

SMALL = {"width": 360, "height": 780}


def save_total(page, points: int):
    page.locator("#id_points").fill(str(points))
    page.locator("#entry-form").get_by_role("button", name="Save").click()


def in_first_screen(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 780


def test_the_off_sum_and_an_undo_are_said_in_the_entry_card_on_every_phone(
    make_night, log_in_phone
):
    night = make_night(("Anna", "Bram", "Chris"))
    phones = {name: log_in_phone(User.objects.get(name=name)) for name in ("Anna", "Bram", "Chris")}
    for page in phones.values():
        page.set_viewport_size(SMALL)
        page.goto(f"/nights/{night.pk}/")
    card_status = {name: page.locator("#entry-form #round-status") for name, page in phones.items()}
    expect(card_status["Anna"]).to_contain_text("Waiting for Anna, Bram, and Chris")

    save_total(phones["Anna"], 5)
    save_total(phones["Bram"], -2)
    expect(card_status["Chris"]).to_contain_text("Waiting for Chris")
    save_total(phones["Chris"], -2)
    for name, page in phones.items():
        status = card_status[name].get_by_test_id("sum-status")
        expect(status).to_have_text("1 point too many. Check your counts.")
        assert in_first_screen(page, status), name
        # The last entry saved is named, so the table knows where to look first.
        expect(card_status[name]).to_contain_text("Saved last: Chris −2")

    # Chris recounts; the round goes through. Then Bram takes it back with undo.
    save_total(phones["Chris"], -3)
    for page in phones.values():
        expect(page.locator(".round-no")).to_have_text("Round 2")
    phones["Bram"].once("dialog", lambda dialog: dialog.accept())
    phones["Bram"].get_by_role("button", name="Undo last round").click()
    for name, page in phones.items():
        expect(page.locator(".round-no")).to_have_text("Round 1")
        reopened = card_status[name].get_by_test_id("reopened")
        expect(reopened).to_contain_text("Round 1 was reopened by Bram.")
        expect(reopened).to_contain_text("save it again to confirm it, or change it")
        assert in_first_screen(page, reopened), name


def test_a_one_off_message_goes_with_the_next_news(make_night, log_in_phone):
    night = make_night(("Anna", "Bram"))
    anna = log_in_phone(User.objects.get(name="Anna"))
    anna.goto(f"/nights/{night.pk}/seats/add/")
    anna.get_by_label("or a guest's name").fill("Dana")
    anna.get_by_role("button", name="Seat them").click()
    messages = anna.locator("#messages")
    expect(messages).to_contain_text("Dana is seated")
    # Round 1 (Dana is dealt in) goes through from other phones; Anna's page moves on
    # without the message.
    enter(night, "Anna", 4)
    enter(night, "Bram", -4)
    enter(night, "Dana", 0, by="Bram")
    expect(anna.locator(".round-no")).to_have_text("Round 2")
    expect(messages).to_be_empty()


def test_enter_for_someone_else_is_one_control_listing_the_seats_without_a_total(
    make_night, log_in_phone
):
    night = make_night(("Anna", "Bram"), guests=("Gus", "Hal"))
    anna = log_in_phone(User.objects.get(name="Anna"))
    anna.goto(f"/nights/{night.pk}/")
    expect(anna.get_by_text("Enter for someone else")).to_have_count(1)
    enter(night, "Hal", 3, by="Bram")
    control = anna.locator(".enter-for")
    expect(control.locator("a")).to_have_text(["Bram", "Gus"])  # Hal's total is in
    control.get_by_text("Enter for someone else").click()
    control.get_by_role("link", name="Gus").click()
    expect(anna.get_by_text("Total for Gus")).to_be_visible()
    save_total(anna, -7)
    expect(anna.locator(".entry-line[data-seat='Gus']")).to_contain_text("−7")
    expect(anna.locator(".enter-for a")).to_have_text(["Bram"])


def test_the_big_screen_follows_a_round_and_its_shared_link_can_be_taken_back(
    make_night, log_in_phone, phone
):
    night = make_night(("Anna", "Bram"))
    anna = log_in_phone(User.objects.get(name="Anna"))
    anna.goto(f"/nights/{night.pk}/")
    anna.get_by_test_id("more").get_by_text("More").click()  # behind More (issue 32)
    anna.get_by_role("link", name="Big screen").click()
    anna.get_by_role("button", name="Share a read-only link").click()
    link = anna.locator("#screen-link").input_value()

    tv = phone()  # no login: the shared link alone
    tv.set_viewport_size({"width": 1280, "height": 720})
    tv.goto(link)
    expect(tv.get_by_test_id("screen-dealer")).to_have_text("Anna")
    expect(tv.get_by_test_id("screen-status")).to_have_text("Waiting for Anna and Bram.")
    enter(night, "Anna", 6)
    expect(tv.get_by_test_id("screen-status")).to_have_text("Waiting for Bram.")
    enter(night, "Bram", -6)
    expect(tv.locator(".round-no")).to_have_text("Round 2")
    expect(tv.get_by_test_id("screen-dealer")).to_have_text("Bram")
    leader = tv.get_by_test_id("screen-standings").locator("tbody tr").first.locator("th, td")
    expect(leader).to_have_text(["Anna", "+6", "€0.60"])
    # Read-only: nothing to post but the language switcher at the foot of every page.
    assert tv.locator("form:not([data-testid=languages])").count() == 0

    anna.get_by_role("button", name="Stop sharing: the link stops working").click()
    expect(tv.get_by_test_id("screen-status")).to_contain_text("no longer shared")
    tv.goto(link)
    expect(tv.get_by_text("this link no longer works", exact=False)).to_be_visible()
