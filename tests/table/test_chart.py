"""The running-totals chart's geometry: where each line, dot, label and tick goes, as
the pure module works it out (tests/views/test_drawings.py checks the SVG written
from it)."""

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.table.chart import _thinned, running_totals
from scorekeeper.table.chart_shapes import Chart, ChartSeries, Segment, Text
from scorekeeper.table.formatting import money, signed
from tests.examples import examples


def described(rounds: int, totals: list[str]) -> str:
    """A stand-in for the page's sentence, which shows what the chart passed it."""
    return f"{rounds} | " + " | ".join(totals)


def chart(series, **options) -> Chart:
    """The chart with the stand-in words the pages give in their own language."""
    return running_totals(series, describe=described, empty_message="No rounds yet", **options)


def polylines(drawn: Chart) -> list[tuple[tuple[int, int], ...]]:
    return [line.points for line in drawn.lines]


def labels(drawn: Chart) -> list[Text]:
    return [line.label for line in drawn.lines]


def every_place(drawn: Chart) -> list[tuple[int, int]]:
    """Every point the chart draws at: its lines, segments and texts."""
    segments: list[Segment] = [drawn.zero, *drawn.grid]
    segments += [line.leader for line in drawn.lines if line.leader is not None]
    texts = [*drawn.y_ticks, *drawn.x_ticks, *labels(drawn)]
    texts += [drawn.message] if drawn.message is not None else []
    return [
        *(point for line in drawn.lines for point in line.points),
        *((s.x1, s.y1) for s in segments),
        *((s.x2, s.y2) for s in segments),
        *((text.x, text.y) for text in texts),
    ]


NIGHT = [
    ChartSeries("Anna", [5, 12, 42]),
    ChartSeries("Ben", [-5, -12, -40]),
    ChartSeries("Cy", [0, 0, -2]),
]


def test_the_chart_is_drawn_in_a_box_of_the_width_asked_for():
    drawn = chart(NIGHT, rounds=3)
    assert (drawn.width, drawn.height) == (360, 200)
    assert chart(NIGHT, rounds=3, width=500).width == 500


def test_the_accessible_name_is_the_callers_sentence_of_the_rounds_and_each_total():
    asked = []

    def describe(rounds: int, totals: list[str]) -> str:
        asked.append((rounds, totals))
        return "the page's sentence"

    night = [ChartSeries("Annabel Lee-Smith", [5, 12]), ChartSeries("Ben", [-5, -12])]
    drawn = running_totals(night, rounds=2, describe=describe, empty_message="")

    # Full names (the labels cut them), in the lines' order, with the chart's totals.
    assert asked == [(2, ["Annabel Lee-Smith +12", "Ben −12"])]
    assert drawn.name == "the page's sentence"


def test_before_the_first_round_the_caller_names_the_empty_chart():
    drawn = chart([ChartSeries("Anna", [])], rounds=0)
    assert drawn.name == described(0, []) == "0 | "


def test_one_polyline_per_player_from_round_zero_to_their_last_round():
    lines = polylines(chart(NIGHT, rounds=3))
    assert len(lines) == 3
    assert all(len(points) == 4 for points in lines)  # round 0 plus three rounds


def test_each_player_gets_their_own_colour_class():
    assert [line.colour for line in chart(NIGHT, rounds=3).lines] == [1, 2, 3]


def test_colour_classes_repeat_after_eight_players():
    night = [ChartSeries(f"P{i}", [i]) for i in range(10)]

    assert [line.colour for line in chart(night, rounds=1).lines][-2:] == [1, 2]


def test_labels_show_name_and_signed_final_total():
    drawn = chart(NIGHT, rounds=3)

    assert [text.text for text in labels(drawn)] == ["Anna +42", "Ben −40", "Cy −2"]
    assert [line.title for line in drawn.lines] == ["Anna +42", "Ben −40", "Cy −2"]


def test_names_are_plain_text_cut_on_the_label_only():
    night = [ChartSeries('<b>"Bobby" & co</b>', [7]), ChartSeries("Ann", [-7])]

    drawn = chart(night, rounds=1)

    assert labels(drawn)[0].text == '<b>"Bobby"… +7'  # cut to 12 characters
    assert drawn.lines[0].title == '<b>"Bobby" & co</b> +7'
    assert '<b>"Bobby" & co</b> +7' in drawn.name


