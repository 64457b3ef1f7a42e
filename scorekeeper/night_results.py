"""What the nights came to: the settlement, the chart, and the history tables.

Reads only, each in a fixed number of queries however many rounds and nights
there are. Money is whole cents: points times the night's point value, then
the loss cap if the night has one, then ``settle`` for the payments.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.db.models import Count, IntegerField, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from scorekeeper.chart import ChartSeries, running_totals_svg
from scorekeeper.models import Entry, Group, Night, Payment, Round, Seat, User
from scorekeeper.settlement import apply_loss_cap, settle
from scorekeeper.templatetags.ofc import money, signed

RECORDED = Q(entries__round__recorded_at__isnull=False)


# --- one night: balances, payments, chart ---------------------------------------


@dataclass(frozen=True)
class PlayerResult:
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

    @property
    def is_paid(self) -> bool:
        return self.marked is not None


@dataclass(frozen=True)
class NightResults:
    night: Night
    rounds: int
    players: list[PlayerResult]  # most points first
    payments: list[PaymentLine]
    chart: SafeString

    @property
    def capped(self) -> list[PlayerResult]:
        return [player for player in self.players if player.forgiven]

    @property
    def reduced(self) -> list[PlayerResult]:
        return [player for player in self.players if player.reduced]

    @property
    def all_paid(self) -> bool:
        return all(line.is_paid for line in self.payments)


@dataclass(frozen=True)
class _Played:
    """A night's seats and every recorded entry: all a settlement and a chart need."""

    seats: list[Seat]
    numbers: list[int]  # recorded round numbers, in order
    points: dict[int, dict[int, int]]  # seat id -> {round number: points}

    def total(self, seat: Seat) -> int:
        return sum(self.points.get(seat.pk, {}).values())


def _played(night: Night) -> _Played:
    seats = list(night.seats.select_related("user"))
    points: dict[int, dict[int, int]] = defaultdict(dict)
    numbers: set[int] = set()
    recorded = Entry.objects.filter(round__night=night, round__recorded_at__isnull=False)
    for seat_id, number, value in recorded.values_list("seat_id", "round__number", "points"):
        points[seat_id][number] = value
        numbers.add(number)
    return _Played(seats=seats, numbers=sorted(numbers), points=dict(points))


def _chart(night: Night, played: _Played) -> SafeString:
    series = []
    for seat in played.seats:
        running, line = 0, []
        for number in played.numbers:
            if seat.last_round is not None and number > seat.last_round:
                break  # they left: their line stops here
            running += played.points.get(seat.pk, {}).get(number, 0)
            line.append(running)
        series.append(ChartSeries(seat.name, line))
    # chart.py escapes every name it writes, so the markup is safe to output as is.
    return mark_safe(running_totals_svg(series, rounds=len(played.numbers), format_total=signed))


def night_chart(night: Night) -> SafeString:
    """Each player's running total, round by round, as inline SVG (two queries).

    Empty before the first round goes through: the night page has nothing to show yet.
    """
    played = _played(night)
    return _chart(night, played) if played.numbers else mark_safe("")


def _players(night: Night, seats: Iterable[Seat], totals: Mapping[int, int]) -> list[PlayerResult]:
    """Points into cents, with the loss cap when the night has one."""
    seats = list(seats)
    balances = {seat.pk: totals.get(seat.pk, 0) * night.point_cents for seat in seats}
    final, forgiven, reduced = balances, {}, {}
    if night.loss_cap_cents:
        capped = apply_loss_cap(balances, night.loss_cap_cents)
        final, forgiven, reduced = capped.balances, capped.forgiven, capped.reduced
    players = [
        PlayerResult(
            seat=seat,
            points=totals.get(seat.pk, 0),
            cents=final[seat.pk],
            uncapped_cents=balances[seat.pk],
            forgiven=forgiven.get(seat.pk, 0),
            reduced=reduced.get(seat.pk, 0),
        )
        for seat in seats
    ]
    return sorted(players, key=lambda player: (-player.points, player.seat.position))


