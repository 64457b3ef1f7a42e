"""The running-totals chart: real SVG structure, parsed, not string matching."""

import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.table.chart import ChartSeries, _thinned, running_totals_svg
from scorekeeper.table.formatting import money, signed

SVG = "{http://www.w3.org/2000/svg}"


def described(rounds: int, totals: list[str]) -> str:
    """A stand-in for the page's sentence, which shows what the chart passed it."""
    return f"{rounds} | " + " | ".join(totals)


def chart(series, **options) -> str:
    """The chart with the stand-in words the pages give in their own language."""
    return running_totals_svg(series, describe=described, empty_message="No rounds yet", **options)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def view_box(root: ET.Element) -> tuple[float, float, float, float]:
    x, y, width, height = (float(part) for part in root.get("viewBox").split())
    return x, y, width, height


def polylines(root: ET.Element) -> list[list[tuple[float, float]]]:
    return [
        [tuple(float(n) for n in pair.split(",")) for pair in line.get("points").split()]
        for line in root.iter(f"{SVG}polyline")
    ]


def labels(root: ET.Element) -> list[ET.Element]:
    return [text for text in root.iter(f"{SVG}text") if text.get("class") == "label"]


def zero_line(root: ET.Element) -> ET.Element:
    (line,) = [line for line in root.iter(f"{SVG}line") if line.get("class") == "zero"]
    return line


def series_groups(root: ET.Element) -> list[ET.Element]:
    return [group for group in root.iter(f"{SVG}g") if "series" in group.get("class", "").split()]


NIGHT = [
    ChartSeries("Anna", [5, 12, 42]),
    ChartSeries("Ben", [-5, -12, -40]),
    ChartSeries("Cy", [0, 0, -2]),
]


def test_chart_is_an_accessible_svg_that_scales_by_its_view_box():
    root = parse(chart(NIGHT, rounds=3))

    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.find(f"{SVG}title").text == root.get("aria-label")
    assert view_box(root)[2] == 360
    # No fixed size and no inline style: CSS sizes it, a strict CSP holds.
    assert root.get("width") is None and root.get("height") is None
    assert not [element for element in root.iter() if element.get("style") is not None]


def test_the_accessible_name_is_the_callers_sentence_of_the_rounds_and_each_total():
    asked = []

    def describe(rounds: int, totals: list[str]) -> str:
        asked.append((rounds, totals))
        return "the page's sentence"

    night = [ChartSeries("Annabel Lee-Smith", [5, 12]), ChartSeries("Ben", [-5, -12])]
    root = parse(running_totals_svg(night, rounds=2, describe=describe, empty_message=""))

    # Full names (the labels cut them), in the lines' order, with the chart's totals.
    assert asked == [(2, ["Annabel Lee-Smith +12", "Ben −12"])]
    assert root.get("aria-label") == "the page's sentence"
    assert root.find(f"{SVG}title").text == "the page's sentence"


def test_before_the_first_round_the_caller_names_the_empty_chart():
    root = parse(chart([ChartSeries("Anna", [])], rounds=0))
    assert root.get("aria-label") == described(0, []) == "0 | "


def test_one_polyline_per_player_from_round_zero_to_their_last_round():
    root = parse(chart(NIGHT, rounds=3))

    lines = polylines(root)
    assert len(lines) == 3
    assert all(len(points) == 4 for points in lines)  # round 0 plus three rounds


def test_each_player_gets_their_own_colour_class_in_current_color():
    root = parse(chart(NIGHT, rounds=3))

    groups = series_groups(root)
    assert [group.get("class") for group in groups] == [
        "series series-0",
        "series series-1",
        "series series-2",
    ]
    for group in groups:
        assert group.find(f"{SVG}polyline").get("stroke") == "currentColor"


def test_colour_classes_repeat_after_eight_players():
    night = [ChartSeries(f"P{i}", [i]) for i in range(10)]

    groups = series_groups(parse(chart(night, rounds=1)))

    assert [group.get("class").split()[1] for group in groups][-2:] == ["series-0", "series-1"]


