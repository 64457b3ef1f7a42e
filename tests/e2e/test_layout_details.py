"""Details at the common phone widths, in light and dark: on the card page the
breakdown's lines, the row names, the Save button and which cards are whose; the
all-nights table with points at two stakes."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import User
from scorekeeper.services.boards import record_board
from tests.helpers import finish, play, seats_of

pytestmark = pytest.mark.django_db(transaction=True)

# The rules' worked example: Anna a flush bottom, Bram kings on top, Chris fouls.
ANNA = ("2c 3d 4h", "Qs Qd 5c 5d 9s", "Ah Jh 8h 6h 3h")
BRAM = ("Kc Kd 7s", "As Ad 9c 6d 2s", "Ts Td 4s 4c Js")
CHRIS = ("Qc Qh 2d", "7c 8d 9h Jd 2h", "6s 6c Kh Ks 3s")

PHONES = [(360, 780), (390, 844), (430, 932)]
# The page's background in each theme (app.css), to be sure the theme took.
BACKGROUND = {"light": "rgb(246, 244, 239)", "dark": "rgb(20, 23, 28)"}

# Each pairing's "Anna v Bram": the rectangles of its text, and of its points.
PAIR_LINES = """
() => [...document.querySelectorAll('[data-testid=breakdown] .pair-line')].map(line => {
  const first = line.querySelector('strong');
  const range = document.createRange();
  range.setStartBefore(first);
  range.setEndAfter(first.nextSibling.nodeType === Node.TEXT_NODE
    ? first.nextSibling : first.parentNode);
  const names = [...range.getClientRects()].filter(rect => rect.width > 0);
  const points = line.querySelector('.num').getBoundingClientRect();
  return {
    text: range.toString().trim(),
    tops: names.map(rect => Math.round(rect.top)),
    top: Math.min(...names.map(rect => rect.top)),
    bottom: Math.max(...names.map(rect => rect.bottom)),
    pointsTop: points.top, pointsBottom: points.bottom,
  };
})
"""

# How far each row name's text ends from the first card beside it (px).
ROW_NAME_ROOM = """
([row, cards]) => [...document.querySelectorAll(row)].map(name => {
  const range = document.createRange();
  range.selectNodeContents(name);
  const text = range.getBoundingClientRect();
  const first = name.parentElement.querySelector(cards).getBoundingClientRect();
  return [name.textContent.trim(), first.left - text.right];
})
"""

LOOK = """
el => { const s = getComputedStyle(el);
  return [s.backgroundColor, s.borderTopStyle, s.borderTopColor, s.opacity, s.color]; }
"""


def board(rows):
    return {
        row: cards.split() for row, cards in zip(("top", "middle", "bottom"), rows, strict=True)
    }


@pytest.fixture
def night(make_night):
    """Round 1 went through on everyone's cards; in round 2 Chris has set his."""
    night = make_night(("Anna", "Bram", "Chris"), game="pineapple")
    seats = seats_of(night)
    for name, rows in (("Anna", ANNA), ("Bram", BRAM), ("Chris", CHRIS)):
        record_board(
            night=night,
            round_number=1,
            seat=seats[name],
            board=board(rows),
            entered_by=seats[name].user,
        )
    chris = seats["Chris"]
    record_board(night=night, round_number=2, seat=chris, board=board(CHRIS), entered_by=chris.user)
    return night


@pytest.fixture
def anna(log_in_phone):
    return log_in_phone(User.objects.get(name="Anna"))


def cards_page(night, number):
    return f"/nights/{night.pk}/rounds/{number}/cards/{night.seats.get(name='Anna').pk}/"


