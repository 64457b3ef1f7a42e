"""The look of an app, in Chromium: the bar at the top is one line down to 320 px, its
icons drawn from the served sprite under the Content-Security-Policy, each player in
their colour on the big screen; axe finds nothing on the group page, the account page
and the big screen in either scheme. Screenshots at 390 and 360 px, light and dark, go
to test-results/look/ for a person to look at."""

from pathlib import Path

import pytest

from scorekeeper.models import User
from tests.e2e.axe import load_axe, problems
from tests.e2e.conftest import log_in_context
from tests.helpers import play

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "look"
SIZES = (
    {"width": 390, "height": 844},
    {"width": 360, "height": 740},
    {"width": 320, "height": 568},
)

# Each item of the bar: its top, its height, and whether its drawn icon has a size
# (an external <use> that did not load draws nothing).
BAR = """() => [...document.querySelectorAll(".topbar .top-item")].map((el) => {
  const box = el.getBoundingClientRect();
  const use = el.querySelector("svg.icon use");
  const drawn = use ? use.getBBox() : {width: 0};
  return {top: Math.round(box.top), bottom: Math.round(box.bottom), height: box.height,
          width: box.width, right: box.right, icon: drawn.width > 0};
})"""


def test_the_bar_the_icons_and_the_colours_in_both_schemes_down_to_320_px(
    browser, live_server, make_night
):
    night = make_night(("Anna", "Bram", "Chris"))  # in "Friday OFC"
    play(night, {"Anna": 7, "Bram": -3, "Chris": -4}, {"Anna": -2, "Bram": 5, "Chris": -3})
    anna = User.objects.get(name="Anna")
    pages = {
        "group": f"/groups/{night.group.pk}/",
        "account": "/account/",
        "screen": f"/nights/{night.pk}/screen/",
    }
    SHOTS.mkdir(parents=True, exist_ok=True)
    blocked: list[str] = []
    sprite: list[int] = []
    context = browser.new_context(base_url=live_server.url)
    try:
        load_axe(context)
        log_in_context(context, anna, live_server.url)
        page = context.new_page()
        page.on("console", lambda message: blocked.append(message.text))
        page.on(
            "response",
            lambda answer: sprite.append(answer.status) if "icons." in answer.url else None,
        )
        for name, url in pages.items():
            page.set_viewport_size(SIZES[0])
            page.goto(url)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                assert problems(page) == [], (name, scheme)
                for size in SIZES:
                    page.set_viewport_size(size)
                    items = page.evaluate(BAR)
                    where = (name, scheme, size["width"])
                    # Home, the group (not on the account page), rules, account, log out.
                    assert len(items) == (4 if name == "account" else 5), where
                    assert len({item["top"] for item in items}) == 1, (where, items)
                    assert all(item["height"] >= 44 and item["width"] >= 44 for item in items)
                    assert max(item["right"] for item in items) <= size["width"], where
                    assert all(item["icon"] for item in items), (where, items)
                    bar = page.locator(".topbar").bounding_box()
                    assert bar["height"] <= 56, (where, bar)
                    if size["width"] != 320:
                        page.screenshot(
                            path=str(SHOTS / f"{name}-{size['width']}-{scheme}.png"),
                            full_page=True,
                        )
            page.emulate_media(color_scheme="light")
        # The night's chart, each line in its player's colour: a picture in each scheme.
        page.set_viewport_size(SIZES[0])
        page.goto(f"/nights/{night.pk}/")
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.locator(".ofc-chart").screenshot(path=str(SHOTS / f"chart-390-{scheme}.png"))
        page.emulate_media(color_scheme="light")
        # The big screen: a dot in each player's colour beside each name.
        page.goto(pages["screen"])
        swatches = page.locator("[data-testid=screen-standings] .swatch")
        colours = swatches.evaluate_all("els => els.map(el => getComputedStyle(el).color)")
        assert len(set(colours)) == 3, colours
    finally:
        context.close()
    assert sprite and set(sprite) <= {200, 304}, sprite  # the sprite loads (once, cached)
    assert not [text for text in blocked if "Content Security Policy" in text], blocked