def test_labels_show_name_and_signed_final_total():
    root = parse(chart(NIGHT, rounds=3))

    assert [text.text for text in labels(root)] == ["Anna +42", "Ben −40", "Cy −2"]


def test_names_are_escaped_and_read_back_unchanged():
    night = [ChartSeries('<b>"Bobby" & co</b>', [7]), ChartSeries("Ann", [-7])]

    svg = chart(night, rounds=1)

    assert "<b>" not in svg
    root = parse(svg)
    assert labels(root)[0].text == '<b>"Bobby"… +7'  # cut to 12 characters
    assert series_groups(root)[0].find(f"{SVG}title").text == '<b>"Bobby" & co</b> +7'
    assert '<b>"Bobby" & co</b> +7' in root.get("aria-label")


def test_zero_line_sits_where_zero_is_on_the_y_axis():
    # Totals from -50 to +50 give a symmetric axis, so 0 is halfway down
    # the plot: exactly where every line starts at round 0.
    night = [ChartSeries("Anna", [50]), ChartSeries("Ben", [-50])]

    root = parse(chart(night, rounds=1))
    zero = zero_line(root)
    y = float(zero.get("y1"))

    assert float(zero.get("y2")) == y
    anna, ben = polylines(root)
    assert anna[0][1] == ben[0][1] == y
    assert anna[1][1] < y < ben[1][1]
    assert y - anna[1][1] == pytest.approx(ben[1][1] - y, abs=0.1)


def test_zero_line_is_at_the_bottom_when_nobody_is_below_zero():
    root = parse(chart([ChartSeries("Anna", [10, 20])], rounds=2))

    (line,) = polylines(root)
    assert float(zero_line(root).get("y1")) == max(y for _, y in line)


def test_higher_totals_are_drawn_higher_and_later_rounds_further_right():
    (anna, _, _) = polylines(parse(chart(NIGHT, rounds=3)))

    xs = [x for x, _ in anna]
    ys = [y for _, y in anna]
    assert xs == sorted(xs) and len(set(xs)) == 4
    assert ys == sorted(ys, reverse=True)  # 0, 5, 12, 42 climb up the screen


def test_close_line_ends_get_labels_at_least_a_line_apart():
    night = [ChartSeries(name, [total]) for name, total in [("A", 10), ("B", 11), ("C", 9)]]
    night.append(ChartSeries("D", [-30]))

    root = parse(chart(night, rounds=1))

    ys = sorted(float(text.get("y")) for text in labels(root))
    assert all(below - above >= 12 for above, below in pairwise(ys))
    # Labels keep the order of their lines: B highest, then A, C, D.
    by_name = {text.text.split()[0]: float(text.get("y")) for text in labels(root)}
    assert by_name["B"] < by_name["A"] < by_name["C"] < by_name["D"]


def test_zero_rounds_draws_an_empty_chart_with_a_message():
    root = parse(chart([ChartSeries("Anna", [])], rounds=0))

    assert polylines(root) == []
    assert zero_line(root) is not None
    messages = [text.text for text in root.iter(f"{SVG}text") if text.get("class") == "empty"]
    assert messages == ["No rounds yet"]


def test_one_player_and_all_zeros_still_draw_a_flat_line_on_the_zero_line():
    root = parse(chart([ChartSeries("Anna", [0, 0, 0])], rounds=3))

    (line,) = polylines(root)
    y = float(zero_line(root).get("y1"))
    assert {point_y for _, point_y in line} == {y}
    assert [text.text for text in labels(root)] == ["Anna 0"]


def test_a_player_who_left_early_has_a_shorter_line():
    night = [ChartSeries("Anna", [3, 6, 9]), ChartSeries("Ben", [-3])]

    anna, ben = polylines(parse(chart(night, rounds=3)))

    assert len(ben) == 2
    assert ben[-1][0] < anna[-1][0]


def test_more_points_than_rounds_is_an_error():
    with pytest.raises(ValueError):
        chart([ChartSeries("Anna", [1, 2, 3])], rounds=2)


def test_money_can_be_shown_instead_of_points():
    root = parse(
        chart([ChartSeries("Anna", [1250])], rounds=1, format_total=lambda c: f"€{c / 100:.2f}")
    )

    assert labels(root)[0].text == "Anna €12.50"


