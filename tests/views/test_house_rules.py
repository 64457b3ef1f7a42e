"""The table's own house rules in the app: the group's defaults, a night's own
(until its first round is recorded), the rounds counted by them, and the exports."""

import csv
import io
import json

import pytest
from django.urls import reverse

from scorekeeper.models import Group, Night, User, parse_board
from scorekeeper.ofc import STANDARD_ROYALTIES
from scorekeeper.services.boards import record_board
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import set_house_rules
from scorekeeper.services.nights import change_night_rules
from tests.helpers import body_text, finish, play

# The rules' worked example: A a flush bottom (4), B kings on top (8), C fouls.
A = parse_board({"top": "2c 3d 4h", "middle": "Qs Qd 5c 5d 9s", "bottom": "Ah Jh 8h 6h 3h"})
B = parse_board({"top": "Kc Kd 7s", "middle": "As Ad 9c 6d 2s", "bottom": "Ts Td 4s 4c Js"})
C = parse_board({"top": "Qc Qh 2d", "middle": "7c 8d 9h Jd 2h", "bottom": "6s 6c Kh Ks 3s"})
TWO_FOUR = {"scoop": 0, "majority": 1}


def standard_amounts(prefix: str = "") -> dict[str, int]:
    """Every royalty field of the form at its standard amount, as a browser posts it."""
    fields = {}
    for section, amounts in STANDARD_ROYALTIES.as_json().items():
        for key, points in amounts.items():
            fields[f"{prefix}{section}__{key.replace(' ', '_')}"] = points
    return fields


def house_post(system="1-6", prefix="", **changes):
    return {**standard_amounts(prefix), f"{prefix}system": system, **changes}


def rules_url(group):
    return reverse("group_house_rules", args=[group.pk])


def set_boards(night, boards, number=1):
    for name, board in boards.items():
        record_board(
            night=night,
            round_number=number,
            seat=night.seats.get(name=name),
            board=board,
            entered_by=User.objects.get(name=name),
        )


def points(night, number=1):
    round_ = night.rounds.get(number=number)
    return {entry.seat.name: entry.points for entry in round_.entries.select_related("seat")}


def test_the_group_page_shows_the_standard_table_to_edit(make_group, login):
    group = make_group()
    body = login("Anna").get(rules_url(group)).content.decode()
    assert "1-6, standard royalties" in body
    assert 'name="top_pair__AA" value="9"' in body
    assert 'name="top_trips__222" value="10"' in body
    assert 'name="middle__full_house" value="12"' in body
    assert 'name="low_middle__7" value="4"' in body


def test_a_group_sets_aces_on_top_to_twelve_and_two_four(make_group, login):
    group = make_group()
    response = login("Anna").post(
        rules_url(group), house_post("2-4", top_pair__AA="12"), follow=True
    )
    group.refresh_from_db()
    assert group.house_rules == {"royalties": {"top_pair": {"AA": 12}}, "scoring": TWO_FOUR}
    assert "2-4, own royalties: AA on top 12" in response.content.decode()


def test_a_tables_own_system_keeps_its_bonuses(make_group, login):
    group = make_group()
    login("Anna").post(rules_url(group), house_post("own", scoop="5", majority="2"))
    group.refresh_from_db()
    assert group.house_rules == {"scoring": {"scoop": 5, "majority": 2}}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"top_pair__AA": "-1"}, "AA on top: enter a whole number from 0 to 999."),
        ({"middle__flush": "lots"}, "flush in the middle: enter a whole number from 0 to 999."),
        ({"bottom__quads": "1000"}, "quads on the bottom: enter a whole number from 0 to 999."),
        ({"top_trips__AAA": ""}, "AAA on top: enter a whole number from 0 to 999."),
        ({"system": "own", "scoop": "11", "majority": "1"}, "The scoop bonus is a whole number"),
        ({"system": "own", "scoop": "3", "majority": "x"}, "The majority bonus is a whole number"),
        ({"system": "3-3"}, "Pick how the table scores: 1-6, 2-4, 1-1-1 or your own."),
    ],
)
def test_bad_house_rules_are_refused_per_field_and_nothing_is_saved(
    make_group, login, changes, message
):
    group = make_group()
    set_house_rules(group=group, by=User.objects.get(name="Anna"), rules={"scoring": TWO_FOUR})
    response = login("Anna").post(rules_url(group), {**house_post("2-4"), **changes})
    assert response.status_code == 200
    assert message in response.content.decode()
    group.refresh_from_db()
    assert group.house_rules == {"scoring": TWO_FOUR}


