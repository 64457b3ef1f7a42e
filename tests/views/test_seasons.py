"""The all-nights table and a player's page read by season: all time by default,
each calendar year unless the group set seasons of its own on its seasons page, a
night counted in the season of the day it started in the local time zone."""

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import override_settings
from django.urls import reverse

from scorekeeper.models import Night, Season
from scorekeeper.services.seasons import add_season
from tests.helpers import body_text, finish, play

TAG = re.compile(r"<[^>]+>")

AMSTERDAM = ZoneInfo("Europe/Amsterdam")


@pytest.fixture
def group(make_group):
    return make_group(members=("Anna", "Bram"))


@pytest.fixture
def night_on(make_night, group):
    def a_night(day: datetime, anna: int) -> Night:
        """A finished night of Anna and Bram started at ``day``: Anna ``anna``, Bram the rest."""
        night = finish(
            play(make_night(("Anna", "Bram"), group=group), {"Anna": anna, "Bram": -anna})
        )
        Night.objects.filter(pk=night.pk).update(started_at=day, ended_at=day)
        return night

    return a_night


def words(response) -> str:
    """What a reader reads of the page: its text without tags, spaces collapsed."""
    return " ".join(TAG.sub(" ", body_text(response)).split())


def table(client, group, season: str | None = None):
    query = f"?season={season}" if season is not None else ""
    return client.get(reverse("group_table", args=[group.pk]) + query)


def nights_of(response, name: str) -> int:
    """The Nights column of ``name``'s row of the (one) table."""
    for table_ in response.context["tables"]:
        for row in table_.rows:
            if row.name == name:
                return row.nights
    return 0


def test_all_time_is_the_default_and_each_year_a_season(night_on, group, login):
    night_on(datetime(2025, 3, 1, 20, tzinfo=AMSTERDAM), 5)
    night_on(datetime(2026, 3, 1, 20, tzinfo=AMSTERDAM), 7)
    night_on(datetime(2026, 6, 1, 20, tzinfo=AMSTERDAM), 1)
    client = login("Anna")

    everything = table(client, group)
    assert nights_of(everything, "Anna") == 3
    assert "All time: every finished night." in words(everything)

    year = table(client, group, "2026")
    assert nights_of(year, "Anna") == 2
    assert year.context["tables"][0].rows[0].money == {"EUR": 80}  # 7 + 1 points at 10 ct
    assert "2026: the nights from Jan 1, 2026 to Dec 31, 2026." in words(year)
    assert nights_of(table(client, group, "2025"), "Anna") == 1


def test_the_picker_links_every_year_and_marks_the_one_shown(night_on, group, login):
    night_on(datetime(2025, 3, 1, 20, tzinfo=AMSTERDAM), 5)
    night_on(datetime(2026, 3, 1, 20, tzinfo=AMSTERDAM), 7)
    page = table(login("Anna"), group, "2025").content.decode()
    url = reverse("group_table", args=[group.pk])
    assert f'<a href="{url}">All time</a>' in page
    assert f'<a href="{url}?season=2026">2026</a>' in page
    assert f'<a href="{url}?season=2025" aria-current="page">2025</a>' in page


@override_settings(TIME_ZONE="Europe/Amsterdam")
def test_a_night_belongs_to_the_day_it_started_in_the_local_time_zone(night_on, group, login):
    # Half past midnight on New Year's Day in Amsterdam is still 2025 in UTC.
    night_on(datetime(2026, 1, 1, 0, 30, tzinfo=AMSTERDAM), 5)
    client = login("Anna")
    assert nights_of(table(client, group, "2026"), "Anna") == 1
    assert table(client, group, "2025").status_code == 404  # no night started in 2025


