"""The night's running totals as a line chart: its geometry, worked out on the server.

Pure Python, no Django and no markup: :func:`running_totals` returns a
:class:`~scorekeeper.table.chart_shapes.Chart`, every line, dot, label and tick with its
place in whole pixels and its words as plain text, and the template
``scorekeeper/chart.svg`` (``{% chart %}``, in ``scorekeeper/templatetags/drawings.py``)
writes it as an inline SVG, escaping every word as any template does.

The SVG has a ``viewBox`` and no fixed size, so it scales to the width of its
container (a phone is about 360 px wide). It carries no colours of its own:
everything is drawn in ``currentColor`` and each player's lines sit in a
``<g class="series player-N">`` (N = 1..8, cycling: the player's colour from
:mod:`scorekeeper.table.colours`, the same as on the rest of the page, or by
default a series' place in the list), so the page's stylesheet picks the colours
for its light and dark themes, for example::

    .ofc-chart { width: 100%; height: auto; color: var(--text); }
    .player-1 { color: var(--player-1); }
    ...
    .player-8 { color: var(--player-8); }

Without that stylesheet every line is drawn in the text colour, which is
still readable. No ``style`` attributes are used, so a strict
Content-Security-Policy holds.

The chart has no words of its own: its accessible name (``describe``) and its
message before the first round come from the caller, in the page's language.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

from scorekeeper.table.chart_shapes import FONT_SIZE, Chart, ChartSeries, Line, Segment, Text
from scorekeeper.table.colours import COLOURS
from scorekeeper.table.formatting import signed

#: Distinct ``player-N`` classes before they repeat.
SERIES_CLASSES = COLOURS

# Average advance of a character of an 11 px system sans-serif font; only used
# to reserve room for the labels, so erring wide is safe.
_CHAR_WIDTH = 6.6
_LABEL_GAP = 13  # least distance between two name labels' centres
_NAME_CHARS = 12  # longer names are cut with an ellipsis (full name in <title>)
# Points drawn for all the lines together, however long the night: a phone's chart is
# 360 px wide, so more cannot be seen, only downloaded.
_MOST_POINTS = 150
# Characters XML 1.0 forbids even when escaped; a name pasted with one of them
# would otherwise make the whole SVG invalid.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def running_totals(
    series: Sequence[ChartSeries],
    *,
    rounds: int,
    describe: Callable[[int, list[str]], str],
    empty_message: str,
    width: int = 360,
    height: int = 200,
    format_total: Callable[[int], str] = signed,
    format_tick: Callable[[int], str] | None = None,
) -> Chart:
    """Each player's running total, round by round, as a :class:`Chart`.

    The x axis runs from round 0 to ``rounds``, the y axis covers every total
    and 0, with a light grid and a stronger zero line. Each line runs from 0
    at its series' ``start`` and ends in a dot and a label with the player's
    name and final total (``"Anna +42"``, or whatever ``format_total`` makes
    of it); labels whose lines end close together are pushed apart so they
    never overlap, with a thin leader back to their line's end. ``height``
    grows if the labels need more room.

    With ``rounds == 0`` the chart is a zero line and ``empty_message``.
    The y axis's ticks are whole numbers ("-300"), or whatever ``format_tick`` makes
    of them (money for a chart of cents).
    The chart's accessible name is ``describe(rounds, totals)``, ``totals`` being each
    line's name and final total as its label says them (``["Anna +42"]``, none
    before the first round): one sentence in the page's language, which lists them
    as the language lists names.

    >>> def describe(rounds, totals):
    ...     return f"After {rounds} rounds: " + " and ".join(totals)
    >>> chart = running_totals(
    ...     [ChartSeries("Anna", [5, 42]), ChartSeries("Ben", [-5, -42])],
    ...     rounds=2, describe=describe, empty_message="No rounds yet")
    >>> chart.name, chart.width
    ('After 2 rounds: Anna +42 and Ben −42', 360)
    >>> [(line.colour, line.label.text, len(line.points)) for line in chart.lines]
    [(1, 'Anna +42', 3), (2, 'Ben −42', 3)]
    >>> anna, ben = chart.lines
    >>> anna.points[0] == ben.points[0]  # both start at 0 before round 1
    True
    >>> anna.end[1] < chart.zero.y1 < ben.end[1]  # higher totals are drawn higher
    True
    """
    if rounds < 0:
        raise ValueError(f"rounds cannot be negative, got {rounds}")
    for line in series:
        if line.end > rounds:
            raise ValueError(
                f"{line.name!r} has {len(line.points)} points from round {line.start}"
                f" but the night has {rounds} rounds"
            )

    if rounds == 0:
        return _empty(_text(describe(0, [])), _text(empty_message), width, height)

    labels = [f"{_shorten(line.name)} {format_total(line.total)}" for line in series]
    name = describe(rounds, [f"{line.name} {format_total(line.total)}" for line in series])

    values = [0, *(value for line in series for value in line.points)]
    step = _nice_step(max(values) - min(values))
    low = math.floor(min(values) / step) * step
    high = math.ceil(max(values) / step) * step
    if low == high:  # nothing but zeros: keep 0 in the middle of the chart
        low, high = -step, step
    ticks = range(low, high + step, step)

    top, bottom_margin = 8, 20
    height = max(height, top + bottom_margin + _LABEL_GAP * (len(series) + 1))
    tick_text = format_tick or _compact
    longest_tick = max(len(tick_text(tick)) for tick in ticks)
    left = 6 + longest_tick * _CHAR_WIDTH
    longest_label = max((len(label) for label in labels), default=0)
    right = min(width * 0.45, 14 + longest_label * _CHAR_WIDTH)
    plot_left, plot_right = left, width - right
    plot_top, plot_bottom = top, height - bottom_margin

    def x_at(round_number: int) -> float:
        return plot_left + (plot_right - plot_left) * round_number / rounds

    def y_at(value: int) -> float:
        return plot_top + (plot_bottom - plot_top) * (high - value) / (high - low)

    round_step = _nice_step(rounds, target=6)
    round_numbers = range(0, rounds + 1, round_step)
    grid = [_segment(plot_left, y_at(tick), plot_right, y_at(tick)) for tick in ticks if tick]
    grid += [_segment(x_at(n), plot_top, x_at(n), plot_bottom) for n in round_numbers]
    y_ticks = [
        Text(_n(plot_left - 4), _n(y_at(tick) + FONT_SIZE * 0.35), _text(tick_text(tick)))
        for tick in ticks
    ]
    x_ticks = [Text(_n(x_at(n)), _n(height - 6), str(n)) for n in round_numbers]

    ends = [(x_at(line.end), y_at(line.total)) for line in series]
    label_ys = _spread(
        [end_y for _, end_y in ends],
        gap=_LABEL_GAP,
        lowest=FONT_SIZE / 2 + 1,
        # Not lower than this, or the last one would sit on the round numbers.
        highest=plot_bottom + 4,
    )
    label_x = plot_right + 6
    lines = []
    for index, (line, label) in enumerate(zip(series, labels, strict=True)):
        end_x, end_y = ends[index]
        label_y = label_ys[index]
        drawn = _thinned(
            list(enumerate((0, *line.points), start=line.start)),
            most=max(_LEAST_PER_LINE, _MOST_POINTS // len(series)),
        )
        # A leader only when the label had to move or the line stops early.
        moved = abs(label_y - end_y) > 1 or end_x < plot_right
        colour = index + 1 if line.colour is None else line.colour
        lines.append(
            Line(
                colour=(colour - 1) % SERIES_CLASSES + 1,
                title=_text(f"{line.name} {format_total(line.total)}"),
                # The last point is the line's end, where its dot is.
                points=tuple((_n(x_at(number)), _n(y_at(value))) for number, value in drawn),
                label=Text(_n(label_x), _n(label_y + FONT_SIZE * 0.35), _text(label)),
                leader=_segment(end_x, end_y, label_x - 2, label_y) if moved else None,
            )
        )
    return Chart(
        width=width,
        height=height,
        name=_text(name),
        zero=_segment(plot_left, y_at(0), plot_right, y_at(0)),
        grid=tuple(grid),
        y_ticks=tuple(y_ticks),
        x_ticks=tuple(x_ticks),
        lines=tuple(lines),
    )


def _empty(name: str, message: str, width: int, height: int) -> Chart:
    """Before the first round: the zero line across the middle and a message.

    >>> chart = _empty("No rounds yet", "Nothing yet", 360, 200)
    >>> chart.zero, chart.message
    (Segment(x1=8, y1=100, x2=352, y2=100), Text(x=180, y=92, text='Nothing yet'))
    """
    middle = height / 2
    return Chart(
        width=width,
        height=height,
        name=name,
        zero=_segment(8, middle, width - 8, middle),
        message=Text(_n(width / 2), _n(middle - 8), message),
    )


def _spread(wanted: list[float], *, gap: float, lowest: float, highest: float) -> list[float]:
    """Move label centres apart by at least ``gap``, keeping their order.

    Labels are pushed down past their neighbours above, then, if the last one
    went past ``highest``, pulled back up. The caller leaves enough room for
    all of them between ``lowest`` and ``highest``.

    >>> _spread([50, 52, 90], gap=10, lowest=0, highest=100)
    [50, 60, 90]
    >>> _spread([99, 99], gap=10, lowest=0, highest=100)
    [90, 100]
    """
    order = sorted(range(len(wanted)), key=lambda index: (wanted[index], index))
    placed = [0.0] * len(wanted)
    previous = lowest - gap
    for index in order:
        previous = placed[index] = max(wanted[index], previous + gap, lowest)
    following = highest + gap
    for index in reversed(order):
        following = placed[index] = min(placed[index], following - gap)
    return placed


_LEAST_PER_LINE = 24


def _thinned(points: list[tuple[int, int]], *, most: int) -> list[tuple[int, int]]:
    """At most ``most`` of a line's (round, total) points, keeping its shape.

    The points are cut into runs and each run keeps its lowest and its highest
    point, in round order, so every peak and dip stays where it was; the first
    and the last point always stay.

    >>> line = [(n, v) for n, v in enumerate([0, 5, -3, 2, 9, 1, 4, -8, 0, 3])]
    >>> _thinned(line, most=20) == line
    True
    >>> _thinned(line, most=6)
    [(0, 0), (2, -3), (4, 9), (6, 4), (7, -8), (9, 3)]
    """
    if len(points) <= most:
        return points
    inner = points[1:-1]
    runs = max(1, (most - 2) // 2)
    size = math.ceil(len(inner) / runs)
    kept = [points[0]]
    for start in range(0, len(inner), size):
        run = inner[start : start + size]
        low = min(run, key=lambda point: point[1])
        high = max(run, key=lambda point: point[1])
        kept.extend(sorted({low, high}))
    kept.append(points[-1])
    return kept


def _nice_step(span: int, *, target: int = 4) -> int:
    """The smallest 1, 2 or 5 times a power of ten cutting ``span`` in ``target``.

    >>> _nice_step(0), _nice_step(10), _nice_step(37), _nice_step(90_000)
    (1, 5, 10, 50000)
    """
    wanted = span / target
    power = 1
    while True:
        for multiple in (1, 2, 5):
            if multiple * power >= wanted:
                return multiple * power
        power *= 10


def _compact(value: int) -> str:
    """Short axis labels: 950, 12k, 1.5M.

    >>> _compact(-950), _compact(12_000), _compact(1_500_000)
    ('-950', '12k', '1.5M')
    """
    for size, suffix in ((1_000_000_000, "G"), (1_000_000, "M"), (10_000, "k")):
        if abs(value) >= size:
            divisor = 1000 if suffix == "k" else size
            return f"{value / divisor:g}{suffix}"
    return str(value)


def _text(text: str) -> str:
    """``text`` without the characters XML cannot carry even escaped: a name pasted
    with one of them would otherwise make the whole SVG invalid.

    >>> _text("An" + chr(0) + "na" + chr(0x1B))
    'Anna'
    """
    return _NOT_XML.sub("", text)


def _shorten(name: str) -> str:
    return name if len(name) <= _NAME_CHARS else name[: _NAME_CHARS - 1].rstrip() + "…"


def _segment(x1: float, y1: float, x2: float, y2: float) -> Segment:
    return Segment(_n(x1), _n(y1), _n(x2), _n(y2))


def _n(number: float) -> int:
    """A coordinate in whole pixels: a 360 px chart with 2 px lines looks the same,
    and a long night's rendered poll is 1.7 KB gzipped instead of 2.0."""
    return round(number)
