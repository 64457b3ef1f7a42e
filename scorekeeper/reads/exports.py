"""Every recorded round and entry of one night or of a whole group, as CSV or JSON.

Both formats hold the same facts; the JSON keeps the nesting (nights, their
seats and rounds, each round's entries), the CSV has one row per entry with
its night and round repeated. Four queries, however many nights and rounds.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime

from django.db.models import Prefetch, QuerySet

from scorekeeper.models import Entry, Group, Night, Round

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


def _with_rounds(nights: QuerySet[Night]) -> list[Night]:
    entries = Entry.objects.select_related("seat", "entered_by").order_by("seat__position")
    rounds = (
        Round.objects.filter(recorded_at__isnull=False)
        .select_related("dealer")
        .prefetch_related(Prefetch("entries", queryset=entries))
        .order_by("number")
    )
    return list(
        nights.order_by("started_at", "pk").prefetch_related(
            "seats", Prefetch("rounds", queryset=rounds)
        )
    )


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _night_data(night: Night) -> dict:
    totals: dict[int, int] = {}
    rounds = []
    for round_ in night.rounds.all():
        entries = []
        for entry in round_.entries.all():
            totals[entry.seat_id] = totals.get(entry.seat_id, 0) + entry.points
            entries.append(
                {
                    "seat": entry.seat.name,
                    "points": entry.points,
                    "entered_by": entry.entered_by.name if entry.entered_by else None,
                    "fantasyland_made": entry.fantasyland_made,
                    "fantasyland_stayed": entry.fantasyland_stayed,
                    "board": entry.board,
                }
            )
        rounds.append(
            {
                "number": round_.number,
                "dealer": round_.dealer.name,
                "recorded_at": _time(round_.recorded_at),
                "entries": entries,
            }
        )
    seats = [
        {
            "name": seat.name,
            "position": seat.position,
            "guest": seat.is_guest,
            "first_round": seat.first_round,
            "last_round": seat.last_round,
            "points": totals.get(seat.pk, 0),
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
        "rounds": rounds,
    }


def _scoring(night: Night) -> dict:
    scoring = night.game_rules.scoring
    system = scoring.name or f"scoop {scoring.scoop} majority {scoring.majority}"
    return {"system": system, **scoring.as_json()}


def export_data(group: Group, nights: QuerySet[Night]) -> dict:
    """The nights as plain data, ready for ``json.dumps``."""
    return {
        "format": "ofcboard",
        "version": EXPORT_VERSION,
        "group": {"id": group.pk, "name": group.name, "currency": group.currency},
        "nights": [_night_data(night) for night in _with_rounds(nights)],
    }


def export_json(group: Group, nights: QuerySet[Night]) -> str:
    return json.dumps(export_data(group, nights), ensure_ascii=False, indent=2)


def _cell(text: str | None) -> str:
    """A name as a spreadsheet cell: never read as a formula."""
    text = text or ""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _rows(board: dict[str, list[str]] | None) -> list[str]:
    return [" ".join(board[row]) if board else "" for row in ("top", "middle", "bottom")]


def export_csv(group: Group, nights: QuerySet[Night]) -> str:
    """One row per entry, in the order the rounds were played."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for night in export_data(group, nights)["nights"]:
        for round_ in night["rounds"]:
            for entry in round_["entries"]:
                writer.writerow(
                    [
                        night["id"],
                        night["started_at"],
                        night["ended_at"] or "",
                        night["game"],
                        night["scoring"]["system"],
                        night["point_cents"],
                        night["currency"],
                        round_["number"],
                        _cell(round_["dealer"]),
                        round_["recorded_at"],
                        _cell(entry["seat"]),
                        entry["points"],
                        _cell(entry["entered_by"]),
                        entry["fantasyland_made"],
                        "yes" if entry["fantasyland_stayed"] else "",
                        *_rows(entry["board"]),
                    ]
                )
    return out.getvalue()
