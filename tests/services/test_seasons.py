"""A group's own seasons are set by its members: a name and the day each starts,
refused in words for a name twice, two seasons starting the same day and a date that
cannot be read."""

import json
from datetime import date

import pytest

from scorekeeper.copies.group_copy import import_group, write_group
from scorekeeper.copies.import_checks.refusal import BackupError
from scorekeeper.models import Season
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import leave_group
from scorekeeper.services.seasons import add_season, remove_season


@pytest.fixture
def group(make_group):
    return make_group(members=("Anna", "Bram"))


def anna(group):
    return group.memberships.get(user__name="Anna").user


def test_a_member_adds_a_season_with_its_name_tidied(group):
    name = "  Winter   2026 "
    season = add_season(group=group, by=anna(group), name=name, starts_on="2026-09-01")
    assert (season.name, season.starts_on) == ("Winter 2026", date(2026, 9, 1))
    assert list(group.seasons.all()) == [season]


def test_a_name_twice_is_refused_case_aside(group):
    add_season(group=group, by=anna(group), name="Winter", starts_on=date(2026, 9, 1))
    with pytest.raises(Refused, match="Give this one another name"):
        add_season(group=group, by=anna(group), name="WINTER", starts_on=date(2027, 9, 1))
    assert group.seasons.count() == 1


def test_two_seasons_starting_the_same_day_are_refused(group):
    add_season(group=group, by=anna(group), name="Winter", starts_on=date(2026, 9, 1))
    with pytest.raises(Refused, match="“Winter” starts on that day already"):
        add_season(group=group, by=anna(group), name="Autumn", starts_on="2026-09-01")


@pytest.mark.parametrize("written", ["1 September", "2026-13-01", "", "2026-02-30"])
def test_a_date_that_cannot_be_read_is_refused_in_words(group, written):
    with pytest.raises(Refused, match="That date cannot be read"):
        add_season(group=group, by=anna(group), name="Winter", starts_on=written)
    assert not group.seasons.exists()


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("   ", "Please give the season a name."),
        ("W" * 41, "at most 40 characters"),
        ("Win\u202eter", "cannot have invisible characters"),
    ],
)
def test_a_name_that_cannot_be_a_season_is_refused(group, name, words):
    with pytest.raises(Refused, match=words):
        add_season(group=group, by=anna(group), name=name, starts_on=date(2026, 9, 1))


def test_someone_not_in_the_group_changes_nothing(group, make_group):
    olga = make_group(name="Other table", members=("Olga",)).memberships.get().user
    with pytest.raises(Refused, match="Only the group's members"):
        add_season(group=group, by=olga, name="Winter", starts_on=date(2026, 9, 1))
    season = add_season(group=group, by=anna(group), name="Winter", starts_on=date(2026, 9, 1))
    bram = group.memberships.get(user__name="Bram").user
    leave_group(group=group, user=bram)
    with pytest.raises(Refused, match="Only the group's members"):
        remove_season(group=group, by=bram, season=season)
    assert group.seasons.count() == 1


def test_a_season_taken_away_is_gone_and_its_name_free_again(group):
    season = add_season(group=group, by=anna(group), name="Winter", starts_on=date(2026, 9, 1))
    remove_season(group=group, by=anna(group), season=season)
    assert not group.seasons.exists()
    add_season(group=group, by=anna(group), name="Winter", starts_on=date(2026, 9, 1))


def test_another_groups_season_of_the_same_name_and_day_is_its_own(group, make_group):
    other = make_group(name="Other table", members=("Olga",))
    add_season(group=group, by=anna(group), name="Winter", starts_on=date(2026, 9, 1))
    olga = other.memberships.get().user
    add_season(group=other, by=olga, name="Winter", starts_on=date(2026, 9, 1))
    assert Season.objects.count() == 2


def test_a_groups_copy_carries_its_seasons(group, tmp_path):
    add_season(group=group, by=anna(group), name="Winter", starts_on=date(2026, 9, 1))
    path = tmp_path / "group.json"
    write_group(path, group.pk)
    copy, _renamed, counts = import_group(path)
    assert counts["scorekeeper.Season"] == 1
    assert [(s.name, s.starts_on) for s in copy.seasons.all()] == [("Winter", date(2026, 9, 1))]


def test_a_file_with_a_season_as_no_page_would_take_it_is_refused_in_words(group, tmp_path):
    add_season(group=group, by=anna(group), name="Winter", starts_on=date(2026, 9, 1))
    path = tmp_path / "group.json"
    write_group(path, group.pk)
    document = json.loads(path.read_text())
    season = next(row for row in document["objects"] if row["model"] == "scorekeeper.season")
    season["fields"]["name"] = "Win\u200bter"
    path.write_text(json.dumps(document))
    with pytest.raises(BackupError, match=r"\(season Win<U\+200B>ter\), name: A season's name"):
        import_group(path)