def test_the_bonuses_typed_beside_a_named_system_are_not_used(make_group, login):
    group = make_group()
    login("Anna").post(rules_url(group), house_post("1-1-1", scoop="11", majority="x"))
    group.refresh_from_db()
    assert group.house_rules == {"scoring": {"scoop": 0, "majority": 0}}


def test_back_to_the_standard_table_keeps_the_scoring(make_group, login):
    group = make_group()
    anna = User.objects.get(name="Anna")
    own = {"royalties": {"top_pair": {"AA": 12}}, "scoring": TWO_FOUR}
    set_house_rules(group=group, by=anna, rules=own)
    login("Anna").post(rules_url(group), {"standard": "1"})
    group.refresh_from_db()
    assert group.house_rules == {"scoring": TWO_FOUR}


def test_the_service_refuses_a_stranger_the_groups_house_rules(make_group, make_user):
    # The page's 404 for a stranger is in tests/views/test_access.py.
    group = make_group()
    make_user("Mallory")
    with pytest.raises(Refused):
        set_house_rules(group=group, by=User.objects.get(name="Mallory"), rules={})
    group.refresh_from_db()
    assert group.house_rules == {}


def test_the_service_refuses_rules_that_cannot_be_played(make_group):
    group = make_group()
    anna = User.objects.get(name="Anna")
    for rules in ({"scoring": {"scoop": 11}}, {"royalties": {"top_pair": {"AA": -1}}}, {"x": 1}):
        with pytest.raises(Refused):
            set_house_rules(group=group, by=anna, rules=rules)
    group.refresh_from_db()
    assert group.house_rules == {}


def test_starting_a_night_refuses_rules_that_cannot_be_played(make_group, make_night):
    group = make_group(members=("Anna", "Bram"))
    for rules in ({"scoring": {"majority": 11}}, {"royalties": {"middle": {"high card": 1}}}):
        with pytest.raises(Refused, match="cannot be played"):
            make_night(("Anna", "Bram"), group=group, rules=rules)
    assert not Night.objects.exists()
    night = make_night(("Anna", "Bram"), group=group, rules={"scoring": TWO_FOUR})
    group.refresh_from_db()
    assert (night.rules, group.default_rules, group.house_rules) == ({"scoring": TWO_FOUR}, {}, {})


def start_form(group, **extra):
    anna, bram = (User.objects.get(name=name) for name in ("Anna", "Bram"))
    return {
        "game": "pineapple",
        "point_value": "0.10",
        "seat_1": anna.pk,
        "seat_2": bram.pk,
        "dealer": 1,
        "fantasyland": "on",
        **extra,
    }


def test_a_night_starts_with_the_groups_house_rules(make_group, login):
    group = make_group(members=("Anna", "Bram"))
    own = {"royalties": {"top_pair": {"AA": 12}}, "scoring": TWO_FOUR}
    set_house_rules(group=group, by=User.objects.get(name="Anna"), rules=own)
    client = login("Anna")
    url = reverse("night_start", args=[group.pk]) + "?game=pineapple"
    page = client.get(url).content.decode()
    assert 'name="house-top_pair__AA" value="12"' in page
    assert 'name="house-low_middle__7"' not in page  # pineapple has no 2-7 middle
    deuce = client.get(reverse("night_start", args=[group.pk]) + "?game=deuce").content.decode()
    assert 'name="house-low_middle__7" value="4"' in deuce
    assert 'name="house-middle__flush"' not in deuce  # the 2-7 middle is a low hand
    client.post(
        url, {**start_form(group), **house_post("2-4", "house-", **{"house-top_pair__AA": 12})}
    )
    night = Night.objects.get()
    assert night.rules["scoring"] == TWO_FOUR
    assert night.rules["royalties"] == {"top_pair": {"AA": 12}}
    body = client.get(reverse("night_detail", args=[night.pk])).content.decode()
    assert "2-4, own royalties: AA on top 12" in body


def test_a_night_that_changes_the_table_for_itself_leaves_the_groups_defaults(make_group, login):
    group = make_group(members=("Anna", "Bram"))
    own = {"royalties": {"top_pair": {"AA": 12}}, "scoring": TWO_FOUR}
    set_house_rules(group=group, by=User.objects.get(name="Anna"), rules=own)
    url = reverse("night_start", args=[group.pk]) + "?game=pineapple"
    tonight = house_post("1-1-1", "house-", **{"house-top_pair__KK": 20})
    login("Anna").post(url, {**start_form(group), **tonight})
    night = Night.objects.get()
    assert night.game_rules.scoring.name == "1-1-1"
    assert night.rules["royalties"] == {"top_pair": {"KK": 20}}
    group.refresh_from_db()
    assert group.house_rules == own