def test_signed_totals_use_a_real_minus_sign():
    assert (signed(42), signed(-7), signed(0)) == ("+42", "−7", "0")


def test_big_values_get_short_axis_labels():
    root = parse(chart([ChartSeries("Whale", [2_000_000])], rounds=1))

    ticks = [text.text for text in root.iter(f"{SVG}text") if text.get("text-anchor") == "end"]
    assert "2M" in ticks
    assert max(len(tick) for tick in ticks) <= 5


def test_eight_players_fit_without_overlapping_labels():
    night = [ChartSeries(f"Player {i}", [i - 4, 0]) for i in range(8)]

    root = parse(chart(night, rounds=2))

    ys = sorted(float(text.get("y")) for text in labels(root))
    assert len(ys) == 8
    assert all(below - above >= 12 for above, below in pairwise(ys))


series_strategy = st.lists(
    st.tuples(
        st.text(min_size=1, max_size=20),
        st.lists(st.integers(-100_000, 100_000), min_size=0, max_size=12),
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=60, deadline=None)
@given(series_strategy)
def test_every_coordinate_stays_inside_the_view_box(players):
    rounds = max(len(points) for _, points in players)
    night = [ChartSeries(name, points) for name, points in players]

    root = parse(chart(night, rounds=rounds))

    x0, y0, width, height = view_box(root)
    for line in polylines(root):
        for x, y in line:
            assert x0 <= x <= x0 + width and y0 <= y <= y0 + height
    for element in root.iter():
        for name in ("x", "y", "x1", "x2", "y1", "y2", "cx", "cy"):
            if element.get(name) is not None:
                value = float(element.get(name))
                limit = width if name.startswith("x") or name == "cx" else height
                assert 0 <= value <= limit, (element.tag, name, value)
    if rounds:
        assert len(polylines(root)) == len(night)


def colours(root: ET.Element) -> dict[str, str]:
    """Each player's ``series-N`` class, by the name in their group's title."""
    return {
        group.find(f"{SVG}title").text.rsplit(" ", 1)[0]: group.get("class").split()[1]
        for group in series_groups(root)
    }


def test_a_series_keeps_its_own_colour_whatever_its_place_in_the_list():
    before = [ChartSeries("Anna", [5], colour=0), ChartSeries("Bram", [-5], colour=1)]
    # Dana sits in between Anna and Bram: Bram moves down the list, not his colour.
    after = [
        ChartSeries("Anna", [5, 9], colour=0),
        ChartSeries("Dana", [-2], start=1, colour=2),
        ChartSeries("Bram", [-5, -7], colour=1),
    ]

    first = colours(parse(chart(before, rounds=1)))
    second = colours(parse(chart(after, rounds=2)))

    assert first == {"Anna": "series-0", "Bram": "series-1"}
    assert second == {"Anna": "series-0", "Bram": "series-1", "Dana": "series-2"}


def test_own_colours_also_cycle_after_eight():
    root = parse(chart([ChartSeries("Ivy", [1], colour=9)], rounds=1))

    assert colours(root) == {"Ivy": "series-1"}


def test_a_late_arrivals_line_starts_at_zero_where_they_sat_down():
    night = [ChartSeries("Anna", [5, 12, 42]), ChartSeries("Dana", [4, -6], start=1)]

    anna, dana = polylines(parse(chart(night, rounds=3)))

    # Dana's first point is at 0, at the x of Anna's total after round 1, not at round 0.
    assert dana[0] == (anna[1][0], anna[0][1])
    assert [x for x, _ in dana] == [x for x, _ in anna[1:]]
    assert len(dana) == 3 and dana[-1][0] == anna[-1][0]


def test_a_late_arrival_who_left_again_stops_where_their_points_do():
    night = [ChartSeries("Anna", [1, 2, 3, 4]), ChartSeries("Dana", [7], start=1)]

    root = parse(chart(night, rounds=4))

    anna, dana = polylines(root)
    assert [x for x, _ in dana] == [anna[1][0], anna[2][0]]
    (dot,) = series_groups(root)[1].iter(f"{SVG}circle")
    assert float(dot.get("cx")) == anna[2][0]


def test_a_late_start_cannot_run_past_the_night():
    with pytest.raises(ValueError):
        chart([ChartSeries("Dana", [1, 2], start=2)], rounds=3)
    with pytest.raises(ValueError):
        ChartSeries("Dana", [1], start=-1)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 6), st.lists(st.integers(-1000, 1000), max_size=6)),
        min_size=1,
        max_size=8,
    )
)
def test_late_lines_start_at_zero_at_their_round_and_stay_in_the_view_box(players):
    rounds = max(start + len(points) for start, points in players) or 1
    night = [ChartSeries(f"P{i}", points, start=start) for i, (start, points) in enumerate(players)]
    root = parse(chart(night, rounds=rounds))

    zero = float(zero_line(root).get("y1"))
    x0, _, width, height = view_box(root)
    lines = polylines(root)
    assert len(lines) == len(night)
    for line, (_, points) in zip(lines, players, strict=True):
        assert len(line) == len(points) + 1 and line[0][1] == zero
        assert [x for x, _ in line] == sorted({x for x, _ in line})
        assert all(x0 <= x <= width and 0 <= y <= height for x, y in line)
    # A later start is further right, the same start at the same x.
    first_x = {start: set() for start, _ in players}
    for line, (start, _) in zip(lines, players, strict=True):
        first_x[start].add(line[0][0])
    assert all(len(xs) == 1 for xs in first_x.values())
    ordered = [xs.pop() for _, xs in sorted(first_x.items())]
    assert ordered == sorted(set(ordered))


