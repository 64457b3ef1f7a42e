"""The night as a picture (issue 33): the data the phone draws it from, in the reader's
language: the standings in order with each player's colour, who pays whom in the page's
words (never "You pay": the picture goes to everyone), and the night's chart."""

import pytest
from django.utils import translation

from scorekeeper.i18n import money
from scorekeeper.models import Group
from scorekeeper.reads.owed import folded_settlement
from scorekeeper.reads.picture import NO_COLOUR, night_picture
from scorekeeper.reads.results import night_results
from scorekeeper.table.colours import PALETTE
from tests.helpers import finish, paid, play, play_two_nights

pytestmark = pytest.mark.django_db

BLUE, ORANGE, GREEN = (shade.light for shade in PALETTE[:3])


@pytest.fixture
def night(make_night):
    """Anna +15, Bram −3 and the guest 小明 −12 after two rounds; 小明 paid Anna."""
    night = make_night(("Anna", "Bram"), guests=("小明",))
    play(night, {"Anna": 10, "Bram": -4, "小明": -6}, {"Anna": 5, "Bram": 1, "小明": -6})
    finish(night)
    paid(night, "小明", "Anna", 120)
    night.refresh_from_db()
    return night


def test_the_standings_in_order_with_each_players_colour(night):
    picture = night_picture(night_results(night))

    assert picture["standings"] == [
        {
            "name": "Anna",
            "points": "+15",
            "money": "€1.50",
            "sign": "plus",
            "colour": BLUE,
            "badges": [],
        },
        {
            "name": "Bram",
            "points": "−3",
            "money": "−€0.30",
            "sign": "minus",
            "colour": ORANGE,
            "badges": [],
        },
        {
            "name": "小明",
            "points": "−12",
            "money": "−€1.20",
            "sign": "minus",
            "colour": GREEN,
            "badges": [],
        },
    ]
    assert picture["group"] == "Friday OFC"
    assert picture["game"] == "OFC Standard"
    assert picture["details"] == "2 rounds · €0.10/pt"
    assert picture["running"] == ""
    assert picture["file"] == f"ofc-night-{night.started_at.date().isoformat()}.png"


def test_who_pays_whom_in_the_words_for_everyone_with_both_colours(night):
    picture = night_picture(night_results(night))

    assert picture["payments"] == [
        {"words": "小明 pays Anna €1.20", "from": GREEN, "to": BLUE, "state": "Paid ✓"},
        {"words": "Bram pays Anna €0.30", "from": ORANGE, "to": BLUE, "state": ""},
    ]
    assert picture["titles"] == {
        "standings": "Everyone",
        "payments": "Who pays whom",
        "chart": "The night, round by round",
    }


def test_the_chart_is_the_pages_chart_each_line_in_its_players_colour(night):
    results = night_results(night)
    chart = night_picture(results)["chart"]

    assert (chart["width"], chart["height"]) == (results.chart.width, results.chart.height)
    assert [(line["colour"], line["label"]["text"]) for line in chart["lines"]] == [
        (BLUE, "Anna +15"),
        (ORANGE, "Bram −3"),
        (GREEN, "小明 −12"),
    ]
    anna = chart["lines"][0]
    # From 0 before round 1 to +15 after round 2: three points, drawn higher as it grows.
    assert anna["points"] == [list(point) for point in results.chart.lines[0].points]
    assert len(anna["points"]) == 3 and anna["points"][2][1] < anna["points"][0][1]
    assert [tick["text"] for tick in chart["x_ticks"]] == ["0", "1", "2"]
    assert chart["message"] is None


@pytest.mark.parametrize(
    "language, words",
    [
        ("nl", ("Iedereen", "Wie betaalt wie", "Bram betaalt Anna €\xa00,30", "Betaald ✓")),
        ("zh-hans", ("所有人", "谁付给谁", "Bram 付给 Anna €0.30", "已付 ✓")),
        ("de", ("Alle", "Wer zahlt wem", "Bram zahlt Anna 0,30\xa0€", "Bezahlt ✓")),
    ],
)
def test_in_the_readers_language(night, language, words):
    everyone, who_pays, line, paid = words
    with translation.override(language):
        picture = night_picture(night_results(night))

    assert picture["titles"]["standings"] == everyone
    assert picture["titles"]["payments"] == who_pays
    assert picture["payments"][1]["words"] == line
    assert picture["payments"][0]["state"] == paid
    assert "Anna" in picture["standings"][0]["name"]


def test_a_night_still_running_says_so_and_a_night_without_rounds_has_the_charts_message(
    make_night,
):
    night = make_night()
    picture = night_picture(night_results(night))

    assert picture["running"] == "If we stopped now"
    assert picture["payments"] == []
    assert picture["nobody_owes"] == "Nobody owes anything."
    assert picture["chart"]["message"]["text"] == "No rounds yet"
    assert picture["chart"]["lines"] == []


def test_settling_everything_tonight_the_picture_has_the_payments_across_nights(make_night):
    group, _, second = play_two_nights(make_night)
    Group.objects.filter(pk=group.pk).update(settle_everything=True)
    second.refresh_from_db()
    folded = folded_settlement(second)

    picture = night_picture(night_results(second), folded)

    assert picture["titles"]["payments"] == "Payments, earlier nights included"
    assert [payment["words"] for payment in picture["payments"]] == [
        f"{line.payer.name} pays {line.payee.name} {money(line.cents, line.currency)}"
        for line in folded.payments
    ]
    seated = {player["name"]: player["colour"] for player in picture["standings"]}
    for line, payment in zip(folded.payments, picture["payments"], strict=True):
        # Chris played only the first night: no colour of tonight's.
        assert payment["from"] == seated.get(line.payer.name, NO_COLOUR)
        assert payment["to"] == seated.get(line.payee.name, NO_COLOUR)
    assert any(payment["from"] == NO_COLOUR for payment in picture["payments"])
