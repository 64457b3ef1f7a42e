"""A short night in Dutch and one in Chinese, on two phones whose browsers speak it.

Join by link, start a night, a sum that is off, a round through, a board of cards,
the settlement: every page in the phone's language, no English left besides names
and cards, and no text sticking out of its box. Screenshots of each step go to
test-results/languages/ for a person to look at.
"""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Night, User
from tests.e2e.conftest import PHONE
from tests.e2e.steps import pick_cards
from tests.helpers import PASSWORD
from tests.languages import EVERYWHERE, NAMES, english_only_words, leftover, texts_of

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "languages"
LOCALES = {"nl": "nl-NL", "zh-hans": "zh-CN"}
# What each language says at the steps the test waits for.
SAYS = {
    "nl": {
        "join": "Word lid van “Friday OFC”",
        "off": "2 punten te veel. Tel nog eens na.",
        "round 2": "Ronde 2",
        "settle": "Wie betaalt wie",
        "money": "€\u00a00,50",  # CLDR: a space that never breaks
        "royalties": "Royalties",
        "hint": "Kaarten die je nu tikt gaan naar de bovenrij.",
    },
    "zh-hans": {
        "join": "加入“Friday OFC”",
        "off": "多了 2 分。请核对计分。",
        "round 2": "第 2 手",
        "settle": "谁付给谁",
        "money": "€0.50",
        "royalties": "奖励分",
        "hint": "现在点的牌会放进头道。",
    },
}
ANNA = ("2c 3d 4h", "Qs Qd 5c 5d 9s", "Ah Jh 8h 6h 3h")  # a flush bottom: royalties 4
BRAM = ("Kc Kd 7s", "As Ad 9c 6d 2s", "Ts Td 4s 4c Js")  # kings on top: royalties 8

# Elements whose text ends beyond their own box, or beyond the phone's screen.
OVERFLOWING = """() => [...document.querySelectorAll("main *, header *, footer *")]
  .filter((el) => {
    if (el.closest("svg") || el.closest(".table-wrap") || el.closest(".sr-only")) return false;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden") return false;
    const box = el.getBoundingClientRect();
    if (box.width === 0) return false;
    const sticksOut = box.right > window.innerWidth + 1 || box.left < -1;
    // Fields scroll their own text; any other box must hold its text.
    const field = ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);
    const clipped = !field && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1
      && !["auto", "scroll"].includes(style.overflowX);
    return sticksOut || clipped;
  })
  .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent.trim().slice(0, 50)}`)
"""


def open_phone(browser, live_server, language):
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, locale=LOCALES[language]
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    return context, page


def look(page, language, step, english):
    """Screenshot the step and check its words and its layout."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{language}-{step}.png"), full_page=True)
    assert page.locator("html").get_attribute("lang") == language
    left = []
    for text in texts_of(page.content()):
        words = leftover(text, NAMES | EVERYWHERE)
        if language == "zh-hans" and words:
            left.append(text)  # a Chinese page has no Latin words of its own
        elif set(words) & english:
            left.append(text)
    assert left == [], f"English on the {step} page"
    assert page.evaluate(OVERFLOWING) == [], f"text out of its box on the {step} page"


def enter_total(page, points):
    page.locator("#entry-form input.points").fill(str(points))
    page.locator("#entry-form .points-row button[type=submit]").click()


@pytest.mark.parametrize("language", ["nl", "zh-hans"])
def test_a_short_night_in_the_phones_language(language, browser, live_server, make_group):
    says = SAYS[language]
    english = english_only_words()
    group = make_group(name="Friday OFC", members=("Anna",))
    contexts = []
    try:
        # Anna logs in on a phone set to the language and opens the group's invitation.
        context, anna = open_phone(browser, live_server, language)
        contexts.append(context)
        anna.goto("/login/")
        look(anna, language, "1-login", english)
        anna.fill("#id_username", "Anna")
        anna.fill("#id_password", PASSWORD)
        anna.locator("button[type=submit].primary").click()
        anna.wait_for_url(f"**/groups/{group.pk}/")
        link = anna.locator("#invite-link").input_value()

        # Bram joins by the link on his own phone.
        context, bram = open_phone(browser, live_server, language)
        contexts.append(context)
        bram.goto(link)
        expect(bram.locator("h1")).to_have_text(says["join"])
        look(bram, language, "2-join", english)
        bram.fill("#id_signup-name", "Bram")
        bram.fill("#id_signup-password", "pocket-aces-9")
        bram.locator("button[type=submit].primary").click()
        bram.wait_for_url(f"**/groups/{group.pk}/")
        look(bram, language, "3-group", english)

        # Anna starts a night for the two of them at fifty cents, typed with a comma.
        anna.goto(f"/groups/{group.pk}/nights/new/")
        anna.select_option("#id_seat_2", label="Bram")
        anna.fill("#id_point_value", "0,50")
        look(anna, language, "4-start", english)
        anna.locator("form.stack button[type=submit].primary").click()
        night = Night.objects.get()
        anna.wait_for_url(f"**/nights/{night.pk}/")
        assert night.point_cents == 50

        # Round 1: the totals do not add up, and both phones say so.
        bram.goto(f"/nights/{night.pk}/")
        enter_total(anna, 5)
        enter_total(bram, -3)
        for page in (anna, bram):
            expect(page.get_by_test_id("sum-status")).to_have_text(says["off"])
        look(bram, language, "5-sum-off", english)

        # Bram counts again: the round goes through and round 2 opens.
        enter_total(bram, -5)
        for page in (anna, bram):
            expect(page.locator(".round-no")).to_have_text(says["round 2"])
        look(anna, language, "6-round-through", english)

        # Round 2 on cards: both set their boards with the picker and the app counts.
        for page, rows in ((anna, ANNA), (bram, BRAM)):
            page.locator(".cards-link a").click()
            pick_cards(page, rows)
            # The picker's own words (picker.js) come in the page's language too.
            page.locator(".board-row[data-row='top'] .row-name").click()
            expect(page.locator("[data-hint]")).to_have_text(says["hint"])
            page.locator("button.save-board").click()
            expect(page.get_by_test_id("board-result")).to_contain_text(says["royalties"])
        look(anna, language, "7-board", english)
        expect(bram.get_by_test_id("board-status")).to_contain_text("+3", timeout=15_000)
        bram.reload()
        look(bram, language, "8-board-counted", english)

        # Anna ends the night and opens the settlement.
        anna.goto(f"/nights/{night.pk}/")
        anna.locator("form[action$='/end/'] button").click()
        anna.wait_for_url(f"**/nights/{night.pk}/")
        anna.locator(f"a[href='/nights/{night.pk}/settle/']").first.click()
        expect(anna.locator("h1")).to_have_text(says["settle"])
        look(anna, language, "9-settlement", english)
        share = anna.locator("#share-text").input_value()
        assert "Bram → Anna" in share and says["money"] in share
        assert User.objects.get(name="Bram").language == ""  # the phone's language was enough
    finally:
        for context in contexts:
            context.close()
