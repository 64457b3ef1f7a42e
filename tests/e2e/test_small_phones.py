"""The page states of the accessibility test on small phones: an iPhone SE (375x667)
and the narrowest screen WCAG reflows to (320x568), in English and in the languages
with the longest words (German, Dutch).

No page scrolls sideways (WCAG 1.4.10; a wide table scrolls inside its own box) and
no card's rank breaks over two lines; a bar kept at the foot of the screen (the card
page's Save) never covers a control for good: scrolled to the end of the page, or to
a control that takes focus, every control is clear of it. The card picker and the
totals forms pass axe at 320x568, where a card under the Save bar counts as too small
a target.

The connection banner stuck to the top takes three lines in German at 320 px: a
control focused from below (Shift+Tab) still scrolls clear of it.

One page per visitor, each state loaded once per language and looked at in both
sizes (a resize lays the page out again, as turning a phone does).
"""

import time

import pytest
from django.conf import settings
from django.urls import reverse

from scorekeeper.models import User
from tests.e2e.axe import load_axe, problems
from tests.e2e.test_accessibility import build_states, night_in_new_group, night_to_undo
from tests.helpers import enter, seats_of

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = ({"width": 375, "height": 667}, {"width": 320, "height": 568})
LANGUAGES = ("en", "de", "nl")
# The card picker and the totals forms, checked by axe at the narrowest size.
AXE_STATES = ("cards placed", "cards and a typed total", "night, empty", "night, sum off")

# What a person can tap or type in, as shown now.
CONTROLS = "a[href], button:not(.sr-only), input:not([type=hidden]), select, textarea, summary"

# How wide the page is against the screen, and each card whose rank breaks ("1" over
# "0" in a 320 px deck): the rank's own text is on more than one line.
FIT = """() => ({
  width: document.documentElement.scrollWidth, screen: window.innerWidth,
  split: [...document.querySelectorAll('.pc')].filter((card) => {
    const text = card.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE || !card.checkVisibility()) return false;
    const range = document.createRange();
    range.selectNodeContents(text);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
  }).map((card) => card.textContent),
})"""

# Each bar stuck to the bottom of the screen: its box, and the controls it covers.
# At the end of the page no control may be under a bar; and each control, focused
# (the browser scrolls it into view, minding html's scroll-padding), shows clear.
COVERED = """(controls) => {
  const bars = [...document.querySelectorAll('body *')].filter((el) => {
    const style = getComputedStyle(el);
    return ['fixed', 'sticky'].includes(style.position) && style.bottom !== 'auto'
      && el.checkVisibility();
  });
  if (!bars.length) return null;
  // checkVisibility: not in a closed <details> either.
  const shown = [...document.querySelectorAll(controls)].filter((el) =>
    el.checkVisibility() && !bars.some((bar) => bar.contains(el)));
  const name = (el) => el.outerHTML.slice(0, 70);
  const under = (el) => {
    const box = el.getBoundingClientRect();
    return bars.some((bar) => {
      const b = bar.getBoundingClientRect();
      return box.bottom > b.top && box.top < b.bottom && box.right > b.left && box.left < b.right;
    });
  };
  window.scrollTo(0, document.documentElement.scrollHeight);
  const atTheEnd = shown.filter(under).map(name);
  window.scrollTo(0, 0);
  const focused = shown.filter((el) => { el.focus(); return under(el); }).map(name);
  document.activeElement.blur();
  window.scrollTo(0, 0);
  return {atTheEnd, focused};
}"""


def look(page, where, failures) -> bool:
    """Each size in turn: no sideways scrolling, no card's rank split over two lines,
    and no control left under a bar. Whether the page has a bar."""
    page.wait_for_load_state("load")
    barred = False
    for size in SIZES:
        page.set_viewport_size(size)
        at = f"{where} at {size['width']}x{size['height']}"
        fit = page.evaluate(FIT)
        if fit["width"] > fit["screen"]:
            failures.append(f"{at}: {fit['width']} px wide on a {fit['screen']} px screen")
        failures += [f"{at}: the card {card} takes two lines" for card in fit["split"]]
        covered = page.evaluate(COVERED, CONTROLS)
        if covered is None:
            continue
        barred = True
        for kind in ("atTheEnd", "focused"):
            failures += [f"{at}, {kind}: under the bar: {el}" for el in covered[kind]]
    return barred