def test_a_bad_amount_on_the_start_page_starts_no_night(make_group, login):
    group = make_group(members=("Anna", "Bram"))
    url = reverse("night_start", args=[group.pk]) + "?game=pineapple"
    bad = house_post("own", "house-", **{"house-scoop": "11", "house-majority": "0"})
    response = login("Anna").post(url, {**start_form(group), **bad})
    assert "The scoop bonus is a whole number from 0 to 10." in response.content.decode()
    assert not Night.objects.exists()


def test_a_card_round_is_counted_with_the_nights_rules(make_night, login):
    rules = {"scoring": TWO_FOUR, "royalties": {"top_pair": {"KK": 10}}}
    night = make_night(game="pineapple", rules=rules)
    set_boards(night, {"Anna": A, "Bram": B, "Chris": C})
    # A v B: rows -1 +1 +1, majority +1, royalties 4 - 10; A v C: 3 + 1 + 4;
    # B v C: 3 + 1 + 10.
    assert points(night) == {"Anna": -4 + 8, "Bram": 4 + 14, "Chris": -8 - 14}
    seat = night.seats.get(name="Anna")
    url = reverse("board_entry", args=[night.pk, 1, seat.pk])
    body = login("Anna").get(url).content.decode()
    assert "top −1 · middle +1 · bottom +1 · majority +1 · royalties −6" in body


def test_the_same_round_under_one_six_pays_no_majority(make_night, login):
    night = make_night(game="pineapple")
    set_boards(night, {"Anna": A, "Bram": B, "Chris": C})
    assert points(night) == {"Anna": 7, "Bram": 17, "Chris": -24}
    seat = night.seats.get(name="Anna")
    body = login("Anna").get(reverse("board_entry", args=[night.pk, 1, seat.pk])).content
    assert b"majority" not in body


def test_a_nights_rules_change_until_its_first_round_is_recorded(make_night, login):
    night = make_night(game="pineapple")
    client = login("Anna")
    url = reverse("night_rules", args=[night.pk])
    page = client.get(url).content.decode()
    assert "1-6, standard royalties" in page
    client.post(url, house_post("2-4", top_pair__AA="12"))
    night.refresh_from_db()
    assert night.rules == {"royalties": {"top_pair": {"AA": 12}}, "scoring": TWO_FOUR}
    assert night.group.house_rules == {}  # for this night only
    play(night, {"Anna": 1, "Bram": -1, "Chris": 0})
    page = client.get(url).content.decode()
    assert "These rules are fixed: the night&#x27;s first round is recorded." in page
    client.post(url, house_post("1-6"))
    night.refresh_from_db()
    assert night.rules["scoring"] == TWO_FOUR
    with pytest.raises(Refused, match="first round is recorded"):
        change_night_rules(night=night, by=User.objects.get(name="Anna"), table_rules={})


def test_the_rules_page_of_a_totals_night_says_what_they_agreed(make_night, login):
    night = make_night(rules={"scoring": {"scoop": 5, "majority": 2}})
    play(night, {"Anna": 10, "Bram": -10, "Chris": 0})
    page = login("Bram").get(reverse("night_rules", args=[night.pk])).content.decode()
    assert "own scoring: scoop 5, majority 2, standard royalties" in page
    assert "This night: scoop bonus 5, majority bonus 2." in page


def test_only_the_table_changes_a_nights_rules(make_night, make_user, login):
    night = make_night(("Anna", "Bram"))
    make_user("Dora")
    Group.objects.get().memberships.create(user=User.objects.get(name="Dora"))
    client = login("Dora")
    url = reverse("night_rules", args=[night.pk])
    assert "Only the players at this table" in client.get(url).content.decode()
    client.post(url, house_post("2-4"))
    night.refresh_from_db()
    assert night.rules == {}


def test_the_exports_carry_the_nights_rules(make_night, login):
    night = make_night(
        ("Anna", "Bram"), rules={"scoring": TWO_FOUR, "royalties": {"top_pair": {"AA": 12}}}
    )
    play(night, {"Anna": 3, "Bram": -3})
    finish(night)
    client = login("Anna")
    data = json.loads(body_text(client.get(reverse("night_export", args=[night.pk, "json"]))))
    [exported] = data["nights"]
    assert exported["scoring"] == {"system": "2-4", "scoop": 0, "majority": 1}
    assert exported["royalties"]["top_pair"]["AA"] == 12
    assert exported["royalties"]["top_pair"]["KK"] == 8  # the table in full
    body = body_text(client.get(reverse("night_export", args=[night.pk, "csv"])))
    assert {row["scoring"] for row in csv.DictReader(io.StringIO(body))} == {"2-4"}
