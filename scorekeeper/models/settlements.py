"""What one night's money comes to, as the rows say: each seat's money after the loss
cap, the settlement's payments with what was marked or paid across nights of them.

The settlement page shows these (:mod:`scorekeeper.reads.results`) and a mark is
checked against them (:mod:`scorekeeper.services.payments`): one computation, so the
page and the check of its button can never disagree. Each in a fixed number of
queries, whatever the night's length.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.db.models import Prefetch, Q
from django.utils.translation import gettext_lazy

from scorekeeper.models.nights import Entry, Night, Seat
from scorekeeper.models.payments import Payment, TabPart, TabPayment
from scorekeeper.table.people import person_key
from scorekeeper.table.settlement import night_money, settle

PAID_ACROSS = gettext_lazy(
    "%(amount)s of this was paid across nights already. What is left is owed on the group page."
)


@dataclass(frozen=True)
class SeatResult:
    """One seat's night: points, and the cents they win (+) or pay (-)."""

    seat: Seat
    points: int
    cents: int  # after the loss cap
    uncapped_cents: int
    forgiven: int = 0  # a capped loser: cents they do not pay
    reduced: int = 0  # a winner: cents taken off because of the cap

    @property
    def pays(self) -> int:
        """What a loser pays, as a positive amount."""
        return max(0, -self.cents)

    @property
    def would_pay(self) -> int:
        """What a loser would pay without the cap."""
        return max(0, -self.uncapped_cents)


@dataclass(frozen=True)
class PaymentLine:
    payer: Seat
    payee: Seat
    cents: int
    marked: Payment | None  # set once someone marked it paid
    across: int = 0  # cents of it that payments across nights squared already

    @property
    def is_paid(self) -> bool:
        return self.marked is not None

    @property
    def is_open(self) -> bool:
        """Whether it can still be marked paid here: nothing of it was paid, on this
        night or across nights (a mark now would record that money twice)."""
        return self.marked is None and not self.across

    @property
    def paid_across(self) -> bool:
        return self.marked is None and self.across >= self.cents


@dataclass(frozen=True)
class AcrossPayment:
    """A payment across nights between players of this night, made after it ended,
    and how much of it squared this night (0 when it all went to other nights)."""

    payment: TabPayment
    here: int


@dataclass(frozen=True)
class Played:
    """A night's seats and every recorded entry: all a settlement and a chart need."""

    seats: list[Seat]
    numbers: list[int]  # recorded round numbers, in order
    points: dict[int, dict[int, int]]  # seat id -> {round number: points}


def played_rounds(night: Night) -> Played:
    seats = list(night.seats.with_left().select_related("user"))
    points: dict[int, dict[int, int]] = defaultdict(dict)
    numbers: set[int] = set()
    recorded = Entry.objects.filter(round__night=night, round__recorded_at__isnull=False)
    for seat_id, number, value in recorded.values_list("seat_id", "round__number", "points"):
        points[seat_id][number] = value
        numbers.add(number)
    return Played(seats=seats, numbers=sorted(numbers), points=dict(points))


def seat_results(
    night: Night, seats: Iterable[Seat], totals: Mapping[int, int]
) -> list[SeatResult]:
    """Points into cents, with the loss cap when the night has one; most points first.

    ``totals`` maps seat ids to points (a seat left out has 0). Recorded rounds
    always add up to zero; were the totals ever off, no cap is applied rather than
    no page shown.
    """
    seats = list(seats)
    points = {seat.pk: totals.get(seat.pk, 0) for seat in seats}
    money = night_money(points, night.point_cents, night.loss_cap_cents)
    players = [
        SeatResult(
            seat=seat,
            points=points[seat.pk],
            cents=money.balances[seat.pk],
            uncapped_cents=points[seat.pk] * night.point_cents,
            forgiven=money.forgiven.get(seat.pk, 0),
            reduced=money.reduced.get(seat.pk, 0),
        )
        for seat in seats
    ]
    return sorted(players, key=lambda player: (-player.points, player.seat.position))


def settled_payments(players: list[SeatResult]) -> list[tuple[int, int, int]]:
    return settle({player.seat.pk: player.cents for player in players})


def payment_lines(night: Night) -> list[PaymentLine]:
    """The night's settlement payments as :func:`night_results` shows them, without
    the chart: what a mark is checked against."""
    return settlement(night, played_rounds(night))[1]


def settlement(
    night: Night, played: Played
) -> tuple[list[SeatResult], list[PaymentLine], list[AcrossPayment]]:
    players = seat_results(night, played.seats, {seat.pk: seat.points for seat in played.seats})
    seats = {seat.pk: seat for seat in played.seats}
    marked = {
        (payment.payer_id, payment.payee_id, payment.cents): payment
        for payment in Payment.objects.filter(night=night).select_related("marked_by")
    }
    across = _across_payments(night, seats) if night.is_over else []
    # What each seat still owes (or is owed) here once marks and payments across nights
    # are counted, as stored: the lines nobody marked take it in the settlement's order.
    owes = {seat.pk: max(0, -seat.unpaid_cents) for seat in played.seats}
    due = {seat.pk: max(0, seat.unpaid_cents) for seat in played.seats}
    payments = []
    for payer, payee, cents in settled_payments(players):
        mark = marked.get((payer, payee, cents))
        open_cents = cents
        if mark is None and across:
            open_cents = min(cents, owes[payer], due[payee])
            owes[payer] -= open_cents
            due[payee] -= open_cents
        payments.append(PaymentLine(seats[payer], seats[payee], cents, mark, cents - open_cents))
    return players, payments, across


def _across_payments(night: Night, seats: Mapping[int, Seat]) -> list[AcrossPayment]:
    """The payments across nights that squared some of ``night``, or were made since
    it ended between two of its players in its currency (two queries)."""
    people = {person_key(seat) for seat in seats.values()}
    found = (
        TabPayment.objects.filter(group_id=night.group_id, currency=night.currency)
        .filter(Q(parts__seat__night=night) | Q(marked_at__gte=night.ended_at))
        .distinct()
        .prefetch_related(Prefetch("parts", queryset=TabPart.objects.select_related("seat")))
        .order_by("marked_at", "pk")
    )
    across = []
    for payment in found:
        parts = payment.parts.all()
        # The payer's side (+) or the payee's (-) of it that landed on this night.
        here = max(
            sum(part.cents for part in parts if part.seat.night_id == night.pk and part.cents > 0),
            -sum(part.cents for part in parts if part.seat.night_id == night.pk and part.cents < 0),
        )
        if here or {person_key(part.seat) for part in parts} <= people:
            across.append(AcrossPayment(payment, here))
    return across
