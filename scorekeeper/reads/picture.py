"""The night as a picture: what ``static/ofcboard/share_image.js`` draws on the phone
("Share the night" on the settlement), as plain data for ``json_script``.

Every word is the page's own, in the reader's language: the group, the date and the
game as the settlement's head writes them, each player's points and money, who pays
whom in the words the page uses for a line between two others (the picture goes to
everyone, so never "You pay"), the section titles, and the night's chart as the page
draws it (:class:`scorekeeper.table.chart_shapes.Chart`, its geometry in a 360 px box, which
the script scales up). Colours are the light scheme's (``PALETTE``), as ``#rrggbb``.

No queries: everything comes from the settlement's :class:`NightResults` (and, when
the group settles everything tonight, its :class:`Folded` payments).
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext, ngettext, pgettext

from scorekeeper.dates import weekday
from scorekeeper.i18n import money
from scorekeeper.reads.owed import Folded
from scorekeeper.reads.results import NightResults, line_words
from scorekeeper.table.chart_shapes import Chart, Segment, Text
from scorekeeper.table.colours import COLOURS, PALETTE
from scorekeeper.table.formatting import signed
from scorekeeper.terms import game_name

#: A name the night has no colour for (a payment across nights with someone not here).
NO_COLOUR = "#8a8e95"


def night_picture(results: NightResults, folded: Folded | None = None) -> dict:
    """The picture's data: ``{{ picture|json_script:"night-picture" }}``."""
    night = results.night
    colour_of = {seat_id: _hex(number) for seat_id, number in results.colours.items()}
    rounds = ngettext("%(count)d round", "%(count)d rounds", results.rounds) % {
        "count": results.rounds
    }
    per_point = gettext("%(amount)s/pt") % {"amount": money(night.point_cents, night.currency)}
    return {
        "file": f"ofc-night-{timezone.localtime(night.started_at).date().isoformat()}.png",
        "group": night.group.name,
        "date": weekday(night.started_at),
        "game": game_name(night.game),
        "details": " · ".join([rounds, per_point]),
        # While the night runs the picture says so, as the page's heading does.
        "running": "" if night.is_over else gettext("If we stopped now"),
        "titles": {
            "standings": gettext("Everyone"),
            "payments": gettext("Payments, earlier nights included")
            if folded is not None
            else gettext("Who pays whom"),
            "chart": gettext("The night, round by round"),
        },
        "standings": [
            {
                "name": player.seat.name,
                "points": signed(player.points),
                "money": money(player.cents, night.currency),
                "sign": _sign(player.cents),
                "colour": colour_of.get(player.seat.pk, NO_COLOUR),
                "badges": _badges(player),
            }
            for player in results.players
        ],
        "payments": _payments(results, folded, colour_of),
        "nobody_owes": gettext("Nobody owes anything, earlier nights included.")
        if folded is not None
        else gettext("Nobody owes anything."),
        "chart": _chart(results.chart),
    }


def _payments(results: NightResults, folded: Folded | None, colour_of: dict[int, str]) -> list:
    if folded is not None:
        # Across nights the payments are between people, not this night's seats.
        by_name = {
            player.seat.name: colour_of.get(player.seat.pk, NO_COLOUR) for player in results.players
        }
        return [
            {
                "words": gettext("%(payer)s pays %(payee)s %(amount)s")
                % {
                    "payer": payment.payer.name,
                    "payee": payment.payee.name,
                    "amount": money(payment.cents, payment.currency),
                },
                "from": by_name.get(payment.payer.name, NO_COLOUR),
                "to": by_name.get(payment.payee.name, NO_COLOUR),
                "state": "",
            }
            for payment in folded.payments
        ]
    lines = []
    for line in results.payments:
        state = ""
        if line.is_paid:
            state = gettext("Paid ✓")
        elif line.paid_across:
            state = gettext("Paid across nights ✓")
        lines.append(
            {
                "words": line_words(line, "", results.night.currency),
                "from": colour_of.get(line.payer.pk, NO_COLOUR),
                "to": colour_of.get(line.payee.pk, NO_COLOUR),
                "state": state,
            }
        )
    return lines


def _badges(player) -> list[str]:
    badges = []
    if getattr(player.seat, "left", False):  # left the group since
        badges.append(pgettext("has left", "left"))
    if player.forgiven:
        badges.append(gettext("capped"))
    return badges


def _chart(chart: Chart) -> dict:
    """The chart the page draws, as numbers and words (its coordinates in a
    ``width`` x ``height`` box)."""
    return {
        "width": chart.width,
        "height": chart.height,
        "font_size": chart.font_size,
        "message": _text(chart.message) if chart.message else None,
        "zero": _segment(chart.zero),
        "grid": [_segment(line) for line in chart.grid],
        "y_ticks": [_text(tick) for tick in chart.y_ticks],
        "x_ticks": [_text(tick) for tick in chart.x_ticks],
        "lines": [
            {
                "title": line.title,
                "colour": _hex(line.colour),
                "points": [list(point) for point in line.points],
                "label": _text(line.label),
                "leader": _segment(line.leader) if line.leader else None,
            }
            for line in chart.lines
        ],
    }


def _hex(number: int) -> str:
    """Colour ``number``'s shade on a light page (cycling past :data:`COLOURS`)."""
    return PALETTE[(number - 1) % COLOURS].light


def _sign(cents: int) -> str:
    return "plus" if cents > 0 else "minus" if cents < 0 else ""


def _segment(segment: Segment) -> list[int]:
    return [segment.x1, segment.y1, segment.x2, segment.y2]


def _text(text: Text) -> dict:
    return {"x": text.x, "y": text.y, "text": text.text}
