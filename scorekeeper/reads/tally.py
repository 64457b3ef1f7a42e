"""The small rules every history read shares: who a seat is across nights, who won
a night, and money and points laid out per currency and per stake."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scorekeeper.models import Seat

Stake = tuple[str, int]  # (currency, cents a point)


def night_winners(seats: Iterable[Seat]) -> list[Seat]:
    """The seats of one night with the most points (more than one on a tie); nobody
    before anyone is ahead."""
    seats = list(seats)
    best = max((seat.points for seat in seats), default=0)
    return [seat for seat in seats if seat.points == best] if best > 0 else []


def money_lines(money: Mapping[str, int]) -> list[tuple[int, str]]:
    """``(cents, currency)`` for each currency, by its code."""
    return [(cents, currency) for currency, cents in sorted(money.items())]


def stake_lines(points: Mapping[Stake, int]) -> list[tuple[int, int, str]]:
    """``(points, cents a point, currency)`` for each stake played, lowest first."""
    return [
        (total, point_cents, currency) for (currency, point_cents), total in sorted(points.items())
    ]
