"""The live pages' streams: a page drawn behind a front names its own channel's stream
with a pass signed for that channel (scorekeeper/site/front_pass.py), which the front
checks by itself (tests/test_front.py opens them); without a front no page names one.
The app has no stream view: opening a stream never reaches it."""

import base64
import hashlib
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from scorekeeper.models import Night, User
from scorekeeper.services.groups import leave_group
from scorekeeper.services.nights import share_screen
from scorekeeper.site.front_pass import front_secret, signed_stream, stream_expires
from tests.helpers import finish, make_group, make_night

FRONT = "http://127.0.0.1:9/"  # never asked: a page only names its stream
SECRET = "s3cret"
HOUR = 60 * 60


@pytest.fixture
def push_on(settings):
    settings.PUSH_URL = FRONT
    settings.FRONT_PASS_SECRET = SECRET


@pytest.fixture
def nights(db) -> dict[str, Night]:
    """The night the pages are drawn of, an earlier night of its group and a night of
    another group. Anna plays; Dora follows from the group without a seat."""
    group = make_group(members=("Anna", "Bram", "Chris", "Dora"))
    same_group = finish(make_night(("Anna", "Dora"), group=group))
    night = make_night(("Anna", "Bram", "Chris"), group=group)
    elsewhere = make_night(("Olga", "Pim"))
    return {"night": night, "same group": same_group, "elsewhere": elsewhere}


def test_a_stream_is_signed_as_nginx_checks_it():
    url = signed_stream(SECRET, "night-12", 1_900_000_000)
    address = urlsplit(url)
    assert address.path == "/streams/night-12"
    asked = parse_qs(address.query)
    expires, signature = asked["expires"][0], asked["pass"][0]
    # secure_link_md5 "$channel.$secure_link_expires.<secret>", base64url without padding.
    digest = hashlib.md5(f"night-12.{expires}.{SECRET}".encode()).digest()
    assert signature == base64.urlsafe_b64encode(digest).decode().rstrip("=")
    assert len(signature) == 22
    # Another channel, another moment's hour or another secret: another pass.
    assert signed_stream(SECRET, "night-13", 1_900_000_000) != url.replace("12", "13")
    assert signed_stream("other", "night-12", 1_900_000_000) != url


def test_a_stream_lasts_one_to_two_hours_and_every_page_of_an_hour_names_the_same():
    start = 1_900_000_800 - 1_900_000_800 % HOUR  # a whole hour
    for now in (start, start + 1, start + HOUR - 1):
        assert stream_expires(now) == start + 2 * HOUR
        assert HOUR < stream_expires(now) - now <= 2 * HOUR
    assert stream_expires(start + HOUR) == start + 3 * HOUR
    same = {signed_stream(SECRET, "night-1", start + second) for second in range(0, HOUR, 97)}
    assert len(same) == 1


def test_the_secret_is_drawn_from_the_secret_key_and_kept_across_starts():
    key = "k" * 50
    assert front_secret(key) == front_secret(key)  # every start, every node
    assert front_secret(key) != front_secret("j" * 50)
    assert key not in front_secret(key)
    assert len(front_secret(key)) >= 32


def test_a_server_behind_a_front_signs_with_the_secret_drawn_from_its_key(monkeypatch):
    """The settings a served process reads (ofcboard/serve.py sets OFCBOARD_PUSH_URL):
    the same secret from the same key, at every start."""
    import importlib

    import ofcboard.settings

    monkeypatch.setenv("SECRET_KEY", "k" * 50)
    monkeypatch.setenv("OFCBOARD_PUSH_URL", FRONT)
    try:
        read = importlib.reload(ofcboard.settings)
        assert front_secret("k" * 50) == read.FRONT_PASS_SECRET
        monkeypatch.delenv("OFCBOARD_PUSH_URL")
        assert importlib.reload(ofcboard.settings).FRONT_PASS_SECRET == ""
    finally:
        monkeypatch.undo()
        importlib.reload(ofcboard.settings)


