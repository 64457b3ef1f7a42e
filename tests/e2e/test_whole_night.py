"""A whole night on four phones at 390x844 (issue 32), each moment checked on every
phone: Anna, Bram and Cora are seated, Dan is a member following along.

Four rounds, each phone typing its own total (Cora mistypes the first: the sum check
says "3 points too many" and nothing goes through until she corrects it); after every
round the news ("Round N went through · Anna +6 · …") reaches every phone within a
poll; Anna fixes round 2 and the others read "Anna fixed round 2: … Cora −4 → −7";
Dan deals himself in from the next hand ("Dan plays from round 4") and the round on
the table does not wait for him; Bram leaves after round 3, reads on his settlement
that his result is final and marks his squaring payment paid; Anna ends the night and
lands on the settlement, each phone's own line first, the bank code on the payee's
phone decoding to her IBAN; "Same table as last time" asks who is here, the night
starts without Bram and, with no round played, is called off, leaving nothing.

Taps (each click, field filled and confirm accepted) and seconds (time.perf_counter,
screenshots off the clock) of each moment are printed (pytest -s) and written to
test-results/whole-night/figures.txt, beside screenshots of each moment at 390 px
light and dark and at 360 px light.
"""

import re
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scorekeeper.models import Night, User
from scorekeeper.services.pay_details import save_pay_details
from tests.helpers import make_group, make_night
from tests.qr import decode_png

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "whole-night"
POLL = 5_000  # ms: a poll every 2 s, with room for a busy machine
ANNA_IBAN = "NL91ABNA0417164300"
DAN_IBAN = "DE89370400440532013000"


class Clock:
    """One moment's taps and seconds."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.taps = 0
        self.seconds = 0.0
        self._since: float | None = None

    def start(self) -> "Clock":
        self._since = time.perf_counter()
        return self

    def stop(self) -> "Clock":
        assert self._since is not None
        self.seconds += time.perf_counter() - self._since
        self._since = None
        return self

    @contextmanager
    def off(self):
        """Screenshots and checks for people reading the test, not timed."""
        self.stop()
        try:
            yield
        finally:
            self.start()

    def click(self, locator) -> None:
        locator.click()
        self.taps += 1

    def fill(self, locator, text: str) -> None:
        locator.fill(text)
        self.taps += 1

    def confirm(self, page, locator) -> None:
        """A button that asks first: the tap and the dialog's OK."""
        page.once("dialog", lambda dialog: dialog.accept())
        locator.click()
        self.taps += 2


def shoot(page, name: str) -> None:
    """The whole page at 390 px light and dark, and at 360 px light. The caret is left
    alone: hiding it leaves style="" on every input, which htmx's next swap copies,
    and the Content-Security-Policy (style-src 'self') refuses."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, scheme in ((390, "light"), (390, "dark"), (360, "light")):
        page.set_viewport_size({"width": width, "height": 844})
        page.emulate_media(color_scheme=scheme)
        page.screenshot(
            path=str(SHOTS / f"{name}-{width}-{scheme}.png"), full_page=True, caret="initial"
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, width)
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(color_scheme="light")


def save_total(clock: Clock | None, page, points: int) -> None:
    """The phone's own total typed and saved: two taps."""
    field = page.locator("#id_points")
    save = page.locator("#entry-form").get_by_role("button", name="Save")
    if clock is None:
        field.fill(str(points))
        save.click()
    else:
        clock.fill(field, str(points))
        clock.click(save)


def moment(page, text: str):
    return page.get_by_test_id("moment").filter(has_text=text)


def news_everywhere(phones: dict, text: str) -> None:
    """``text`` shown in the news on every phone within a poll."""
    for page in phones.values():
        expect(moment(page, text)).to_be_visible(timeout=POLL)


# Every call to navigator.vibrate is recorded, where the browser has it or not.
RECORD_BUZZ = """
window.__buzz = [];
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true,
  value: function (pattern) { window.__buzz.push(pattern); return true; },
});
"""


