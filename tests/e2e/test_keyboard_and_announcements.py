"""The card picker driven by the keyboard alone, and the night's news said aloud.

A screen reader hears what the DOM says: each card's name in words, how full a row
is, which card is held, whose board holds a card; the page's one polite live region
(#announce) says what another phone saved or that the round went through; and after
Save, focus is on the line that says what was saved. On "Who's here tonight?", who
deals first follows each tick, on the page and in the same region.
"""

import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.steps import screenshots
from tests.helpers import enter, finish, make_night, play, seats_of, set_cards

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "who-is-here"

pytestmark = pytest.mark.django_db(transaction=True)

ANNA = ("Qh Qc 3d", "Ts Js Qd Kc Ah", "7d 7c 7s 2h 2s")
BRAM = ("Kh Kd 7h", "4c 4d 8s 8c Jd", "As Ks 9s 6s 3s")
CORA = ("2d 3c 5s", "Ac Ad 4s 6c 8d", "3h 4h 5h 6h 8h")

# What has focus, in words: the kind of stop, for counting the tab stops.
FOCUSED = """() => {
  const el = document.activeElement;
  if (el.closest('.deck')) return 'deck';
  const row = el.closest('.board-row');
  if (row) return (el.name === 'row' ? 'rows' : row.dataset.row);
  if (el.tagName === 'SUMMARY') return 'typed';
  if (el.matches('button.save-board')) return 'save';
  return el.tagName.toLowerCase() + '#' + el.id;
}"""
DECK = """() => [...document.querySelectorAll('.deck .deck-suit')]
  .map((suit) => [...suit.querySelectorAll('button')].map((b) => b.dataset.card))"""
AT = "() => document.activeElement.dataset.card"
# Whether the focused element shows, not under the sticky Save button (WCAG 2.4.11).
SHOWN = """() => {
  const el = document.activeElement, box = el.getBoundingClientRect();
  const seen = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return Boolean(seen && el.contains(seen));
}"""


def arrow_to(page, deck, code):
    """From the focused deck card to ``code``, with the arrow keys only."""
    where = {card: (s, i) for s, suit in enumerate(deck) for i, card in enumerate(suit)}
    here, there = where[page.evaluate(AT)], where[code]
    for _ in range(abs(there[0] - here[0])):
        page.keyboard.press("ArrowDown" if there[0] > here[0] else "ArrowUp")
    for _ in range(abs(there[1] - here[1])):
        page.keyboard.press("ArrowRight" if there[1] > here[1] else "ArrowLeft")
    assert page.evaluate(AT) == code


def test_a_whole_card_round_by_keyboard_alone(log_in_phone, live_server):
    night = make_night(("Anna", "Bram", "Cora"))
    set_cards(night, "Bram", *BRAM)
    anna = log_in_phone(night.seats.get(name="Anna").user)
    # A small phone: the deck runs on under the sticky Save button.
    anna.set_viewport_size({"width": 375, "height": 667})
    anna.goto(reverse("board_entry", args=[night.pk, 1, seats_of(night)["Anna"].pk]))

    # Words, not letters; a card on Bram's board says so and can still be reached.
    expect(anna.locator(".deck [data-card='As']")).to_have_attribute(
        "aria-label", "ace of spades, on Bram's bottom"
    )
    assert anna.locator(".deck [data-card='As']").evaluate("card => !card.disabled")
    expect(anna.locator(".deck [data-card='Qh']")).to_have_attribute(
        "aria-label", "queen of hearts"
    )
    expect(anna.locator("#left-top")).to_have_text("3 of 3 left")
    # Cora's board arrives: the page's live region says who is left, once.
    set_cards(night, "Cora", *CORA)
    expect(anna.locator("#announce")).to_have_text(
        "You still have to set your cards.", timeout=4_000
    )

    # From the rows' radios, Tab: the deck (52 cards) is one stop, then the typed
    # boxes' switch and Save.
    anna.focus("input[name=row][value=top]")
    anna.keyboard.press("Space")
    stops = []
    for _ in range(3):
        anna.keyboard.press("Tab")
        stops.append(anna.evaluate(FOCUSED))
    assert stops == ["deck", "typed", "save"]
    anna.keyboard.press("Shift+Tab")
    anna.keyboard.press("Shift+Tab")
    assert anna.evaluate(FOCUSED) == "deck"

    deck = anna.evaluate(DECK)
    for count, code in enumerate(" ".join(ANNA).split()):
        arrow_to(anna, deck, code)
        assert anna.evaluate(SHOWN), f"{code} is covered"
        anna.keyboard.press("Enter" if count % 2 else "Space")
    expect(anna.locator("#left-top")).to_have_text("0 of 3 left")
    expect(anna.locator("#left-bottom")).to_have_text("0 of 5 left")
    expect(anna.locator(".deck [data-card='Qh']")).to_have_attribute(
        "aria-label", "queen of hearts, on your board: top"
    )

    # A placed card picked up is pressed, and said; put back, focus stays on it.
    anna.focus("input[name=row][value=top]")
    anna.keyboard.press("Tab")
    assert anna.evaluate(FOCUSED) == "top"
    anna.keyboard.press("ArrowRight")
    anna.keyboard.press("Enter")
    held = anna.locator(".board-row[data-row='top'] .slots [data-card='Qc']")
    expect(held).to_have_attribute("aria-pressed", "true")
    expect(anna.locator("#announce")).to_contain_text("queen of clubs")
    anna.keyboard.press("Enter")  # again: back in the deck
    expect(anna.locator("#left-top")).to_have_text("1 of 3 left")
    assert anna.evaluate(AT) == "Qc"  # focus followed it to the deck
    anna.keyboard.press("Enter")  # held again, waiting for a row
    expect(anna.locator(".deck [data-card='Qc']")).to_have_attribute("aria-pressed", "true")
    expect(anna.locator("#announce")).to_have_text("Now tap a row for the queen of clubs.")
    anna.focus("input[name=row][value=top]")
    anna.keyboard.press("Space")
    expect(anna.locator("#left-top")).to_have_text("0 of 3 left")

    # Every row is one stop, the deck one, then the switch and Save.
    anna.focus("input[name=row][value=top]")
    stops = []
    for _ in range(6):
        anna.keyboard.press("Tab")
        stops.append(anna.evaluate(FOCUSED))
    assert stops == ["top", "middle", "bottom", "deck", "typed", "save"]
    anna.keyboard.press("Enter")

    # Counted: the page opens on what happened, the royalty named as one.
    expect(anna.locator("#messages")).to_be_focused()
    expect(anna.locator("#messages")).to_contain_text("round 1 went through")
    bottom = anna.locator(".result-rows li").nth(2)
    expect(bottom.locator(".pc[role=img][aria-label='seven of diamonds']")).to_have_count(1)
    expect(bottom.locator(".row-hand")).to_contain_text("royalties 6")