class Elements(HTMLParser):
    """The attributes of each element by its id, and the scripts' addresses."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.by_id: dict[str, dict[str, str | None]] = {}
        self.scripts: list[str] = []
        self.streams: list[str | None] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if "id" in found:
            self.by_id[found["id"] or ""] = found
        if tag == "script" and found.get("src"):
            self.scripts.append(found["src"] or "")
        if "data-stream" in found:
            self.streams.append(found["data-stream"])


def live_script(elements: Elements) -> list[str]:
    return [src for src in elements.scripts if src.rsplit("/", 1)[-1].startswith("live.")]


def pages(client, login, night: Night) -> dict[str, tuple[Elements, str, str]]:
    """Each live page as a member and a shared screen see it: (its elements, the id of
    its live element, the channel it should listen on)."""
    token = shared_link(night)
    login("Dora")
    night_channel, group_channel = f"night-{night.pk}", f"group-{night.group_id}"
    # A big screen's, a member's or shared: told the version alone, never the members'
    # night page that the night's channel carries (views/pushed_parts.py).
    screen_channel = f"screen-{night.pk}"
    asked = {
        "night": (reverse("night_detail", args=[night.pk]), "live", night_channel),
        "group": (reverse("group_detail", args=[night.group_id]), "live", group_channel),
        "screen": (reverse("night_screen", args=[night.pk]), "screen", screen_channel),
        # The group's: a change across nights is one message there (services/push.py).
        "settlement": (reverse("night_settle", args=[night.pk]), "settlement-live", group_channel),
        "shared screen": (reverse("shared_screen", args=[token]), "screen", screen_channel),
    }
    shown = {}
    for page, (url, element, channel) in asked.items():
        if page == "shared screen":
            client.logout()
        response = client.get(url)
        assert response.status_code == 200
        shown[page] = (Elements(response.content.decode()), element, channel)
    return shown


def shared_link(night: Night) -> str:
    share_screen(night=night, by=night.started_by)
    night.refresh_from_db()
    return night.screen_token


def test_with_a_front_each_live_page_names_its_own_channels_signed_stream(
    client, login, nights, push_on
):
    night = nights["night"]
    for page, (elements, live, channel) in pages(client, login, night).items():
        stream = elements.by_id[live].get("data-stream")
        assert stream, page
        address = urlsplit(stream)
        assert address.path == f"/streams/{channel}", page
        expires = int(parse_qs(address.query)["expires"][0])
        assert stream == signed_stream(SECRET, channel, expires - 2 * HOUR), page
        assert elements.streams == [stream], page  # one stream a page, its own
        assert len(live_script(elements)) == 1, page


def test_a_live_part_brings_the_same_stream_as_its_page(client, login, nights, push_on):
    """Drawn again within the hour (a poll after a change), a part names the stream its
    page opened: the page keeps it."""
    night = nights["night"]
    login("Anna")
    page = Elements(client.get(reverse("night_detail", args=[night.pk])).content.decode())
    part = Elements(client.get(reverse("night_live", args=[night.pk])).content.decode())
    assert part.by_id["live"]["data-stream"] == page.by_id["live"]["data-stream"]


def test_a_member_who_leaves_is_drawn_no_page_and_so_no_stream(client, login, nights, push_on):
    night = nights["night"]
    dora = User.objects.get(name="Dora")
    login(dora)
    assert client.get(reverse("night_detail", args=[night.pk])).status_code == 200
    leave_group(group=night.group, user=dora)
    for url in (reverse("night_detail", args=[night.pk]), reverse("night_live", args=[night.pk])):
        answer = client.get(url)
        assert answer.status_code == 404
        assert b"/streams/" not in answer.content


def test_without_a_front_no_page_names_a_stream(client, login, nights):
    for page, (elements, live, _) in pages(client, login, nights["night"]).items():
        assert "hx-get" in elements.by_id[live], page  # still polled
        assert "data-stream" not in elements.by_id[live], page
        assert elements.streams == [], page
        # live.js still orders the polls' and saves' answers, with no stream to open.
        assert len(live_script(elements)) == 1, page
        assert elements.scripts, page  # the page's other scripts are there
