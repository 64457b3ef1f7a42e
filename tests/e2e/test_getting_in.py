"""Getting in without a password, on four phones at 390 px: the host scans the QR
code `make run` draws in the terminal (manage.py welcome), a friend types the join
code on the front page (in small letters, an O for its 0), a third scans the group
page's QR code, and the third, her cookies cleared, is signed back in as herself by
the host ("Sign Chris in on a phone"), with her history and what she owes as they were.

Each way in is measured from the moment the code is in front of the person to the
group page on their phone: taps (each click and each field filled; a QR scan counts
as one) and seconds (the browser's work, screenshots for people left out). The figures
are printed (pytest -s) and written to test-results/getting-in/figures.txt, beside the
screenshots of each new page at 390 px.
"""

import io
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import expect

from scorekeeper.models import Group, Seat, User
from tests.helpers import finish, make_night, members_since, play
from tests.qr import decode_png, decode_terminal

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "getting-in"
GROUP = "Friday OFC"


class Way:
    """One person's way in: the taps it takes and the seconds on the clock."""

    def __init__(self, name: str, how: str) -> None:
        self.name, self.how = name, how
        self.taps = 0
        self.typed = 0  # characters
        self.seconds = 0.0
        self._since: float | None = None

    def start(self) -> None:
        self._since = time.perf_counter()

    def stop(self) -> None:
        assert self._since is not None
        self.seconds += time.perf_counter() - self._since
        self._since = None

    @contextmanager
    def off_the_clock(self):
        """What the test does for people to look at later (screenshots), not timed."""
        self.stop()
        try:
            yield
        finally:
            self.start()

    def tap(self, count: int = 1) -> None:
        self.taps += count

    def fill(self, page, selector: str, text: str) -> None:
        """A field filled: one tap. Never a password."""
        field = page.locator(selector)
        assert field.get_attribute("type") != "password", selector
        field.fill(text)
        self.typed += len(text)
        self.tap()

    def click(self, locator) -> None:
        locator.click()
        self.tap()

    def scan(self, read) -> str:
        """A QR code scanned with the camera: one tap, one link."""
        (link,) = read()
        self.tap()
        return link


def shoot(page, name: str, *, dark: bool = False) -> None:
    """A full-page screenshot at the phone's width, light (and dark when asked)."""
    page.screenshot(path=str(SHOTS / f"390-light-{name}.png"), full_page=True, caret="initial")
    if dark:
        page.emulate_media(color_scheme="dark")
        page.screenshot(path=str(SHOTS / f"390-dark-{name}.png"), full_page=True, caret="initial")
        page.emulate_media(color_scheme="light")


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def welcome() -> str:
    """What `make run` prints before the server starts (manage.py welcome)."""
    out = io.StringIO()
    call_command("welcome", "--group-name", GROUP, stdout=out)
    return out.getvalue()


def owed_text(page, group: Group) -> str:
    page.goto(reverse("group_detail", args=[group.pk]))
    return page.get_by_test_id("owed").inner_text()


