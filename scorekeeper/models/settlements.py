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
from django.utils.translation import gettext_lazy, ngettext

from scorekeeper.dates import day, weekday
from scorekeeper.i18n import listed, money
from scorekeeper.models.nights import Entry, Night, Seat
from scorekeeper.models.payments import Payment, TabPart, TabPayment
from scorekeeper.table.people import person_key
from scorekeeper.table.settlement import night_money, settle, square_leaver

PAID_ACROSS = gettext_lazy(
    "%(amount)s of this was paid across nights already. What is left is owed on the group page."
)


def same_money_question(line: PaymentLine, currency: str) -> list[str]:
    """What the phone asks before a mark on ``line`` when the two have a payment across
    nights since the night ended that went to other nights: one question a payment,
    "Is this the €0.60 Bo paid Ada on Thu, Dec 3? It went to the night of Tue, Dec 1."."""
    return [
        ngettext(
            "Is this the %(amount)s %(payer)s paid %(payee)s on %(date)s? "
            "It went to the night of %(nights)s.",
            "Is this the %(amount)s %(payer)s paid %(payee)s on %(date)s? "
            "It went to the nights of %(nights)s.",
            len(across.nights),
        )
        % {
            "amount": money(across.payment.cents, currency),
            "payer": line.payer.name,
            "payee": line.payee.name,
            "date": day(across.payment.marked_at),
            "nights": listed([weekday(night.started_at) for night in across.nights]),
        }
        for across in line.elsewhere
    ]


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
class AcrossPayment:
    """A payment across nights between players of this night, made after it ended,
    and how much of it squared this night (0 when it all went to other nights)."""

    payment: TabPayment
    here: int
    payer: str = ""  # the two sides' person keys, from its parts
    payee: str = ""
    nights: tuple[Night, ...] = ()  # the nights the payer's side of it squared, oldest first


@dataclass(frozen=True)
class PaymentLine:
    payer: Seat
    payee: Seat
    cents: int
    marked: Payment | None  # set once someone marked it paid
    across: int = 0  # cents of it that payments across nights squared already
    # While the night runs: the seat that left whose money this line squares (it can
    # be paid and marked before they go); None for the lines "if we stopped now".
    leaver: Seat | None = None
    # Payments across nights between the same two, payer to payee, made since the night
    # ended, that went to other nights: a mark here may be the same money again.
    elsewhere: tuple[AcrossPayment, ...] = ()

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


def leaver_payments(night: Night, played: Played) -> list[tuple[Seat, list[tuple[int, int, int]]]]:
    """Each seat that left (by the round they left after), with the payments that
    square them against the table as it stood then (:func:`square_leaver`: the fewest
    payments against the standings at their last round). An earlier leaver's payments
    count in a later one's standings, and the earlier leaver is out of them."""
    leavers = sorted(
        (seat for seat in played.seats if seat.last_round is not None),
        key=lambda seat: (seat.last_round or 0, seat.pk),
    )
    plans: list[tuple[Seat, list[tuple[int, int, int]]]] = []
    moved: list[tuple[int, int, int]] = []
    for leaver in leavers:
        last = leaver.last_round or 0
        points = {
            seat.pk: sum(v for n, v in played.points.get(seat.pk, {}).items() if n <= last)
            for seat in played.seats
        }
        balances = dict(night_money(points, night.point_cents, night.loss_cap_cents).balances)
        for payer, payee, cents in moved:
            balances[payer] += cents
            balances[payee] -= cents
        for earlier, _lines in plans:
            balances.pop(earlier.pk)
        lines = square_leaver(balances, leaver.pk)
        plans.append((leaver, lines))
        moved.extend(lines)
    return plans


