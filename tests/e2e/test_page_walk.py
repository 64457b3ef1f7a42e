"""Every page state of a real night, walked once in each language, checked at each
phone width and in both colour schemes.

The nights are built once through the services. Then, per language, two phones whose
browser speaks it (a stranger, and Anna logged in, her account's language left unset)
open each state once; the page is looked at in each size (a resize lays it out again,
as turning a phone does) and each scheme (emulated, without loading it again):

- axe-core at WCAG 2.2 AA (tests/e2e/axe.py): every rule at 390 px in the first
  scheme, the contrast rule again in the other in English (a scheme changes colours
  only, and the colours are the same in every language; the languages take the first
  scheme by turns, so each scheme has every rule run in two languages), the
  rules a width can break (target sizes, scrolling regions) at 360 px, and every
  rule at 320 px on the card picker and the totals forms, where a card under the
  Save bar counts as too small a target;
- no page scrolls sideways (WCAG 1.4.10 reflows to 320 px; a wide table scrolls inside
  its own box), no text sticks out of its box, no Latin word is broken over two lines,
  no card's rank takes two lines, every button and field of the main pages is tall
  enough for a thumb (44 px), and no bar kept at the foot of the screen (the card
  page's Save) covers a control for good: scrolled to the end, or to a control that
  takes focus, every control is clear of it;
- the page is in the phone's language (``lang``, the words each language must show,
  and no English sentence left on a Dutch, German or Chinese page), with a full-page
  screenshot of each state at 360 px (and in English at 390 px, light and dark) in
  test-results/languages/ for a person to look at;
- details of the card pages (each pair's names and points on one line, row names clear
  of their cards, whose cards are whose in both schemes) and of the all-nights table
  at two stakes.

The night page after an undo is reached by pressing Undo on the phone, so its one-off
message (and the focus on it) is checked too.
"""

import re
import time
from datetime import timedelta
from importlib import import_module
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from scorekeeper.models import Group, Phone, SignInCode, User
from scorekeeper.models.pay_details import PayDetails
from scorekeeper.services.round_fixes import edit_round
from scorekeeper.services.rounds import record_entry
from scorekeeper.services.sign_ins import make_sign_in_code
from tests.e2e.axe import load_axe, problems
from tests.e2e.conftest import log_in_context
from tests.helpers import (
    enter,
    finish,
    make_group,
    make_night,
    members_since,
    play,
    seats_of,
    set_cards,
)
from tests.languages import EVERYWHERE, NAMES, english_only_words, leftover, texts_of

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ("Anna", "Bram", "Chris")
ANNA = ("2c 3d 4h", "Qs Qd 5c 5d 9s", "Ah Jh 8h 6h 3h")  # a flush bottom: royalties 4
BRAM = ("Kc Kd 7s", "As Ad 9c 6d 2s", "Ts Td 4s 4c Js")  # kings on top: royalties 8
CHRIS = ("Qc Qh 2d", "7c 8d 9h Jd 2h", "6s 6c Kh Ks 3s")  # fouled