def night_results(night: Night) -> NightResults:
    """The settlement "if we stopped now": four queries, whatever the night's length."""
    played = _played(night)
    totals = {seat.pk: played.total(seat) for seat in played.seats}
    players = _players(night, played.seats, totals)
    seats = {seat.pk: seat for seat in played.seats}
    marked = {
        (payment.payer_id, payment.payee_id, payment.cents): payment
        for payment in Payment.objects.filter(night=night).select_related("marked_by")
    }
    payments = [
        PaymentLine(seats[payer], seats[payee], cents, marked.get((payer, payee, cents)))
        for payer, payee, cents in settle({player.seat.pk: player.cents for player in players})
    ]
    return NightResults(
        night=night,
        rounds=len(played.numbers),
        players=players,
        payments=payments,
        chart=_chart(night, played),
    )


def settlement_payments(night: Night) -> list[tuple[int, int, int]]:
    """The night's payments as ``(payer seat id, payee seat id, cents)`` (two queries)."""
    played = _played(night)
    totals = {seat.pk: played.total(seat) for seat in played.seats}
    players = _players(night, played.seats, totals)
    return settle({player.seat.pk: player.cents for player in players})


def share_text(results: NightResults) -> str:
    """The settlement as plain text for the group chat."""
    night = results.night
    started = timezone.localtime(night.started_at)
    rounds = f"{results.rounds} round{'s' if results.rounds != 1 else ''}"
    per_point = money(night.point_cents, night.currency)
    lines = [
        f"{night.group.name} · {started:%a} {started.day} {started:%b} · {night.game_title}",
        f"{rounds} · {per_point}/pt" + ("" if night.is_over else " · still playing"),
        "",
    ]
    lines += [
        f"{player.seat.name} {signed(player.points)} {money(player.cents, night.currency)}"
        for player in results.players
    ]
    for player in results.capped:
        lines.append(
            f"{player.seat.name} capped at {money(night.loss_cap_cents, night.currency)}"
            f" ({money(player.forgiven, night.currency)} not paid)"
        )
    lines.append("")
    if results.payments:
        lines += [
            f"{line.payer.name} → {line.payee.name} {money(line.cents, night.currency)}"
            + (" ✓ paid" if line.is_paid else "")
            for line in results.payments
        ]
    else:
        lines.append("Nobody owes anything.")
    return "\n".join(lines)


# --- history: the group's nights, the table, one player's nights ------------------


