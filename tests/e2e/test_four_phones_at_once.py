"""Four phones at 390x844 on the site behind its front, saving at the same instant:
rounds whose last two totals are sent in the same few milliseconds, rounds where all
four are, and an undo that the table confirms at once. After each round every phone
shows what a fresh reload shows (round, standings, sum) within 3 s; every total lands
in the round it was typed for; no console error on any phone. In Chromium (20 + 5
rounds), and in WebKit, Safari's engine, driven by Debian's WebKitWebDriver under Xvfb
(4 + 2 rounds: each WebKit phone is a browser of its own).

The saves are started by a barrier in the pages themselves (each phone's form sent at
one agreed moment of the clock), so they race as a table's taps do. Everything a phone
does here is a script in its page, so one test drives both browsers."""

import random
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from ofcboard import front
from scorekeeper.models import Night, Round
from tests.e2e.steps import SAVE_AT
from tests.e2e.test_live_push import OPENS_WITHIN_MS, Phones, site  # noqa: F401 (a fixture)
from tests.e2e.webkit import webkit_phones
from tests.helpers import make_night

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # The 3 s is the table's, not a loaded machine's: make test runs it after the rest.
    pytest.mark.timed,
    pytest.mark.skipif(front.find() is None, reason="nginx with Nchan is not installed"),
]

PLAYERS = ("Anna", "Bram", "Cora", "Dan")
SHOWN_WITHIN_S = 3.0

# What a phone shows of the night: round, standings, sum (whitespace as one space).
SAYS = """() => [".round-no", "#live table.standings", "#round-status [data-testid=sum-status]"]
  .map((where) => (document.querySelector(where) || {textContent: ""}).textContent
    .split(/\\s+/).filter(Boolean).join(" "))"""

# Every error the page logs or throws from now on, for the test to read.
ERRORS = """() => {
  window.ofcErrors = [];
  const logged = console.error.bind(console);
  console.error = (...words) => { window.ofcErrors.push(words.join(" ")); logged(...words); };
  window.addEventListener("error", (event) => window.ofcErrors.push(String(event.message)));
}"""

UNDO = """() => {
  window.confirm = () => true;
  [...document.querySelectorAll("#actions button")]
    .find((button) => button.textContent.includes("Undo last round")).click();
}"""


class ChromiumPhones:
    """The four players' phones as Playwright's Chromium pages."""

    def __init__(self, browser, url: str, night: Night) -> None:
        self.phones = Phones(browser, url, night)

    def run(self, name: str, script: str, argument=None):
        page = self.phones.pages[name]
        try:
            return page.evaluate(script, argument)
        except PlaywrightError:  # a plain form's page loading anew (undo): once it has
            page.wait_for_load_state()
            return page.evaluate(script, argument)

    def asked(self, name: str) -> list[str]:
        return self.phones.fragments.get(name, [])

    def close(self) -> None:
        assert self.phones.violations == []
        self.phones.close()


def wait_for(condition, within_s: float, message) -> None:
    deadline = time.monotonic() + within_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(message())
        time.sleep(0.025)


def save_at_once(phones, totals: dict[str, int]) -> None:
    """Every phone in ``totals`` sends its total at the same moment: 300 ms from now,
    time enough to tell each of them; one phone alone sends it at once."""
    at = int(time.time() * 1000) + (300 if len(totals) > 1 else 0)
    for name, points in totals.items():
        phones.run(name, SAVE_AT, [points, at])
    time.sleep(max(0, at / 1000 - time.time()))


def saved(night: Night, number: int, count: int) -> None:
    wait_for(
        lambda: Round.objects.get(night=night, number=number).entries.count() >= count,
        10,
        lambda: f"round {number} did not get {count} totals",
    )


def every_phone_shows_the_truth(phones, fresh) -> None:
    """Within 3 s of the saves being in, each phone shows what a reload shows."""
    started = time.monotonic()
    fresh.reload()
    truth = fresh.evaluate(SAYS)
    for name in PLAYERS:
        left = SHOWN_WITHIN_S - (time.monotonic() - started)
        wait_for(
            lambda name=name: phones.run(name, SAYS) == truth,
            max(0.2, left),
            lambda name=name: (
                f"{name} shows {phones.run(name, SAYS)}, not {truth};"
                f" asked for {phones.asked(name)}"
            ),
        )


