"""Each seat's money, stored: the one place where a seat's points, its money after
the night's loss cap and what is still unpaid of it are worked out and written.

The history, the records, what is owed, the exports and the player pages read the
stored figures instead of summing every entry and applying every night's loss cap
again on each page. They are rewritten here only: by the door every night change goes
through (:func:`scorekeeper.services.locks.night_change`: recording, fixing or undoing
a round, ending or reopening the night, marking a night's payment), and by the
payments across nights, which change several nights' unpaid money at once.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, Sum

from scorekeeper.table.settlement import night_money

STORED = ["points", "rounds_played", "fantasylands", "cents", "unpaid_cents"]


@dataclass(frozen=True)
class Tables:
    """The models read and written: the app's own, or a migration's historical ones."""

    seat: Any
    entry: Any
    payment: Any
    tab_part: Any


def app_tables() -> Tables:
    from scorekeeper.models import Entry, Payment, Seat
    from scorekeeper.models.payments import TabPart

    return Tables(seat=Seat, entry=Entry, payment=Payment, tab_part=TabPart)


def store_money(night_ids: Iterable[int], tables: Tables | None = None) -> None:
    """Work out and store every seat's figures on the nights ``night_ids``: points,
    hands played and Fantasylands made over the recorded rounds, money after the loss
    cap, and that money less what was paid (three queries, four on a night someone left
    or came back to, whose marks are read while it runs, five once a night is over,
    however many nights, and one more when any seat's figures changed)."""
    tables = tables or app_tables()
    night_ids = set(night_ids)
    if not night_ids:
        return
    seats = list(tables.seat.objects.filter(night_id__in=night_ids).select_related("night"))
    recorded = Q(round__recorded_at__isnull=False)
    played = {
        row["seat_id"]: row
        for row in tables.entry.objects.filter(recorded, seat__night_id__in=night_ids)
        .values("seat_id")
        .annotate(
            total=Sum("points"),
            hands=Count("pk"),
            made=Count("pk", filter=~Q(fantasyland_made="")),
        )
    }
    paid: dict[int, int] = defaultdict(int)
    # Payments are marked on finished nights, and while a night runs only for a seat
    # that left (its seat has a last round, or a first round after 1 once it came
    # back): a round saved on a night nobody left reads none.
    finished = {seat.night_id for seat in seats if seat.night.ended_at is not None}
    marked = finished | {
        seat.night_id for seat in seats if seat.last_round is not None or seat.first_round > 1
    }
    if marked:
        marks = tables.payment.objects.filter(night_id__in=marked)
        for payer, payee, cents in marks.values_list("payer_id", "payee_id", "cents"):
            paid[payer] += cents
            paid[payee] -= cents
    if finished:
        parts = tables.tab_part.objects.filter(seat__night_id__in=finished)
        for seat_id, cents in parts.values_list("seat_id", "cents"):
            paid[seat_id] += cents

    by_night: dict[int, list[Any]] = defaultdict(list)
    for seat in seats:
        by_night[seat.night_id].append(seat)
    changed = []
    for night_seats in by_night.values():
        night = night_seats[0].night
        points = {seat.pk: played.get(seat.pk, {}).get("total") or 0 for seat in night_seats}
        cents = night_money(points, night.point_cents, night.loss_cap_cents).balances
        for seat in night_seats:
            row = played.get(seat.pk, {})
            figures = (
                points[seat.pk],
                row.get("hands", 0),
                row.get("made", 0),
                cents[seat.pk],
                cents[seat.pk] + paid[seat.pk],
            )
            # A save that records nothing (a player's total before the round adds up)
            # leaves every seat as it was, and writes none of them.
            if figures != tuple(getattr(seat, field) for field in STORED):
                for field, value in zip(STORED, figures, strict=True):
                    setattr(seat, field, value)
                changed.append(seat)
    if changed:
        tables.seat.objects.bulk_update(changed, STORED)
