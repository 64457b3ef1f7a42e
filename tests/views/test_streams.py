"""The live pages' streams (scorekeeper/views/streams.py) answer whoever asks exactly as
the page they belong to does: a member gets the hand-over to the front (X-Accel-Redirect
to the night's or the group's own channel), everyone else the page's own answer (its
404, its redirect to log in, the shared link's "no longer works"); without a front an
allowed stream is an empty 204. The pages name their stream only when a front is there."""

from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from scorekeeper.models import Night, User
from scorekeeper.services.groups import leave_group
from scorekeeper.services.nights import share_screen, stop_sharing_screen
from tests.helpers import finish, make_group, make_night, make_user

FRONT = "http://127.0.0.1:9/"  # never asked: a stream only names its channel


@pytest.fixture
def push_on(settings):
    settings.PUSH_URL = FRONT


@pytest.fixture
def nights(db) -> dict[str, Night]:
    """The night the streams are asked of, an earlier night of its group and a night
    of another group. Anna plays; Dora follows from the group without a seat; Erin has
    left; Olga plays in the other group; Zed is in no group."""
    group = make_group(members=("Anna", "Bram", "Chris", "Dora", "Erin"))
    same_group = finish(make_night(("Anna", "Dora"), group=group))
    night = make_night(("Anna", "Bram", "Chris"), group=group)
    elsewhere = make_night(("Olga", "Pim"))
    leave_group(group=group, user=User.objects.get(name="Erin"))
    make_user("Zed")
    return {"night": night, "same group": same_group, "elsewhere": elsewhere}


# Who asks: the user's name, or None for a phone that is not logged in.
VISITORS = {
    "player": "Anna",
    "member without a seat": "Dora",
    "stranger": "Zed",
    "other group's member": "Olga",
    "former member": "Erin",
    "logged out": None,
}
MEMBERS = {"player", "member without a seat"}

# A stream, the page it belongs to and that page's poll, and its channel, for a night.
STREAMS = {
    "night": (
        lambda night: reverse("night_stream", args=[night.pk]),
        lambda night: reverse("night_detail", args=[night.pk]),
        lambda night: reverse("night_live", args=[night.pk]),
        lambda night: f"night-{night.pk}",
    ),
    "group": (
        lambda night: reverse("group_stream", args=[night.group_id]),
        lambda night: reverse("group_detail", args=[night.group_id]),
        lambda night: reverse("group_live", args=[night.group_id]),
        lambda night: f"group-{night.group_id}",
    ),
}


def visit(client, login, visitor: str):
    name = VISITORS[visitor]
    return login(name) if name else client


def handed_over(answer, channel: str) -> bool:
    return (
        answer.status_code == 200
        and answer.get("X-Accel-Redirect") == f"/_streams/{channel}"
        and answer.get("Cache-Control") == "no-store"
    )


def not_handed_over(answer) -> bool:
    return "X-Accel-Redirect" not in answer and b"_streams" not in answer.content


def same_login_redirect(stream, page, stream_url: str, page_url: str) -> bool:
    """Both sent to the same login page, each with its own address to come back to."""
    asked, shown = urlsplit(stream["Location"]), urlsplit(page["Location"])
    return (
        stream.status_code == page.status_code == 302
        and asked.path == shown.path == reverse("login")
        and parse_qs(asked.query).get("next") == [stream_url]
        and parse_qs(shown.query).get("next") == [page_url]
    )


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize("stream", STREAMS)
def test_a_stream_answers_as_its_page(client, login, nights, push_on, stream, visitor):
    night = nights["night"]
    stream_url, page_url, poll_url, channel = (make(night) for make in STREAMS[stream])
    visit(client, login, visitor)
    page, poll, answer = client.get(page_url), client.get(poll_url), client.get(stream_url)

    if visitor in MEMBERS:
        assert page.status_code == 200
        assert handed_over(answer, channel)
        assert answer.content == b""
    elif visitor == "logged out":
        assert not_handed_over(answer)
        assert same_login_redirect(answer, page, stream_url, page_url)
        assert poll.status_code == 302
    else:
        assert page.status_code == poll.status_code == answer.status_code == 404
        assert not_handed_over(answer)


@pytest.mark.parametrize("stream", ["night_stream", "group_stream"])
def test_a_night_or_group_no_row_has_is_the_404_of_its_page(client, login, nights, push_on, stream):
    login("Anna")
    page = "night_detail" if stream == "night_stream" else "group_detail"
    answer = client.get(reverse(stream, args=[987654]))
    assert answer.status_code == client.get(reverse(page, args=[987654])).status_code == 404
    assert not_handed_over(answer)


def test_a_member_who_leaves_is_refused_from_the_next_stream(client, login, nights, push_on):
    night = nights["night"]
    dora = User.objects.get(name="Dora")
    login(dora)
    for make_url, *_, channel in STREAMS.values():
        assert handed_over(client.get(make_url(night)), channel(night))
    leave_group(group=night.group, user=dora)
    for make_url, page, *_ in STREAMS.values():
        answer = client.get(make_url(night))
        assert answer.status_code == client.get(page(night)).status_code == 404
        assert not_handed_over(answer)


def shared_link(night: Night) -> str:
    share_screen(night=night, by=night.started_by)
    night.refresh_from_db()
    return night.screen_token


