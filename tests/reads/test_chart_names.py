"""What a screen reader says for a chart: one sentence in the page's language, the
totals listed as the language lists names (Chinese 、 and 和, Dutch "en")."""

import xml.etree.ElementTree as ET

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from scorekeeper.models import User
from scorekeeper.reads.records import player_record
from scorekeeper.reads.results import night_results
from scorekeeper.table.chart_shapes import Chart
from tests.helpers import play, play_two_nights

pytestmark = pytest.mark.django_db


def name_of(chart: Chart) -> str:
    """What a screen reader says for the chart as the page draws it."""
    root = ET.fromstring(render_to_string("scorekeeper/chart.svg", {"chart": chart}))
    assert root.find("{http://www.w3.org/2000/svg}title").text == chart.name
    return root.get("aria-label")


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Running totals after 2 rounds: Anna +7, Bram −2, and Chris −5"),
        ("nl", "Tussenstand na 2 rondes: Anna +7, Bram −2 en Chris −5"),
        ("zh-hans", "2 手后的累计得分：Anna +7、Bram −2和Chris −5"),
        ("de", "Zwischenstand nach 2 Runden: Anna +7, Bram −2 und Chris −5"),
    ],
)
def test_the_night_chart_says_its_rounds_and_totals_in_one_sentence(make_night, language, said):
    night = play(
        make_night(), {"Anna": 5, "Bram": -2, "Chris": -3}, {"Anna": 2, "Bram": 0, "Chris": -2}
    )
    with translation.override(language):
        assert name_of(night_results(night).chart) == said


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Running totals after 1 round: Anna +5 and Bram −5"),
        ("nl", "Tussenstand na 1 ronde: Anna +5 en Bram −5"),
        ("zh-hans", "1 手后的累计得分：Anna +5和Bram −5"),
    ],
)
def test_one_round_is_said_in_the_singular(make_night, language, said):
    night = play(make_night(("Anna", "Bram")), {"Anna": 5, "Bram": -5})
    with translation.override(language):
        assert name_of(night_results(night).chart) == said


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Running totals: no rounds yet"),
        ("nl", "Tussenstand: nog geen rondes"),
        ("zh-hans", "累计得分：还没有打过一手"),
    ],
)
def test_the_empty_chart_says_there_are_no_rounds(make_night, language, said):
    with translation.override(language):
        assert name_of(night_results(make_night()).chart) == said


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Money in EUR after 2 nights: Anna −€4.80"),
        ("nl", "Geld in EUR na 2 avonden: Anna €\u00a0−4,80"),
        ("zh-hans", "2 场后的金额（EUR）：Anna −€4.80"),
    ],
)
def test_the_players_money_chart_says_its_nights_and_total(make_night, language, said):
    group, _, _ = play_two_nights(make_night)
    anna = User.objects.get(name="Anna")
    with translation.override(language):
        [euros] = player_record(group, anna).currencies
        assert name_of(euros.chart) == said
