"""Every main page at the narrowest common phone: no sideways scrolling, and every
button and input big enough for a thumb."""

import pytest

from scorekeeper.models import User
from scorekeeper.services.rounds import record_entry

pytestmark = pytest.mark.django_db(transaction=True)

NARROW = {"width": 360, "height": 740}

TOO_SMALL = """
() => [...document.querySelectorAll('main button, main .button, main input:not([type=hidden]),'
    + ' main select, main summary')]
  .filter(el => el.offsetParent !== null)
  .filter(el => !['checkbox', 'radio'].includes(el.type))
  .map(el => [el.outerHTML.slice(0, 80), el.getBoundingClientRect().height])
  .filter(([, height]) => height < 44)
"""


@pytest.fixture
def night(make_night):
    night = make_night(("Anna", "Bram", "Chris"), game="progressive")
    seats = list(night.seats.all())
    for seat, points in zip(seats, (12, -5, -7), strict=True):
        record_entry(night=night, round_number=1, seat=seat, points=points, entered_by=seat.user)
    record_entry(night=night, round_number=2, seat=seats[0], points=3, entered_by=seats[0].user)
    return night


def test_the_main_pages_fit_a_narrow_phone(night, log_in_phone, browser, live_server):
    page = log_in_phone(User.objects.get(name="Anna"))
    page.set_viewport_size(NARROW)
    paths = [
        "/?stay=1",
        f"/groups/{night.group_id}/",
        f"/groups/{night.group_id}/nights/new/",
        f"/nights/{night.pk}/",
        f"/nights/{night.pk}/rounds/",
        f"/nights/{night.pk}/rounds/1/edit/",
        f"/nights/{night.pk}/seats/add/",
    ]
    for path in paths:
        page.goto(path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= NARROW["width"], f"{path} scrolls sideways ({width}px)"
        assert page.evaluate(TOO_SMALL) == [], path

    stranger = browser.new_context(viewport=NARROW, base_url=live_server.url).new_page()
    for path in (f"/join/{night.group.invite_token}/", "/login/"):
        stranger.goto(path)
        assert stranger.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
        assert stranger.evaluate(TOO_SMALL) == [], path
    stranger.context.close()
