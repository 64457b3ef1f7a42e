"""Past nights brought in from a spreadsheet (:mod:`scorekeeper.table.spreadsheet`).

An imported night is an ordinary finished night, so the all-nights table, the player
pages, what is owed and the exports read it as any other: its seats (a member matched
by name, else a guest), its rounds recorded with one entry per player who was dealt
in, and each seat's figures stored by :func:`~scorekeeper.services.money.store_money`
from those rows, so ``manage.py rebuild`` makes them again. The app's export brings its
rounds as they were; a spreadsheet's night is one round whose entries are the
players' points (:func:`~scorekeeper.table.spreadsheet.nights.split_rounds` makes a few more
only for a night beyond the app's 999 points a hand), at the night's stake. A night of
money only is played at the stake when every result is a whole number of stakes, or
else at one cent (the currency's minor unit) a point, its points being its cents.

"Settled at the time" marks each new night's settlement paid, as phones would have,
so the nights owe nothing; without it, what they come to is owed like any night's.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, time

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.models import Entry, Group, Night, Payment, Round, Seat, User
from scorekeeper.models.changes import Change
from scorekeeper.ofc import PRESETS, FantasylandState, OFCError, next_fantasyland
from scorekeeper.services.card_results import store_card_results
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import checked_house_rules
from scorekeeper.services.locks import group_change, record
from scorekeeper.services.money import store_money
from scorekeeper.table.settlement import settle
from scorekeeper.table.spreadsheet.people import match_people
from scorekeeper.table.spreadsheet.sheet import SheetNight
from scorekeeper.table.spreadsheet.tokens import adds_up

# A night given by its date alone started at this hour of the site's time zone.
EVENING = time(20, 0)


@dataclass(frozen=True)
class Person:
    """Who a name of the file is in the group: a member, or a guest by name."""

    name: str  # as the seat will be named
    user: User | None


def game_names() -> dict[str, str]:
    """Each game's id and English name, lower case, to its id: what a file's game
    column may say."""
    found = {game_id.lower(): game_id for game_id in PRESETS}
    found |= {game.name.lower(): game_id for game_id, game in PRESETS.items()}
    return found


def people_of(group: Group, names: Iterable[str]) -> dict[str, Person]:
    """Who each name is (:func:`~scorekeeper.table.spreadsheet.people.match_people`): a member
    of the group, now or before (a name is one account's on the whole site), by name in
    any capitals or looking just like it; else the guest of the group's nights with
    that name, or a new guest (two queries). The preview shows this, and the import
    makes the same seats."""
    users = {
        membership.user.pk: membership.user
        for membership in group.memberships.select_related("user")
    }
    guests = (
        Seat.objects.filter(night__group=group, user__isnull=True)
        .values_list("name", flat=True)
        .distinct()
    )
    matched = match_people(names, {pk: user.name for pk, user in users.items()}, guests)
    return {
        name: Person(users[who].name, users[who]) if isinstance(who, int) else Person(who, None)
        for name, who in matched.items()
    }


def _moment(night: SheetNight) -> tuple[datetime, datetime]:
    if night.started is not None and night.started.tzinfo is not None:
        started = night.started
    else:
        at = night.started.time() if night.started else EVENING
        started = timezone.make_aware(datetime.combine(night.day, at))
    ended = night.ended if night.ended and night.ended.tzinfo else started
    return started, max(started, ended)


def _night_rules(group: Group, game: str, sheet: SheetNight) -> dict:
    """The night's house rules: the JSON export's as they were; else the group's
    (:func:`_rules`) with the file's scoring system. Checked as a night's start
    checks them; a file changed since its preview is refused."""
    if sheet.extras is not None:
        rules = sheet.extras.rules
        checked_house_rules(rules)
    else:
        rules = _rules(group, game)
        if sheet.scoring is not None:
            rules = {**rules, "scoring": sheet.scoring}
    try:
        PRESETS[game].with_house_rules(rules)
    except (OFCError, KeyError, TypeError, ValueError):
        raise Refused(_("The file changed since it was checked. Upload it again.")) from None
    return rules


def _rules(group: Group, game: str) -> dict:
    """The rules a night of ``game`` started today would play: the group's royalties and
    scoring, with the group's last choices for its usual game."""
    rules = {**group.default_rules, **group.house_rules} if game == group.default_game else {}
    rules = rules or dict(group.house_rules)
    try:
        PRESETS[game].with_house_rules(rules)
    except (OFCError, KeyError, TypeError, ValueError):
        return {}
    return rules


@transaction.atomic
def import_nights(
    *, group: Group, nights: list[SheetNight], by: User, settled: bool, preview: str = ""
) -> list[Night]:
    """Make ``nights`` finished nights of ``group``, all or none, in one transaction,
    through the group's door (the group locked first, the import on its record): each
    night checked again (every round adds up to zero), its seats, its recorded rounds
    and their entries written, and each seat's figures stored. With ``settled`` each
    night's settlement is marked paid by ``by``, so it leaves nothing owed.

    ``preview`` names the preview confirmed (a fingerprint of its signed nights): the
    record keeps it, and a preview confirmed again (a second tap, the page sent again)
    is refused with :class:`AlreadyImported` instead of importing its nights twice.
    The group is locked first, so two confirmations at once import once."""
    # Every import has a fingerprint: its nights keep it, to be taken back together.
    preview = preview or secrets.token_hex(16)
    with group_change(group, by=by):
        _refuse_imported_before(group, preview)
        made = _write_nights(group=group, nights=nights, by=by, settled=settled, mark=preview)
        record(Change.Kind.NIGHTS_IMPORTED, count=len(made), settled=settled, preview=preview)
    return made


class AlreadyImported(Refused):
    """The preview's nights were imported already."""


def _refuse_imported_before(group: Group, preview: str) -> None:
    imports = Change.objects.filter(group=group, kind=Change.Kind.NIGHTS_IMPORTED)
    if imports.filter(values__preview=preview).exists():
        raise AlreadyImported(_("These nights were imported already: nothing was imported again."))


def _write_nights(
    *, group: Group, nights: list[SheetNight], by: User, settled: bool, mark: str
) -> list[Night]:
    if not group.has_member(by):
        raise Refused(_("%(name)s is not in this group.") % {"name": by.name})
    if not nights:
        raise Refused(_("The file has no nights to import."))
    for night in nights:
        if not adds_up(night) or (night.game and night.game not in PRESETS):
            raise Refused(_("The file changed since it was checked. Upload it again."))
    people = people_of(group, {name for night in nights for name in night.players})

    made: list[Night] = []
    now = timezone.now()
    for sheet in nights:
        game = sheet.game or group.default_game
        started, ended = _moment(sheet)
        made.append(
            Night(
                group=group,
                game=game,
                rules=_night_rules(group, game, sheet),
                point_cents=sheet.point_cents,
                currency=sheet.currency,
                loss_cap_cents=sheet.loss_cap_cents,
                started_by=by,
                started_at=started,
                ended_at=ended,
                imported_at=now,
                imported_from=mark,
            )
        )
    Night.objects.bulk_create(made)

    seats: list[Seat] = []
    for night, sheet in zip(made, nights, strict=True):
        count = len(sheet.rounds)
        for index, name in enumerate(sheet.players):
            dealt = [
                number for number, hand in enumerate(sheet.rounds, 1) if hand[index] is not None
            ]
            person = people[name]
            seat = Seat(
                night=night,
                position=index + 1,
                user=person.user,
                name=person.name,
                first_round=dealt[0] if dealt else 1,
                last_round=dealt[-1] if dealt and dealt[-1] < count else None,
            )
            if sheet.extras is not None:  # the JSON export's seats as they were
                place = sheet.extras.seats[index]
                seat.position, seat.first_round = place.position, place.first_round
                seat.last_round = place.last_round
            seats.append(seat)
    Seat.objects.bulk_create(seats)

    rounds: list[Round] = []
    at = 0
    night_seats: list[list[Seat]] = []
    for night, sheet in zip(made, nights, strict=True):
        mine = seats[at : at + len(sheet.players)]
        at += len(sheet.players)
        night_seats.append(mine)
        for number, hand in enumerate(sheet.rounds, 1):
            playing = [i for i, value in enumerate(hand) if value is not None]
            dealer = sheet.dealers[number - 1]
            if dealer is None or hand[dealer] is None:
                dealer = playing[(number - 1) % len(playing)] if playing else 0
            rounds.append(
                Round(
                    night=night,
                    number=number,
                    dealer=mine[dealer],
                    recorded_at=sheet.extras.recorded[number - 1]
                    if sheet.extras
                    else night.ended_at,
                    recorded_sum=0,
                )
            )
        replay_fantasyland(night, sheet, mine, rounds[len(rounds) - len(sheet.rounds) :])
    Round.objects.bulk_create(rounds)

    entries: list[Entry] = []
    at = 0
    for night, sheet, mine in zip(made, nights, night_seats, strict=True):
        options = {option.id for option in night.game_rules.entry_options}
        for number, (hand, claims) in enumerate(zip(sheet.rounds, sheet.fantasylands, strict=True)):
            round_ = rounds[at]
            at += 1
            boards = sheet.extras.boards[number] if sheet.extras else (None,) * len(hand)
            stays = sheet.extras.stays[number] if sheet.extras else (False,) * len(hand)
            entries += [
                Entry(
                    round=round_,
                    seat=seat,
                    points=value,
                    fantasyland_made=claim if claim in options else "",
                    fantasyland_stayed=stayed,
                    board=board,
                    entered_by=by,
                    updated_at=round_.recorded_at or night.ended_at,
                )
                for seat, value, claim, board, stayed in zip(
                    mine, hand, claims, boards, stays, strict=True
                )
                if value is not None
            ]
    Entry.objects.bulk_create(entries, batch_size=2000)
    store_card_results(entry.round_id for entry in entries if entry.board is not None)

    if settled:
        payments = []
        for night, sheet, mine in zip(made, nights, night_seats, strict=True):
            by_pk = {seat.pk: seat for seat in mine}
            balances = {seat.pk: cents for seat, cents in zip(mine, sheet.cents, strict=True)}
            payments += [
                Payment(
                    night=night, payer=by_pk[payer], payee=by_pk[payee], cents=cents, marked_by=by
                )
                for payer, payee, cents in settle(balances)
            ]
        Payment.objects.bulk_create(payments)
    store_money([night.pk for night in made])
    return made


def replay_fantasyland(
    night: Night, sheet: SheetNight, seats: list[Seat], rounds: list[Round]
) -> None:
    """Who played each of ``rounds`` in Fantasyland, as the table worked it out when
    the round before went through: from that round's claims and stays (the JSON
    export's; a CSV's claims alone). Kept on each round as a night's play keeps it."""
    game = night.game_rules
    stays = sheet.extras.stays if sheet.extras else [(False,) * len(seats)] * len(rounds)
    current: dict[int, FantasylandState] = {}
    for round_, hand, claims, stayed in zip(
        rounds, sheet.rounds, sheet.fantasylands, stays, strict=True
    ):
        round_.fantasyland = {
            str(seats[index].pk): [state.cards, state.stays]
            for index, state in current.items()
            if hand[index] is not None
        }
        upcoming = {}
        for index, value in enumerate(hand):
            if value is None:
                continue
            try:
                after = next_fantasyland(
                    game, current.get(index), entry=claims[index] or None, stayed=stayed[index]
                )
            except OFCError:
                after = None  # a claim the game has no way in for (read past, as before)
            if after is not None:
                upcoming[index] = after
        current = upcoming