def test_the_groups_own_seasons_replace_the_years(night_on, group, login):
    anna = group.memberships.get(user__name="Anna").user
    night_on(datetime(2026, 1, 10, 20, tzinfo=AMSTERDAM), 2)  # before any season
    night_on(datetime(2026, 3, 1, 20, tzinfo=AMSTERDAM), 3)
    night_on(datetime(2026, 8, 31, 23, tzinfo=AMSTERDAM), 4)  # the last day of spring
    night_on(datetime(2026, 9, 1, 20, tzinfo=AMSTERDAM), 6)
    spring = add_season(group=group, by=anna, name="Spring", starts_on="2026-03-01")
    autumn = add_season(group=group, by=anna, name="Autumn", starts_on="2026-09-01")
    client = login("Anna")

    shown = table(client, group, str(spring.pk))
    assert nights_of(shown, "Anna") == 2
    assert shown.context["tables"][0].rows[0].money == {"EUR": 70}
    assert "Spring: the nights from Mar 1, 2026 to Aug 31, 2026." in words(shown)
    last = table(client, group, str(autumn.pk))
    assert nights_of(last, "Anna") == 1
    assert "Autumn: the nights from Sep 1, 2026 on." in words(last)
    assert nights_of(table(client, group), "Anna") == 4  # all time counts the one before
    page = table(client, group).content.decode()
    assert "?season=2026" not in page and f"?season={spring.pk}" in page
    assert table(client, group, "2026").status_code == 404  # years are not offered now


def test_a_seasons_table_says_so_when_it_has_no_nights(night_on, group, login):
    anna = group.memberships.get(user__name="Anna").user
    night_on(datetime(2026, 3, 1, 20, tzinfo=AMSTERDAM), 3)
    later = add_season(group=group, by=anna, name="Later", starts_on="2030-01-01")
    assert "No finished nights in this season." in words(table(login("Anna"), group, str(later.pk)))


def test_the_player_page_reads_a_season(night_on, group, login):
    night_on(datetime(2025, 3, 1, 20, tzinfo=AMSTERDAM), 5)
    night_on(datetime(2026, 3, 1, 20, tzinfo=AMSTERDAM), 7)
    bram = group.memberships.get(user__name="Bram").user
    url = reverse("player_history", args=[group.pk, bram.pk])
    client = login("Anna")

    everything = client.get(url)
    assert everything.context["record"].nights == 2
    assert f'<a href="{url}" aria-current="page">All time</a>' in everything.content.decode()
    year = client.get(url + "?season=2025")
    assert year.context["record"].nights == 1
    assert year.context["record"].currencies[0].cents == -50
    assert "2025: the nights from Jan 1, 2025 to Dec 31, 2025." in words(year)
    assert client.get(url + "?season=2024").status_code == 404


@pytest.mark.parametrize("season", ["2026", "abc", "-1", "99999999999999999999"])
def test_a_season_the_group_does_not_have_is_a_404(group, login, season):
    assert table(login("Anna"), group, season).status_code == 404


def test_another_groups_season_is_a_404_here(night_on, group, login, make_group):
    night_on(datetime(2026, 3, 1, 20, tzinfo=AMSTERDAM), 3)
    theirs = other_groups_season(make_group)
    assert table(login("Anna"), group, str(theirs.pk)).status_code == 404


def other_groups_season(make_group):
    """A season of another group, Olga's, which Anna is in too."""
    other = make_group(name="Other table", members=("Anna", "Olga"))
    olga = other.memberships.get(user__name="Olga").user
    return add_season(group=other, by=olga, name="X", starts_on="2026-01-01")


# --- the seasons page -----------------------------------------------------------------


def seasons_url(group) -> str:
    return reverse("group_seasons", args=[group.pk])


def test_the_group_page_links_the_seasons_page_once(group, login):
    page = login("Anna").get(reverse("group_detail", args=[group.pk])).content.decode()
    assert page.count(f'href="{seasons_url(group)}"') == 1