def test_a_long_night_is_drawn_from_a_few_hundred_points_ending_where_it_ends():
    rounds = 1000
    wave = [((n * 37) % 101) - 50 for n in range(1, rounds + 1)]
    night = [ChartSeries("Anna", wave), ChartSeries("Ben", [-v for v in wave])]
    lines = polylines(parse(chart(night, rounds=rounds)))
    assert sum(len(line) for line in lines) <= 150
    # Both lines reach their highest and lowest totals (-50 and +50 each), as drawn
    # from every point: the same top and bottom.
    assert min(y for _, y in lines[0]) == min(y for _, y in lines[1])
    assert max(y for _, y in lines[0]) == max(y for _, y in lines[1])
    # Each line still starts at round 0 and ends at the last round, left to right.
    for line in lines:
        xs = [x for x, _ in line]
        assert xs == sorted(xs)
    assert lines[0][0] == lines[1][0]
    assert lines[0][-1][0] == lines[1][-1][0]


def test_thinning_keeps_each_runs_lowest_and_highest_point_in_order():
    points = [(n, ((n * 37) % 101) - 50) for n in range(1001)]
    kept = _thinned(points, most=100)
    assert len(kept) <= 100
    assert kept[0] == points[0] and kept[-1] == points[-1]
    assert max(kept, key=lambda p: p[1]) == max(points, key=lambda p: p[1])
    assert min(kept, key=lambda p: p[1]) == min(points, key=lambda p: p[1])
    assert kept == sorted(kept)
    assert set(kept) <= set(points)


def test_a_short_night_keeps_every_point():
    root = parse(chart(NIGHT, rounds=3))
    assert [len(line) for line in polylines(root)] == [4, 4, 4]


def y_ticks(root: ET.Element) -> list[str]:
    (ticks,) = [group for group in root.iter(f"{SVG}g") if group.get("class") == "ticks"]
    return [text.text for text in ticks if text.get("text-anchor") == "end"]


def test_the_y_axis_says_what_its_numbers_are_when_told():
    series = [ChartSeries("Anna", [-300, 150])]
    plain = y_ticks(parse(chart(series, rounds=2)))
    assert "-200" in plain
    shown = y_ticks(parse(chart(series, rounds=2, format_tick=lambda cents: money(cents, "GBP"))))
    assert "−£2.00" in shown and "£0.00" in shown
    assert not any(tick.lstrip("-").isdigit() for tick in shown)