LANGUAGES = [code for code, _ in settings.LANGUAGES]
# What each phone's browser asks for: a language with its region, as phones send it.
LOCALES = {"en": "en-GB", "nl": "nl-NL", "zh-hans": "zh-CN", "de": "de-DE"}
SCHEMES = ("light", "dark")
# The page's background in each scheme (app.css), to be sure the scheme took.
BACKGROUND = {"light": "rgb(246, 244, 239)", "dark": "rgb(20, 23, 28)"}
WIDE, NARROW, SMALLEST = (
    {"width": 390, "height": 844},  # the common phone
    {"width": 360, "height": 740},  # the narrowest common phone
    {"width": 320, "height": 568},  # the narrowest screen WCAG reflows to (an iPhone SE)
)
SIZES = (WIDE, NARROW, SMALLEST)
# The rules a narrower screen can break; the others read the markup and the words.
WIDTH_RULES = ["target-size", "scrollable-region-focusable"]
# The card picker and the totals forms: every rule at the smallest size too.
AXE_SMALLEST = {"cards placed", "cards and a typed total", "night, empty", "night, sum off"}
# The pages whose buttons and fields must be 44 px tall.
TOUCH = {
    "login", "join", "sign in", "home", "group", "start a night", "night, empty", "night, sum off",
    "night, after a round", "rounds", "fix", "add a seat",
}  # fmt: skip
SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "languages"
# Words each language's pages must show, by state (a page left in English fails).
SAYS = {
    "nl": {
        "join": "Word lid van “Friday OFC”",
        "sign in": "Aanmelden als Bram",
        "night, sum off": "2 punten te veel. Tel nog eens na.",
        "night, after a round": "Ronde 2",
        "settlement": "Wie betaalt wie",
        "cards counted": "Royalties",
        "hint": "Tik je nu op een kaart, dan gaat die naar de bovenrij.",
        "money": "€\u00a00,20",  # CLDR: a space that never breaks
    },
    "zh-hans": {
        "join": "加入“Friday OFC”",
        "sign in": "以 Bram 的身份登录",
        "night, sum off": "多了 2 分。请核对计分。",
        "night, after a round": "第 2 手",
        "settlement": "谁付给谁",
        "cards counted": "奖励分",
        "hint": "现在点的牌会放进头道。",
        "money": "€0.20",
    },
    "de": {"settlement": "Wer zahlt wem"},
}

# What the settlement says of a bank payment in any language, and a currency's name.
BANKING = {"IBAN", "NL", "NL91ABNA0417164300"}
CURRENCY = re.compile(r"\([A-Z]{3}\)$")

# Everything of a page's layout at the size it has now, in one call.
LAYOUT = """(touch) => {
  const shown = (el) => el.checkVisibility();
  // Elements whose text ends beyond their own box, or beyond the screen.
  const overflowing = [...document.querySelectorAll("main *, header *, footer *")]
    .filter((el) => {
      if (el.closest("svg, .table-wrap, .sr-only, .copy-source")) return false;
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
    .map((el) => `${el.tagName.toLowerCase()}.${el.className}: `
      + el.textContent.trim().slice(0, 50));
  // Words split across two lines: body's overflow-wrap breaks a word that does not fit
  // rather than let it stick out, so a box too narrow for its words shows here. Only
  // words with Latin letters (Chinese wraps between any two characters by design); a
  // line may end at a hyphen ("ace-jack-" over "eight"), as in print.
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest("svg, script, style, .sr-only, [hidden], option")) continue;
    if (!el.getClientRects().length) continue;
    for (const match of node.data.matchAll(/[A-Za-zÀ-ÿ'’.]{2,}/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(`${el.tagName.toLowerCase()}.${el.className}: ${match[0]}`);
    }
  }
  // Each card whose rank breaks ("1" over "0" in a 320 px deck).
  const split = [...document.querySelectorAll(".pc")].filter((card) => {
    const text = card.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE || !shown(card)) return false;
    const range = document.createRange();
    range.selectNodeContents(text);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
  }).map((card) => card.textContent);
  // Buttons and fields of the main part shorter than a thumb (44 px).
  const small = !touch ? [] : [...document.querySelectorAll("main button, main .button,"
      + " main input:not([type=hidden]), main select, main summary")]
    .filter((el) => el.offsetParent !== null && !["checkbox", "radio"].includes(el.type))
    .map((el) => [el.outerHTML.slice(0, 80), el.getBoundingClientRect().height])
    .filter(([, height]) => height < 44);
  return {width: document.documentElement.scrollWidth, screen: window.innerWidth,
    overflowing, broken, split, small};
}"""

# What a person can tap or type in, as shown now.
CONTROLS = "a[href], button:not(.sr-only), input:not([type=hidden]), select, textarea, summary"

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