def test_another_phones_total_is_said_in_words_and_focus_stays_on_the_saved_line(
    log_in_phone, live_server
):
    night = make_night(("Anna", "Bram", "Cora"))
    anna = log_in_phone(night.seats.get(name="Anna").user)
    anna.goto(reverse("night_detail", args=[night.pk]))
    announce = anna.locator("#announce")
    expect(announce).to_have_attribute("aria-live", "polite")

    enter(night, "Bram", -2)
    # One poll (every 2 s) later, in words, not the whole list again.
    expect(announce).to_have_text(
        re.compile(r"^Bram saved −2\. Waiting for Anna and Cora\.$"), timeout=4_000
    )

    anna.focus("input[name=points]")
    anna.keyboard.type("5")
    anna.keyboard.press("Enter")
    saved = anna.locator("#entry-form .saved")
    expect(saved).to_contain_text("Saved: +5.")
    expect(saved).to_be_focused()

    expect(announce).to_have_text("Waiting for Cora.")  # where the round stands

    # A sum that is off is said in the same region, once, with who saved it.
    enter(night, "Cora", -1)
    expect(announce).to_have_text(
        "Cora saved −1. 2 points too many. Check your counts.", timeout=4_000
    )
    assert anna.locator("[role=alert]", has_text="too many").count() == 0  # not said twice

    # The big screen says it too, in its own region.
    screen = anna.context.new_page()
    screen.goto(reverse("night_screen", args=[night.pk]))
    enter(night, "Cora", -3)
    # The phone says the round's news in the words it shows (issue 32).
    expect(announce).to_have_text(
        re.compile(r"^Round 1 went through · Anna \+5 · Bram −2 · Cora −3\b"), timeout=4_000
    )
    expect(screen.locator("#announce")).to_have_text(
        re.compile(r"^Round 1 went through\. Waiting for "), timeout=4_000
    )
    assert anna.evaluate("document.activeElement !== document.body")


def test_who_deals_first_follows_the_ticks_on_who_is_here(log_in_phone, live_server):
    # Bram dealt the last hand: Cora, one seat on, would deal first tonight.
    night = make_night(("Anna", "Bram", "Cora"), dealer=1)
    last = finish(play(night, {"Anna": 1, "Bram": -1, "Cora": 0}))
    anna = log_in_phone(last.seats.get(name="Anna").user)
    anna.goto(reverse("night_same_table", args=[last.group_id]))
    line = anna.get_by_test_id("button-note")
    expect(line).to_have_text("The button moves one seat on from last time: Cora deals first.")

    anna.get_by_role("checkbox", name=re.compile("Cora")).uncheck()
    expect(line).to_have_text("The button moves one seat on from last time: Anna deals first.")
    # The mark beside the name moved with it, and the region said the new line.
    expect(anna.get_by_test_id("button-on")).to_have_count(1)
    expect(anna.locator("label", has=anna.get_by_test_id("button-on"))).to_contain_text("Anna")
    expect(anna.locator("#announce")).to_have_text(
        "The button moves one seat on from last time: Anna deals first."
    )
    expect(anna.get_by_role("checkbox", name=re.compile("Cora"))).to_be_focused()
    screenshots(anna, SHOTS)

    # Started as ticked, the night's first round is Anna's to deal, as the line said.
    anna.get_by_role("button", name="Start the night").click()
    anna.wait_for_url("**/nights/*/")
    night = last.group.nights.exclude(pk=last.pk).get()
    assert night.rounds.get().dealer.name == "Anna"