def test_a_whole_night_on_four_phones(log_in_phone):
    group = make_group(members=("Anna", "Bram", "Cora", "Dan"))
    night = make_night(("Anna", "Bram", "Cora"), group=group, point_cents=50)
    save_pay_details(user=User.objects.get(name="Anna"), holder="Anna de Vries", iban=ANNA_IBAN)
    save_pay_details(user=User.objects.get(name="Dan"), holder="Dan Jansen", iban=DAN_IBAN)
    phones = {}
    for name in ("Anna", "Bram", "Cora", "Dan"):
        page = log_in_phone(User.objects.get(name=name))
        page.add_init_script(RECORD_BUZZ)
        page.goto(reverse("night_detail", args=[night.pk]))
        phones[name] = page
    anna, bram, cora, dan = (phones[name] for name in ("Anna", "Bram", "Cora", "Dan"))
    for page in phones.values():
        expect(page.get_by_test_id("waiting")).to_have_text("Waiting for Anna, Bram, and Cora.")
    figures: list[Clock] = []
    watching = dict(phones)  # the phones on the night page

    def round_goes_through(number: int, totals: dict[str, int], news: str) -> None:
        """Each phone types its own total, the last one's Save timed until the news
        shows on the slowest of the other phones."""
        *first, last = totals.items()
        for name, points in first:
            save_total(None, phones[name], points)
            expect(
                phones[name].locator(f"#live .entry-line.in[data-seat='{name}']")
            ).to_be_visible()
        clock = Clock(f"round {number} goes through: seen on the other phones").start()
        save_total(clock, phones[last[0]], last[1])
        for name, page in watching.items():
            if name != last[0]:
                expect(moment(page, news)).to_be_visible(timeout=POLL)
        clock.stop()
        figures.append(clock)
        expect(moment(phones[last[0]], news)).to_be_visible(timeout=POLL)

    # Round 1: Cora mistypes. Everyone is in, the sum is off: nothing goes through.
    save_total(None, anna, 6)
    save_total(None, bram, -2)
    save_total(None, cora, -1)
    for page in phones.values():
        expect(page.get_by_test_id("sum-status")).to_contain_text("3 points too many", timeout=POLL)
        expect(page.locator("#round-head")).to_contain_text("Round 1")
        expect(page.locator("#news")).to_be_hidden()
    assert not night.rounds.filter(recorded_at__isnull=False).exists()
    # She corrects it: the round goes through, and every phone says so.
    clock = Clock("round 1 goes through (a total corrected): seen on the other phones").start()
    save_total(clock, cora, -4)
    first_news = "Round 1 went through · Anna +6 · Bram −2 · Cora −4"
    for name in ("Anna", "Bram", "Dan"):
        expect(moment(phones[name], first_news)).to_be_visible(timeout=POLL)
    clock.stop()
    figures.append(clock)
    news_everywhere(phones, first_news)
    # The news a poll brought from another phone buzzed where the phone can.
    for name in ("Anna", "Bram", "Dan"):
        assert phones[name].evaluate("window.__buzz.length") >= 1, name
    for page in phones.values():
        expect(page.locator("#round-head")).to_contain_text("Round 2")
    shoot(bram, "news")

    # Round 2, then Anna fixes it on her phone: the others read the fix.
    round_goes_through(
        2, {"Bram": 2, "Cora": -4, "Anna": 2}, "Round 2 went through · Anna +2 · Bram +2 · Cora −4"
    )
    anna.get_by_test_id("more").locator("summary").first.click()
    anna.get_by_role("link", name="Rounds · fix a round").click()
    anna.locator("#round-2").get_by_role("link", name="Fix").click()
    expect(anna.get_by_role("heading", name="Fix round 2")).to_be_visible()
    anna.get_by_role("textbox", name="Cora", exact=True).fill("-7")
    expect(anna.get_by_test_id("fix-sum")).to_have_text("3 points too few")
    anna.get_by_role("textbox", name="Anna", exact=True).fill("5")
    expect(anna.get_by_test_id("fix-sum")).to_have_text("The totals add up to zero.")
    anna.get_by_role("button", name="Save the fix").click()
    fixed = "Anna fixed round 2: Anna +2 → +5 and Cora −4 → −7."
    for name in ("Bram", "Cora", "Dan"):
        expect(moment(phones[name], fixed)).to_be_visible(timeout=POLL)
    anna.goto(reverse("night_detail", args=[night.pk]))
    expect(moment(anna, fixed)).to_be_visible()
    shoot(cora, "fix-news")

    # Dan, following along, deals himself in: from round 4, as round 3 is on the table.
    expect(dan.get_by_text("You are not in this round.")).to_be_visible()
    clock = Clock("a late arrival seated: Deal me in, seen on every phone").start()
    clock.click(dan.get_by_role("button", name="Deal me in from the next hand"))
    expect(dan.get_by_test_id("dealt-from")).to_have_text(
        "You play from round 4. You can follow along until then."
    )
    for name in ("Anna", "Bram", "Cora"):
        expect(moment(phones[name], "Dan plays from round 4.")).to_be_visible(timeout=POLL)
    clock.stop()
    figures.append(clock)
    for page in phones.values():
        # The hand on the table was dealt without him: round 3 does not wait for him.
        expect(page.locator("#round-head")).to_contain_text("Round 3")
        expect(page.get_by_test_id("waiting")).to_have_text("Waiting for Anna, Bram, and Cora.")
        expect(page.locator("#live .entries")).not_to_contain_text("Dan")
    shoot(anna, "deal-me-in")
    shoot(dan, "deal-me-in-dan")

    round_goes_through(
        3,
        {"Anna": 3, "Cora": 3, "Bram": -6},
        "Round 3 went through · Anna +3 · Bram −6 · Cora +3",
    )

    # Bram leaves after round 3, from his own phone, before anyone types round 4.
    bram.get_by_test_id("more").locator("summary").first.click()
    bram.locator("summary", has_text="Someone leaves").click()
    bram.once("dialog", lambda dialog: dialog.accept())  # "Bram leaves the table? ..."
    bram.get_by_role("button", name="Bram leaves").click()
    expect(bram.get_by_text("Bram has left the table; their results stay.")).to_be_visible()
    for name in ("Anna", "Cora", "Dan"):
        expect(moment(phones[name], "Bram left after round 3.")).to_be_visible(timeout=POLL)
        expect(phones[name].get_by_test_id("waiting")).to_have_text(
            "Waiting for Anna, Cora, and Dan.", timeout=POLL
        )

    del watching["Bram"]  # his phone goes to the settlement and stays there

    # His phone opens the settlement: his result is final, his squaring line first.
    bram.get_by_role("link", name="Settle").click()
    leaver = bram.get_by_test_id("leaver")
    expect(leaver).to_contain_text("Bram left after round 3: their result is final.")
    expect(leaver.locator("li")).to_have_count(1)
    expect(leaver.locator("li")).to_contain_text("You pay Anna €3.00")
    expect(bram.locator("[data-testid=payments] li.payment").first).to_have_class(
        re.compile(r"\byours\b")
    )
    shoot(bram, "leaver-settlement")
    leaver.get_by_role("button", name="Mark paid").click()
    expect(bram.get_by_test_id("leaver").locator("li.paid")).to_contain_text("Paid ✓")
    shoot(bram, "leaver-settlement-paid")

    # Round 4 without Bram, Dan's first.
    round_goes_through(
        4,
        {"Dan": 5, "Cora": -4, "Anna": -1},
        "Round 4 went through · Anna −1 · Cora −4 · Dan +5",
    )
    # Final: Anna +13, Bram −6 (paid Anna €3.00), Cora −12, Dan +5 at €0.50 a point.

    # Anna ends the night and lands on the settlement; every other phone on the night
    # goes there by itself at its next poll, and Cora reads what she pays: no tap.
    clock = Clock("end of night: Anna ends it, Cora's phone shows 'You pay'").start()
    clock.confirm(anna, anna.get_by_role("button", name="End the night"))
    expect(anna.get_by_role("heading", name="Who pays whom")).to_be_visible()
    expect(anna.get_by_test_id("my-payments").locator("li").first).to_contain_text("pays you")
    expect(cora.get_by_test_id("my-payments").locator("li").first).to_contain_text(
        "You pay", timeout=POLL
    )
    clock.stop()
    figures.append(clock)
    for page in (anna, bram, cora, dan):
        expect(page).to_have_url(re.compile(reverse("night_settle", args=[night.pk]) + "$"))

    own = {
        "Anna": ["Bram pays you €3.00", "Cora pays you €3.50"],
        "Bram": ["You pay Anna €3.00"],
        "Cora": ["You pay Anna €3.50", "You pay Dan €2.50"],
        "Dan": ["Cora pays you €2.50"],
    }
    for name, page in phones.items():
        lines = page.get_by_test_id("my-payments").locator("li")
        expect(lines).to_have_count(len(own[name]))
        for line, words in zip(lines.all(), own[name], strict=True):
            expect(line.locator(".pay-words")).to_have_text(words)
        # The phone's first payment line, on the whole page, is its own.
        first = page.locator("[data-testid=payments] li.payment").first
        expect(first).to_have_class(re.compile(r"\byours\b"))
        expect(first.locator(".pay-words")).to_have_text(own[name][0])
    expect(bram.get_by_test_id("my-payments").locator("li").first).to_contain_text("Paid ✓")
    expect(bram.get_by_test_id("leaver")).to_have_count(0)

    # The payee's phone shows the bank code for the payer's bank app: Anna's IBAN.
    for page, payer, iban, amount in (
        (anna, "Cora", ANNA_IBAN, "EUR3.5"),
        (dan, "Cora", DAN_IBAN, "EUR2.5"),
    ):
        line = page.get_by_test_id("my-payments").locator("li", has_text=f"{payer} pays you")
        code = line.locator("[data-testid=epc-qr]")
        code.scroll_into_view_if_needed()
        (text,) = decode_png(code.screenshot(caret="initial"))
        fields = text.split("\n")
        assert fields[:4] == ["BCD", "002", "1", "SCT"], fields
        assert fields[6] == iban, fields
        assert fields[7].rstrip("0") == amount, fields
    expect(cora.locator("[data-testid=epc-qr]")).to_have_count(0)  # a phone cannot scan itself
    expect(
        cora.get_by_test_id("my-payments").get_by_role("button", name="Copy IBAN")
    ).to_have_count(2)
    shoot(cora, "settlement-payer")
    shoot(anna, "settlement-payee")

    # Next week: "Same table as last time" asks who is here; Bram is not.
    group_url = reverse("group_detail", args=[group.pk])
    anna.goto(group_url)
    clock = Clock("next night started with who's here (Bram left out)").start()
    clock.click(anna.get_by_role("link", name="Same table as last time"))
    expect(anna.get_by_role("heading", name="Who's here tonight?")).to_be_visible()
    last_time = anna.get_by_test_id("last-time")
    with clock.off():
        for name in ("Anna", "Bram", "Cora", "Dan"):
            expect(last_time.get_by_role("checkbox", name=name)).to_be_checked()
        shoot(anna, "who-is-here")
    clock.click(last_time.get_by_role("checkbox", name="Bram"))
    expect(last_time.get_by_role("checkbox", name="Bram")).not_to_be_checked()
    clock.click(anna.get_by_role("button", name="Start the night"))
    expect(anna.get_by_text("Started without Bram.")).to_be_visible()
    clock.stop()
    figures.append(clock)
    tonight = Night.objects.exclude(pk=night.pk).get()
    assert sorted(seat.name for seat in tonight.seats.all()) == ["Anna", "Cora", "Dan"]
    shoot(anna, "started-without-bram")

    # No round yet: called off from More, it leaves nothing on the group page.
    anna.get_by_test_id("more").locator("summary").first.click()
    anna.once("dialog", lambda dialog: dialog.accept())  # "Call off this night? ..."
    anna.get_by_role("button", name="Call off this night").click()
    expect(anna.get_by_text("The night was called off.")).to_be_visible()
    assert anna.url.endswith(group_url)
    expect(anna.get_by_test_id("running-night")).to_have_count(0)
    expect(anna.locator(f'a[href="{reverse("night_detail", args=[tonight.pk])}"]')).to_have_count(0)
    expect(anna.get_by_test_id("nights").locator("li")).to_have_count(1)
    assert not Night.objects.filter(pk=tonight.pk).exists()

    lines = [f"{'moment':<68} {'taps':>4} {'seconds':>7}"]
    lines += [f"{clock.what:<68} {clock.taps:>4} {clock.seconds:>7.2f}" for clock in figures]
    lines += [
        "Taps: each click and field filled, a confirm's OK one more.",
        "A round: the last phone's total and Save, until the news shows on the slowest",
        "  other phone (the phones poll every 2 s).",
        "Late arrival: Dan's one tap until every other phone says he plays from the next round.",
        "End of night: Anna's End the night (and its OK) until Cora's phone, having seen",
        "  the night over at its poll, shows 'You pay' after her tap on Settle.",
        "Next night: from the group page to 'Started without Bram.'",
        "Seconds: this machine's browser and server work, screenshots off the clock.",
    ]
    table = "\n".join(lines)
    print("\n" + table)
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "figures.txt").write_text(table + "\n")
