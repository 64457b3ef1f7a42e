"""Each player's colour: one of its own for everyone a game seats, the same all night,
and readable on the page and on a card in both schemes, also for colour-blind eyes."""

import re
from pathlib import Path

import pytest

from scorekeeper.ofc import games
from scorekeeper.table.colours import (
    COLOURS,
    DARK_BACKGROUNDS,
    LIGHT_BACKGROUNDS,
    PALETTE,
    colour_class,
    contrast,
    player_colours,
)

APP_CSS = Path(__file__).resolve().parents[2] / "static" / "ofcboard" / "app.css"
LARGEST_TABLE = max(game.max_players for game in games.PRESETS.values())


def test_everyone_the_largest_game_seats_has_a_colour_of_their_own():
    assert LARGEST_TABLE >= 3
    colours = player_colours(range(100, 100 + LARGEST_TABLE))
    assert sorted(colours.values()) == list(range(1, LARGEST_TABLE + 1))
    # And for everyone who could sit down in a night of comings and goings, up to eight.
    assert sorted(player_colours(range(COLOURS)).values()) == list(range(1, COLOURS + 1))


def test_a_colour_goes_by_the_order_people_sat_down_not_their_place_at_the_table():
    first = player_colours([7, 3, 5])
    assert first == {3: 1, 5: 2, 7: 3}
    # Whoever sits down later, wherever at the table, takes the next colour.
    later = player_colours([3, 5, 7, 9])
    assert {seat: later[seat] for seat in first} == first
    assert later[9] == 4


def test_the_same_seats_give_the_same_colours_in_any_order():
    assert player_colours([4, 2, 9]) == player_colours([9, 4, 2]) == player_colours((2, 4, 9))


def test_classes_cycle_after_eight():
    assert [colour_class(n) for n in (1, 8, 9, 16)] == [
        "player-1",
        "player-8",
        "player-1",
        "player-8",
    ]
    with pytest.raises(ValueError):
        colour_class(0)


def test_the_wcag_contrast_formula():
    assert contrast("#ffffff", "#000000") == pytest.approx(21)
    assert contrast("#777777", "#777777") == pytest.approx(1)
    # WebAIM's contrast checker: #767676 on white is 4.54:1.
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)


@pytest.mark.parametrize("shade", PALETTE, ids=lambda shade: shade.name)
def test_each_shade_stands_out_from_the_page_and_a_card_at_3_to_1(shade):
    for background in LIGHT_BACKGROUNDS:
        assert contrast(shade.light, background) >= 3, (shade, background)
    for background in DARK_BACKGROUNDS:
        assert contrast(shade.dark, background) >= 3, (shade, background)


def test_the_colours_are_eight_distinct_shades_in_each_scheme():
    assert len(PALETTE) == COLOURS == 8
    assert len({shade.light for shade in PALETTE}) == 8
    assert len({shade.dark for shade in PALETTE}) == 8


def test_no_player_colour_is_the_red_of_a_loss():
    css = APP_CSS.read_text()
    losses = set(re.findall(r"--bad:\s*(#[0-9a-f]{6})", css))
    assert len(losses) == 2  # light and dark
    for shade in PALETTE:
        assert not {shade.light, shade.dark} & losses


def css_block(css: str, start: str) -> str:
    return css[css.index(start) :].split("}", 1)[0]


def test_the_stylesheet_has_these_shades_for_both_schemes_and_the_backgrounds_they_meet():
    css = APP_CSS.read_text()
    light = css_block(css, ":root {")
    dark = css_block(css, "@media (prefers-color-scheme: dark)")
    for number, shade in enumerate(PALETTE, start=1):
        assert f"--player-{number}: {shade.light};" in light
        assert f"--player-{number}: {shade.dark};" in dark
        assert f".player-{number} {{ color: var(--player-{number}); }}" in css
    for block, (page, card) in ((light, LIGHT_BACKGROUNDS), (dark, DARK_BACKGROUNDS)):
        assert f"--bg: {page};" in block and f"--card: {card};" in block
