"""The night as a picture (issue 33), on a phone at 390x844 in each language: "Share the
night" draws the settlement on the phone and saves it as a PNG where the browser cannot
share files, or hands it to the share sheet where it can. The picture is drawn from the
page's data block, which is what the read made, in the phone's language; the pictures go
to test-results/picture/ for a person to look at (a Chinese guest's name among them)."""

import json
import random
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from playwright.sync_api import expect

from scorekeeper.models import Night, User
from scorekeeper.reads.picture import night_picture
from scorekeeper.reads.results import night_results
from scorekeeper.services.payments import mark_paid
from scorekeeper.services.seats import leave_seat
from tests.e2e.conftest import PHONE, log_in_context
from tests.helpers import finish, play, seats_of

SHOTS = Path("test-results/picture")
LANGUAGES = [code for code, _ in settings.LANGUAGES]
# What each phone's browser asks for, as phones send it.
LOCALES = {"en": "en-GB", "nl": "nl-NL", "zh-hans": "zh-CN", "de": "de-DE"}
PNG = b"\x89PNG\r\n\x1a\n"
# No share sheet: the browser of a laptop, or a phone's that cannot share files.
NO_SHARING = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
# A share sheet that keeps what it was given, for the test to read.
SHARING = """
window.sharedFiles = [];
Object.defineProperty(Navigator.prototype, "canShare", {
  configurable: true, value: (data) => Boolean(data && data.files && data.files.length) });
Object.defineProperty(Navigator.prototype, "share", {
  configurable: true, value: async (data) => { window.sharedFiles.push(...data.files); } });
"""
ROUNDS = [
    {"Anna": 10, "Bram": -4, "小明": -6},
    {"Anna": 5, "Bram": 1, "小明": -6},
    {"Anna": -8, "Bram": 12, "小明": -4},
    {"Anna": 3, "Bram": -9, "小明": 6},
    {"Anna": 7, "Bram": 2, "小明": -9},
    {"Anna": -2, "Bram": -5, "小明": 7},
]


@pytest.fixture
def night(make_night) -> Night:
    """Six rounds of Anna, Bram and their guest 小明; 小明 paid Anna already."""
    night = make_night(("Anna", "Bram"), guests=("小明",))
    finish(play(night, *ROUNDS))
    seats = seats_of(night)
    payments = night_results(night).payments
    first = next(line for line in payments if line.payer.name == "小明")
    mark_paid(
        night=night,
        payer=seats["小明"],
        payee=first.payee,
        cents=first.cents,
        marked_by=User.objects.get(name="Anna"),
    )
    night.refresh_from_db()
    return night


@pytest.fixture
def phone_in(phone, live_server):
    """A phone logged in as Anna whose browser speaks ``language``, with ``script`` run
    before each page's own."""

    def open_phone(language: str, script: str):
        def ready(context) -> None:
            context.add_init_script(script)
            log_in_context(context, User.objects.get(name="Anna"), live_server.url)

        return phone(ready, locale=LOCALES[language], accept_downloads=True)

    return open_phone


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    assert data[:8] == PNG, "not a PNG"
    return struct.unpack(">II", data[16:24])


def drawn_from(page) -> dict:
    return page.evaluate("JSON.parse(document.getElementById('night-picture').textContent)")


def read_for(night: Night, language: str) -> dict:
    """What the read makes of the night for a reader of ``language``, as JSON gives it."""
    with translation.override(language):
        return json.loads(json.dumps(night_picture(night_results(night))))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_picture_is_saved_where_the_phone_cannot_share_it(night, phone_in, language):
    page = phone_in(language, NO_SHARING)
    page.goto(f"/nights/{night.pk}/settle/")
    assert page.locator("html").get_attribute("lang") == language
    assert page.evaluate("typeof navigator.share") == "undefined"

    # The page's data is the read's, in the phone's language, standings in order.
    picture = drawn_from(page)
    assert picture == read_for(night, language)
    assert [player["name"] for player in picture["standings"]] == [
        result.seat.name for result in night_results(night).players
    ]
    assert "小明" in [player["name"] for player in picture["standings"]]

    button = page.get_by_test_id("share-night")
    expect(button).to_be_visible()  # shown once the script runs
    with page.expect_download() as download_info:
        button.click()
    download = download_info.value

    assert download.suggested_filename == picture["file"]
    assert download.suggested_filename.startswith("ofc-night-")
    data = Path(download.path()).read_bytes()
    width, height = png_size(data)
    assert width == 1080
    assert 1400 < height < 3000
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / f"night-{language}.png").write_bytes(data)
    page.locator("[data-share-night]").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"settlement-{language}.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_picture_goes_to_the_share_sheet_where_the_phone_can_share_files(night, phone_in):
    page = phone_in("en", SHARING)
    downloads = []
    page.on("download", lambda download: downloads.append(download))
    page.goto(f"/nights/{night.pk}/settle/")

    page.get_by_test_id("share-night").click()
    page.wait_for_function("window.sharedFiles.length === 1")
    shared = page.evaluate(
        """async () => {
            const file = window.sharedFiles[0];
            const bytes = new Uint8Array(await file.arrayBuffer());
            const head = Array.from(bytes.slice(0, 24));
            return {name: file.name, type: file.type, size: file.size, head};
        }"""
    )

    assert shared["type"] == "image/png"
    assert shared["name"] == drawn_from(page)["file"]
    assert shared["size"] > 20_000
    assert png_size(bytes(shared["head"]))[0] == 1080
    assert downloads == []  # shared, not saved as well


def test_a_night_still_running_with_long_names_fits_the_picture(make_night, phone_in):
    """Four players, a guest with a long name, a guest who left, 40 rounds, in German:
    the picture says the night is still running and nothing runs off its edge."""
    players = ("Anna", "Bram")
    night = make_night(players, guests=("Maximiliane von Hohenzollern", "王小明"))
    names = [*players, "Maximiliane von Hohenzollern", "王小明"]
    chance = random.Random(33)

    def rounds(names, count):
        for _ in range(count):
            totals = {name: chance.randint(-12, 12) for name in names[:-1]}
            yield {**totals, names[-1]: -sum(totals.values())}

    play(night, *rounds(names, 30))
    leave_seat(night=night, seat=seats_of(night)["王小明"], by=User.objects.get(name="Anna"))
    play(night, *rounds(names[:3], 10))
    page = phone_in("de", NO_SHARING)
    page.goto(f"/nights/{night.pk}/settle/")

    picture = drawn_from(page)
    assert picture == read_for(night, "de")
    assert picture["running"] == "Wenn wir jetzt aufhören"
    with page.expect_download() as download_info:
        page.get_by_test_id("share-night").click()
    data = Path(download_info.value.path()).read_bytes()
    assert png_size(data)[0] == 1080
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "night-de-running.png").write_bytes(data)
