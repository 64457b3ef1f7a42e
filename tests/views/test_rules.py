"""The rules page: plain words, and tables read from the engine itself."""

import re

import pytest
from django.urls import reverse

from scorekeeper.ofc.games import PRESETS
from scorekeeper.ofc.scoring_systems import SYSTEMS, Scoring


@pytest.fixture
def page(client, db):
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    return response.content.decode()


def test_the_rules_page_is_open_to_anyone(page):
    assert "How OFC is counted" in page


def test_the_royalty_tables_match_the_engine(page):
    for cells in (
        '<th class="num">66</th>',
        '<th class="num">AA</th>',
        '<th class="num">222</th>',
        '<th class="num">AAA</th>',
    ):
        assert cells in page
    assert '<td>Royal flush</td><td class="num">50</td><td class="num">25</td>' in page
    assert "7-high 4, 8-high 2, 9-high 1, 10-high 0" in page


def test_every_game_is_described_with_its_fantasyland(page):
    for game in PRESETS.values():
        assert game.name in page
    assert "QQ on top (14), KK on top (15), AA on top (16), Trips on top (17)" in page
    assert "at most 3 stays in a row" in page


def systems_rows(client) -> list[str]:
    """The scoring systems table's rows, as the page writes them."""
    html = client.get(reverse("rules")).content.decode()
    table = html.split('data-testid="systems"', 1)[1].split("</table>", 1)[0]
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in table.split("<tr>")[2:]]


def test_the_scoring_systems_table_is_the_engines(client, db, monkeypatch):
    assert systems_rows(client) == [
        "1-6 +1 +6 6 + royalties",
        "2-4 +2 +4 4 + royalties",
        "1-1-1 +1 +3 3 + royalties",
    ]
    # A system the engine knows is on the page as the engine scores it.
    monkeypatch.setattr(
        "scorekeeper.reads.rules.SYSTEMS", {"3-3": Scoring(scoop=1, majority=2), **SYSTEMS}
    )
    assert systems_rows(client)[0] == "3-3 +3 +6 6 + royalties"