# Each pairing's "Anna v Bram" in the breakdown: the rectangles of its text and of
# its points.
PAIR_LINES = """() => [...document.querySelectorAll('[data-testid=breakdown] .pair-line')]
  .map(line => {
    const first = line.querySelector('strong');
    const range = document.createRange();
    range.setStartBefore(first);
    range.setEndAfter(first.nextSibling.nodeType === Node.TEXT_NODE
      ? first.nextSibling : first.parentNode);
    const names = [...range.getClientRects()].filter(rect => rect.width > 0);
    const points = line.querySelector('.num').getBoundingClientRect();
    return {
      text: range.toString().trim(),
      tops: names.map(rect => Math.round(rect.top)),
      top: Math.min(...names.map(rect => rect.top)),
      bottom: Math.max(...names.map(rect => rect.bottom)),
      pointsTop: points.top, pointsBottom: points.bottom,
    };
  })"""

# How far each row name's text ends from the first card beside it (px).
ROW_NAME_ROOM = """([row, cards]) => [...document.querySelectorAll(row)].map(name => {
  const range = document.createRange();
  range.selectNodeContents(name);
  const text = range.getBoundingClientRect();
  const first = name.parentElement.querySelector(cards).getBoundingClientRect();
  return [name.textContent.trim(), first.left - text.right];
})"""

# Whether Save cards is on the first screen with nothing over it, and whether, scrolled
# to the end, it is where the form ends, below the box for a typed total.
SAVE_BAR = """() => {
  const save = document.querySelector('button.save-board');
  const box = save.getBoundingClientRect();
  const onScreen = box.top >= 0 && box.bottom <= window.innerHeight;
  const uncovered = save.contains(document.elementFromPoint(box.left + 20, box.top + 10));
  window.scrollTo(0, document.body.scrollHeight);
  const end = save.getBoundingClientRect();
  const typed = document.querySelector('details.typed summary').getBoundingClientRect();
  const atTheEnd = end.top >= 0 && end.bottom <= window.innerHeight && typed.bottom <= end.top;
  window.scrollTo(0, 0);
  return {onScreen, uncovered, atTheEnd};
}"""

LOOK = """el => { const s = getComputedStyle(el);
  return [s.backgroundColor, s.borderTopStyle, s.borderTopColor, s.opacity, s.color]; }"""


def night_in_new_group(name, **options):
    group = make_group(name, members=PLAYERS)
    return make_night(PLAYERS, group=group, **options)


