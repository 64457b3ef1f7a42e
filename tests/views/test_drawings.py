"""The pictures the pages draw, as the templates write them (``{% chart %}`` and
``{% qr %}``): real SVG, parsed, that screen readers name and phone cameras read."""

import doctest
import io
import re
import xml.etree.ElementTree as ET

import pytest
import segno
from django.template import Context, Template
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

import scorekeeper.reads.qr
from scorekeeper.reads.qr import QRDrawing, qr_drawing
from scorekeeper.table.chart import running_totals
from scorekeeper.table.chart_shapes import Chart, ChartSeries
from scorekeeper.table.paying import epc_payload
from tests.examples import examples
from tests.qr import decode_png

SVG = "{http://www.w3.org/2000/svg}"


def drawn(template: str, **context: object) -> str:
    return Template("{% load drawings %}" + template).render(Context(context))


def svg_of(chart: Chart) -> ET.Element:
    return ET.fromstring(drawn("{% chart chart %}", chart=chart))


def night_chart(series: list[ChartSeries], rounds: int) -> Chart:
    def describe(count: int, totals: list[str]) -> str:
        return f"After {count}: " + ", ".join(totals)

    return running_totals(series, rounds=rounds, describe=describe, empty_message="No rounds yet")


NIGHT = [ChartSeries("Anna", [5, 12, 42]), ChartSeries("Ben", [-5, -12, -40])]


def series_groups(root: ET.Element) -> list[ET.Element]:
    return [group for group in root.iter(f"{SVG}g") if "series" in group.get("class", "").split()]


def test_the_chart_is_an_accessible_svg_that_scales_by_its_view_box():
    root = svg_of(night_chart(NIGHT, 3))

    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img" and root.get("class") == "ofc-chart"
    assert root.get("aria-label") == "After 3: Anna +42, Ben −40"
    assert root.find(f"{SVG}title").text == root.get("aria-label")
    assert root.get("viewBox") == "0 0 360 200"
    # No fixed size and no inline style: CSS sizes it, a strict CSP holds.
    assert root.get("width") is None and root.get("height") is None
    assert not [element for element in root.iter() if element.get("style") is not None]


def test_each_line_is_drawn_in_its_colour_class_in_current_color():
    chart = night_chart(NIGHT, 3)
    groups = series_groups(svg_of(chart))

    assert [group.get("class") for group in groups] == ["series player-1", "series player-2"]
    for group, line in zip(groups, chart.lines, strict=True):
        polyline = group.find(f"{SVG}polyline")
        assert polyline.get("stroke") == "currentColor"
        assert polyline.get("points") == line.coordinates
        dot = group.find(f"{SVG}circle")
        assert (int(dot.get("cx")), int(dot.get("cy"))) == line.end
        assert group.find(f"{SVG}title").text == line.title
        (label,) = [text for text in group.iter(f"{SVG}text") if text.get("class") == "label"]
        assert label.text == line.label.text


def test_names_are_escaped_and_read_back_unchanged():
    chart = night_chart([ChartSeries('<b>"Bobby" & co</b>', [7]), ChartSeries("Ann", [-7])], 1)

    svg = drawn("{% chart chart %}", chart=chart)

    assert "<b>" not in svg
    root = ET.fromstring(svg)
    (group, _) = series_groups(root)
    assert group.find(f"{SVG}title").text == '<b>"Bobby" & co</b> +7'
    assert '<b>"Bobby"… +7' in [text.text for text in group.iter(f"{SVG}text")]
    assert '<b>"Bobby" & co</b> +7' in root.get("aria-label")


def test_before_the_first_round_the_chart_is_a_zero_line_and_its_message():
    root = svg_of(night_chart([ChartSeries("Anna", [])], 0))

    assert not list(root.iter(f"{SVG}polyline"))
    (zero,) = [line for line in root.iter(f"{SVG}line") if line.get("class") == "zero"]
    assert zero.get("y1") == zero.get("y2") == "100"
    (message,) = root.iter(f"{SVG}text")
    assert (message.get("class"), message.text) == ("empty", "No rounds yet")


@settings(max_examples=examples(30), deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(min_size=1, max_size=20),
            st.lists(st.integers(-100_000, 100_000), max_size=12),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_every_drawn_coordinate_stays_inside_the_view_box(players):
    rounds = max(len(points) for _, points in players)
    root = svg_of(night_chart([ChartSeries(name, points) for name, points in players], rounds))

    _, _, width, height = (float(part) for part in root.get("viewBox").split())
    for element in root.iter():
        for name in ("x", "y", "x1", "x2", "y1", "y2", "cx", "cy"):
            if element.get(name) is not None:
                value = float(element.get(name))
                limit = width if name.startswith(("x", "cx")) else height
                assert 0 <= value <= limit, (element.tag, name, value)
        if element.tag == f"{SVG}polyline":
            for pair in element.get("points").split():
                x, y = (float(n) for n in pair.split(","))
                assert 0 <= x <= width and 0 <= y <= height


INVITATION = "http://192.0.2.5:8000/join/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5/"
EPC = epc_payload(
    name="Anna & Co <Ltd>", iban="NL91ABNA0417164300", bic="", cents=1250, text="OFC 2026-12-03"
)


@pytest.mark.parametrize(
    ("code", "scale", "border"),
    [
        (segno.make(INVITATION, error="m"), 5, 2),
        (segno.make_qr(EPC.encode("utf-8"), error="m", boost_error=False), 4, 4),
    ],
)
def test_a_qr_code_is_drawn_as_segno_draws_it(code, scale, border):
    title = "Payment code <for> your & bank app"
    drawing = qr_drawing(code, title=title, scale=scale, border=border)

    svg = drawn("{% qr code %}", code=drawing)

    own = code.svg_inline(
        scale=scale, border=border, dark="#000", light="#fff", svgclass="qr", title=title
    )
    assert svg.strip() == own


def pixels(drawing: QRDrawing) -> bytes:
    """The drawn SVG as a phone's camera would see it: its runs of dark modules, filled
    in on white (each stroke is a module high, along the middle of its row)."""
    root = ET.fromstring(drawn("{% qr code %}", code=drawing))
    (group,) = root.iter("g")
    assert group.get("transform") == f"scale({drawing.scale})"
    (dark,) = [path for path in group.iter("path") if path.get("class") == "qrline"]
    size = int(root.get("width"))
    image = Image.new("L", (size, size), 255)
    draw = ImageDraw.Draw(image)
    x = y = 0.0
    for move, dx, dy, length in re.findall(r"([Mm])([-\d.]+) ([-\d.]+)h(\d+)", dark.get("d")):
        x, y = (float(dx), float(dy)) if move == "M" else (x + float(dx), y + float(dy))
        top, left = (y - 0.5) * drawing.scale, x * drawing.scale
        draw.rectangle(
            (left, top, left + int(length) * drawing.scale - 1, top + drawing.scale - 1), fill=0
        )
        x += int(length)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


@pytest.mark.parametrize("text", [INVITATION, EPC])
def test_a_drawn_qr_code_reads_back_as_its_text(text):
    code = segno.make_qr(text.encode("utf-8"), error="m", boost_error=False)
    assert decode_png(pixels(qr_drawing(code, title="A code", scale=4, border=4))) == [text]


def test_the_qr_modules_docstring_examples_hold():
    examples = doctest.testmod(scorekeeper.reads.qr)
    assert examples.attempted and not examples.failed, examples
