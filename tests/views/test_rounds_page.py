"""The rounds page of a long night: the newest rounds first, the older ones a page at
a time as the list is scrolled, in the same few queries wherever the page starts."""

import re

import pytest
from django.urls import reverse

from scorekeeper.reads.nights import ROUNDS_PER_PAGE
from tests.helpers import play, rounds_of

SHOWN = re.compile(r'id="round-(\d+)"')
OLDER = re.compile(r'hx-get="([^"]+\?before=\d+)"')


@pytest.mark.database
def test_the_rounds_page_shows_the_newest_rounds_and_loads_the_older_as_you_scroll(
    client, login, make_night, django_assert_max_num_queries
):
    night = make_night()
    total = ROUNDS_PER_PAGE * 2 + 4
    play(night, *rounds_of(total))
    login("Anna")
    page = client.get(reverse("night_rounds", args=[night.pk])).content.decode()
    seen = [int(n) for n in SHOWN.findall(page)]
    assert seen == list(range(total, total - ROUNDS_PER_PAGE, -1))
    while (older := OLDER.search(page)) is not None:
        url = older.group(1).replace("&amp;", "&")
        with django_assert_max_num_queries(12):
            page = client.get(url, headers={"HX-Request": "true"}).content.decode()
        assert "<html" not in page  # only the next rounds and what loads the ones after
        seen += [int(n) for n in SHOWN.findall(page)]
    # Every round once, newest first, and nothing more to load after round 1.
    assert seen == list(range(total, 0, -1))


def test_without_scripts_the_older_rounds_are_a_link_to_a_whole_page(client, login, make_night):
    night = make_night()
    play(night, *rounds_of(ROUNDS_PER_PAGE + 2))
    login("Anna")
    page = client.get(reverse("night_rounds", args=[night.pk])).content.decode()
    link = re.search(r'<a class="button" href="([^"]+\?before=(\d+))"', page)
    assert link is not None and link.group(2) == "3"
    older = client.get(link.group(1)).content.decode()
    assert "<html" in older
    assert [int(n) for n in SHOWN.findall(older)] == [2, 1]
    assert "older-rounds" not in older  # no further link (the language switcher keeps the address)


def test_a_bad_before_shows_the_newest_rounds(client, login, make_night):
    night = make_night()
    play(night, *rounds_of(2))
    login("Anna")
    page = client.get(reverse("night_rounds", args=[night.pk]), {"before": "x1"})
    assert [int(n) for n in SHOWN.findall(page.content.decode())] == [2, 1]