def test_a_member_adds_a_season_and_sees_it_listed(group, login):
    client = login("Bram")
    assert "the tables are read by calendar year" in words(client.get(seasons_url(group)))
    response = client.post(seasons_url(group), {"name": "Winter", "starts_on": "2026-09-01"})
    assert response.status_code == 302
    page = client.get(seasons_url(group))
    assert "The season “Winter” is added." in words(page)
    assert "Winter from Sep 1, 2026 on" in words(page)


@pytest.mark.parametrize(
    ("post", "said"),
    [
        ({"name": "Winter", "starts_on": "1 September"}, "That date cannot be read."),
        ({"name": "Winter", "starts_on": ""}, "Please say the day the season starts."),
        ({"name": "", "starts_on": "2026-09-01"}, "Please give the season a name."),
        ({"name": "winter", "starts_on": "2027-09-01"}, "The group has a season called “winter”"),
        (
            {"name": "Autumn", "starts_on": "2026-09-01"},
            "Two seasons cannot start on the same day.",
        ),
    ],
)
def test_bad_input_is_refused_in_words(group, login, post, said):
    add_season(
        group=group,
        by=group.memberships.get(user__name="Anna").user,
        name="Winter",
        starts_on="2026-09-01",
    )
    response = login("Anna").post(seasons_url(group), post)
    assert response.status_code == 400
    assert said in words(response)
    assert group.seasons.count() == 1


def test_a_season_is_taken_away_and_one_already_gone_is_said_in_words(group, login):
    anna = group.memberships.get(user__name="Anna").user
    winter = add_season(group=group, by=anna, name="Winter", starts_on="2026-09-01")
    client = login("Anna")
    client.post(seasons_url(group), {"remove": winter.pk})
    assert not Season.objects.exists()
    page = client.get(seasons_url(group))
    assert "The season “Winter” is removed." in words(page)
    client.post(seasons_url(group), {"remove": winter.pk})
    assert "That season is not there any more." in words(client.get(seasons_url(group)))


def test_another_groups_season_cannot_be_taken_away_from_here(group, login, make_group):
    theirs = other_groups_season(make_group)
    login("Anna").post(seasons_url(group), {"remove": theirs.pk})
    assert Season.objects.filter(pk=theirs.pk).exists()


def test_a_member_of_another_group_gets_a_404(group, login, make_group):
    make_group(name="Other table", members=("Olga",))
    client = login("Olga")
    assert client.get(seasons_url(group)).status_code == 404
    assert (
        client.post(seasons_url(group), {"name": "X", "starts_on": "2026-01-01"}).status_code == 404
    )
    assert not Season.objects.exists()


def test_a_players_older_nights_of_a_season_stay_in_that_season(night_on, group, login):
    for day in range(1, 23):
        night_on(datetime(2026, 1, day, 20, tzinfo=AMSTERDAM), day)
    night_on(datetime(2025, 5, 1, 20, tzinfo=AMSTERDAM), 1)
    bram = group.memberships.get(user__name="Bram").user
    url = reverse("player_history", args=[group.pk, bram.pk])
    client = login("Anna")
    page = client.get(url + "?season=2026").content.decode()
    older = re.search(r'<a class="button" href="([^"]+)">Older nights</a>', page).group(1)
    assert older.endswith("&amp;season=2026")
    rest = client.get(older.replace("&amp;", "&"), headers={"HX-Request": "true"})
    rows = rest.content.decode()
    # 22 nights of 2026, 20 a page: the last two, and not the night of 2025.
    assert re.findall(r">(\w+ \d+, \d+)</a>", rows) == ["Jan 2, 2026", "Jan 1, 2026"]
    assert "Older nights" not in rows


def test_the_picker_and_the_season_are_said_in_the_readers_language(night_on, group, login):
    night_on(datetime(2026, 3, 1, 20, tzinfo=AMSTERDAM), 3)
    client = login("Anna")
    response = client.get(
        reverse("group_table", args=[group.pk]) + "?season=2026",
        headers={"Accept-Language": "zh-hans"},
    )
    assert ">2026年</a>" in response.content.decode()
