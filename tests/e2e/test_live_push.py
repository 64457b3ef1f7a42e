"""Three phones at 390x844 on the site behind its front, as `make run` starts it where
nginx and Nchan are installed: a save shows on the two other phones because they were
told, not because they asked; when their streams are cut they fall back to polling,
and when the streams come back they are told again, with nothing shown twice and
nothing missed.

How fast is bench/push_browser.py's to measure (p95 under 300 ms through the front):
here the bounds leave room for a CI machine running four browsers on two cores, and
what shows that a change was pushed is that the stream was open all along, while an
open stream holds the timed polls back for 30 s."""

import re
import time
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from ofcboard import front
from scorekeeper.models import Night
from tests.e2e.conftest import PHONE
from tests.e2e.test_night_three_phones import enter_total
from tests.helpers import make_night
from tests.test_server_front import serving_the_test_database

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(front.find() is None, reason="nginx with Nchan is not installed"),
]

PLAYERS = ("Anna", "Bram", "Chris")
# Time for a change to show on another phone, and for a stream to open, on a busy CI
# machine; an idle one takes a tenth of a second.
SHOWN_WITHIN_MS = 5000
OPENS_WITHIN_MS = 20000


@pytest.fixture
def site():
    process, port = serving_the_test_database("tests.settings", "--front", "yes")
    yield process, f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(15)


