"""`make run` hands the table its way in (manage.py welcome): the address, the group's
join code, its invitation link and that link as a QR code a phone scans off the
terminal, read back here as a camera would."""

import io
import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from PIL import Image

from scorekeeper.management.commands.welcome import DARK_ON_LIGHT, PLAIN, QUIET_ZONE
from scorekeeper.models import Group
from tests.helpers import make_group, make_night
from tests.qr import decode_png

BASE = "http://192.0.2.7:8000"
ESCAPE = re.compile(r"\033\[[0-9;]*m")
# Each character is two modules, top and bottom (True: dark).
HALVES = {" ": (False, False), "▀": (True, False), "▄": (False, True), "█": (True, True)}


def qr_lines(out: str) -> list[str]:
    """The lines of the one QR code in ``out``, as printed (indent, escapes and all):
    the run of lines of blocks and spaces only around the lines with blocks."""
    lines = out.splitlines()
    drawn = [i for i, line in enumerate(lines) if set(ESCAPE.sub("", line)) & set("▀▄█")]
    assert drawn, out
    first, last = drawn[0], drawn[-1]
    while first and set(ESCAPE.sub("", lines[first - 1])) <= set(HALVES):
        first -= 1
    while last + 1 < len(lines) and set(ESCAPE.sub("", lines[last + 1])) <= set(HALVES):
        last += 1
    # Nothing but code (and its light) in between: one QR code, not two run together.
    assert all(set(ESCAPE.sub("", line)) <= set(HALVES) for line in lines[first : last + 1])
    return lines[first : last + 1]


def modules(lines: list[str]) -> list[list[bool]]:
    """The modules the lines draw, two rows to a line; spaces on the right to make
    every row as long as the longest."""
    cells = [ESCAPE.sub("", line) for line in lines]
    width = max(len(line) for line in cells)
    rows = []
    for line in cells:
        pairs = [HALVES[ch] for ch in line.ljust(width)]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    return rows


def scanned(lines: list[str]) -> list[str]:
    """What a phone's camera reads off the lines: each module drawn as a square of
    pixels, dark on light, with no light added around them."""
    rows = modules(lines)
    scale = 6
    image = Image.new("L", (len(rows[0]) * scale, len(rows) * scale), 255)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                image.paste(0, (x * scale, y * scale, (x + 1) * scale, (y + 1) * scale))
    png = io.BytesIO()
    image.save(png, format="PNG")
    return decode_png(png.getvalue())


def welcome(*options: str) -> str:
    out = io.StringIO()
    call_command("welcome", *options, stdout=out)
    return out.getvalue()


@pytest.fixture(autouse=True)
def the_address(monkeypatch):
    monkeypatch.setenv("OFCBOARD_BASE_URL", BASE)


def test_an_empty_database_gets_a_group_and_its_way_in(db):
    out = welcome()
    group = Group.objects.get()
    assert f"{BASE}/" in out
    assert group.name in out
    assert group.join_code in out and "-" in group.join_code
    assert group.invite_url(BASE) in out
    assert scanned(qr_lines(out)) == [group.invite_url(BASE)]


def test_the_one_group_of_the_table_is_shown_every_time(db):
    welcome()
    group = Group.objects.get()
    out = welcome("--port", "9200")
    assert Group.objects.count() == 1
    assert "was made" not in out
    assert group.join_code in out
    assert group.invite_url(BASE) in out
    assert scanned(qr_lines(out)) == [group.invite_url(BASE)]


def test_the_address_comes_with_the_port_asked_for(db, monkeypatch):
    monkeypatch.delenv("OFCBOARD_BASE_URL")
    monkeypatch.setattr(
        "scorekeeper.management.commands.welcome.base_urls",
        lambda port: [f"http://192.0.2.9:{port}"],
    )
    out = welcome("--port", "9200")
    group = Group.objects.get()
    assert "http://192.0.2.9:9200/\n" in out
    assert scanned(qr_lines(out)) == [group.invite_url("http://192.0.2.9:9200")]


def test_several_groups_are_listed_and_the_one_that_played_last_gets_the_code(db):
    now = timezone.now()
    old = make_group("Old table", members=("Anna",))
    played = make_group("Thursday OFC", members=("Bram", "Chris", "Dirk"))
    made = make_group("New table", members=("Eva",))
    Group.objects.filter(pk=old.pk).update(created_at=now - timedelta(days=30))
    Group.objects.filter(pk=played.pk).update(created_at=now - timedelta(days=20))
    Group.objects.filter(pk=made.pk).update(created_at=now - timedelta(days=2))
    night = make_night(("Bram", "Chris", "Dirk"), group=played)
    night.started_at = now - timedelta(hours=3)
    night.save(update_fields=["started_at"])

    out = welcome()
    for group in (old, played, made):
        assert f"{group.join_code}  {group.name}" in out
    assert scanned(qr_lines(out)) == [played.invite_url(BASE)]
    assert played.invite_url(BASE) in out
    assert old.invite_url(BASE) not in out and made.invite_url(BASE) not in out

    # A group made after that night is the newer way in.
    Group.objects.filter(pk=made.pk).update(created_at=now - timedelta(hours=1))
    assert scanned(qr_lines(welcome())) == [made.invite_url(BASE)]


def test_a_code_that_lets_nobody_in_any_more_is_said_so_with_no_link(db):
    group = make_group()
    group.invite_uses_left = 0
    group.save(update_fields=["invite_uses_left"])
    out = welcome()
    assert group.join_code in out
    assert group.invite_refusal() in out
    assert "/join/" not in out
    assert not set(out) & set("▀▄█")

    # With another group, the code is the other's.
    other = make_group("Thursday OFC", members=("Bram",))
    out = welcome()
    assert group.invite_refusal() in out
    assert scanned(qr_lines(out)) == [other.invite_url(BASE)]


def test_on_a_colour_terminal_the_code_is_black_on_white_with_its_quiet_zone(db):
    out = welcome("--force-color")
    group = Group.objects.get()
    # Every line sets its own colours, whatever the terminal's, and puts them back.
    coloured = []
    for line in qr_lines(out):
        assert line.count(DARK_ON_LIGHT) == 1 and line.endswith(PLAIN), repr(line)
        coloured.append(line.split(DARK_ON_LIGHT)[1].removesuffix(PLAIN))
    rows = modules(coloured)
    width, zone = len(rows[0]), QUIET_ZONE
    assert all(len(row) == width for row in rows)
    # Light all round within the colours (and in the padding half row below an odd
    # count of rows), on a dark terminal too.
    assert not any(rows[y][x] for y in range(zone) for x in range(width))
    assert not any(rows[-y - 1][x] for y in range(zone + 1) for x in range(width))
    assert not any(row[x] or row[-x - 1] for row in rows for x in range(zone))
    assert scanned(coloured) == [group.invite_url(BASE)]


def test_without_a_terminal_or_with_no_color_there_are_no_escapes(db, monkeypatch):
    assert "\033[" not in welcome()
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\033[" not in welcome()
