"""One player's record in a group: their nights in money, and what their cards say.

Reads only, in a fixed number of queries however many nights and rounds: the
player's nights come from :func:`scorekeeper.reads.history.player_history`
(one query), the membership from a second, the player's boards and the seats
they played against from two more. What the cards say was scored once, when each
round went through (:mod:`scorekeeper.services.card_results`): nothing here
scores a board again.

Points are kept per stake (a point at 50 ct is not a point at 10 ct), money per
currency. Card figures count the recorded hands in which the player set cards;
every figure carries the count it is based on.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from functools import partial

from django.utils.translation import gettext, ngettext

from scorekeeper.i18n import decimal, listed, money
from scorekeeper.models import Entry, Group, Night, Seat, User
from scorekeeper.models.boards import CardResult
from scorekeeper.ofc import Row
from scorekeeper.reads.history import PlayerHistory, PlayerNight, player_history
from scorekeeper.reads.seasons import SeasonChoice
from scorekeeper.reads.tally import Stake, stake_lines
from scorekeeper.table.chart import running_totals
from scorekeeper.table.chart_shapes import Chart, ChartSeries
from scorekeeper.table.formatting import MINUS
from scorekeeper.table.people import person_key
from scorekeeper.terms import describe as hand_in_words

BEST_HANDS = 3


def per_hand(points: int, hands: int) -> str:
    """Points a hand to one decimal, signed, a half rounded away from zero as people
    round it (Python's ``round`` would make 5 over 4 hands +1.2):

    >>> per_hand(15, 4), per_hand(-7, 4), per_hand(5, 4), per_hand(-5, 4), per_hand(0, 3)
    ('+3.8', '−1.8', '+1.3', '−1.3', '0.0')
    """
    tenths = (abs(points) * 20 + hands) // (2 * hands) if hands else 0  # whole numbers only
    text = decimal(Decimal(tenths) / 10, 1)  # "1,8" in Dutch
    if not tenths:
        return text
    return f"+{text}" if points > 0 else f"{MINUS}{text}"


@dataclass
class StakeLine:
    """Points and hands at one stake."""

    currency: str
    point_cents: int
    points: int = 0
    hands: int = 0

    @property
    def per_hand(self) -> str:
        return per_hand(self.points, self.hands)


@dataclass(frozen=True)
class CurrencyLine:
    """Money in one currency: the net, and the best and worst night in it."""

    currency: str
    cents: int
    nights: int
    best: PlayerNight
    worst: PlayerNight
    chart: Chart  # the running total after each night, oldest first


@dataclass(frozen=True)
class BestHand:
    """One row of a board that stood, as the engine named it."""

    key: int
    description: str  # e.g. "full house, kings full of sixes"
    row: Row
    night: Night
    round_number: int


@dataclass
class HeadToHead:
    """The engine's pair results against one other player, from the hands in
    which both set cards; points from the player's side, per stake."""

    name: str
    user_id: int | None  # None for a guest, known by name
    hands: int = 0
    won: int = 0  # hands in which the pair result went the player's way
    lost: int = 0
    points: dict[Stake, int] = field(default_factory=dict)

    @property
    def stake_lines(self) -> list[tuple[int, int, str]]:
        return stake_lines(self.points)


@dataclass
class CardRecord:
    """What the player's stored boards say."""

    hands: int = 0  # recorded hands in which they set cards
    fouls: int = 0
    royalties: int = 0  # in the royalty points of each night's game
    # Fantasyland: made from a hand not played in it, stayed from a hand played in it.
    could_make: int = 0
    made: int = 0
    in_fantasyland: int = 0
    stayed: int = 0
    best_hands: list[BestHand] = field(default_factory=list)
    head_to_head: list[HeadToHead] = field(default_factory=list)  # most hands first

    @property
    def royalties_per_hand(self) -> str:
        return per_hand(self.royalties, self.hands).removeprefix("+")


@dataclass(frozen=True)
class PlayerRecord:
    history: PlayerHistory
    left: bool  # they left the group; their nights stay
    hands: int  # recorded hands in their finished nights, cards or totals
    won: int  # nights with the most points (a tie counts), more than 0
    stakes: list[StakeLine]  # lowest stake first
    currencies: list[CurrencyLine]
    cards: CardRecord

    @property
    def user(self) -> User:
        return self.history.user

    @property
    def nights(self) -> int:
        return len(self.history.nights)


def player_record(group: Group, user: User, season: SeasonChoice | None = None) -> PlayerRecord:
    """``user``'s record in ``group``'s finished nights, of ``season`` or all time
    (four queries)."""
    history = player_history(group, user, season)
    left = group.memberships.former().filter(user=user).exists()
    oldest_first = history.nights[::-1]
    stakes: dict[Stake, StakeLine] = {}
    for line in oldest_first:
        night = line.night
        stake = stakes.setdefault(
            (night.currency, night.point_cents), StakeLine(night.currency, night.point_cents)
        )
        stake.points += line.points
        stake.hands += line.seat.rounds_played
    return PlayerRecord(
        history=history,
        left=left,
        hands=sum(line.seat.rounds_played for line in history.nights),
        won=sum(line.place == 1 and line.points > 0 for line in history.nights),
        stakes=[stakes[key] for key in sorted(stakes)],
        currencies=_currencies(user, oldest_first),
        cards=card_record(group, user, season),
    )


def _currencies(user: User, oldest_first: list[PlayerNight]) -> list[CurrencyLine]:
    by_currency: dict[str, list[PlayerNight]] = defaultdict(list)
    for line in oldest_first:
        by_currency[line.night.currency].append(line)
    currencies = []
    for currency, lines in sorted(by_currency.items()):
        running, totals = 0, []
        for line in lines:
            running += line.cents
            totals.append(running)
        chart = running_totals(
            [ChartSeries(user.name, totals)],
            rounds=len(lines),
            format_total=partial(money, currency=currency),
            format_tick=partial(money, currency=currency),
            empty_message=gettext("No rounds yet"),
            describe=partial(_money_chart_name, currency),
        )
        currencies.append(
            CurrencyLine(
                currency=currency,
                cents=running,
                nights=len(lines),
                # The first of equal nights: the oldest.
                best=max(lines, key=lambda line: line.cents),
                worst=min(lines, key=lambda line: line.cents),
                chart=chart,
            )
        )
    return currencies


def _money_chart_name(currency: str, nights: int, totals: list[str]) -> str:
    """The money chart's accessible name: "Money in EUR after 2 nights: Anna −€4.80"."""
    return ngettext(
        "Money in %(currency)s after %(count)d night: %(totals)s",
        "Money in %(currency)s after %(count)d nights: %(totals)s",
        nights,
    ) % {"currency": currency, "count": nights, "totals": listed(totals)}


def _card_boards(
    group: Group, user: User, season: SeasonChoice | None
) -> tuple[list[Entry], dict[tuple[int, str], Seat]]:
    """``user``'s scored boards of the recorded rounds in ``group``'s finished nights,
    oldest first, each with its round and night (one query), and the seats of those
    nights by night and name, whom their pair results were against (one more, when
    they set cards at all)."""
    theirs = Entry.objects.filter(
        seat__user=user,
        card_result__isnull=False,
        round__recorded_at__isnull=False,
        round__night__group=group,
        round__night__ended_at__isnull=False,
    )
    if season is not None:
        theirs = theirs.filter(season.nights("round__night__"))
    boards = list(
        theirs.select_related("round__night")
        .defer("board", "earlier_keys")  # the cards are read as their result only
        .order_by("round__night__started_at", "round__night_id", "round__number")
    )
    if not boards:
        return [], {}
    seats = Seat.objects.filter(night_id__in=theirs.values("round__night_id"))
    return boards, {(seat.night_id, seat.name): seat for seat in seats}


def card_record(group: Group, user: User, season: SeasonChoice | None = None) -> CardRecord:
    """Fouls, Fantasyland, royalties, best hands and head to head from ``user``'s
    boards in ``group``'s finished nights (of ``season``, or all time), as the engine
    scored them when each round went through (``Entry.card_result``; two queries, one
    for a player who never set cards, and no scoring)."""
    record = CardRecord()
    rivals: dict[str, HeadToHead] = {}
    rows: list[tuple[int, Row, Night, int]] = []  # key, row, night, round number
    with_fantasyland: dict[int, bool] = {}  # by night
    boards, seats = _card_boards(group, user, season)
    for board in boards:
        result: CardResult = board.card_result
        round_ = board.round
        night = round_.night
        record.hands += 1
        record.fouls += result["fouled"]
        record.royalties += result["royalties"]
        if round_.fantasyland_seats.get(board.seat_id) is not None:
            record.in_fantasyland += 1
            record.stayed += result["fantasyland"]
        elif _with_fantasyland(night, with_fantasyland):
            record.could_make += 1
            record.made += result["fantasyland"]
        if not result["fouled"]:
            rows += [
                (row["key"], Row(row["row"]), night, round_.number)
                for row in result["rows"]
                if not row["low"]  # a 2-7 middle ranks the other way round
            ]
        for pair in result["pairs"]:
            seat = seats[night.pk, pair["against"]]
            rival = rivals.setdefault(person_key(seat), HeadToHead(seat.name, seat.user_id))
            rival.hands += 1
            rival.won += pair["points"] > 0
            rival.lost += pair["points"] < 0
            stake = (night.currency, night.point_cents)
            rival.points[stake] = rival.points.get(stake, 0) + pair["points"]
    # The strongest first; of equal hands, the one made first. Only these are put in
    # words (what terms.row_description says of a row that is not a 2-7 low).
    record.best_hands = [
        BestHand(key, hand_in_words(key), row, night, number)
        for key, row, night, number in sorted(rows, key=lambda hand: -hand[0])[:BEST_HANDS]
    ]
    record.head_to_head = sorted(rivals.values(), key=lambda rival: (-rival.hands, rival.name))
    return record


def _with_fantasyland(night: Night, seen: dict[int, bool]) -> bool:
    """Whether ``night``'s game has Fantasyland, its rules read once a night."""
    if night.pk not in seen:
        seen[night.pk] = night.game_rules.fantasyland
    return seen[night.pk]