def as_phone(page, size, scheme):
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    page.emulate_media(color_scheme=scheme)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_the_breakdown_keeps_each_pairs_names_and_points_on_one_line(night, anna, size, scheme):
    as_phone(anna, size, scheme)
    anna.goto(cards_page(night, 1))
    assert anna.evaluate("getComputedStyle(document.body).backgroundColor") == BACKGROUND[scheme]

    lines = anna.evaluate(PAIR_LINES)

    assert [line["text"] for line in lines] == ["Anna v Bram", "Anna v Chris", "Bram v Chris"]
    for line in lines:
        # One line: bold and plain text may sit a pixel or two apart, a new line 20 px.
        assert max(line["tops"]) - min(line["tops"]) < 8, f"{line['text']} wraps: {line}"
        # The points sit on the names' line: their boxes overlap top to bottom.
        assert line["pointsTop"] < line["bottom"] and line["pointsBottom"] > line["top"], line
        assert abs(line["pointsTop"] - line["top"]) < 6, line
    # Row names leave room before the first card of the saved board.
    for name, room in anna.evaluate(ROW_NAME_ROOM, [".result-rows .row-label", ".pc"]):
        assert room >= 4, f"{name} runs into its first card ({room:.1f} px)"
    assert anna.evaluate("document.documentElement.scrollWidth") <= size[0]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_the_card_picker_fits_the_first_screen_and_tells_whose_cards_are_whose(
    night, anna, size, scheme
):
    as_phone(anna, size, scheme)
    anna.goto(cards_page(night, 2))
    assert anna.evaluate("getComputedStyle(document.body).backgroundColor") == BACKGROUND[scheme]
    save = anna.get_by_role("button", name="Save cards")

    # Save cards is on the first screen, and nothing covers it.
    box = save.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= size[1], box
    assert save.evaluate(
        "el => el.contains(document.elementFromPoint("
        "el.getBoundingClientRect().left + 20, el.getBoundingClientRect().top + 10))"
    )
    for name, room in anna.evaluate(ROW_NAME_ROOM, [".board-row .row-name", ".slots > *"]):
        assert room >= 4, f"{name} runs into its first card ({room:.1f} px)"
    assert anna.evaluate("document.documentElement.scrollWidth") <= size[0]

    # Two hearts on her own bottom; Chris's K♥ is on his board.
    anna.locator(".board-row[data-row='bottom'] .row-name").click()
    for code in ("Ah", "Jh"):
        anna.locator(f".deck button[data-card='{code}']").click()
    mine = anna.locator(".deck button[data-card='Ah']")
    theirs = anna.locator(".deck button[data-card='Kh']")
    free = anna.locator(".deck button[data-card='Th']")
    expect(mine).to_have_class("pc hearts placed")
    expect(theirs).to_have_attribute("aria-disabled", "true")

    own, other, available = (card.evaluate(LOOK) for card in (mine, theirs, free))
    background, border, border_colour, opacity, _ = range(5)
    assert own[background] != other[background]
    assert own[border] == "solid" and other[border] == "dashed"
    assert own[border_colour] != available[border_colour]
    # Her own cards stay readable; the other boards' fade out.
    assert float(own[opacity]) == 1 and float(other[opacity]) < 0.5
    assert own != available

    # Scrolled to the end, the button is where the form ends, above nothing.
    anna.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    expect(save).to_be_in_viewport()
    typed = anna.locator("details.typed summary").bounding_box()
    assert typed["y"] + typed["height"] <= save.bounding_box()["y"]


def test_the_all_nights_table_with_two_stakes_fits_a_narrow_phone(make_night, log_in_phone):
    low = make_night(("Anna", "Bram", "Chris"), point_cents=10)
    play(low, {"Anna": 40, "Bram": -40, "Chris": 0})
    finish(low)
    high = make_night(("Anna", "Bram", "Chris"), point_cents=50, group=low.group)
    play(high, {"Anna": -12, "Bram": 12, "Chris": 0})
    finish(high)
    page = log_in_phone(User.objects.get(name="Anna"))
    as_phone(page, PHONES[0], "light")

    page.goto(f"/groups/{low.group_id}/table/")

    rows = page.locator("[data-testid=group-table] tbody tr")
    expect(rows).to_have_count(3)
    assert [row.get_attribute("data-player") for row in rows.all()] == ["Bram", "Chris", "Anna"]
    expect(rows.first.locator(".stakes")).to_have_text("−40 at €0.10 +12 at €0.50")
    # Every column in view: the table does not scroll sideways inside its box.
    wrap = page.locator(".table-wrap")
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth")
    names = page.locator("[data-testid=group-table] tbody td:first-child a")
    assert all(name.evaluate("el => el.getClientRects().length") == 1 for name in names.all())