def test_characters_xml_cannot_carry_are_left_out_of_every_word():
    night = [ChartSeries("An\x00na\x1b", [7]), ChartSeries("Ben\ufffe", [-7])]

    drawn = chart(night, rounds=1)

    assert [line.title for line in drawn.lines] == ["Anna +7", "Ben −7"]
    assert [text.text for text in labels(drawn)] == ["Anna +7", "Ben −7"]
    assert drawn.name == "1 | Anna +7 | Ben −7"


def test_zero_line_sits_where_zero_is_on_the_y_axis():
    # Totals from -50 to +50 give a symmetric axis, so 0 is halfway down
    # the plot: exactly where every line starts at round 0.
    night = [ChartSeries("Anna", [50]), ChartSeries("Ben", [-50])]

    drawn = chart(night, rounds=1)
    y = drawn.zero.y1

    assert drawn.zero.y2 == y
    anna, ben = polylines(drawn)
    assert anna[0][1] == ben[0][1] == y
    assert anna[1][1] < y < ben[1][1]
    assert y - anna[1][1] == pytest.approx(ben[1][1] - y, abs=0.1)


def test_zero_line_is_at_the_bottom_when_nobody_is_below_zero():
    drawn = chart([ChartSeries("Anna", [10, 20])], rounds=2)

    (line,) = polylines(drawn)
    assert drawn.zero.y1 == max(y for _, y in line)


def test_higher_totals_are_drawn_higher_and_later_rounds_further_right():
    (anna, _, _) = polylines(chart(NIGHT, rounds=3))

    xs = [x for x, _ in anna]
    ys = [y for _, y in anna]
    assert xs == sorted(xs) and len(set(xs)) == 4
    assert ys == sorted(ys, reverse=True)  # 0, 5, 12, 42 climb up the screen


def test_close_line_ends_get_labels_at_least_a_line_apart():
    night = [ChartSeries(name, [total]) for name, total in [("A", 10), ("B", 11), ("C", 9)]]
    night.append(ChartSeries("D", [-30]))

    drawn = chart(night, rounds=1)

    ys = sorted(text.y for text in labels(drawn))
    assert all(below - above >= 12 for above, below in pairwise(ys))
    # Labels keep the order of their lines: B highest, then A, C, D.
    by_name = {text.text.split()[0]: text.y for text in labels(drawn)}
    assert by_name["B"] < by_name["A"] < by_name["C"] < by_name["D"]


def test_zero_rounds_draws_an_empty_chart_with_a_message():
    drawn = chart([ChartSeries("Anna", [])], rounds=0)

    assert polylines(drawn) == [] and drawn.grid == () and drawn.y_ticks == ()
    assert drawn.zero == Segment(8, 100, 352, 100)  # across the middle
    assert drawn.message == Text(180, 92, "No rounds yet")


def test_one_player_and_all_zeros_still_draw_a_flat_line_on_the_zero_line():
    drawn = chart([ChartSeries("Anna", [0, 0, 0])], rounds=3)

    (line,) = polylines(drawn)
    assert {point_y for _, point_y in line} == {drawn.zero.y1}
    assert [text.text for text in labels(drawn)] == ["Anna 0"]


def test_a_player_who_left_early_has_a_shorter_line():
    night = [ChartSeries("Anna", [3, 6, 9]), ChartSeries("Ben", [-3])]

    anna, ben = polylines(chart(night, rounds=3))

    assert len(ben) == 2
    assert ben[-1][0] < anna[-1][0]


def test_more_points_than_rounds_is_an_error():
    with pytest.raises(ValueError):
        chart([ChartSeries("Anna", [1, 2, 3])], rounds=2)


def test_money_can_be_shown_instead_of_points():
    drawn = chart([ChartSeries("Anna", [1250])], rounds=1, format_total=lambda c: f"€{c / 100:.2f}")

    assert labels(drawn)[0].text == "Anna €12.50"


def test_signed_totals_use_a_real_minus_sign():
    assert (signed(42), signed(-7), signed(0)) == ("+42", "−7", "0")


def test_big_values_get_short_axis_labels():
    drawn = chart([ChartSeries("Whale", [2_000_000])], rounds=1)

    ticks = [text.text for text in drawn.y_ticks]
    assert "2M" in ticks
    assert max(len(tick) for tick in ticks) <= 5


