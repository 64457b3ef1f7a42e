"""What is still owed across a group's finished nights, as the pages show it: the
group's owed list, a night's settlement with earlier nights folded in, and the latest
payments across nights. What is owed itself is worked out by
:mod:`scorekeeper.models.owed`, which the payments' checks use too, so a page and
the check of its button can never disagree.

Reads only, in a fixed number of queries however many nights and rounds there are.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Prefetch

from scorekeeper.models import Group, Night, User
from scorekeeper.models.owed import (
    HalfPaidAcross,
    Owed,
    OwedPayment,
    Person,
    finished_nights,
    folded_nights,
    owed_in,
)
from scorekeeper.models.payments import TabPart, TabPayment


@dataclass(frozen=True)
class PaidLine:
    """A payment across nights someone marked, and whether the reader may take it back."""

    payment: TabPayment
    undoable: bool


def paid_across_nights(group: Group, reader: User, *, most: int = 10) -> list[PaidLine]:
    """The group's latest payments across nights, newest first (two queries)."""
    payments = (
        group.tab_payments.select_related("marked_by")
        .prefetch_related(Prefetch("parts", queryset=TabPart.objects.select_related("seat")))
        .order_by("-marked_at", "-pk")[:most]
    )
    return [PaidLine(payment, payment.may_be_undone_by(reader)) for payment in payments]


def owed_across_nights(group: Group) -> Owed:
    """What is still owed across all of ``group``'s finished nights (four queries)."""
    return owed_in(group, finished_nights(group))


@dataclass(frozen=True)
class EarlierLine:
    person: Person
    cents: int  # still owed to them (+) or by them (-) from earlier nights


@dataclass(frozen=True)
class Folded:
    """A night's settlement with what is still owed from earlier nights folded in."""

    owed: Owed
    earlier: list[EarlierLine]  # people with something left from earlier nights

    @property
    def payments(self) -> list[OwedPayment]:
        return self.owed.payments


def folded_settlement(night: Night) -> Folded | None:
    """``night``'s settlement together with what earlier nights still owe (four
    queries), or None when a payment across nights cleared a night after it too."""
    try:
        owed = owed_in(night.group, folded_nights(night))
    except HalfPaidAcross:
        return None
    earlier: dict[str, int] = defaultdict(int)
    for line in owed.seats:
        if line.seat.night_id != night.pk:
            earlier[line.person] += line.cents
    lines = [EarlierLine(owed.people[key], cents) for key, cents in earlier.items() if cents]
    return Folded(owed=owed, earlier=lines)
