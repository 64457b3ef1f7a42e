"""A tap lands where it was aimed: the first tap on "Your total" with the round's news
showing puts the cursor in the box, and nothing under the finger moves between the
finger going down and the click (the news block used to hide at pointerdown, taking
the form 70-80 px up, so the click hit "Enter cards instead" or Fantasyland)."""

import pytest

from scorekeeper.models import User
from tests.e2e.conftest import PHONE, log_in_context
from tests.helpers import play_round

pytestmark = pytest.mark.django_db(transaction=True)

# Where the element under the finger was when the finger went down and at the click.
WATCH = """() => {
  window.tapped = [];
  const box = (target) => target.getBoundingClientRect().top;
  document.addEventListener("pointerdown", (event) => {
    window.tapped.push({what: "down", id: event.target.id, top: box(event.target)});
  }, true);
  document.addEventListener("click", (event) => {
    const down = window.tapped[0];
    const first = down && document.getElementById(down.id);
    const moved = first ? box(first) - down.top : null;
    window.tapped.push({what: "click", id: event.target.id, moved});
  }, true);
}"""


@pytest.mark.parametrize("width", [390, 360])
def test_the_first_tap_on_the_total_box_with_the_news_showing_lands_in_it(
    browser, live_server, make_night, width
):
    night = make_night(("Anna", "Bram", "Chris"), game="pineapple")  # Fantasyland choices
    play_round(night, {"Anna": 3, "Bram": -3, "Chris": 0})
    context = browser.new_context(
        viewport={**PHONE, "width": width}, has_touch=True, base_url=live_server.url
    )
    try:
        log_in_context(context, User.objects.get(name="Anna"), live_server.url)
        page = context.new_page()
        page.goto(f"/nights/{night.pk}/")
        assert page.locator("#news").is_visible()
        page.evaluate(WATCH)
        box = page.locator("#id_points").bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_timeout(100)
        assert page.url.endswith(f"/nights/{night.pk}/"), "the tap followed a link below"
        down, click = page.evaluate("window.tapped")
        assert down["id"] == click["id"] == "id_points", (down, click)
        assert click["moved"] == 0
        assert page.evaluate("document.activeElement.id") == "id_points"
        # Once the tap has landed, the news the player has now seen makes room.
        page.wait_for_function("document.getElementById('news').hidden")
        page.screenshot(path=f"test-results/tap-lands-{width}.png")
    finally:
        context.close()
