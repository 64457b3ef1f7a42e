"""Dutch, Chinese and German at 360 px, the narrowest common phone: the night page,
the card page with its notation hint, the settlement and the house rules hold every
word in its box (the longest words are German, the widest lines Dutch). Screenshots
go to test-results/languages/ for a person to look at."""

from pathlib import Path

import pytest

from scorekeeper.models import User
from scorekeeper.services.rounds import record_entry
from tests.e2e.test_languages import OVERFLOWING
from tests.helpers import finish, play

pytestmark = pytest.mark.django_db(transaction=True)

# Words split across two lines: body's overflow-wrap breaks a word that does not fit
# rather than let it stick out, so a box too narrow for its words shows here. Only
# words with Latin letters (Chinese wraps between any two characters by design).
BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest("svg, script, style, .sr-only, [hidden], option")) continue;
    if (!el.getClientRects().length) continue;
    for (const match of node.data.matchAll(/[A-Za-zÀ-ÿ'’.-]{2,}/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(`${el.tagName.toLowerCase()}.${el.className}: ${match[0]}`);
    }
  }
  return broken;
}"""

NARROW = {"width": 360, "height": 740}
SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "languages"
# A word of each language that its pages must show, so a page in English fails.
SAYS = {"nl": "Wie betaalt wie", "zh-hans": "谁付给谁", "de": "Wer zahlt wem"}


@pytest.fixture
def nights(make_night):
    finished = make_night(("Anna", "Bram", "Chris"), point_cents=50, loss_cap_cents=500)
    play(finished, {"Anna": 25, "Bram": -4, "Chris": -21}, {"Anna": 3, "Bram": 2, "Chris": -5})
    finish(finished)
    running = make_night(("Anna", "Bram", "Chris"), group=finished.group, game="progressive")
    play(running, {"Anna": 12, "Bram": -5, "Chris": -7})
    seats = list(running.seats.order_by("position"))
    record_entry(night=running, round_number=2, seat=seats[0], points=3, entered_by=seats[0].user)
    return finished, running


def test_dutch_chinese_and_german_pages_hold_their_words_at_360_px(nights, log_in_phone):
    finished, running = nights
    anna = User.objects.get(name="Anna")
    page = log_in_phone(anna)
    page.set_viewport_size(NARROW)
    seat = running.seats.get(name="Anna")
    paths = {
        "night": f"/nights/{running.pk}/",
        "cards": f"/nights/{running.pk}/rounds/2/cards/{seat.pk}/",
        "settlement": f"/nights/{finished.pk}/settle/",
        "house-rules": f"/groups/{finished.group_id}/house-rules/",
    }
    SHOTS.mkdir(parents=True, exist_ok=True)
    found = {}
    for language in ("nl", "zh-hans", "de"):
        page.context.set_extra_http_headers({"Accept-Language": language})
        for name, path in paths.items():
            page.goto(path)
            assert page.locator("html").get_attribute("lang") == language, path
            page.locator("details.typed").evaluate_all("els => els.forEach(e => e.open = true)")
            page.screenshot(path=str(SHOTS / f"360-{language}-{name}.png"), full_page=True)
            overflowing = page.evaluate(OVERFLOWING) + page.evaluate(BROKEN_WORDS)
            width = page.evaluate("document.documentElement.scrollWidth")
            if overflowing or width > NARROW["width"]:
                found[f"{language} {name}"] = (width, overflowing)
        page.goto(paths["settlement"])
        assert SAYS[language] in page.locator("main").inner_text()
    assert not found, "\n".join(
        f"{where}: {width}px {texts}" for where, (width, texts) in found.items()
    )