@pytest.mark.parametrize("visitor", VISITORS)
def test_anyone_holding_the_shared_link_gets_the_nights_stream(
    client, login, nights, push_on, visitor
):
    night = nights["night"]
    token = shared_link(night)
    visit(client, login, visitor)
    assert client.get(reverse("shared_screen", args=[token])).status_code == 200
    answer = client.get(reverse("shared_screen_stream", args=[token]))
    assert handed_over(answer, f"night-{night.pk}")


def taken_back(night: Night) -> str:
    token = shared_link(night)
    stop_sharing_screen(night=night, by=night.started_by)
    return token


def made_up(night: Night) -> str:
    shared_link(night)  # another link works: this one was never made
    return "A" * 32


@pytest.mark.parametrize("push", [True, False], ids=["front", "no front"])
@pytest.mark.parametrize("link", [taken_back, made_up])
def test_a_link_taken_back_or_made_up_answers_as_the_shared_screen(
    client, nights, settings, link, push
):
    settings.PUSH_URL = FRONT if push else ""
    token = link(nights["night"])
    page = client.get(reverse("shared_screen", args=[token]))
    answer = client.get(reverse("shared_screen_stream", args=[token]))
    assert answer.status_code == page.status_code == 404
    assert not_handed_over(answer)


def every_stream_url(night: Night) -> dict[str, str]:
    return {
        "night": reverse("night_stream", args=[night.pk]),
        "group": reverse("group_stream", args=[night.group_id]),
        "shared": reverse("shared_screen_stream", args=[shared_link(night)]),
    }


@pytest.mark.parametrize("which", ["night", "group", "shared"])
def test_without_a_front_an_allowed_stream_is_an_empty_204(client, login, nights, which):
    url = every_stream_url(nights["night"])[which]
    login("Dora")
    answer = client.get(url)
    assert answer.status_code == 204
    assert answer.content == b""
    assert "X-Accel-Redirect" not in answer


@pytest.mark.parametrize("visitor", ["player", "logged out"])
@pytest.mark.parametrize("which", ["night", "group", "shared"])
def test_a_post_to_a_stream_is_refused(client, login, nights, push_on, which, visitor):
    url = every_stream_url(nights["night"])[which]
    visit(client, login, visitor)
    answer = client.post(url)
    assert answer.status_code == 405
    assert not_handed_over(answer)


def test_no_stream_answer_names_another_nights_channel(client, login, nights, push_on):
    """Every stream of every night, asked by everyone: an answer names its own channel
    or none."""
    urls = {key: every_stream_url(night) for key, night in nights.items()}
    handed = set()
    for visitor in VISITORS:
        client.logout()
        visit(client, login, visitor)
        for key, night in nights.items():
            own = {
                "night": f"/_streams/night-{night.pk}",
                "group": f"/_streams/group-{night.group_id}",
                "shared": f"/_streams/night-{night.pk}",
            }
            for which, url in urls[key].items():
                answer = client.get(url)
                header = answer.get("X-Accel-Redirect")
                assert header in (None, own[which]), (visitor, key, which, header)
                others = [other for other in nights.values() if other.pk != night.pk]
                for other in others:
                    assert f"night-{other.pk}".encode() not in answer.content
                if header:
                    handed.add((visitor, key, which))
    # The check saw hand-overs of each night (it is not vacuous) and none to outsiders.
    assert ("member without a seat", "same group", "night") in handed
    assert ("other group's member", "elsewhere", "group") in handed
    assert ("other group's member", "night", "night") not in handed
    assert ("player", "elsewhere", "night") not in handed


# --- The pages name their stream only with a front ----------------------------------


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
    its live element, the stream it should name)."""
    token = shared_link(night)
    login("Dora")
    asked = {
        "night": (reverse("night_detail", args=[night.pk]), "live", "night_stream", night.pk),
        "group": (reverse("group_detail", args=[night.group_id]), "live", "group_stream", None),
        "screen": (reverse("night_screen", args=[night.pk]), "screen", "night_stream", night.pk),
        # The group's: a change across nights is one message there (services/push.py).
        "settlement": (
            reverse("night_settle", args=[night.pk]),
            "settlement-live",
            "group_stream",
            None,
        ),
    }
    shown = {}
    for page, (url, element, stream, arg) in asked.items():
        response = client.get(url)
        assert response.status_code == 200
        args = [arg if arg is not None else night.group_id]
        shown[page] = (Elements(response.content.decode()), element, reverse(stream, args=args))
    client.logout()
    response = client.get(reverse("shared_screen", args=[token]))
    assert response.status_code == 200
    stream = reverse("shared_screen_stream", args=[token])
    shown["shared screen"] = (Elements(response.content.decode()), "screen", stream)
    return shown


def test_with_a_front_each_live_page_names_its_own_stream(client, login, nights, push_on):
    night = nights["night"]
    assert reverse("night_stream", args=[night.pk]) == f"/nights/{night.pk}/stream/"
    assert reverse("group_stream", args=[night.group_id]) == f"/groups/{night.group_id}/stream/"
    for page, (elements, live, stream) in pages(client, login, night).items():
        assert elements.by_id[live].get("data-stream") == stream, page
        assert elements.streams == [stream], page  # one stream a page, its own
        assert len(live_script(elements)) == 1, page


def test_without_a_front_no_page_names_a_stream(client, login, nights):
    for page, (elements, live, _) in pages(client, login, nights["night"]).items():
        assert "hx-get" in elements.by_id[live], page  # still polled
        assert "data-stream" not in elements.by_id[live], page
        assert elements.streams == [], page
        # live.js still orders the polls' and saves' answers, with no stream to open.
        assert len(live_script(elements)) == 1, page
        assert elements.scripts, page  # the page's other scripts are there