def test_eight_players_fit_without_overlapping_labels():
    night = [ChartSeries(f"Player {i}", [i - 4, 0]) for i in range(8)]

    drawn = chart(night, rounds=2)

    ys = sorted(text.y for text in labels(drawn))
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


@settings(max_examples=examples(60), deadline=None)
@given(series_strategy)
def test_every_coordinate_stays_inside_the_view_box(players):
    rounds = max(len(points) for _, points in players)
    night = [ChartSeries(name, points) for name, points in players]

    drawn = chart(night, rounds=rounds)

    for x, y in every_place(drawn):
        assert 0 <= x <= drawn.width and 0 <= y <= drawn.height, (x, y)
    if rounds:
        assert len(polylines(drawn)) == len(night)


def colours(drawn: Chart) -> dict[str, int]:
    """Each player's colour number (class ``player-N``), by the name in their line's title."""
    return {line.title.rsplit(" ", 1)[0]: line.colour for line in drawn.lines}


def test_a_series_keeps_its_own_colour_whatever_its_place_in_the_list():
    before = [ChartSeries("Anna", [5], colour=1), ChartSeries("Bram", [-5], colour=2)]
    # Dana sits in between Anna and Bram: Bram moves down the list, not his colour.
    after = [
        ChartSeries("Anna", [5, 9], colour=1),
        ChartSeries("Dana", [-2], start=1, colour=3),
        ChartSeries("Bram", [-5, -7], colour=2),
    ]

    first = colours(chart(before, rounds=1))
    second = colours(chart(after, rounds=2))

    assert first == {"Anna": 1, "Bram": 2}
    assert second == {"Anna": 1, "Bram": 2, "Dana": 3}


def test_own_colours_also_cycle_after_eight():
    assert colours(chart([ChartSeries("Ivy", [1], colour=10)], rounds=1)) == {"Ivy": 2}


def test_a_late_arrivals_line_starts_at_zero_where_they_sat_down():
    night = [ChartSeries("Anna", [5, 12, 42]), ChartSeries("Dana", [4, -6], start=1)]

    anna, dana = polylines(chart(night, rounds=3))

    # Dana's first point is at 0, at the x of Anna's total after round 1, not at round 0.
    assert dana[0] == (anna[1][0], anna[0][1])
    assert [x for x, _ in dana] == [x for x, _ in anna[1:]]
    assert len(dana) == 3 and dana[-1][0] == anna[-1][0]


def test_a_late_arrival_who_left_again_stops_where_their_points_do():
    night = [ChartSeries("Anna", [1, 2, 3, 4]), ChartSeries("Dana", [7], start=1)]

    drawn = chart(night, rounds=4)

    anna, dana = polylines(drawn)
    assert [x for x, _ in dana] == [anna[1][0], anna[2][0]]
    assert drawn.lines[1].end == dana[-1]
    # Its label sits with the others beside the chart, a leader back to where it stopped.
    leader = drawn.lines[1].leader
    assert leader is not None and (leader.x1, leader.y1) == dana[-1]


def test_a_late_start_cannot_run_past_the_night():
    with pytest.raises(ValueError):
        chart([ChartSeries("Dana", [1, 2], start=2)], rounds=3)
    with pytest.raises(ValueError):
        ChartSeries("Dana", [1], start=-1)


@settings(max_examples=examples(40), deadline=None)
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
    drawn = chart(night, rounds=rounds)

    zero = drawn.zero.y1
    x0, width, height = 0, drawn.width, drawn.height
    lines = polylines(drawn)
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
    lines = polylines(chart(night, rounds=rounds))
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
    assert [len(line) for line in polylines(chart(NIGHT, rounds=3))] == [4, 4, 4]


def y_ticks(drawn: Chart) -> list[str]:
    return [text.text for text in drawn.y_ticks]


def test_the_y_axis_says_what_its_numbers_are_when_told():
    series = [ChartSeries("Anna", [-300, 150])]
    plain = y_ticks(chart(series, rounds=2))
    assert "-200" in plain
    shown = y_ticks(chart(series, rounds=2, format_tick=lambda cents: money(cents, "GBP")))
    assert "−£2.00" in shown and "£0.00" in shown
    assert not any(tick.lstrip("-").isdigit() for tick in shown)
