"""Every stored figure worked out again from the rows it comes from.

Two kinds of figure are stored so that pages need not work them out on every load:
each seat's money (:func:`scorekeeper.services.money.store_money`: points, hands,
Fantasylands, money after the loss cap, what is still unpaid) and each board's result
(:func:`scorekeeper.services.card_results.store_card_results`). Both come from rows
that are kept as they are (entries, rounds, nights, payments), so they can always be
thrown away and made again: :func:`rebuild_stored_figures` does that, with the same
two functions the door stores them with. ``manage.py rebuild`` runs it, and so do
``restore`` and a group's import, for what they loaded: a backup made by a version
that stored fewer figures (or none) reads as that version showed it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import transaction

from scorekeeper.models import Entry, Night, Seat
from scorekeeper.services.card_results import Tables as CardTables
from scorekeeper.services.card_results import store_card_results
from scorekeeper.services.locks import figures_change
from scorekeeper.services.money import STORED, store_money

# Nights worked out together, and rounds scored together: a few queries per batch.
NIGHTS_AT_ONCE = 200
ROUNDS_AT_ONCE = 500


@dataclass(frozen=True)
class Rebuilt:
    """What a rebuild went over, and how many stored figures it found different."""

    nights: int = 0
    seats: int = 0
    boards: int = 0  # entries with cards, in recorded rounds or not
    seats_changed: int = 0
    entries_changed: int = 0


@transaction.atomic
def rebuild_stored_figures(night_ids: Iterable[int] | None = None) -> Rebuilt:
    """Work out and store again every seat's money and every board's result of the
    nights ``night_ids`` (all nights when None), in one transaction: a few queries
    per 200 nights, and one more per 500 rounds with cards.

    It goes through its door (:func:`~scorekeeper.services.locks.figures_change`),
    which locks the groups and then the nights, and, after commit, tells the phones of
    each night whose figures were different (and only those)."""
    nights = Night.objects.all()
    if night_ids is not None:
        nights = nights.filter(pk__in=set(night_ids))
    totals = {"nights": 0, "seats": 0, "boards": 0, "seats_changed": 0, "entries_changed": 0}
    with figures_change(nights) as (ids, touched):
        totals["nights"] = len(ids)
        for start in range(0, len(ids), NIGHTS_AT_ONCE):
            batch = ids[start : start + NIGHTS_AT_ONCE]
            before = _seat_figures(batch)
            store_money(batch)
            after = _seat_figures(batch)
            different = [key for key, figures in after.items() if before[key] != figures]
            totals["seats"] += len(after)
            totals["seats_changed"] += len(different)
            cards = rebuild_card_results(batch)
            totals["boards"] += cards.boards
            totals["entries_changed"] += cards.entries_changed
            touched.changed_pages({night_id for night_id, _seat in different})
            touched.changed_pages(cards.nights_changed)
    return Rebuilt(**totals)


class CardsRebuilt(NamedTuple):
    boards: int  # entries with cards
    entries_changed: int  # whose stored result was different
    nights_changed: set[int]  # the nights of those entries


def rebuild_card_results(night_ids: list[int], tables: CardTables | None = None) -> CardsRebuilt:
    """Store again the result of every board of the nights ``night_ids`` (with
    ``tables``: a migration's models), and clear any result on an entry without cards."""
    entry = (tables or CardTables(entry=Entry)).entry
    of_nights = entry.objects.filter(round__night_id__in=night_ids)
    # A result on an entry with no cards is nobody's: store_card_results never looks.
    stray = of_nights.filter(board__isnull=True, card_result__isnull=False)
    changed = dict(stray.values_list("pk", "round__night_id"))
    stray.update(card_result=None)
    with_boards = of_nights.filter(board__isnull=False)
    results = with_boards.values_list("pk", "card_result", "round__night_id")
    before = {pk: result for pk, result, _night in results}
    round_ids = sorted(set(with_boards.values_list("round_id", flat=True)))
    for start in range(0, len(round_ids), ROUNDS_AT_ONCE):
        store_card_results(round_ids[start : start + ROUNDS_AT_ONCE], tables)
    after = list(results.all())  # read again
    changed |= {pk: night for pk, result, night in after if before[pk] != result}
    return CardsRebuilt(len(after), len(changed), set(changed.values()))


def _seat_figures(night_ids: list[int]) -> dict[tuple[int, int], tuple[Any, ...]]:
    """Each seat's stored figures, by (its night, the seat)."""
    seats = Seat.objects.filter(night_id__in=night_ids)
    return {(row[0], row[1]): row[2:] for row in seats.values_list("night_id", "pk", *STORED)}


def fill_card_results_after_migrate(
    sender: Any, plan: Any = None, apps: Any = None, **kwargs: Any
) -> None:
    """``post_migrate``: once migration 0014 (which adds ``Entry.card_result`` and fills
    nothing) was applied by this ``migrate``, score every recorded board with the
    migrated models. The engine is not frozen into the migration: a board's result is
    what the engine of the installed version says of its cards, as a rebuild would."""
    if not plan or apps is None:
        return
    applied = {
        (migration.app_label, migration.name) for migration, backwards in plan if not backwards
    }
    if ("scorekeeper", "0014_entry_card_result") not in applied:
        return
    entry = apps.get_model("scorekeeper", "Entry")
    if not any(field.name == "card_result" for field in entry._meta.get_fields()):
        return  # migrated on past it to a state without the field
    night = apps.get_model("scorekeeper", "Night")
    ids = list(night.objects.order_by("pk").values_list("pk", flat=True))
    with transaction.atomic():
        for start in range(0, len(ids), NIGHTS_AT_ONCE):
            rebuild_card_results(ids[start : start + NIGHTS_AT_ONCE], CardTables(entry=entry))
