"""The lists that grow with every night a group plays (the group page's nights and a
player's nights): the newest first, the older ones a page at a time as the list is
scrolled, in the same few queries however many nights; the figures above them
still count every night."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.models import Night, User
from scorekeeper.reads.history import NIGHTS_PER_PAGE
from tests.helpers import finished_nights_in_bulk

GROUP_NIGHT = re.compile(r'class="row-link night-row" href="/nights/(\d+)/"')
PLAYER_NIGHT = re.compile(r'<td><a href="/nights/(\d+)/settle/"')
OLDER = re.compile(r'hx-get="([^"]+\?before=\d+)"')
LINK = re.compile(r'<a class="button" href="([^"]+\?before=\d+)">Older nights</a>')
HTMX = {"HX-Request": "true"}


@pytest.fixture
def group(make_group):
    return make_group(members=("Anna", "Bram"))


@pytest.fixture
def play_nights_of(group):
    def play_nights(count: int, first: int = 0) -> list[Night]:
        """``count`` finished nights of Anna and Bram, the one numbered ``i`` (from
        ``first``) a single round of Anna +i, Bram -i."""
        totals = [{"Anna": points, "Bram": -points} for points in range(first, first + count)]
        return finished_nights_in_bulk(group, totals)

    return play_nights


def newest_first(nights: list[Night]) -> list[int]:
    return [night.pk for night in reversed(nights)]


def scroll(client, url: str, shown: re.Pattern) -> list[list[int]]:
    """The nights of the page at ``url``, then of each older page its end loads, as
    htmx asks for them."""
    page = client.get(url).content.decode()
    pages = [[int(pk) for pk in shown.findall(page)]]
    while (older := OLDER.search(page)) is not None:
        page = client.get(older.group(1).replace("&amp;", "&"), headers=HTMX).content.decode()
        assert "<html" not in page  # only the next nights and what loads the ones after
        pages.append([int(pk) for pk in shown.findall(page)])
    return pages


def test_the_group_page_shows_the_newest_nights_and_loads_the_older_as_you_scroll(
    group, play_nights_of, login
):
    nights = play_nights_of(2 * NIGHTS_PER_PAGE + 5)
    pages = scroll(login("Anna"), reverse("group_detail", args=[group.pk]), GROUP_NIGHT)
    assert [len(page) for page in pages] == [NIGHTS_PER_PAGE, NIGHTS_PER_PAGE, 5]
    assert [pk for page in pages for pk in page] == newest_first(
        nights
    )  # every night once, newest first


def test_the_group_page_counts_every_night_in_what_is_owed(group, play_nights_of, login):
    play_nights_of(NIGHTS_PER_PAGE + 5)
    page = login("Anna").get(reverse("group_detail", args=[group.pk]))
    # Anna won 0 + 1 + ... + 24 points at 10 ct: 30 €, all of them owed by Bram.
    [payment] = page.context["owed"].payments
    assert (payment.payer.name, payment.payee.name, payment.cents) == ("Bram", "Anna", 3000)


def test_a_players_page_shows_their_newest_nights_and_loads_the_older_as_you_scroll(
    group, play_nights_of, login
):
    nights = play_nights_of(2 * NIGHTS_PER_PAGE + 5)
    anna = User.objects.get(name="Anna")
    url = reverse("player_history", args=[group.pk, anna.pk])
    client = login("Bram")
    pages = scroll(client, url, PLAYER_NIGHT)
    assert [len(page) for page in pages] == [NIGHTS_PER_PAGE, NIGHTS_PER_PAGE, 5]
    assert [pk for page in pages for pk in page] == newest_first(nights)

    # The record above the list counts all 45 nights, not the 20 shown.
    page = client.get(url)
    assert page.context["record"].nights == 45
    # 0 + 1 + ... + 44 points at 10 ct.
    assert page.context["record"].currencies[0].cents == 9900
    html = page.content.decode()
    assert "45 nights" in html and "€99.00" in html


def test_without_scripts_older_nights_are_a_link_to_a_whole_page(group, play_nights_of, login):
    nights = play_nights_of(NIGHTS_PER_PAGE + 2)
    anna = User.objects.get(name="Anna")
    client = login("Anna")
    for url, shown in (
        (reverse("group_detail", args=[group.pk]), GROUP_NIGHT),
        (reverse("player_history", args=[group.pk, anna.pk]), PLAYER_NIGHT),
    ):
        link = LINK.search(client.get(url).content.decode())
        assert link is not None, url
        older = client.get(link.group(1).replace("&amp;", "&")).content.decode()
        assert "<html" in older
        assert [int(pk) for pk in shown.findall(older)] == newest_first(nights[:2])
        assert "Older nights" not in older


def test_a_bad_before_shows_the_newest_nights(group, play_nights_of, login):
    nights = play_nights_of(2)
    client = login("Anna")
    for before in ("x1", "9" * 30, "-1", "²"):
        page = client.get(reverse("group_detail", args=[group.pk]), {"before": before})
        assert [int(pk) for pk in GROUP_NIGHT.findall(page.content.decode())] == newest_first(
            nights
        )


def query_counts(client, group, anna) -> dict[str, int]:
    counts = {}
    urls = {
        "group page": reverse("group_detail", args=[group.pk]),
        "player page": reverse("player_history", args=[group.pk, anna.pk]),
    }
    for label, url in urls.items():
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        counts[label] = len(queries)
        # The page after the newest night, as the list's end asks for it.
        newest = Night.objects.filter(group=group).first()
        with CaptureQueriesContext(connection) as queries:
            client.get(url, {"before": newest.pk}, headers=HTMX)
        counts[f"{label}, older"] = len(queries)
    return counts


@pytest.mark.database
def test_the_lists_take_the_same_queries_at_5_nights_and_at_45(group, play_nights_of, login):
    anna = User.objects.get(name="Anna")
    client = login("Anna")
    play_nights_of(5)
    few = query_counts(client, group, anna)
    play_nights_of(40, first=5)
    assert query_counts(client, group, anna) == few


def test_strangers_get_the_same_404_for_older_nights(group, play_nights_of, login, make_user):
    play_nights_of(2)
    anna = User.objects.get(name="Anna")
    make_user("Zed")
    client = login("Zed")
    before = {"before": Night.objects.filter(group=group).first().pk}
    for url in (
        reverse("group_detail", args=[group.pk]),
        reverse("player_history", args=[group.pk, anna.pk]),
    ):
        assert client.get(url, before).status_code == 404
        assert client.get(url, before, headers=HTMX).status_code == 404


THROUGH = re.compile(r'id="nights-through" name="through" value="(\d+)"( hx-swap-oob="true")?')


def test_a_poll_that_redraws_the_list_keeps_the_older_nights_scrolled_in(
    client, login, group, play_nights_of
):
    nights = play_nights_of(NIGHTS_PER_PAGE + 5)
    login("Anna")
    url = reverse("group_detail", args=[group.pk])
    page = client.get(url).content.decode()
    assert THROUGH.search(page).groups() == (str(nights[5].pk), None)  # the 20th newest
    older = client.get(OLDER.search(page).group(1), headers=HTMX).content.decode()
    through = THROUGH.search(older)
    assert through.groups() == (str(nights[0].pk), ' hx-swap-oob="true"')  # now the oldest

    newer = play_nights_of(1, first=100)  # a night ends on another phone
    live = reverse("group_live", args=[group.pk])
    redrawn = client.get(live, {"version": "0", "through": through[1]}, headers=HTMX)
    shown = [int(pk) for pk in GROUP_NIGHT.findall(redrawn.content.decode())]
    assert shown == newest_first(nights + newer)  # all 26, none dropped
    assert "Older nights" not in redrawn.content.decode()
    # Without it (or with a night that is not one of the group's), the newest page.
    for asked in ({"version": "0"}, {"version": "0", "through": "999999"}):
        redrawn = client.get(live, asked, headers=HTMX).content.decode()
        assert [int(pk) for pk in GROUP_NIGHT.findall(redrawn)] == newest_first(nights + newer)[
            :NIGHTS_PER_PAGE
        ]