def a_round(rng: random.Random) -> dict[str, int]:
    points = [rng.randint(-20, 20) for _ in PLAYERS[1:]]
    return dict(zip(PLAYERS, [-sum(points), *points], strict=True))


def play_at_once(phones, night: Night, fresh, pairs: int, fours: int) -> None:
    """``pairs`` rounds whose last two totals race, ``fours`` where all four do, then an
    undo the table confirms; each total in its own round, every phone true each time."""
    for name in PLAYERS:
        wait_for(
            lambda name=name: (
                phones.run(name, "() => document.documentElement.dataset.streamState") == "open"
            ),
            OPENS_WITHIN_MS / 1000,
            lambda name=name: f"{name}'s stream did not open",
        )
        phones.run(name, ERRORS)
    rng = random.Random(40)
    played: dict[int, dict[str, int]] = {}
    for number in range(1, pairs + fours + 1):
        totals = a_round(rng)
        at_once = PLAYERS if number > pairs else PLAYERS[2:]
        for name in PLAYERS:
            if name not in at_once:
                save_at_once(phones, {name: totals[name]})
        saved(night, number, len(PLAYERS) - len(at_once))
        save_at_once(phones, {name: totals[name] for name in at_once})
        saved(night, number, len(PLAYERS))
        played[number] = totals
        every_phone_shows_the_truth(phones, fresh)

    # Undo, then the table confirms: Anna first, the three others at one instant.
    last = pairs + fours
    phones.run("Anna", UNDO)
    reopened = f"Round {last} was reopened by Anna."
    for name in PLAYERS:
        wait_for(
            lambda name=name: reopened in phones.run(name, "() => document.body.innerText"),
            5,
            lambda name=name: f"{name} was not told of the undo",
        )
    phones.run("Anna", ERRORS)  # undo is a plain form: Anna's page was loaded anew
    save_at_once(phones, {"Anna": played[last]["Anna"]})
    waiting = "Waiting for Bram, Cora, and Dan to confirm."
    for name in PLAYERS:
        wait_for(
            lambda name=name: waiting in phones.run(name, "() => document.body.innerText"),
            5,
            lambda name=name: f"{name} does not say {waiting!r}",
        )
    assert Night.objects.get(pk=night.pk).open_round().number == last
    save_at_once(phones, {name: played[last][name] for name in PLAYERS[1:]})
    wait_for(lambda: Night.objects.get(pk=night.pk).open_round().number == last + 1, 5, str)
    every_phone_shows_the_truth(phones, fresh)

    # Every total is in the round it was typed for, once; nothing in the next round.
    stored = {
        number: dict(
            Round.objects.get(night=night, number=number).entries.values_list(
                "seat__name", "points"
            )
        )
        for number in played
    }
    assert stored == played
    assert not Round.objects.get(night=night, number=last + 1).entries.exists()
    errors = {name: phones.run(name, "() => window.ofcErrors") for name in PLAYERS}
    assert all(logged == [] for logged in errors.values()), errors


def a_fresh_page(browser, url: str, night: Night):
    """A page opened anew after each round: what a reload shows (Chromium, logged in
    as Anna by her session cookie)."""
    from tests.e2e.conftest import PHONE, log_in_context

    context = browser.new_context(viewport=PHONE, base_url=url)
    log_in_context(context, night.seats.get(name="Anna").user, url)
    page = context.new_page()
    page.goto(f"/nights/{night.pk}/")
    return page


def test_four_chromium_phones_saving_at_the_same_instant_all_show_the_truth(
    browser,
    site,  # noqa: F811
):
    _process, url = site
    night = make_night(PLAYERS)
    phones = ChromiumPhones(browser, url, night)
    fresh = a_fresh_page(browser, url, night)
    try:
        play_at_once(phones, night, fresh, pairs=20, fours=5)
    finally:
        fresh.context.close()
        phones.close()


def test_four_webkit_phones_saving_at_the_same_instant_all_show_the_truth(
    browser,
    site,  # noqa: F811
):
    _process, url = site
    night = make_night(PLAYERS)
    fresh = a_fresh_page(browser, url, night)
    with webkit_phones(url, night) as phones:
        try:
            play_at_once(phones, night, fresh, pairs=4, fours=2)
        finally:
            fresh.context.close()
