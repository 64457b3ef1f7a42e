"""The players table and a player's record page, against the hand count of
``play_two_nights`` (see its docstring)."""

import re

import pytest
from django.urls import reverse

from scorekeeper.models import User
from scorekeeper.services.groups import leave_group
from tests.helpers import play_nights, play_two_nights


@pytest.fixture
def two_nights_with_cards(make_night):
    return play_two_nights(make_night)


def text_of(html, testid):
    """The words inside the element marked ``data-testid=testid``, tags stripped."""
    block = re.search(rf'<(\w+)[^>]*data-testid="{testid}"[^>]*>(.*?)</\1>', html, re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", block.group(2)).split())


def test_the_group_page_links_to_the_players_table(two_nights_with_cards, login):
    group, _, _ = two_nights_with_cards
    html = login("Anna").get(reverse("group_detail", args=[group.pk])).content.decode()
    assert f'href="{reverse("players", args=[group.pk])}">Players</a>' in html


def test_the_players_table_lists_members_with_nights_won_and_money(two_nights_with_cards, login):
    group, _, _ = two_nights_with_cards
    leave_group(group=group, user=User.objects.get(name="Chris"))
    page = login("Anna").get(reverse("players", args=[group.pk]))

    assert page.status_code == 200
    html = page.content.decode()
    rows = re.findall(r'<tr data-player="([^"]+)">(.*?)</tr>', html, re.S)
    words = {name: " ".join(re.sub(r"<[^>]+>", " ", row).split()) for name, row in rows}
    assert list(words) == ["Bram", "Chris", "Anna"]  # most money first; Gus is a guest
    assert words == {
        "Bram": "Bram 2 0 €3.20",
        "Chris": "Chris (left) 1 0 −€3.90",
        "Anna": "Anna 2 1 −€4.80",
    }
    anna = User.objects.get(name="Anna")
    assert reverse("player_history", args=[group.pk, anna.pk]) in html


def test_a_players_page_shows_their_record_and_what_it_is_based_on(two_nights_with_cards, login):
    group, first, second = two_nights_with_cards
    anna = User.objects.get(name="Anna")
    page = login("Bram").get(reverse("player_history", args=[group.pk, anna.pk]))
    html = page.content.decode()

    assert text_of(html, "record-summary") == "2 nights · won 1 · 4 hands"
    money = text_of(html, "record-money")
    assert "−€4.80 over 2 nights" in money
    assert "Best night: €3.20" in money and "worst: −€8.00" in money
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg"') == 1
    assert "Anna −€4.80</text>" in html  # the chart's end label
    points = text_of(html, "record-points")
    assert "+16.0 a hand at €0.10 a point (+32 from 2 hands)" in points
    assert "−8.0 a hand at €0.50 a point (−16 from 2 hands)" in points
    cards = text_of(html, "record-cards")
    assert "From 2 card hands of 4" in cards
    assert "Fouled 1 of 2" in cards
    assert "Made Fantasyland 0 of 2" in cards
    assert "Stayed in Fantasyland 0 of 0" in cards
    assert "Royalties 2.0 a hand (4 in all)" in cards
    assert "flush, ace-jack-eight-six-three bottom" in text_of(html, "best-hands")
    head = text_of(html, "head-to-head")
    assert "Bram 2 0–2 −3 at €0.10 −12 at €0.50" in head
    assert "Chris 1 1–0 +10 at €0.10" in head
    assert "Gus (guest) 1 0–1 −14 at €0.50" in head
    bram = User.objects.get(name="Bram")
    assert reverse("player_history", args=[group.pk, bram.pk]) in html
    # The nights, newest first, as before.
    assert [line.night for line in page.context["history"].nights] == [second, first]


def test_a_player_who_left_has_their_record_page_marked(two_nights_with_cards, login):
    group, _, _ = two_nights_with_cards
    chris = User.objects.get(name="Chris")
    leave_group(group=group, user=chris)
    page = login("Anna").get(reverse("player_history", args=[group.pk, chris.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "(left the group)" in html
    assert text_of(html, "record-summary") == "1 night · won 0 · 2 hands"
    assert "From 1 card hand of 2" in text_of(html, "record-cards")


@pytest.mark.database
@pytest.mark.parametrize("nights", [2, 6])
def test_the_pages_take_the_same_queries_however_many_nights(
    make_group, make_night, login, django_assert_num_queries, nights
):
    group = make_group(members=("Anna", "Bram"))
    play_nights(make_night, group, nights)
    client = login("Anna")
    anna = User.objects.get(name="Anna")
    # User, group, the player, the group's own seasons and the years of its nights (the
    # season picker), a page of their nights and those nights' seats, then for their
    # record all their nights' seats, whether they left, the stored results of their
    # boards and the seats those were against, and the session.
    with django_assert_num_queries(12):
        page = client.get(reverse("player_history", args=[group.pk, anna.pk]))
    assert page.context["record"].cards.hands == nights
    # The session, the user, group, the memberships, the seats of the finished nights.
    with django_assert_num_queries(5):
        page = client.get(reverse("players", args=[group.pk]))
    assert page.context["records"][0].nights == nights
