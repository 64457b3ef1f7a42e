"""What is still owed across a group's finished nights, in the fewest payments: what
the group page shows and what a payment across nights is checked against.

A night's settlement payment that nobody marked paid stays owed. Each seat's
outstanding amount is its night's money (after that night's loss cap) less what
was marked paid on that night and what payments across nights cleared of it, as
stored (``Seat.unpaid_cents``, :mod:`scorekeeper.services.money`). A person is the
same across nights (:func:`scorekeeper.table.people.person_key`). Their outstanding
amounts add up, per currency, and :func:`scorekeeper.table.settlement.settle` makes
the fewest payments of them: money, never points, so nights at 50 ct and at 10 ct a
point add up as they should. In a fixed number of queries however many nights and
rounds there are.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Max, Q, QuerySet
from django.utils.translation import gettext_lazy

from scorekeeper.i18n import money_input
from scorekeeper.models.groups import Group
from scorekeeper.models.nights import Night, Seat
from scorekeeper.models.payments import Payment, TabPart
from scorekeeper.table.people import person_key
from scorekeeper.table.settlement import settle


@dataclass(frozen=True)
class Person:
    key: str
    name: str
    left: bool  # a member who has left the group: what they owe or are owed stays


@dataclass(frozen=True)
class SeatOwed:
    """What one seat's night still comes to: + they are owed, - they owe."""

    seat: Seat
    person: str  # its person_key
    cents: int


@dataclass(frozen=True)
class OwedPayment:
    payer: Person
    payee: Person
    cents: int
    currency: str

    @property
    def amount_input(self) -> str:
        """The amount as the form's field takes it back, in the currency's own digits:
        "4.30" ("4,30" in Dutch), "500" for ¥500."""
        return money_input(self.cents, self.currency)


@dataclass(frozen=True)
class Owed:
    """The outstanding amounts of some finished nights and the payments that square them."""

    seats: list[SeatOwed]  # oldest night first, then by seat position
    people: dict[str, Person]
    payments: list[OwedPayment]  # per currency (the group's first), largest first
    # Changes whenever anything is paid or a night is added: a form carries it so a
    # second tap on the same button is known for what it is.
    fingerprint: str

    def balance(self, key: str, currency: str) -> int:
        return sum(
            line.cents
            for line in self.seats
            if line.person == key and line.seat.night.currency == currency
        )

    def find(self, payer: str, payee: str, currency: str) -> OwedPayment | None:
        for payment in self.payments:
            if (payment.payer.key, payment.payee.key, payment.currency) == (
                payer,
                payee,
                currency,
            ):
                return payment
        return None


def _seats(nights: QuerySet[Night]) -> list[Seat]:
    return list(
        Seat.objects.filter(night__in=nights)
        .select_related("night", "user")
        .order_by("night__started_at", "night_id", "position")
    )


CANNOT_FOLD = gettext_lazy(
    "This night's settlement cannot include the earlier nights now: a payment across "
    "nights also paid off a night after this one. What is still owed is on the group page."
)


class HalfPaidAcross(ValueError):
    """The nights asked for do not add up to zero: a payment across nights cleared
    some of them and some nights outside them (a later night, for a night's folded
    settlement), so who pays whom cannot be worked out from them alone."""


def owed_in(group: Group, nights: QuerySet[Night]) -> Owed:
    """What is still owed from ``nights`` (of ``group``) and who pays whom (four
    queries); :class:`HalfPaidAcross` when they do not add up to zero."""
    seats = _seats(nights)
    # The latest mark and payment across nights: a payment taken back and made again
    # with the same amounts still changes the fingerprint.
    last_marks = Payment.objects.filter(night__in=nights).aggregate(last=Max("pk"))["last"]
    last_tab = TabPart.objects.filter(seat__night__in=nights).aggregate(last=Max("payment"))["last"]

    left = set(group.memberships.former().values_list("user_id", flat=True))
    people: dict[str, Person] = {}
    balances: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    lines = []
    for seat in seats:
        key = person_key(seat)
        if key not in people:
            name = seat.user.name if seat.user else seat.name
            people[key] = Person(key=key, name=name, left=seat.user_id in left)
        cents = seat.unpaid_cents
        lines.append(SeatOwed(seat=seat, person=key, cents=cents))
        balances[seat.night.currency][key] += cents

    if any(sum(people_cents.values()) for people_cents in balances.values()):
        raise HalfPaidAcross(group.pk)
    payments = []
    currencies = sorted(balances, key=lambda currency: (currency != group.currency, currency))
    for currency in currencies:
        for payer, payee, cents in settle(balances[currency]):
            payments.append(OwedPayment(people[payer], people[payee], cents, currency))
    state = repr(
        (last_marks, last_tab, [(p.payer.key, p.payee.key, p.cents, p.currency) for p in payments])
    )
    fingerprint = hashlib.sha256(state.encode()).hexdigest()[:32]
    return Owed(seats=lines, people=people, payments=payments, fingerprint=fingerprint)


def finished_nights(group: Group) -> QuerySet[Night]:
    return group.nights.filter(ended_at__isnull=False)


def folded_nights(night: Night) -> QuerySet[Night]:
    """``night`` and the finished nights of its group before it, in its currency:
    what "settle everything tonight" squares."""
    earlier = finished_nights(night.group).filter(
        Q(started_at__lt=night.started_at) | Q(started_at=night.started_at, pk__lt=night.pk),
        currency=night.currency,
    )
    return Night.objects.filter(Q(pk=night.pk) | Q(pk__in=earlier.values("pk")))
