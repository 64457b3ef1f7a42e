"""A total is never lost to the Wi-Fi: saves kept on the phone are sent by themselves
when the connection is back, and recorded once."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Entry, User
from tests.helpers import enter

pytestmark = pytest.mark.django_db(transaction=True)

ANNA_CARDS = ("2c 3d 4h", "Qs Qd 5c 5d 9s", "Ah Jh 8h 6h 3h")


def save_total(page, points: str):
    page.fill("#id_points", points)
    page.locator("#entry-form").get_by_role("button", name="Save").click()


def test_a_total_saved_offline_is_sent_when_back_and_seen_by_the_others(make_night, log_in_phone):
    night = make_night(("Anna", "Bram", "Chris"))
    phones = {name: log_in_phone(User.objects.get(name=name)) for name in ("Anna", "Bram", "Chris")}
    for page in phones.values():
        page.goto(f"/nights/{night.pk}/")
    anna = phones["Anna"]

    anna.context.set_offline(True)
    save_total(anna, "12")
    anna.locator("#entry-form").get_by_role("button", name="Save").click()  # a second tap
    queued = anna.get_by_test_id("queued")
    expect(queued).to_have_text("Waiting for the Wi-Fi: +12, round 1.")
    expect(anna.locator("#id_points")).to_have_value("12")  # the value stays on the screen
    # The other phones see Anna's seat waiting, as before: nothing half-sent shows.
    for name in ("Bram", "Chris"):
        expect(phones[name].locator(".entry-line[data-seat='Anna']")).to_contain_text("waiting")
    assert not Entry.objects.exists()

    anna.context.set_offline(False)  # no tap: the browser says the Wi-Fi is back
    expect(anna.locator("#queued")).to_contain_text("Sent: +12, round 1.")
    expect(queued).to_have_count(0)
    for name in ("Bram", "Chris"):
        expect(phones[name].locator(".entry-line[data-seat='Anna']")).to_contain_text("+12")
    expect(anna.locator(".saved")).to_contain_text("Saved: +12")
    assert Entry.objects.filter(seat__name="Anna").count() == 1
    assert Entry.objects.get().client_key


def test_a_total_saved_offline_and_the_page_closed_is_sent_when_it_opens(make_night, log_in_phone):
    night = make_night(("Anna", "Bram"))
    anna = log_in_phone(User.objects.get(name="Anna"))
    bram = log_in_phone(User.objects.get(name="Bram"))
    bram.goto(f"/nights/{night.pk}/")
    anna.goto(f"/nights/{night.pk}/")

    anna.context.set_offline(True)
    save_total(anna, "-7")
    expect(anna.get_by_test_id("queued")).to_have_text("Waiting for the Wi-Fi: −7, round 1.")
    context = anna.context
    anna.close()  # the tab is closed while the Wi-Fi is still gone
    assert not Entry.objects.exists()
    # Back online, the save goes out once the page opens again (the phone's browser
    # may already send it as the connection comes back: either way, once).
    context.set_offline(False)

    again = context.new_page()
    again.goto(f"/nights/{night.pk}/")
    expect(bram.locator(".entry-line[data-seat='Anna']")).to_contain_text("−7")
    expect(again.get_by_test_id("queued")).to_have_count(0)
    assert Entry.objects.get(seat__name="Anna").points == -7


def test_a_kept_total_whose_round_went_through_is_refused_in_words(make_night, log_in_phone):
    night = make_night(("Anna", "Bram"))
    anna = log_in_phone(User.objects.get(name="Anna"))
    anna.goto(f"/nights/{night.pk}/")

    anna.context.set_offline(True)
    save_total(anna, "5")
    expect(anna.get_by_test_id("queued")).to_have_text("Waiting for the Wi-Fi: +5, round 1.")
    # Meanwhile Bram typed Anna's total for her and the round went through.
    enter(night, "Anna", -3, by="Bram")
    enter(night, "Bram", 3)

    anna.context.set_offline(False)
    refusal = anna.locator("#queued [role=alert]")
    expect(refusal).to_contain_text(
        "Not saved: +5, round 1. Round 1 already went through: your +5 was not used."
    )
    expect(anna.locator("#round-head")).to_contain_text("Round 2")
    assert Entry.objects.filter(round__number=2).count() == 0  # applied to nothing else
    assert Entry.objects.get(seat__name="Anna").points == -3
    refusal.get_by_role("button", name="OK").click()
    expect(anna.locator("#queued")).to_be_hidden()


def test_a_board_saved_offline_on_the_card_page_is_sent_when_back(make_night, log_in_phone):
    night = make_night(("Anna", "Bram"), game="pineapple")
    anna = log_in_phone(User.objects.get(name="Anna"))
    anna.goto(f"/nights/{night.pk}/")
    anna.get_by_role("link", name="Enter cards instead").click()
    anna.get_by_text("Type the cards instead").click()
    for row, cards in zip(("top", "middle", "bottom"), ANNA_CARDS, strict=True):
        anna.fill(f"[data-row-text='{row}']", cards)

    anna.context.set_offline(True)
    anna.get_by_role("button", name="Save cards").click()
    expect(anna.get_by_test_id("queued")).to_have_text("Waiting for the Wi-Fi: cards, round 1.")
    assert not Entry.objects.exists()

    anna.context.set_offline(False)
    expect(anna.get_by_test_id("board-result")).to_contain_text("Royalties 4")
    expect(anna.get_by_test_id("queued")).to_have_count(0)
    entry = Entry.objects.get()
    assert entry.board["bottom"] == ["Ah", "Jh", "8h", "6h", "3h"] and entry.awaiting_total