def build_states():
    """The page states, by name: (address, whether Anna sees it; a stranger otherwise)."""
    first = make_group("Friday OFC", members=PLAYERS)
    empty = make_night(PLAYERS, group=first)

    sum_off = night_in_new_group("OFC 2")
    enter(sum_off, "Anna", 5)
    enter(sum_off, "Bram", -1)
    enter(sum_off, "Chris", -2)

    # A round through, and the next one waiting: Anna has saved hers.
    after_round = play(
        night_in_new_group("OFC 3", game="progressive"), {"Anna": 4, "Bram": -1, "Chris": -3}
    )
    anna_seat = seats_of(after_round)["Anna"]
    # Round 1 fixed once, so the rounds page shows a round's history in every language.
    fixed = {
        seat.pk: points for seat, points in zip(after_round.seats.all(), (5, -2, -3), strict=True)
    }
    edit_round(night=after_round, number=1, points=fixed, edited_by=anna_seat.user)
    record_entry(
        night=after_round, round_number=2, seat=anna_seat, points=3, entered_by=anna_seat.user
    )

    cards = night_in_new_group("OFC 4")
    set_cards(cards, "Anna", *ANNA)
    set_cards(cards, "Bram", *BRAM)
    counted = night_in_new_group("OFC 5", game="pineapple")
    for name, board in zip(PLAYERS, (ANNA, BRAM, CHRIS), strict=True):
        set_cards(counted, name, *board)
    # The card page with a box for a total (Bram typed his), the last input above the
    # Save bar; Chris has set his cards, so the deck shows whose cards are whose.
    typed = night_in_new_group("OFC 6", game="pineapple")
    enter(typed, "Bram", 3)
    set_cards(typed, "Chris", *CHRIS)

    done = play(night_in_new_group("OFC 7"), {"Anna": 6, "Bram": -2, "Chris": -4})
    finish(done)
    # Two nights at two stakes, for the all-nights table's points per stake.
    low = night_in_new_group("OFC 8", point_cents=10)
    play(low, {"Anna": 40, "Bram": -40, "Chris": 0})
    finish(low)
    high = make_night(PLAYERS, group=low.group, point_cents=50)
    play(high, {"Anna": -12, "Bram": 12, "Chris": 0})
    finish(high)

    anna = User.objects.get(name="Anna")
    # Anna is paid by bank, so the settlement's lines to her show the payment code.
    PayDetails.objects.create(user=anna, iban="NL91ABNA0417164300", holder="Anna")
    seat = {night: seats_of(night)["Anna"].pk for night in (cards, counted, typed)}
    # A one-time sign-in code Anna made for Bram, its page opened by the phone it is for
    # (a stranger until it signs in); kept working for the whole walk, not 10 minutes.
    members_since(high.group, days=30)  # Anna may sign in Bram, who sat with her
    sign_in = make_sign_in_code(user=User.objects.get(name="Bram"), made_by=anna)
    SignInCode.objects.filter(pk=sign_in.pk).update(expires_at=timezone.now() + timedelta(days=1))
    return {
        "login": (reverse("login"), False),
        "join": (reverse("join", args=[first.invite_token]), False),
        "sign in": (reverse("sign_in", args=[sign_in.code]), False),
        "404": ("/no-such-page/", False),
        "home": (reverse("home") + "?stay=1", True),
        "group": (reverse("group_detail", args=[first.pk]), True),
        "start a night": (reverse("night_start", args=[done.group.pk]), True),
        "who is here": (reverse("night_same_table", args=[done.group.pk]), True),
        "night, empty": (reverse("night_detail", args=[empty.pk]), True),
        "night, sum off": (reverse("night_detail", args=[sum_off.pk]), True),
        "night, after a round": (reverse("night_detail", args=[after_round.pk]), True),
        "add a seat": (reverse("seat_add", args=[after_round.pk]), True),
        "cards placed": (reverse("board_entry", args=[cards.pk, 1, seat[cards]]), True),
        "cards counted": (reverse("board_entry", args=[counted.pk, 1, seat[counted]]), True),
        "cards and a typed total": (reverse("board_entry", args=[typed.pk, 1, seat[typed]]), True),
        "rounds": (reverse("night_rounds", args=[after_round.pk]), True),
        "fix": (reverse("round_edit", args=[after_round.pk, 1]), True),
        "settlement": (reverse("night_settle", args=[done.pk]), True),
        "all nights": (reverse("group_table", args=[low.group.pk]), True),
        "player": (reverse("player_history", args=[done.group.pk, anna.pk]), True),
        "house rules": (reverse("group_house_rules", args=[first.pk]), True),
        "account": (reverse("account"), True),
        "night rules": (reverse("night_rules", args=[after_round.pk]), True),
        "rules": (reverse("rules"), True),
        "big screen": (reverse("night_screen", args=[after_round.pk]), True),
    }