def _with_totals(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """Seats with their points, rounds played and Fantasylands made, in one query."""
    return seats.annotate(
        total=Coalesce(
            Sum("entries__points", filter=RECORDED), Value(0), output_field=IntegerField()
        ),
        rounds_played=Count("entries", filter=RECORDED),
        fantasylands=Count("entries", filter=RECORDED & ~Q(entries__fantasyland_made="")),
    )


@dataclass(frozen=True)
class NightSummary:
    night: Night
    players: list[Seat]  # in seat order
    rounds: int
    winners: list[Seat]  # most points, more than one on a tie; empty before any points

    @property
    def winning_points(self) -> int:
        return self.winners[0].total if self.winners else 0


def night_summaries(group: Group, nights: list[Night]) -> list[NightSummary]:
    """Date, game, players and winner of each of ``nights`` (two queries)."""
    by_night: dict[int, list[Seat]] = defaultdict(list)
    for seat in _with_totals(Seat.objects.filter(night__group=group)).order_by("position"):
        by_night[seat.night_id].append(seat)
    rounds = dict(
        Round.objects.filter(night__group=group, recorded_at__isnull=False)
        .values("night")
        .annotate(count=Count("pk"))
        .values_list("night", "count")
    )
    summaries = []
    for night in nights:
        seats = by_night.get(night.pk, [])
        best = max((seat.total for seat in seats), default=0)
        winners = [seat for seat in seats if seat.total == best] if best > 0 else []
        summaries.append(NightSummary(night, seats, rounds.get(night.pk, 0), winners))
    return summaries


def _finished_seats(group: Group) -> QuerySet[Seat]:
    return _with_totals(
        Seat.objects.filter(night__group=group, night__ended_at__isnull=False)
    ).select_related("night", "user")


def _money_by_seat(seats: list[Seat]) -> dict[int, int]:
    """Each seat's cents for its night, after that night's loss cap."""
    by_night: dict[int, list[Seat]] = defaultdict(list)
    for seat in seats:
        by_night[seat.night_id].append(seat)
    cents = {}
    for night_seats in by_night.values():
        night = night_seats[0].night
        totals = {seat.pk: seat.total for seat in night_seats}
        for player in _players(night, night_seats, totals):
            cents[player.seat.pk] = player.cents
    return cents


@dataclass
class TableRow:
    """One player across the group's finished nights; a guest is known by name."""

    name: str
    user: User | None
    left: bool = False
    nights: int = 0
    rounds: int = 0
    fantasylands: int = 0
    points: int = 0
    money: dict[str, int] = field(default_factory=dict)  # currency -> cents

    @property
    def money_lines(self) -> list[tuple[int, str]]:
        return [(cents, currency) for currency, cents in sorted(self.money.items())]


def group_table(group: Group) -> list[TableRow]:
    """Everyone who played a finished night of ``group``, most points first (two queries).

    Members who left the group keep their row, marked ``left``.
    """
    seats = list(_finished_seats(group))
    cents = _money_by_seat(seats)
    left = set(group.memberships.filter(left_at__isnull=False).values_list("user_id", flat=True))
    rows: dict[object, TableRow] = {}
    for seat in seats:
        key = seat.user_id or f"guest:{seat.name.lower()}"
        if key not in rows:
            name = seat.user.name if seat.user else seat.name
            rows[key] = TableRow(name=name, user=seat.user, left=seat.user_id in left)
        row = rows[key]
        row.nights += 1
        row.rounds += seat.rounds_played
        row.fantasylands += seat.fantasylands
        row.points += seat.total
        row.money[seat.night.currency] = row.money.get(seat.night.currency, 0) + cents[seat.pk]
    return sorted(rows.values(), key=lambda row: (-row.points, row.name.lower()))


@dataclass(frozen=True)
class PlayerNight:
    night: Night
    seat: Seat
    points: int
    cents: int
    place: int  # 1 for the night's most points; equal points share a place
    players: int


@dataclass(frozen=True)
class PlayerHistory:
    user: User
    nights: list[PlayerNight]  # newest first

    @property
    def points(self) -> int:
        return sum(line.points for line in self.nights)

    @property
    def money_lines(self) -> list[tuple[int, str]]:
        totals: dict[str, int] = defaultdict(int)
        for line in self.nights:
            totals[line.night.currency] += line.cents
        return [(cents, currency) for currency, cents in sorted(totals.items())]


def player_history(group: Group, user: User) -> PlayerHistory:
    """``user``'s finished nights in ``group`` with points and money (one query)."""
    their_nights = Seat.objects.filter(user=user, night__group=group).values("night_id")
    seats = list(_finished_seats(group).filter(night_id__in=their_nights))
    cents = _money_by_seat(seats)
    totals: dict[int, list[int]] = defaultdict(list)
    for seat in seats:
        totals[seat.night_id].append(seat.total)
    lines = []
    for seat in seats:
        if seat.user_id != user.pk:
            continue
        others = totals[seat.night_id]
        lines.append(
            PlayerNight(
                night=seat.night,
                seat=seat,
                points=seat.total,
                cents=cents[seat.pk],
                place=1 + sum(total > seat.total for total in others),
                players=len(others),
            )
        )
    lines.sort(key=lambda line: (line.night.started_at, line.night.pk), reverse=True)
    return PlayerHistory(user=user, nights=lines)
