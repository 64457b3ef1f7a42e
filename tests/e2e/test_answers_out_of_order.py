"""The night page as a state machine: its polls' and saves' answers held and let go in
a random order, while the other phones save. No part of the page ever shows an older
moment after a newer one, the page ends on the server's state, and nothing is logged
to the console (htmx's "no target" errors came from late answers)."""

import random

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Night, User
from tests.helpers import enter

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ("Anna", "Bram", "Chris")
STEPS = 60

# Each live part of the page and the version it shows, read in the page.
PARTS = """() => Object.fromEntries([...document.querySelectorAll('[data-version]')]
    .map((part) => [part.id, Number(part.dataset.version)]))"""


class HeldAnswers:
    """The page's live fetches and saves, answered by the server when they are made
    and handed to the page only when the test lets them go."""

    def __init__(self, page) -> None:
        self.held: list = []
        page.route("**/live/**", self._hold)
        page.route("**/entry/", self._hold)

    def _hold(self, route) -> None:
        self.held.append((route, route.fetch()))

    def let_go(self, rng: random.Random) -> None:
        route, answer = self.held.pop(rng.randrange(len(self.held)))
        route.fulfill(response=answer)

    def let_all_go(self, rng: random.Random) -> None:
        while self.held:
            self.let_go(rng)


def what_the_page_says(page) -> dict[str, str]:
    return {
        "round": page.locator(".round-no").inner_text(),
        "standings": page.locator("table.standings").inner_text(),
        "status": page.locator("#round-status [data-testid=sum-status]").inner_text(),
    }


def another_phone_saves(night: Night, rng: random.Random) -> None:
    """Bram or Chris saves a total for the open round (the round may go through)."""
    number = night.rounds.filter(recorded_at__isnull=True).get().number
    entries = dict(night.rounds.get(number=number).entries.values_list("seat__name", "points"))
    name = rng.choice(["Bram", "Chris"])
    if "Anna" in entries and len(entries) == 2 and name not in entries:
        enter(night, name, -sum(entries.values()))  # the round goes through
    else:
        enter(night, name, rng.randint(-9, 9))


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_answers_in_any_order_never_take_a_part_back(make_night, log_in_phone, seed):
    rng = random.Random(seed)
    night = make_night(PLAYERS)
    page = log_in_phone(User.objects.get(name="Anna"))
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(f"/nights/{night.pk}/")
    held = HeldAnswers(page)
    shown = page.evaluate(PARTS)
    for _step in range(STEPS):
        action = rng.choice(["other", "save", "save", "ask", "let go", "let go"])
        if action == "other":
            another_phone_saves(night, rng)
        elif action == "save" and page.locator("#id_points").count():
            page.locator("#id_points").fill(str(rng.randint(0, 9)))
            page.locator("#entry-form").get_by_role("button", name="Save").click()
        elif action == "ask":
            page.evaluate("htmx.trigger(document.getElementById('live'), 'ofc:pushed')")
        elif action == "let go" and held.held:
            held.let_go(rng)
        page.wait_for_timeout(rng.choice([0, 20, 80]))
        now = page.evaluate(PARTS)
        went_back = {
            part: (shown[part], version)
            for part, version in now.items()
            if part in shown and version < shown[part]
        }
        assert not went_back, f"step {_step} ({action}): {went_back}"
        shown = {**shown, **now}

    # Once every answer is in, the page asks for what it missed and shows the moment
    # the server is at: the same as the page opened afresh.
    for _ in range(3):  # a request made meanwhile is held too: let that go as well
        page.wait_for_timeout(300)
        held.let_all_go(rng)
    page.unroute("**/live/**")
    page.unroute("**/entry/")
    page.evaluate("htmx.trigger(document.getElementById('live'), 'ofc:pushed')")
    version = Night.objects.get(pk=night.pk).version
    expect(page.locator("#live")).to_have_attribute("data-version", str(version))
    fresh = page.context.new_page()
    fresh.goto(f"/nights/{night.pk}/")
    assert what_the_page_says(page) == what_the_page_says(fresh)
    assert set(page.evaluate(PARTS).values()) == {version}
    assert errors == [], "\n".join(errors)
