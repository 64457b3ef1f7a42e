"""A group plays its own house rules: AA on top pays 12 and the table counts 2-4.
Three phones set their cards and the app counts the round by those rules; a night
that changes the table for itself leaves the group's defaults as they were."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Night, User
from tests.e2e.steps import pick_cards
from tests.helpers import finish, make_group

pytestmark = pytest.mark.django_db(transaction=True)

# Anna a flush bottom (4), Bram aces on top (12 by the group's table), Chris fouls.
ANNA = ("2c 3d 4h", "Qs Qd 5c 5d 9s", "Ah Jh 8h 6h 3h")
BRAM = ("As Ac 7s", "Kc Kd 9c 9d 2s", "Ts Td Tc 4c Js")
CHRIS = ("Qc Qh 2d", "7c 8d 9h Jd 2h", "6s 6c Kh Ks 3s")


def start_night(page, group, users):
    page.goto(f"/groups/{group.pk}/nights/new/?game=pineapple")
    page.select_option("#id_seat_2", str(users["Bram"].pk))
    page.select_option("#id_seat_3", str(users["Chris"].pk))


def test_a_group_plays_its_own_royalties_and_two_four(log_in_phone):
    group = make_group(members=("Anna", "Bram", "Chris"))
    users = {user.name: user for user in User.objects.all()}
    anna = log_in_phone(users["Anna"])

    # The group sets its house rules once: aces on top pay 12, and 2-4.
    anna.goto(f"/groups/{group.pk}/")
    anna.get_by_role("link", name="House rules").click()
    expect(anna.locator("#id_top_pair__AA")).to_have_value("9")
    anna.fill("#id_top_pair__AA", "12")
    anna.get_by_label("2-4: winning more rows is 2, a scoop 4").check()
    anna.get_by_role("button", name="Save the house rules").click()
    expect(anna.locator("main")).to_contain_text("2-4, own royalties: AA on top 12")

    # A bad amount is refused in words, and nothing changes.
    anna.fill("#id_top_pair__KK", "1000")
    anna.get_by_role("button", name="Save the house rules").click()
    expect(anna.locator(".error").first).to_have_text(
        "KK on top: enter a whole number from 0 to 999."
    )
    anna.goto(f"/groups/{group.pk}/house-rules/")
    expect(anna.locator("#id_top_pair__KK")).to_have_value("8")

    # The night takes the group's rules, and says so.
    start_night(anna, group, users)
    anna.get_by_role("button", name="Start the night").click()
    expect(anna.get_by_test_id("house-rules")).to_have_text("2-4, own royalties: AA on top 12")
    night = Night.objects.get()

    phones = {"Anna": anna}
    phones.update({name: log_in_phone(users[name]) for name in ("Bram", "Chris")})
    for name, rows in (("Anna", ANNA), ("Bram", BRAM), ("Chris", CHRIS)):
        page = phones[name]
        page.goto(f"/nights/{night.pk}/")
        page.get_by_role("link", name="Enter cards instead").click()
        pick_cards(page, rows)
        page.get_by_role("button", name="Save cards").click()
        expect(page.get_by_test_id("board-result")).to_be_visible()

    # A v B: rows -1 -1 +1, majority -1, royalties 4 - 12; A v C: 3 + 1 + 4; B v C: 4 + 12.
    chris = phones["Chris"]
    breakdown = chris.get_by_test_id("breakdown")
    expect(breakdown).to_contain_text("top −1 · middle −1 · bottom +1 · majority −1 · royalties −8")
    expect(breakdown).to_contain_text("Anna −2 (royalties 4); Bram +26 (royalties 12); Chris −24")
    for page in phones.values():
        page.goto(f"/nights/{night.pk}/")
        expect(page.locator("[data-testid=dealer]")).to_be_visible()
        expect(page.locator("main")).to_contain_text("+26")

    # The night's rules page shows them, fixed now that a round is recorded.
    anna.get_by_test_id("house-rules").get_by_role("link").click()
    expect(anna.get_by_test_id("night-rules-summary")).to_contain_text(
        "Pineapple: 2-4, own royalties: AA on top 12."
    )
    expect(anna.get_by_test_id("rules-fixed")).to_contain_text("These rules are fixed")

    # The next night changes the table for itself: 1-1-1, aces on top 20.
    finish(night)
    start_night(anna, group, users)
    anna.locator(".house-rules-night > summary").click()
    expect(anna.locator("#id_house-top_pair__AA")).to_have_value("12")
    anna.fill("#id_house-top_pair__AA", "20")
    anna.get_by_label("1-1-1: rows only, a scoop 3").check()
    anna.get_by_role("button", name="Start the night").click()
    expect(anna.get_by_test_id("house-rules")).to_have_text("1-1-1, own royalties: AA on top 20")

    # The group's defaults are as they were.
    anna.goto(f"/groups/{group.pk}/house-rules/")
    expect(anna.locator("main")).to_contain_text("2-4, own royalties: AA on top 12")
    expect(anna.locator("#id_top_pair__AA")).to_have_value("12")