class Walk:
    """What the walk found wrong, in words, and what it looked at."""

    def __init__(self) -> None:
        self.failures: list[str] = []
        self.barred: set[str] = set()
        self.english = english_only_words()
        self.seconds: dict[str, float] = {}

    def timed(self, what: str, started: float) -> None:
        self.seconds[what] = self.seconds.get(what, 0) + time.monotonic() - started

    def fail(self, where: str, found: list) -> None:
        self.failures += [f"{where}: {item}" for item in found]

    def state(self, page, name, language, schemes) -> None:
        """The state now open on ``page``: every check, at every size and scheme."""
        where = f"{name} [{language}]"
        page.wait_for_load_state("load")
        assert page.locator("html").get_attribute("lang") == language, where
        says = SAYS.get(language, {}).get(name)
        if says:
            assert says in page.locator("body").inner_text(), (where, says)
        started = time.monotonic()
        self.words(page, where, language)
        self.timed("words", started)
        # The box for a typed total, open: the longest words of the card page.
        page.locator("details.typed").evaluate_all("els => els.forEach(e => e.open = true)")
        for size in SIZES:
            started = time.monotonic()
            self.layout(page, name, language, size)
            self.timed("layout", started)
            started = time.monotonic()
            if size is WIDE:
                # Colours are the same in every language: the other scheme's contrast
                # is checked in English (and in full in the languages that start in it).
                for index, scheme in enumerate(schemes if language == "en" else schemes[:1]):
                    page.emulate_media(color_scheme=scheme)
                    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
                    assert background == BACKGROUND[scheme], (where, scheme)
                    found = problems(page, colours_only=index > 0)
                    self.fail(f"{where}, {scheme}, axe", found)
                    if language == "en":
                        self.shoot(page, name, language, size, scheme)
                page.emulate_media(color_scheme=schemes[0])
            elif size is NARROW:
                self.fail(f"{where}, 360 px, axe", problems(page, rules=WIDTH_RULES))
            elif name in AXE_SMALLEST:
                page.evaluate("window.scrollTo(0, 0)")
                self.fail(f"{where}, 320 px, axe", problems(page))
            self.timed("axe", started)
            if size is NARROW:
                self.shoot(page, name, language, size, schemes[0])
        page.set_viewport_size(WIDE)

    def shoot(self, page, name, language, size, scheme) -> None:
        """A screenshot for a person to look at: every state at 360 px in each
        language (the scheme of the language's turn), and in English at 390 px in both."""
        started = time.monotonic()
        slug = re.sub(r"[^a-z0-9]+", "-", name)
        path = SHOTS / f"{size['width']}-{language}-{scheme}-{slug}.png"
        page.screenshot(path=str(path), full_page=True)
        self.timed("screenshots", started)

    def layout(self, page, name, language, size) -> None:
        page.set_viewport_size(size)
        at = f"{name} [{language}] at {size['width']}x{size['height']}"
        found = page.evaluate(LAYOUT, name in TOUCH)
        if found["width"] > found["screen"]:
            self.fail(at, [f"{found['width']} px wide on a {found['screen']} px screen"])
        self.fail(at, [f"the card {card} takes two lines" for card in found["split"]])
        if size is not SMALLEST:  # what holds at 320 px is the reflow
            self.fail(f"{at}, out of its box", found["overflowing"])
            self.fail(f"{at}, a word broken", found["broken"])
            self.fail(f"{at}, too small a target", found["small"])
        covered = page.evaluate(COVERED, CONTROLS)
        if covered is not None:
            self.barred.add(name)
            for kind in ("atTheEnd", "focused"):
                self.fail(f"{at}, {kind}, under the bar", covered[kind])

    def words(self, page, where, language) -> None:
        """No English sentence left: a Chinese page has no Latin words of its own. The
        account page's examples of payment links and the currencies' names (each with
        its ISO code) are left out."""
        if language == "en" or where.startswith("account "):
            return
        left = []
        for text in texts_of(page.content()):
            if CURRENCY.search(text):
                continue
            words = leftover(text, NAMES | EVERYWHERE | BANKING)
            if (language == "zh-hans" and words) or set(words) & self.english:
                left.append(text)
        self.fail(f"{where}, English left", left)