def publishing_address(server_pid: int) -> str:
    """Where the front started by the server ``server_pid`` takes what is published:
    read from its nginx's configuration (ofcboard/front.py writes it)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            # nginx's master names itself "nginx: master process <its command line>".
            command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        configured = re.search(r"nginx.* -c (\S+)", command)
        if parent == server_pid and configured:
            config = Path(configured.group(1)).read_text()
            return re.findall(r"listen (127\.0\.0\.1:\d+);", config)[-1]
    raise AssertionError("the server started no nginx")


def cut_the_streams(server_pid: int, night: Night) -> None:
    """The front drops every stream on the night's channel, as a Wi-Fi that comes and
    goes, or iOS ending a stream in the background, would."""
    request = urllib.request.Request(
        f"http://{publishing_address(server_pid)}/night-{night.pk}", method="DELETE"
    )
    urllib.request.urlopen(request, timeout=5).read()


class Phones:
    """Each player's phone at a phone's size, logged in, with the fragments its live
    area was sent (by the version it showed when it asked)."""

    def __init__(self, browser, url: str, night: Night) -> None:
        self.pages = {}
        self.fragments: dict[str, list[str]] = {}
        self.answered: dict[str, int] = {}  # every answer to a live fetch, any status
        self.violations: list[str] = []
        self.streams: list[tuple[str, int]] = []  # each stream's answer, for a failure
        self.failed: list = []  # requests that failed, for a failure's message
        for seat in night.seats.all():
            client = Client()
            client.force_login(seat.user)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME]
            context = browser.new_context(viewport=PHONE, base_url=url)
            context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": url}])
            page = context.new_page()
            page.on("response", lambda answer, name=seat.name: self._note(name, answer))
            page.on("console", self._note_violation)
            page.on(
                "requestfailed",
                lambda request, name=seat.name: self.failed.append(
                    (name, request.url, request.failure)
                ),
            )
            page.goto(f"/nights/{night.pk}/")
            self.pages[seat.name] = page

    def _note(self, name: str, answer) -> None:
        address = urlsplit(answer.url)
        if address.path.startswith("/streams/"):
            self.streams.append((name, answer.status))
        if address.path.endswith("/live/"):
            self.answered[name] = self.answered.get(name, 0) + 1
        if address.path.endswith("/live/") and answer.status == 200:
            # No version: drawn whole, for a fresh stream pass (a stream refused).
            version = parse_qs(address.query).get("version", ["whole"])[0]
            self.fragments.setdefault(name, []).append(version)

    def _note_violation(self, message) -> None:
        if "Content Security Policy" in message.text:
            self.violations.append(message.text)

    def stream_opens(self) -> int:
        return sum(1 for _, status in self.streams if status == 200)

    def stream_state(self, name: str) -> str | None:
        return self.pages[name].evaluate("document.documentElement.dataset.streamState || null")

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()


def shown_on(page, name: str):
    return page.locator(f".entry-line[data-seat='{name}']")


def test_a_save_shows_at_once_and_a_cut_stream_falls_back_and_comes_back(browser, site):
    process, url = site
    night = make_night(PLAYERS)
    phones = Phones(browser, url, night)
    anna, bram, chris = (phones.pages[name] for name in PLAYERS)
    try:
        for name in PLAYERS:
            try:
                expect(phones.pages[name].locator("html")).to_have_attribute(
                    "data-stream-state", "open", timeout=OPENS_WITHIN_MS
                )
            except AssertionError as problem:
                raise AssertionError(f"{name}'s stream did not open: {phones.streams}") from problem

        # Pushed: Anna's total is on the two other phones while their streams were open
        # all along (so no timed poll went out), and the message carried their live
        # part (views/pushed_parts.py): they did not ask for it.
        # Each stream's first opening asks once, to catch up: answered before the save,
        # so that no answer of it can bring the save (a busy machine answers slowly).
        for name in ("Bram", "Chris"):
            page = phones.pages[name]
            answered_by = time.monotonic() + OPENS_WITHIN_MS / 1000
            while not phones.answered.get(name) and time.monotonic() < answered_by:
                page.wait_for_timeout(100)
            assert phones.answered.get(name), (name, phones.answered)
        asked_before = {name: len(phones.fragments.get(name, [])) for name in PLAYERS}
        enter_total(anna, 7)
        for page in (bram, chris):
            expect(shown_on(page, "Anna")).to_contain_text("+7", timeout=SHOWN_WITHIN_MS)
        for name in ("Bram", "Chris"):
            assert len(phones.fragments.get(name, [])) == asked_before[name], phones.fragments
        states = [phones.stream_state(name) for name in PLAYERS]
        assert states == ["open"] * 3, (states, phones.streams, phones.failed)
        assert phones.stream_opens() == 3  # never dropped and opened again meanwhile

        # Cut: the two other phones' streams drop and cannot come back for now; they
        # ask every 2 s again, and Bram's total still reaches Chris.
        for page in (bram, chris):
            page.route("**/streams/**", lambda route: route.abort())
        cut_the_streams(process.pid, night)
        for page in (bram, chris):
            expect(page.locator("html")).to_have_attribute("data-stream-state", "closed")
        enter_total(bram, 17)
        expect(shown_on(chris, "Bram")).to_contain_text("+17", timeout=SHOWN_WITHIN_MS)

        # Back: the streams open again by themselves, and the round going through shows
        # on the other phones within a second again.
        for page in (bram, chris):
            page.unroute("**/streams/**")
        for page in (bram, chris):
            expect(page.locator("html")).to_have_attribute(
                "data-stream-state", "open", timeout=OPENS_WITHIN_MS
            )
        enter_total(chris, -24)
        for page in (anna, bram):
            expect(page.locator(".round-no")).to_have_text("Round 2", timeout=SHOWN_WITHIN_MS)
        assert [phones.stream_state(name) for name in PLAYERS] == ["open"] * 3

        # Nothing missed: every phone shows the round that went through the same way.
        for page in (anna, bram, chris):
            expect(page.locator(".standings")).to_contain_text("−24")
            expect(page.locator(".round-no")).to_have_text("Round 2")
        # Nothing shown twice: no phone was sent its live area again for a version it
        # had already been sent one for.
        for name, versions in phones.fragments.items():
            assert len(versions) == len(set(versions)), (name, versions)
        assert phones.violations == []
    finally:
        phones.close()


def test_a_refused_stream_is_opened_again_with_the_pass_its_part_brings(browser, site):
    """A stream refused outright (its pass over: 410) closes; the page polls, draws its
    live part whole for a fresh pass and opens the stream that part names."""
    _, url = site
    night = make_night(("Anna", "Bram"))
    phones = Phones(browser, url, night)
    anna = phones.pages["Anna"]
    try:
        html = anna.locator("html")
        expect(html).to_have_attribute("data-stream-state", "open", timeout=OPENS_WITHIN_MS)
        anna.route("**/streams/**", lambda route: route.fulfill(status=410))
        # Hidden and shown again: the stream is closed and opened again, and refused.
        anna.evaluate(
            "Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
            "document.dispatchEvent(new Event('visibilitychange'));"
            "Object.defineProperty(document, 'hidden', {value: false, configurable: true});"
            "document.dispatchEvent(new Event('visibilitychange'));"
        )
        expect(html).to_have_attribute("data-stream-state", "closed")
        # Said "closed" as soon as it was hidden: the stream opened again must have been
        # refused before the front lets it through (a busy machine is slow to ask).
        refused_by = time.monotonic() + OPENS_WITHIN_MS / 1000
        while ("Anna", 410) not in phones.streams and time.monotonic() < refused_by:
            anna.wait_for_timeout(100)
        assert ("Anna", 410) in phones.streams, phones.streams
        anna.unroute("**/streams/**")
        expect(html).to_have_attribute("data-stream-state", "open", timeout=OPENS_WITHIN_MS + 5000)
        # Drawn whole for its fresh pass, not opened again at the address refused.
        assert "whole" in phones.fragments.get("Anna", []), phones.fragments
    finally:
        phones.close()
