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

from scorekeeper.i18n import listed, money
from scorekeeper.models import Night
from scorekeeper.models.accounts import User
from scorekeeper.models.nights import Seat
from scorekeeper.models.settlements import (
    AcrossPayment,
    PaymentLine,
    Played,
    SeatResult,
    played_rounds,
    same_money_question,
    settlement,
)
from scorekeeper.table.chart import running_totals
from scorekeeper.table.chart_shapes import Chart, ChartSeries
from scorekeeper.table.colours import player_colours
from scorekeeper.table.formatting import signed


@dataclass(frozen=True)
class NightResults:
    night: Night
    rounds: int
    players: list[SeatResult]  # most points first
    payments: list[PaymentLine]
    chart: Chart
    across: list[AcrossPayment] = field(default_factory=list)  # oldest first
    # Each seat's colour number by seat id, as the chart draws it: {{ seat|player_colour:colours }}
    colours: dict[int, int] = field(default_factory=dict)

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
    colours = player_colours(seat.pk for seat in played.seats)
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
        colours=player_colours(seat.pk for seat in played.seats),
    )


@dataclass(frozen=True)
class ReadLine:
    """A payment line as one phone reads it: in words, from the reader's side."""

    line: PaymentLine
    side: str  # "payer" or "payee" when the reader is that side, else ""
    words: str  # "You pay Anna €31.00", "Cora pays you €31.00", "Anna pays Cora €5.10"
    # The reader is a side of the line (or speaks for a guest's): its buttons are theirs,
    # everyone else reads it.
    may_change: bool
    may_mark: bool  # "Mark paid" is offered: theirs, and the night is over or it squares a leaver
    questions: list[str]  # asked before a mark that may be a payment across nights again


@dataclass(frozen=True)
class Leaver:
    seat: Seat
    words: str  # "Bram left after round 6: their result is final."
    lines: list[ReadLine]


@dataclass(frozen=True)
class Reading:
    """A settlement's lines for one reader: who left first (while the night runs), then
    the reader's own lines, then everyone else's."""

    leavers: list[Leaver]
    mine: list[ReadLine]
    others: list[ReadLine]


def line_words(line: PaymentLine, side: str, currency: str) -> str:
    amount = money(line.cents, currency)
    if side == "payer":
        return gettext("You pay %(payee)s %(amount)s") % {
            "payee": line.payee.name,
            "amount": amount,
        }
    if side == "payee":
        return gettext("%(payer)s pays you %(amount)s") % {
            "payer": line.payer.name,
            "amount": amount,
        }
    return gettext("%(payer)s pays %(payee)s %(amount)s") % {
        "payer": line.payer.name,
        "payee": line.payee.name,
        "amount": amount,
    }


def reading(results: NightResults, reader: User) -> Reading:
    """The settlement's lines as ``reader``'s phone shows them (no queries)."""
    night = results.night

    def read(line: PaymentLine) -> ReadLine:
        side = (
            "payer"
            if line.payer.user_id == reader.pk
            else "payee"
            if line.payee.user_id == reader.pk
            else ""
        )
        may_change = night.may_mark_between(reader, line.payer, line.payee)
        return ReadLine(
            line=line,
            side=side,
            words=line_words(line, side, night.currency),
            may_change=may_change,
            may_mark=may_change and (night.is_over or line.leaver is not None),
            questions=same_money_question(line, night.currency),
        )

    # While the night runs, each seat that left, with the payments that square them.
    leavers: dict[int, Leaver] = {}
    for player in results.players:
        seat = player.seat
        if not night.is_over and seat.last_round is not None:
            words = gettext("%(name)s left after round %(number)d: their result is final.")
            leavers[seat.pk] = Leaver(
                seat=seat, words=words % {"name": seat.name, "number": seat.last_round}, lines=[]
            )
    mine, others = [], []
    for line in results.payments:
        read_line = read(line)
        if line.leaver is not None and line.leaver.pk in leavers:
            leavers[line.leaver.pk].lines.append(read_line)
        elif read_line.side:
            mine.append(read_line)
        else:
            others.append(read_line)
    return Reading(leavers=list(leavers.values()), mine=mine, others=others)
