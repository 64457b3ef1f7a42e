"""Nights read from a file kept as plain lists in a signed token between the preview
and its confirmation, and checked again when read back (:func:`adds_up`)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

from scorekeeper.table.names import look_alike_key
from scorekeeper.table.night_extras import Extras
from scorekeeper.table.spreadsheet.limits import MAX_HAND_POINTS
from scorekeeper.table.spreadsheet.sheet import SheetNight


def to_data(nights: Iterable[SheetNight]) -> list[list[Any]]:
    """The nights as plain lists, for a signed token (:func:`from_data` reads them).

    >>> from scorekeeper.table.spreadsheet.reading import read_sheet
    >>> night = read_sheet(b"date,name,points\\n2024-03-07,Anna,3\\n2024-03-07,Bram,-3\\n",
    ...     currency="EUR", point_cents=10, games={}).nights[0]
    >>> from_data(to_data([night])) == [night]
    True
    """
    return [
        [
            night.day.isoformat(),
            night.started.isoformat() if night.started else "",
            night.ended.isoformat() if night.ended else "",
            night.game,
            night.point_cents,
            night.currency,
            list(night.players),
            [list(hand) for hand in night.rounds],
            [list(claims) for claims in night.fantasylands],
            list(night.dealers),
            night.first_line,
            night.last_line,
            night.scoring,
            night.loss_cap_cents,
            night.extras.to_data() if night.extras else None,
        ]
        for night in nights
    ]


def from_data(data: list[list[Any]]) -> list[SheetNight]:
    """The nights :func:`to_data` wrote."""
    return [
        SheetNight(
            day=date.fromisoformat(day),
            started=datetime.fromisoformat(started) if started else None,
            ended=datetime.fromisoformat(ended) if ended else None,
            game=game,
            point_cents=int(point_cents),
            currency=currency,
            players=tuple(players),
            rounds=tuple(tuple(hand) for hand in rounds),
            fantasylands=tuple(tuple(claims) for claims in fantasylands),
            dealers=tuple(dealers),
            first_line=first,
            last_line=last,
            scoring=dict(scoring) if scoring else None,
            loss_cap_cents=int(loss_cap) if loss_cap is not None else None,
            extras=Extras.from_data(extras) if extras else None,
        )
        for (
            day,
            started,
            ended,
            game,
            point_cents,
            currency,
            players,
            rounds,
            fantasylands,
            dealers,
            first,
            last,
            scoring,
            loss_cap,
            extras,
        ) in data
    ]


def adds_up(night: SheetNight) -> bool:
    """Whether every round of ``night`` adds up to zero with every hand in range and a
    claim for each hand: what a night read again from a token is checked for.

    >>> adds_up(SheetNight(date(2024, 3, 7), None, None, "", 10, "EUR", ("A", "B"),
    ...     ((3, -3),), (("", ""),), (None,)))
    True
    """
    size = len(night.players)
    return (
        # A night of the JSON export may have no round: it ended before one went through.
        (bool(night.rounds) or night.extras is not None)
        and (night.extras is None or night.extras.fits(size, len(night.rounds)))
        and night.point_cents > 0
        and len(night.fantasylands) == len(night.rounds) == len(night.dealers)
        and all(
            len(hand) == size
            and sum(value or 0 for value in hand) == 0
            and all(value is None or abs(value) <= MAX_HAND_POINTS for value in hand)
            for hand in night.rounds
        )
        and len({look_alike_key(name) for name in night.players}) == size
    )