def test_four_phones_get_in_by_terminal_qr_typed_code_group_qr_and_a_member_s_sign_in(
    phone, live_server, monkeypatch
):
    SHOTS.mkdir(parents=True, exist_ok=True)
    # The links welcome prints point at this server, as OFCBOARD_BASE_URL makes them.
    monkeypatch.setenv("OFCBOARD_BASE_URL", live_server.url)
    assert not Group.objects.exists()
    out = welcome()  # the first `make run`: it makes the group
    group = Group.objects.get()
    assert group.name == GROUP and group.join_code in out
    if "0" not in group.invite_token:
        # A code with a 0 in it, for the friend to type as an O; welcome prints it again,
        # as every `make run` does.
        group.invite_token = group.invite_token[:5] + "0" + group.invite_token[6:]
        group.save(update_fields=["invite_token"])
        out = welcome()
        assert group.join_code in out
    group_url = reverse("group_detail", args=[group.pk])

    anna, bram, chris, stranger = phone(), phone(), phone(), phone()
    # A page loaded once before the clock runs: the browser's first page and the test
    # server's first request are the test's start-up, not a person's wait.
    stranger.goto("/")
    ways = []

    # The host: the terminal's QR code, scanned with her phone.
    host = Way("Anna", "host's first phone: terminal QR, a name")
    ways.append(host)
    host.start()
    link = host.scan(lambda: decode_terminal(out))
    assert link == group.invite_url(live_server.url)
    anna.goto(link)
    expect(anna.locator("h1")).to_have_text(f"Join “{GROUP}”")
    with host.off_the_clock():
        assert anna.locator("input[type=password]").count() == 0  # a name is all it asks
        assert fits(anna)
        shoot(anna, "join")
    host.fill(anna, "#id_signup-name", "Anna")
    host.click(anna.get_by_role("button", name="Join", exact=True))
    anna.wait_for_url(f"**{group_url}")
    expect(anna.locator("h1")).to_have_text(GROUP)
    host.stop()

    # A friend types the code read off the host's group page on the front page: small
    # letters, an O where the code has a 0, no dash.
    code = anna.get_by_test_id("join-code").locator("strong").inner_text()
    assert code == group.join_code and "0" in code
    typed = code.replace("-", "").replace("0", "O").lower()
    by_code = Way("Bram", "a friend by code: front page, typed code, a name")
    ways.append(by_code)
    by_code.start()
    bram.goto("/")  # the address welcome printed: the front page
    expect(bram.get_by_test_id("code-form")).to_be_visible()
    with by_code.off_the_clock():
        assert fits(bram)
        shoot(bram, "front-page", dark=True)
    by_code.fill(bram, "#id_code", typed)
    by_code.click(bram.get_by_role("button", name="Go", exact=True))
    expect(bram.locator("h1")).to_have_text(f"Join “{GROUP}”")
    by_code.fill(bram, "#id_signup-name", "Bram")
    by_code.click(bram.get_by_role("button", name="Join", exact=True))
    bram.wait_for_url(f"**{group_url}")
    expect(bram.locator(".members")).to_contain_text("Bram")
    by_code.stop()

    # A third scans the QR code on the host's group page.
    by_qr = Way("Chris", "a friend by QR: the group page's QR, a name")
    ways.append(by_qr)
    anna.reload()
    by_qr.start()
    link = by_qr.scan(
        lambda: decode_png(anna.locator("#invite .qr-box").screenshot(caret="initial"))
    )
    assert link == group.invite_url(live_server.url)
    chris.goto(link)
    by_qr.fill(chris, "#id_signup-name", "Chris")
    by_qr.click(chris.get_by_role("button", name="Join", exact=True))
    chris.wait_for_url(f"**{group_url}")
    expect(chris.locator(".members")).to_contain_text("Chris")
    by_qr.stop()

    # A round played and the night ended: Chris owes, and has a night in her history.
    finish(
        play(
            make_night(("Anna", "Bram", "Chris"), group=group), {"Anna": 6, "Bram": -2, "Chris": -4}
        )
    )
    her = User.objects.get(name="Chris")
    her_seats = list(Seat.objects.filter(user=her).values_list("pk", flat=True))
    assert her_seats
    owed_before = owed_text(chris, group)
    assert "Chris" in owed_before and "→" in owed_before, owed_before
    history = reverse("player_history", args=[group.pk, her.pk])
    chris.goto(history)
    history_before = chris.locator("main").inner_text()

    # Her cookies cleared (a new phone, as far as the server knows): the front page.
    chris.context.clear_cookies()
    chris.goto(group_url)
    expect(chris.get_by_test_id("code-form")).to_be_visible()
    assert "/login/" in chris.url

    # The host signs her in (a member for a month, who sat at that night with her): her
    # name's button on the group page, a QR code she scans.
    members_since(group, days=30)
    new_phone = Way("Chris", "a friend on a new phone: a member signs her in")
    ways.append(new_phone)
    anna.goto(group_url)
    new_phone.start()
    new_phone.click(anna.get_by_role("button", name="Sign Chris in on a phone"))
    expect(anna.get_by_test_id("sign-in-code")).to_be_visible()
    with new_phone.off_the_clock():
        assert fits(anna)
        shoot(anna, "sign-in-code")
    link = new_phone.scan(
        lambda: decode_png(anna.locator(".sign-in-code .qr-box").screenshot(caret="initial"))
    )
    shown = anna.get_by_test_id("sign-in-code").inner_text()
    assert link.endswith(f"/signin/{shown.replace('-', '')}/"), (link, shown)
    chris.goto(link)
    expect(chris.locator("h1")).to_have_text("Sign in as Chris")
    with new_phone.off_the_clock():
        assert fits(chris)
        shoot(chris, "sign-in")
    new_phone.click(chris.get_by_test_id("sign-in"))
    chris.wait_for_url(f"**{group_url}")
    expect(chris.locator("h1")).to_have_text(GROUP)
    new_phone.stop()

    # She is herself: one Chris, the same row, her night and what she owes as they were.
    assert User.objects.filter(name="Chris").count() == 1
    assert User.objects.get(name="Chris").pk == her.pk
    assert list(Seat.objects.filter(user=her).values_list("pk", flat=True)) == her_seats
    assert owed_text(chris, group) == owed_before
    chris.goto(history)
    assert chris.locator("main").inner_text() == history_before

    # Her account page: this phone, signed in by Anna's code, and her pay details held.
    chris.goto(reverse("account"))
    expect(chris.get_by_test_id("phones")).to_contain_text("by Anna's code")
    expect(chris.get_by_test_id("pay-hold")).to_be_visible()
    expect(
        chris.get_by_test_id("pay-details").get_by_role("button", name="Save", exact=True)
    ).to_be_disabled()
    assert fits(chris)
    shoot(chris, "account", dark=True)

    # The sign-in link works once: opened again, on any phone, it says so.
    stranger.goto(link)
    expect(stranger.locator("h1")).to_have_text("This sign-in code does not work")

    # Nobody typed a password: no fill went to one (Way.fill), and none holds text.
    for page in (anna, bram, chris, stranger):
        for field in page.locator("input[type=password]").all():
            assert field.input_value() == ""

    lines = [f"{'way in':<50} {'taps':>4} {'typed':>5} {'seconds':>7}"]
    lines += [f"{way.how:<50} {way.taps:>4} {way.typed:>5} {way.seconds:>7.2f}" for way in ways]
    lines.append(
        "From the code in front of the person to the group page on their phone. Taps: "
        "each click and field filled, a QR scan one; typed: characters (the names are 4-5). "
        "The friend by code also opens the address welcome prints (not counted). Seconds: "
        "the browser's and server's work on this machine, no human reading or typing."
    )
    table = "\n".join(lines)
    print("\n" + table)
    (SHOTS / "figures.txt").write_text(table + "\n")
