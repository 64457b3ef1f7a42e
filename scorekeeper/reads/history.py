"""The group's history: its nights, the table across them, one player's nights,
and the members' records side by side.

Reads only, each in a fixed number of queries however many nights there are. Each
seat's points, hands and money (loss cap included) are the figures stored when its
night changed (:mod:`scorekeeper.services.money`), so a history shows what each
settlement said without working any of it out again.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from types import SimpleNamespace

from django.db.models import Count, F, Q, QuerySet, Subquery, Sum

from scorekeeper.models import Group, Night, Round, Seat, User
from scorekeeper.reads.seasons import SeasonChoice
from scorekeeper.reads.tally import money_lines, night_winners, stake_lines
from scorekeeper.table.people import person_key

# Nights a history list shows at a time; the older ones load as you scroll.
NIGHTS_PER_PAGE = 20
# The most a list shows at once when a phone that scrolled far asks for it again.
MOST_NIGHTS_SHOWN = 10 * NIGHTS_PER_PAGE


def _after(nights: QuerySet[Night], pk: int) -> QuerySet[Night]:
    """The nights after night ``pk`` in a list's order: an earlier start, or the same
    start and a lower pk."""
    start = Subquery(Night.objects.filter(pk=pk).values("started_at")[:1])
    return nights.filter(Q(started_at__lt=start) | Q(started_at=start, pk__lt=pk))


def newest_nights(
    nights: QuerySet[Night],
    *,
    before: int | None = None,
    through: int | None = None,
    count: int = NIGHTS_PER_PAGE,
) -> tuple[list[Night], int | None]:
    """``count`` of ``nights``, newest first, from just after the night ``before`` (a
    pk) in that order, and the pk to ask for the next, older page with (None at the
    end): one query wherever in the history the page starts.

    ``through`` (a pk) asks instead for every night from the newest down to that one
    (MOST_NIGHTS_SHOWN at most), in two queries: what a phone that scrolled down to
    it shows, asked for again."""
    ordered = nights.order_by("-started_at", "-pk")
    if through is not None:
        down_to = ordered.exclude(pk__in=_after(nights, through).values("pk"))
        shown = list(down_to[:MOST_NIGHTS_SHOWN])
        if (shown and shown[-1].pk == through) or len(shown) == MOST_NIGHTS_SHOWN:
            return shown, shown[-1].pk if _after(ordered, shown[-1].pk).exists() else None
        # Not one of these nights (any more): the newest page.
    if before is not None:
        ordered = _after(ordered, before)
    found = list(ordered[: count + 1])
    shown = found[:count]
    return shown, shown[-1].pk if len(found) > count else None


@dataclass(frozen=True)
class NightSummary:
    night: Night
    players: list[Seat]  # in seat order
    rounds: int
    winners: list[Seat]  # most points, more than one on a tie; empty before any points

    @property
    def winning_points(self) -> int:
        return self.winners[0].points if self.winners else 0


def night_summaries(nights: list[Night]) -> list[NightSummary]:
    """Date, game, players and winner of each of ``nights`` (two queries)."""
    by_night: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(night__in=nights).with_left().order_by("position"):
        by_night[seat.night_id].append(seat)
    rounds = dict(
        Round.objects.filter(night__in=nights, recorded_at__isnull=False)
        .values("night")
        .annotate(count=Count("pk"))
        .values_list("night", "count")
    )
    summaries = []
    for night in nights:
        seats = by_night.get(night.pk, [])
        winners = night_winners(seats)
        summaries.append(NightSummary(night, seats, rounds.get(night.pk, 0), winners))
    return summaries


def _finished_seats(group: Group, *, with_users: bool = True) -> QuerySet[Seat]:
    seats = Seat.objects.filter(night__group=group, night__ended_at__isnull=False)
    # A player's own nights need only who sat where, not every player's account.
    return seats.select_related("night", "user") if with_users else seats.select_related("night")


@dataclass
class TableRow:
    """One player across the group's finished nights; a guest is known by name.

    Points are kept per stake: a point at 50 ct is not a point at 10 ct, so
    they are never added up; money is, per currency.
    """

    name: str
    user: User | None
    left: bool = False
    nights: int = 0
    rounds: int = 0
    fantasylands: int = 0
    # (currency, cents a point) -> points at that stake
    points_by_stake: dict[tuple[str, int], int] = field(default_factory=dict)
    money: dict[str, int] = field(default_factory=dict)  # currency -> cents

    @property
    def money_lines(self) -> list[tuple[int, str]]:
        return money_lines(self.money)

    @property
    def stake_lines(self) -> list[tuple[int, int, str]]:
        return stake_lines(self.points_by_stake)


@dataclass(frozen=True)
class CurrencyTable:
    """The players of the nights played in one currency, most money won in it first."""

    currency: str
    rows: list[TableRow]


def group_table(group: Group, season: SeasonChoice | None = None) -> list[CurrencyTable]:
    """Everyone who played a finished night of ``group`` (in ``season``, or all time),
    one table per currency the nights were played in (the group's own first, then by
    code), each ranked by the money won in it (two queries): a euro is never weighed
    against a pound.

    Points are shown per stake, never added across stakes. Members who left the
    group keep their row, marked ``left``. The database adds up each person's stored
    figures per stake, so the rows read grow with the people and stakes, not with
    the nights.
    """
    seats = Seat.objects.filter(night__group=group, night__ended_at__isnull=False)
    if season is not None:
        seats = seats.filter(season.nights("night__"))
    sums = (
        seats.order_by()
        .values("user_id", "name", currency=F("night__currency"), stake=F("night__point_cents"))
        .annotate(
            nights=Count("pk"),
            rounds=Sum("rounds_played"),
            fantasylands=Sum("fantasylands"),
            points=Sum("points"),
            cents=Sum("cents"),
        )
        .order_by("name")
    )
    # Every account that ever sat at a night of the group has a membership in it.
    members = {m.user_id: m for m in group.memberships.select_related("user")}
    rows: dict[str, dict[str, TableRow]] = defaultdict(dict)
    for line in sums:
        currency = line["currency"]
        # A member is one row under every name they sat under; a guest, one per name
        # as the name key has it (person_key: "Émile" and "ÉMILE" are one guest).
        key = person_key(SimpleNamespace(user_id=line["user_id"], name=line["name"]))
        row = rows[currency].get(key)
        if row is None:
            membership = members.get(line["user_id"])
            row = rows[currency][key] = TableRow(
                name=membership.user.name if membership else line["name"],
                user=membership.user if membership else None,
                left=membership is not None and not membership.is_current,
            )
        row.nights += line["nights"]
        row.rounds += line["rounds"]
        row.fantasylands += line["fantasylands"]
        stake = (currency, line["stake"])
        row.points_by_stake[stake] = row.points_by_stake.get(stake, 0) + line["points"]
        row.money[currency] = row.money.get(currency, 0) + line["cents"]

    def rank(row: TableRow) -> tuple[int, str]:
        return -sum(row.money.values()), row.name.lower()

    order = sorted(rows, key=lambda currency: (currency != group.currency, currency))
    return [
        CurrencyTable(currency, sorted(rows[currency].values(), key=rank)) for currency in order
    ]


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
        return money_lines(totals)


def player_history(group: Group, user: User, season: SeasonChoice | None = None) -> PlayerHistory:
    """``user``'s finished nights in ``group`` (in ``season``, or all time) with points
    and money (one query)."""
    their_nights = Seat.objects.filter(user=user, night__group=group).values("night_id")
    seats = _finished_seats(group, with_users=False).filter(night_id__in=their_nights)
    if season is not None:
        seats = seats.filter(season.nights("night__"))
    return PlayerHistory(user=user, nights=_player_lines(user, list(seats)))


@dataclass(frozen=True)
class PlayerNightsPage:
    """A page of a player's finished nights, newest first."""

    nights: list[PlayerNight]
    older_than: int | None  # the night pk to ask for the next, older page with, if any


