"""What one night came to, as its pages show it: each seat's balance, the payments,
the chart. The money itself is worked out by :mod:`scorekeeper.models.settlements`.

Reads only, each in a fixed number of queries however many rounds there are.
Money is whole cents: points times the night's point value, then the loss cap
if the night has one, then ``settle`` for the payments. The group's history
across nights is in :mod:`scorekeeper.reads.history`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext, ngettext

from scorekeeper.i18n import listed
from scorekeeper.models import Night, Seat
from scorekeeper.models.settlements import (
    AcrossPayment,
    PaymentLine,
    Played,
    SeatResult,
    played_rounds,
    settlement,
)
from scorekeeper.table.chart import Chart, ChartSeries, running_totals
from scorekeeper.table.formatting import signed


@dataclass(frozen=True)
class NightResults:
    night: Night
    rounds: int
    players: list[SeatResult]  # most points first
    payments: list[PaymentLine]
    chart: Chart
    across: list[AcrossPayment] = field(default_factory=list)  # oldest first

    @property
    def capped(self) -> list[SeatResult]:
        return [player for player in self.players if player.forgiven]

    @property
    def reduced(self) -> list[SeatResult]:
        return [player for player in self.players if player.reduced]

    @property
    def all_paid(self) -> bool:
        return all(line.is_paid or line.paid_across for line in self.payments)


def _chart(played: Played) -> Chart:
    # A player's colour is the order they first sat down (seat ids only grow), not
    # their place at the table, so a guest sitting in or someone leaving changes
    # nobody else's. A seat that comes back is the same seat, with the same colour.
    colours = {seat.pk: rank for rank, seat in enumerate(sorted(played.seats, key=_seat_id))}
    series = []
    for seat in played.seats:
        theirs = played.points.get(seat.pk, {})
        # Their first recorded round: the one they sat down for, or an earlier one
        # they played before leaving and coming back (first_round is then the return).
        start = next(
            (
                index
                for index, number in enumerate(played.numbers)
                if number in theirs or number >= seat.first_round
            ),
            None,
        )
        if start is None:
            continue  # dealt in from a round that has not gone through yet
        running, line = 0, []
        for number in played.numbers[start:]:
            if seat.last_round is not None and number > seat.last_round:
                break  # they left: their line stops here
            running += theirs.get(number, 0)
            line.append(running)
        series.append(ChartSeries(seat.name, line, start=start, colour=colours[seat.pk]))
    rounds = len(played.numbers)
    return running_totals(
        series,
        rounds=rounds,
        format_total=signed,
        describe=_chart_name,
        empty_message=gettext("No rounds yet"),
    )


def _chart_name(rounds: int, totals: list[str]) -> str:
    """The night chart's accessible name: "Running totals after 3 rounds: Anna +42,
    Bram −40, and Chris −2" (the totals listed as the language lists names)."""
    if not rounds:
        return gettext("Running totals: no rounds yet")
    return ngettext(
        "Running totals after %(count)d round: %(totals)s",
        "Running totals after %(count)d rounds: %(totals)s",
        rounds,
    ) % {"count": rounds, "totals": listed(totals)}


def _seat_id(seat: Seat) -> int:
    return seat.pk


def night_chart(night: Night) -> Chart | None:
    """Each player's running total, round by round, as a chart to draw (two queries).

    None before the first round goes through: the night page has nothing to show yet.
    """
    played = played_rounds(night)
    return _chart(played) if played.numbers else None


def night_results(night: Night) -> NightResults:
    """The settlement "if we stopped now": four queries, whatever the night's length (a
    finished night adds one for the payments across nights since it)."""
    played = played_rounds(night)
    players, payments, across = settlement(night, played)
    return NightResults(
        night=night,
        rounds=len(played.numbers),
        players=players,
        payments=payments,
        chart=_chart(played),
        across=across,
    )