def settlement(
    night: Night, played: Played
) -> tuple[list[SeatResult], list[PaymentLine], list[AcrossPayment]]:
    """The night's payment lines, in the fewest payments.

    While the night runs, each seat that left has its own payments first
    (:func:`leaver_payments`), which can be marked paid before they go; the others'
    lines are what the rest would pay "if we stopped now", with those counted. Once it
    is over, the payments marked while it ran stand as they were paid, and the rest
    settle among themselves in the fewest payments with them counted: nobody pays twice.
    """
    players = seat_results(night, played.seats, {seat.pk: seat.points for seat in played.seats})
    seats = {seat.pk: seat for seat in played.seats}
    marks = list(
        Payment.objects.filter(night=night).select_related("marked_by").order_by("marked_at", "pk")
    )
    across = _across_payments(night, seats) if night.is_over else []
    left = {seat.pk for seat in played.seats if seat.last_round is not None}

    def leaver_of(payer: int, payee: int) -> Seat | None:
        if night.is_over:
            return None
        return seats[payer] if payer in left else seats[payee] if payee in left else None

    if night.is_over:
        # Paid while the night ran (a leaver's money): it stands as it was paid.
        fixed = [mark for mark in marks if night.ended_at and mark.marked_at < night.ended_at]
        plans: list[tuple[int, int, int, Seat]] = []
    else:
        fixed = marks
        done = {(mark.payer_id, mark.payee_id, mark.cents) for mark in marks}
        plans = [
            (payer, payee, cents, leaver)
            for leaver, lines in leaver_payments(night, played)
            for payer, payee, cents in lines
            if (payer, payee, cents) not in done
        ]
    balances = {player.seat.pk: player.cents for player in players}
    moved = [(m.payer_id, m.payee_id, m.cents) for m in fixed] + [p[:3] for p in plans]
    for payer, payee, cents in moved:
        balances[payer] += cents
        balances[payee] -= cents
    fixed_ids = {mark.pk for mark in fixed}
    marked = {(m.payer_id, m.payee_id, m.cents): m for m in marks if m.pk not in fixed_ids}

    raw: list[tuple[int, int, int, Payment | None, Seat | None]] = [
        (m.payer_id, m.payee_id, m.cents, m, leaver_of(m.payer_id, m.payee_id)) for m in fixed
    ]
    raw += [(payer, payee, cents, None, leaver) for payer, payee, cents, leaver in plans]
    raw += [(p, q, c, marked.get((p, q, c)), None) for p, q, c in settle(balances)]

    # What each seat still owes (or is owed) here once marks and payments across nights
    # are counted, as stored: the lines nobody marked take it in the settlement's order.
    owes = {seat.pk: max(0, -seat.unpaid_cents) for seat in played.seats}
    due = {seat.pk: max(0, seat.unpaid_cents) for seat in played.seats}
    payments = []
    for payer, payee, cents, mark, leaver in raw:
        open_cents = cents
        if mark is None and across:
            open_cents = min(cents, owes[payer], due[payee])
            owes[payer] -= open_cents
            due[payee] -= open_cents
        elsewhere: tuple[AcrossPayment, ...] = ()
        if mark is None and open_cents == cents:
            sides = (person_key(seats[payer]), person_key(seats[payee]))
            elsewhere = tuple(
                line for line in across if not line.here and (line.payer, line.payee) == sides
            )
        payments.append(
            PaymentLine(
                seats[payer], seats[payee], cents, mark, cents - open_cents, leaver, elsewhere
            )
        )
    return players, payments, across


def _across_payments(night: Night, seats: Mapping[int, Seat]) -> list[AcrossPayment]:
    """The payments across nights that squared some of ``night``, or were made since
    it ended between two of its players in its currency (two queries)."""
    people = {person_key(seat) for seat in seats.values()}
    parts_with_nights = TabPart.objects.select_related("seat", "seat__night")
    found = (
        TabPayment.objects.filter(group_id=night.group_id, currency=night.currency)
        .filter(Q(parts__seat__night=night) | Q(marked_at__gte=night.ended_at))
        .distinct()
        .prefetch_related(Prefetch("parts", queryset=parts_with_nights))
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
            paying = sorted(
                (part.seat for part in parts if part.cents > 0),
                key=lambda seat: (seat.night.started_at, seat.night_id),
            )
            paid = [part.seat for part in parts if part.cents < 0]
            across.append(
                AcrossPayment(
                    payment,
                    here,
                    payer=person_key(paying[0]) if paying else "",
                    payee=person_key(paid[0]) if paid else "",
                    nights=tuple(dict.fromkeys(seat.night for seat in paying)),
                )
            )
    return across