def test_small_phones_reflow_and_no_bar_covers_a_control(phone, log_in_phone, live_server):
    started = time.monotonic()
    states = build_states()
    # Besides the accessibility test's states: the card page with a box for a total
    # (Bram typed his), the last input above the Save bar.
    typed = night_in_new_group("Typed")
    enter(typed, "Bram", 3)
    anna_seat = seats_of(typed)["Anna"]
    states["cards and a typed total"] = (
        reverse("board_entry", args=[typed.pk, 1, anna_seat.pk]),
        User.objects.get(name="Anna"),
    )
    undo_nights = {language: night_to_undo(language) for language in LANGUAGES}
    anonymous = phone()
    anna = log_in_phone(User.objects.get(name="Anna"))
    anna.on("dialog", lambda dialog: dialog.accept())
    load_axe(anna.context)

    failures: list[str] = []
    barred: set[str] = set()
    for language in LANGUAGES:
        User.objects.filter(name="Anna").update(language=language)
        anonymous.context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        )
        for name, (url, who) in states.items():
            page = anna if who else anonymous
            page.goto(url)
            assert page.locator("html").get_attribute("lang") == language, (name, language)
            if name == "cards and a typed total":
                assert page.locator("input[name=points]").is_visible()
            if look(page, f"{name} [{language}]", failures):
                barred.add(name)
            if name in AXE_STATES:  # left at 320x568 by look()
                page.evaluate("window.scrollTo(0, 0)")
                failures += [f"{name} [{language}], axe: {found}" for found in problems(page)]
        anna.set_viewport_size(SIZES[0])
        anna.goto(reverse("night_detail", args=[undo_nights[language].pk]))
        anna.locator("#actions form[action$='/undo/'] button").click()
        anna.wait_for_selector("ul.messages")
        look(anna, f"night, after an undo [{language}]", failures)
    print(f"small phones: {time.monotonic() - started:.1f} s")
    # The card pages' Save bar was found, so the bar checks looked at something.
    assert {"cards placed", "cards and a typed total"} <= barred, barred
    assert failures == [], "\n".join(failures)


# Each control that, focused, lies under the connection banner stuck to the top.
UNDER_THE_BANNER = """(controls) => {
  const banner = document.getElementById('connection');
  const shown = [...document.querySelectorAll(controls)].filter((el) =>
    el.checkVisibility() && !banner.contains(el));
  // From the end of the page upwards, as Shift+Tab goes: each control scrolls in at
  // the top, where the banner is.
  window.scrollTo(0, document.documentElement.scrollHeight);
  const under = shown.reverse().filter((el) => {
    el.focus();
    const box = el.getBoundingClientRect(), b = banner.getBoundingClientRect();
    return box.bottom > b.top + 1 && box.top < b.bottom - 1;
  }).map((el) => el.outerHTML.slice(0, 70));
  document.activeElement.blur();
  return {under, banner: banner.offsetHeight, controls: shown.length};
}"""


def test_a_control_that_takes_focus_scrolls_clear_of_a_connection_banner_of_three_lines(
    log_in_phone,
):
    night = night_in_new_group("Banner")
    anna = User.objects.get(name="Anna")
    User.objects.filter(pk=anna.pk).update(language="de")
    page = log_in_phone(anna)
    page.set_viewport_size(SIZES[1])
    page.goto(reverse("board_entry", args=[night.pk, 1, seats_of(night)["Anna"].pk]))
    # What app.js shows when a save finds no connection, in the page's language.
    page.evaluate(
        """() => {
          const banner = document.getElementById('connection');
          banner.textContent = document.body.dataset.textNoConnection;
          banner.hidden = false;
        }"""
    )
    # A resize is observed before the next frame is painted.
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    found = page.evaluate(UNDER_THE_BANNER, CONTROLS)
    assert found["controls"] > 40  # the deck's cards, the rows, Save
    assert found["banner"] > 56, found  # taller than the 3.5rem kept for it before
    assert found["under"] == [], found["under"]
