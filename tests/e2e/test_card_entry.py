"""Three phones set their boards with the card picker; the app counts the round."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import User
from tests.e2e.steps import pick_cards

pytestmark = pytest.mark.django_db(transaction=True)

# The rules' worked example: Anna a flush bottom, Bram kings on top, Chris fouls.
ANNA = ("2c 3d 4h", "Qs Qd 5c 5d 9s", "Ah Jh 8h 6h 3h")
BRAM = ("Kc Kd 7s", "As Ad 9c 6d 2s", "Ts Td 4s 4c Js")
CHRIS = ("Qc Qh 2d", "7c 8d 9h Jd 2h", "6s 6c Kh Ks 3s")


def save(page):
    page.get_by_role("button", name="Save cards").click()


def test_three_phones_set_their_cards_and_the_app_counts(make_night, log_in_phone):
    night = make_night(("Anna", "Bram", "Chris"), game="pineapple")
    seats = {seat.name: seat.pk for seat in night.seats.all()}
    phones = {name: log_in_phone(User.objects.get(name=name)) for name in seats}
    for page in phones.values():
        page.goto(f"/nights/{night.pk}/")
        page.get_by_role("link", name="Enter cards instead").click()
        expect(page.locator("h1")).to_have_text("Round 1 · your cards")

    # Anna sets her board: the rows fill 3 / 5 / 5 and the result shows at once.
    anna = phones["Anna"]
    pick_cards(anna, ANNA)
    for row, count in (("top", 3), ("middle", 5), ("bottom", 5)):
        expect(anna.locator(f".board-row[data-row='{row}'] .pc[data-card]")).to_have_count(count)
    save(anna)
    result = anna.get_by_test_id("board-result")
    expect(result).to_contain_text("flush")
    expect(result).to_contain_text("Royalties 4")
    expect(result).to_contain_text("Waiting for Bram and Chris")

    # Bram's page opened before Anna saved: he takes her ace of hearts and is refused.
    bram = phones["Bram"]
    pick_cards(bram, ("Ah Kd 7s", *BRAM[1:]))
    save(bram)
    expect(bram.get_by_role("alert").first).to_contain_text(
        "Ah appears twice: Anna's bottom, Bram's top."
    )
    # Now the ace is greyed out; he moves the misplaced card off with two taps.
    expect(bram.locator(".deck button[data-card='Ah']")).to_have_attribute("aria-disabled", "true")
    placed = bram.locator(".board-row[data-row='top'] button[data-card='Ah']")
    placed.click()
    placed.click()
    expect(bram.locator(".board-row[data-row='top'] .slots .pc[data-card]")).to_have_count(2)
    bram.locator(".deck button[data-card='Kc']").click()
    bram.locator(".board-row[data-row='top'] .row-name").click()
    expect(bram.locator("#id_top")).to_have_value("Kd 7s Kc")
    save(bram)
    expect(bram.get_by_test_id("board-result")).to_contain_text("Fantasyland 14 cards")

    # Chris fouls; his board is the last one in, so the round goes through.
    chris = phones["Chris"]
    pick_cards(chris, CHRIS)
    save(chris)
    expect(chris.locator(".messages")).to_contain_text("round 1 went through")
    expect(chris.get_by_test_id("board-result")).to_contain_text(
        "Fouled: the middle, high card, is weaker than the top, pair."
    )
    expect(chris.get_by_test_id("board-status")).to_contain_text("−24")
    breakdown = chris.get_by_test_id("breakdown")
    expect(breakdown).to_contain_text("top −1 · middle +1 · bottom +1 · royalties −4")
    expect(breakdown).to_contain_text("Anna +7 (royalties 4); Bram +17 (royalties 8); Chris −24")

    # Every phone's night page shows round 2 and the totals the cards made.
    for page in phones.values():
        page.goto(f"/nights/{night.pk}/")
        expect(page.locator(".round-no")).to_have_text("Round 2")
        expect(page.get_by_test_id("fantasyland")).to_contain_text(
            "Bram plays Fantasyland (14 cards)"
        )
        standings = page.locator(".standings")
        for total in ("+7", "+17", "−24"):
            expect(standings).to_contain_text(total)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_typed_cards_stay_in_view_after_a_refused_save(make_night, log_in_phone):
    night = make_night(("Anna", "Bram"), game="pineapple")
    bram = log_in_phone(User.objects.get(name="Bram"))
    bram.goto(f"/nights/{night.pk}/rounds/1/cards/{night.seats.get(name='Bram').pk}/")
    typed = bram.locator("details.typed")
    typed.locator("summary").click()
    # The same card twice in his own top, typed rather than tapped.
    for row, cards in zip(("top", "middle", "bottom"), ("Kc Kc 7s", *BRAM[1:]), strict=True):
        bram.fill(f"#id_{row}", cards)
    save(bram)
    expect(bram.get_by_role("alert").first).to_contain_text("Kc is in Bram's top twice.")
    expect(typed).to_have_attribute("open", "")
    expect(bram.locator("#id_top")).to_be_visible()
    expect(bram.locator("#id_top")).to_have_value("Kc Kc 7s")