def player_nights(
    group: Group,
    user: User,
    *,
    before: int | None = None,
    count: int = NIGHTS_PER_PAGE,
    season: SeasonChoice | None = None,
) -> PlayerNightsPage:
    """``count`` of ``user``'s finished nights in ``group`` (in ``season``, or all
    time), newest first, from just after the night ``before``: two queries, however
    many nights they played."""
    theirs = group.nights.filter(ended_at__isnull=False, seats__user=user)
    if season is not None:
        theirs = theirs.filter(season.nights())
    shown, older_than = newest_nights(theirs, before=before, count=count)
    # Who started each night: an imported night says who brought it in.
    seats = list(
        _finished_seats(group, with_users=False)
        .filter(night__in=shown)
        .select_related("night__started_by")
    )
    return PlayerNightsPage(_player_lines(user, seats), older_than)


def _player_lines(user: User, seats: list[Seat]) -> list[PlayerNight]:
    """``user``'s line for each night of ``seats`` (every seat of those nights, with
    totals), newest first."""
    totals: dict[int, list[int]] = defaultdict(list)
    for seat in seats:
        totals[seat.night_id].append(seat.points)
    lines = []
    for seat in seats:
        if seat.user_id != user.pk:
            continue
        others = totals[seat.night_id]
        lines.append(
            PlayerNight(
                night=seat.night,
                seat=seat,
                points=seat.points,
                cents=seat.cents,
                place=1 + sum(total > seat.points for total in others),
                players=len(others),
            )
        )
    lines.sort(key=lambda line: (line.night.started_at, line.night.pk), reverse=True)
    return lines


@dataclass
class MemberRecord:
    """One member's line in the players table: nights played and won, money per currency."""

    user: User
    left: bool = False
    nights: int = 0
    won: int = 0  # nights with the most points (a tie counts for each), more than 0
    money: dict[str, int] = field(default_factory=dict)  # currency -> cents

    @property
    def money_lines(self) -> list[tuple[int, str]]:
        return money_lines(self.money)


def member_records(group: Group) -> list[MemberRecord]:
    """Every member of ``group``, also those who left, with their finished nights
    (two queries); most money won first, by the group's currency, then by name.

    Guests have no player page, so they are not in it; members who never played
    have a line of zeros.
    """
    memberships = group.memberships.select_related("user")
    records = {m.user_id: MemberRecord(m.user, left=not m.is_current) for m in memberships}
    seats = list(_finished_seats(group))
    by_night: dict[int, list[Seat]] = defaultdict(list)
    for seat in seats:
        by_night[seat.night_id].append(seat)
    won = {seat.pk for night_seats in by_night.values() for seat in night_winners(night_seats)}
    for seat in seats:
        record = records.get(seat.user_id) if seat.user_id else None
        if record is None:
            continue
        record.nights += 1
        record.won += seat.pk in won
        currency = seat.night.currency
        record.money[currency] = record.money.get(currency, 0) + seat.cents

    played_in = {currency for record in records.values() for currency in record.money}
    order = [group.currency, *sorted(played_in - {group.currency})]

    def rank(record: MemberRecord) -> tuple[list[int], str]:
        return [-record.money.get(currency, 0) for currency in order], record.user.name.lower()

    return sorted(records.values(), key=rank)