def check_cards_counted(page, where, failures) -> None:
    """Each pairing's names and points on one line, row names clear of their cards."""
    for size in SIZES[:2]:
        page.set_viewport_size(size)
        lines = page.evaluate(PAIR_LINES)
        assert len(lines) == 3, where
        for line in lines:
            # One line: bold and plain text may sit a pixel or two apart, a new line 20 px.
            if max(line["tops"]) - min(line["tops"]) >= 8:
                failures.append(f"{where} at {size['width']}: {line['text']} wraps")
            # The points sit on the names' line.
            if not (line["pointsTop"] < line["bottom"] and line["pointsBottom"] > line["top"]):
                failures.append(f"{where} at {size['width']}: {line['text']}'s points apart")
            if abs(line["pointsTop"] - line["top"]) >= 6:
                failures.append(f"{where} at {size['width']}: {line['text']}'s points lower")
        for name, room in page.evaluate(ROW_NAME_ROOM, [".result-rows .row-label", ".pc"]):
            if room < 4:
                failures.append(f"{where}: {name} runs into its first card ({room:.1f} px)")
    page.set_viewport_size(WIDE)


def check_the_picker(page, where, language, schemes, failures) -> None:
    """Save cards on the first screen and at the form's end; row names clear of their
    cards; her own cards told from another board's in either scheme. Last on the page:
    it places cards."""
    assert page.locator("input[name=points]").is_visible(), where  # the box for a total
    for size in SIZES:
        page.set_viewport_size(size)
        bar = page.evaluate(SAVE_BAR)
        if not all(bar.values()):
            failures.append(f"{where} at {size['width']}: Save cards {bar}")
        for name, room in page.evaluate(ROW_NAME_ROOM, [".board-row .row-name", ".slots > *"]):
            if room < 4:
                failures.append(f"{where}: {name} runs into its first card ({room:.1f} px)")
    page.set_viewport_size(WIDE)
    # The picker's own words (picker.js) come in the page's language too.
    page.locator(".board-row[data-row='top'] .row-name").click()
    if "hint" in SAYS.get(language, {}):
        expect(page.locator("[data-hint]")).to_have_text(SAYS[language]["hint"])
    # Two hearts on her own bottom; Chris's K♥ is on his board.
    page.locator(".board-row[data-row='bottom'] .row-name").click()
    for code in ("Ah", "Jh"):
        page.locator(f".deck button[data-card='{code}']").click()
    mine = page.locator(".deck button[data-card='Ah']")
    theirs = page.locator(".deck button[data-card='Kh']")
    free = page.locator(".deck button[data-card='Th']")
    expect(mine).to_have_class("pc hearts placed")
    expect(theirs).to_have_attribute("aria-disabled", "true")
    for scheme in schemes:
        page.emulate_media(color_scheme=scheme)
        own, other, available = (card.evaluate(LOOK) for card in (mine, theirs, free))
        background, border, border_colour, opacity, _ = range(5)
        assert own[background] != other[background], scheme
        assert own[border] == "solid" and other[border] == "dashed", scheme
        assert own[border_colour] != available[border_colour], scheme
        # Her own cards stay readable; the other boards' fade out.
        assert float(own[opacity]) == 1 and float(other[opacity]) < 0.5, scheme
        assert own != available, scheme
    page.emulate_media(color_scheme=schemes[0])


def check_all_nights(page, where, language, failures) -> None:
    rows = page.locator("[data-testid=group-table] tbody tr")
    expect(rows).to_have_count(3)
    assert [row.get_attribute("data-player") for row in rows.all()] == ["Bram", "Chris", "Anna"]
    if language != "en":
        return
    expect(rows.first.locator(".stakes")).to_have_text("−40 at €0.10 +12 at €0.50")
    page.set_viewport_size(NARROW)
    # Every column in view: the table does not scroll sideways inside its box.
    if not page.locator(".table-wrap").evaluate("el => el.scrollWidth <= el.clientWidth"):
        failures.append(f"{where}: the table scrolls sideways at 360 px")
    names = page.locator("[data-testid=group-table] tbody td:first-child a")
    if not all(name.evaluate("el => el.getClientRects().length") == 1 for name in names.all()):
        failures.append(f"{where}: a player's name takes two lines at 360 px")
    page.set_viewport_size(WIDE)


