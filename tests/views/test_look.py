"""The look of an app: each player's colour on the chart and the big screen, the icons
from one sprite the server serves, and the language switcher only where it is looked for."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.template import Context, Template, TemplateSyntaxError
from django.templatetags.static import static
from django.urls import reverse

from scorekeeper.templatetags.icons import ICONS
from tests.helpers import finish, play, seats_of

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"
SPRITE = Path(__file__).resolve().parents[2] / "static" / "ofcboard" / "icons.svg"


def test_the_chart_draws_each_player_in_their_own_colour(login, make_night):
    night = make_night(("Anna", "Bram", "Chris"))
    play(night, {"Anna": 6, "Bram": -2, "Chris": -4}, {"Anna": -1, "Bram": 5, "Chris": -4})
    body = login("Anna").get(reverse("night_detail", args=[night.pk])).content.decode()
    chart = body[body.index('<svg xmlns="http://www.w3.org/2000/svg"') :]
    chart = chart[: chart.index("</svg>") + 6]
    lines = {
        group.find(f"{SVG}title").text.rsplit(" ", 1)[0]: group.get("class")
        for group in ET.fromstring(chart).iter(f"{SVG}g")
        if "series" in group.get("class", "")
    }
    # By the order they sat down: the winner (Anna) is blue, never the loss red.
    assert lines == {
        "Anna": "series player-1",
        "Bram": "series player-2",
        "Chris": "series player-3",
    }


def test_the_big_screen_shows_each_name_beside_the_same_colour_as_the_chart(login, make_night):
    night = make_night(("Anna", "Bram", "Chris"))
    play(night, {"Anna": -6, "Bram": 2, "Chris": 4})
    body = login("Bram").get(reverse("night_screen", args=[night.pk])).content.decode()
    standings = body.split('data-testid="screen-standings"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(
        r'<span class="swatch (player-\d)" aria-hidden="true"></span>(\w+)', standings
    )
    # Most points first, each with the colour they had since they sat down.
    assert rows == [("player-3", "Chris"), ("player-2", "Bram"), ("player-1", "Anna")]
    dealer = re.search(
        r'<span class="swatch (player-\d)" aria-hidden="true"></span>'
        r'<strong data-testid="screen-dealer">(\w+)<',
        body,
    )
    assert dealer and (dealer[1], dealer[2]) in rows


def test_the_shared_big_screen_has_the_colours_too(client, login, make_night):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 5, "Bram": -5})
    login("Anna").post(reverse("screen_link", args=[night.pk]), {"share": "yes"})
    night.refresh_from_db()
    client.logout()
    body = client.get(reverse("shared_screen", args=[night.screen_token])).content.decode()
    assert '<span class="swatch player-1" aria-hidden="true"></span>Anna' in body
    assert '<span class="swatch player-2" aria-hidden="true"></span>Bram' in body


def test_a_seat_line_or_a_seat_gets_its_colour_among_the_nights_seats(make_night):
    from scorekeeper.templatetags.colours import player_colour

    night = make_night(("Anna", "Bram"))
    seats = list(night.seats.all())
    bram = seats_of(night)["Bram"]
    assert player_colour(bram, seats) == "player-2"
    assert player_colour(bram, {bram.pk: 5}) == "player-5"
    assert player_colour(3) == "player-3"
    assert player_colour(bram, []) == ""  # not a seat of this night: no colour at all


def test_an_icon_is_a_use_of_the_served_sprite_hidden_from_screen_readers():
    html = Template('{% load icons %}{% icon "undo" %}').render(Context())
    sprite = static("ofcboard/icons.svg")
    assert html == (
        '<svg class="icon" aria-hidden="true" focusable="false">'
        f'<use href="{sprite}#i-undo"/></svg>'
    )
    assert finders.find("ofcboard/icons.svg") == str(SPRITE)
    with pytest.raises(TemplateSyntaxError):
        Template('{% load icons %}{% icon "nonsense" %}').render(Context())


def test_every_icon_has_its_symbol_in_the_sprite_drawn_in_the_words_colour():
    symbols = {
        symbol.get("id"): symbol for symbol in ET.parse(SPRITE).getroot().iter(f"{SVG}symbol")
    }
    assert set(symbols) == {f"i-{name}" for name in ICONS}
    for symbol in symbols.values():
        assert symbol.get("viewBox") == "0 0 24 24"
        assert "currentColor" in (symbol.get("stroke"), symbol.get("fill"))
    # Drawn here: no fonts, no links out, no scripts.
    assert not re.search(
        r"https?://(?!www\.w3\.org/2000/svg)|<script|@font-face", SPRITE.read_text()
    )


def test_the_bar_at_the_top_has_icons_and_no_underlined_text_links(login, make_night):
    night = make_night(("Anna", "Bram"))
    body = login("Anna").get(reverse("night_detail", args=[night.pk])).content.decode()
    bar = body.split('<header class="topbar">', 1)[1].split("</header>", 1)[0]
    for name in ("home", "people", "rules", "account", "leave"):
        assert f"#i-{name}" in bar
    assert bar.count('class="top-item') == 5
    assert "Friday OFC" in bar  # where you are: the night's group
    assert 'class="link"' not in bar


def test_the_language_switcher_is_on_the_front_page_and_the_account_page_only(
    client, login, make_night
):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 5, "Bram": -5})
    finish(night)
    assert 'data-testid="languages"' in client.get(reverse("login")).content.decode()
    anna = login("Anna")
    account = anna.get(reverse("account")).content.decode()
    assert 'data-testid="languages"' in account.split('id="language"', 1)[1]
    for url in (
        reverse("home") + "?stay=1",
        reverse("group_detail", args=[night.group.pk]),
        reverse("night_detail", args=[night.pk]),
        reverse("night_screen", args=[night.pk]),
        reverse("night_settle", args=[night.pk]),
        reverse("rules"),
    ):
        assert 'data-testid="languages"' not in anna.get(url).content.decode(), url
