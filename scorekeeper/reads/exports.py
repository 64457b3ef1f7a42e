"""Every recorded round and entry of one night or of a whole group, as CSV or JSON.

Both formats hold the same facts; the JSON keeps the nesting (nights, their
seats and rounds, each round's entries), the CSV has one row per entry with
its night and round repeated.

Both are made as they are sent (``*_chunks``): the rounds a batch at a time, so a
long night's export starts at once and never sits whole in memory. Three queries
for the nights, their seats and their totals, then two per batch of rounds.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from datetime import datetime
from itertools import groupby

from django.db.models import Prefetch, QuerySet

from scorekeeper.models import Entry, Group, Night, Round
from scorekeeper.ofc import ROWS

EXPORT_VERSION = 1

CSV_COLUMNS = [
    "night",
    "started_at",
    "ended_at",
    "game",
    # The night's scoring system: 1-6, 2-4, 1-1-1, or "scoop S majority M" of its own.
    "scoring",
    "point_cents",
    "currency",
    # What a loser pays at most on the night, in the currency's minor unit; empty: no cap.
    "loss_cap_cents",
    "round",
    "dealer",
    "recorded_at",
    "seat",
    "points",
    "entered_by",
    "fantasyland_made",
    "fantasyland_stayed",
    # The cards of an entry set on the card page (canonical text); empty for a typed total.
    "top",
    "middle",
    "bottom",
]


ROUND_BATCH = 200


def _nights(nights: QuerySet[Night]) -> list[Night]:
    """The nights in the order they were played, each with its seats (their points
    as stored)."""
    return list(nights.order_by("started_at", "pk").prefetch_related("seats"))


def _rounds_by_night(nights: list[Night]) -> Iterator[tuple[Night, Iterator[Round]]]:
    """Each night with its recorded rounds in order, fetched ``ROUND_BATCH`` at a time."""
    entries = Entry.objects.select_related("seat", "entered_by").order_by("seat__position")
    recorded = (
        Round.objects.filter(night__in=nights, recorded_at__isnull=False)
        .select_related("dealer")
        .prefetch_related(Prefetch("entries", queryset=entries))
        .order_by("night__started_at", "night_id", "number")
    )

    def batches() -> Iterator[Round]:
        start = 0
        while batch := list(recorded[start : start + ROUND_BATCH]):
            yield from batch
            start += ROUND_BATCH

    stream = groupby(batches(), key=lambda round_: round_.night_id)
    current = next(stream, None)
    for night in nights:
        if current is not None and current[0] == night.pk:
            yield night, current[1]
            # The night's rounds must be read before the next night's come.
            current = next(stream, None)
        else:
            yield night, iter(())


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _round_data(round_: Round) -> dict:
    return {
        "number": round_.number,
        "dealer": round_.dealer.name,
        "recorded_at": _time(round_.recorded_at),
        "entries": [
            {
                "seat": entry.seat.name,
                "points": entry.points,
                "entered_by": entry.entered_by.name if entry.entered_by else None,
                "fantasyland_made": entry.fantasyland_made,
                "fantasyland_stayed": entry.fantasyland_stayed,
                "board": _board(entry.board),
            }
            for entry in round_.entries.all()
        ],
    }


def _night_head(night: Night) -> dict:
    """The night and its seats with their totals: all but its rounds."""
    seats = [
        {
            "name": seat.name,
            "position": seat.position,
            "guest": seat.is_guest,
            "first_round": seat.first_round,
            "last_round": seat.last_round,
            "points": seat.points,
        }
        for seat in night.seats.all()
    ]
    return {
        "id": night.pk,
        "started_at": _time(night.started_at),
        "ended_at": _time(night.ended_at),
        "game": night.game,
        "game_title": night.game_title,
        "rules": night.rules,
        # The house rules in full, whatever the night changed: the system and every amount.
        "scoring": _scoring(night),
        "royalties": night.game_rules.royalties.as_json(),
        "point_cents": night.point_cents,
        "currency": night.currency,
        "loss_cap_cents": night.loss_cap_cents,
        "seats": seats,
    }


def _group_head(group: Group) -> dict:
    return {
        "format": "ofcboard",
        "version": EXPORT_VERSION,
        "group": {"id": group.pk, "name": group.name, "currency": group.currency},
    }


def _scoring(night: Night) -> dict:
    scoring = night.game_rules.scoring
    system = scoring.name or f"scoop {scoring.scoop} majority {scoring.majority}"
    return {"system": system, **scoring.as_json()}


def _open(data: dict, key: str) -> str:
    """``data`` as JSON, left open at a last key ``key`` whose list follows."""
    return json.dumps(data, ensure_ascii=False)[:-1] + f', "{key}": ['


def export_json_chunks(group: Group, nights: QuerySet[Night]) -> Iterator[str]:
    """The group and its nights, each with its rounds, as one JSON document, made a
    round at a time."""
    yield _open(_group_head(group), "nights")
    for night_index, (night, rounds) in enumerate(_rounds_by_night(_nights(nights))):
        yield ("," if night_index else "") + _open(_night_head(night), "rounds")
        for round_index, round_ in enumerate(rounds):
            yield ("," if round_index else "") + json.dumps(_round_data(round_), ensure_ascii=False)
        yield "]}"
    yield "]}"


def _cell(text: str | None) -> str:
    """A name as a spreadsheet cell: never read as a formula."""
    text = text or ""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _board(board: dict[str, list[str]] | None) -> dict[str, list[str]] | None:
    # Top, middle, bottom, as a board is read: PostgreSQL's jsonb keeps keys in an
    # order of its own (shortest first), so the stored dict's order is not the table's.
    return {row.value: board[row.value] for row in ROWS} if board else None


def _rows(board: dict[str, list[str]] | None) -> list[str]:
    return [" ".join(board[row.value]) if board else "" for row in ROWS]


def export_csv_chunks(group: Group, nights: QuerySet[Night]) -> Iterator[str]:
    """One row per entry, in the order the rounds were played, a batch of rows at a time."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for night, rounds in _rounds_by_night(_nights(nights)):
        for number, round_ in enumerate(rounds, start=1):
            for entry in round_.entries.all():
                writer.writerow(
                    [
                        night.pk,
                        _time(night.started_at),
                        _time(night.ended_at) or "",
                        night.game,
                        _scoring(night)["system"],
                        night.point_cents,
                        night.currency,
                        "" if night.loss_cap_cents is None else night.loss_cap_cents,
                        round_.number,
                        _cell(round_.dealer.name),
                        _time(round_.recorded_at),
                        _cell(entry.seat.name),
                        entry.points,
                        _cell(entry.entered_by.name if entry.entered_by else None),
                        entry.fantasyland_made,
                        "yes" if entry.fantasyland_stayed else "",
                        *_rows(entry.board),
                    ]
                )
            if number % 50 == 0:
                yield out.getvalue()
                out.seek(0)
                out.truncate()
    yield out.getvalue()