# One test a language, so the four walks share the test run's workers.
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_state_in_a_language_at_every_width_and_scheme(browser, live_server, language):
    started = time.monotonic()
    states = build_states()
    print(f"states built in {time.monotonic() - started:.1f} s")
    undo_night = play(night_in_new_group("OFC 10"), {"Anna": 2, "Bram": -2, "Chris": 0})
    anna = User.objects.get(name="Anna")
    SHOTS.mkdir(parents=True, exist_ok=True)
    walk = Walk()
    index = LANGUAGES.index(language)
    # Both schemes in every language, the scheme of the whole run taken by turns.
    schemes = SCHEMES if index % 2 == 0 else SCHEMES[::-1]
    phones = {}
    for member in (False, True):
        context = browser.new_context(
            viewport=WIDE, base_url=live_server.url, locale=LOCALES[language]
        )
        context.set_default_timeout(10_000)
        load_axe(context)
        if member:
            log_in_context(context, anna, live_server.url)
        phones[member] = context.new_page()
    phones[True].on("dialog", lambda dialog: dialog.accept())
    for name, (url, member) in states.items():
        page = phones[member]
        page.goto(url)
        where = f"{name} [{language}]"
        if name == "settlement":  # the bank code on both lines paying Anna
            assert page.get_by_test_id("epc-qr").count() == 2
            if "money" in SAYS.get(language, {}):
                share = page.locator("#share-text").input_value()
                assert "Bram → Anna" in share and SAYS[language]["money"] in share, share
        walk.state(page, name, language, schemes)
        if name == "cards counted":
            check_cards_counted(page, where, walk.failures)
        elif name == "cards and a typed total":
            check_the_picker(page, where, language, schemes, walk.failures)
        elif name == "all nights":
            check_all_nights(page, where, language, walk.failures)
    page = phones[True]
    page.goto(reverse("night_detail", args=[undo_night.pk]))
    page.locator("#actions form[action$='/undo/'] button").click()
    page.wait_for_selector("ul.messages")
    # The page a plain post led to opens on what happened.
    assert page.evaluate("document.activeElement.id") == "messages"
    walk.state(page, "night, after an undo", language, schemes)
    # The page of a sign-in code Anna makes for Bram: reached by her button on the
    # group page (a post).
    bram = User.objects.get(name="Bram")
    page.goto(reverse("group_detail", args=[Group.objects.get(name="Friday OFC").pk]))
    page.locator(f"form[action$='/members/{bram.pk}/sign-in/'] button").click()
    expect(page.get_by_test_id("sign-in-code")).to_be_visible()
    walk.state(page, "sign-in code", language, schemes)
    # Her account page after someone else's code signed a phone in as her: that
    # phone listed ("by Bram's code") and her pay details held for a day. Named
    # "account ..." as the account page is, whose examples of payment links are
    # English in every language.
    # A phone is listed while its session holds (site/phones.phones_signed_in).
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session.create()
    held = Phone.objects.create(
        user=anna, session_key=session.session_key, label="iPhone · Safari", signed_in_by=bram
    )
    User.objects.filter(pk=anna.pk).update(
        pay_details_held_until=timezone.now() + timedelta(days=1)
    )
    page.goto(reverse("account"))
    expect(page.get_by_test_id("pay-hold")).to_be_visible()
    expect(page.get_by_test_id("phones")).to_contain_text("iPhone · Safari")
    walk.state(page, "account with a hold", language, schemes)
    held.delete()
    User.objects.filter(pk=anna.pk).update(pay_details_held_until=None)
    for phone in phones.values():
        phone.context.close()
    parts = ", ".join(f"{what} {seconds:.1f} s" for what, seconds in walk.seconds.items())
    print(f"page walk: {time.monotonic() - started:.1f} s ({parts})")
    # The phone's language was enough: nobody chose one on their account.
    assert User.objects.get(name="Anna").language == ""
    # The card pages' Save bar was found, so the bar checks looked at something.
    assert {"cards placed", "cards and a typed total"} <= walk.barred, walk.barred
    if walk.failures:
        pytest.fail(f"{len(walk.failures)} found:\n" + "\n".join(walk.failures), pytrace=False)


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
    page.set_viewport_size(SMALLEST)
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
