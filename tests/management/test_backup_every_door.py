"""Whatever a group does, its backup restores: hypothesis drives the services the pages
call (every door: totals, cards, fixes, undos, late seats, leavers, payments of a night
and across nights and their undos, settle everything, house rules, a night's own
rules, currencies, pay details, imports, seasons, call-offs, sign-in codes, members
leaving) in random orders, then ``manage.py backup`` and ``manage.py restore`` into an
emptied database, and every page's figures and both exports must read byte for byte
as before.

Each door's choices come from a seed of its own, so hypothesis shrinks a failing
history to the few doors that break it. SQLite in the usual run; the same on
PostgreSQL in make test's PostgreSQL pass (the test marked ``database``).
"""

import contextlib
import random
from collections.abc import Callable
from datetime import date, datetime
from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scorekeeper.models import Group, Night, Payment, Season, User, parse_board
from scorekeeper.models.payments import TabPayment
from scorekeeper.models.settlements import payment_lines
from scorekeeper.ofc import PRESETS
from scorekeeper.reads.owed import owed_across_nights
from scorekeeper.services.boards import record_board
from scorekeeper.services.call_off import call_off_night
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import join_group, leave_group, set_currency, set_house_rules
from scorekeeper.services.imports import game_names, import_nights
from scorekeeper.services.nights import (
    SeatRequest,
    change_night_rules,
    end_night,
    share_screen,
    start_night,
)
from scorekeeper.services.pay_details import save_pay_details
from scorekeeper.services.payments import (
    mark_paid,
    pay_owed,
    set_settle_everything,
    undo_owed_payment,
    unmark_paid,
)
from scorekeeper.services.round_fixes import edit_round, undo_last_round
from scorekeeper.services.rounds import record_entry
from scorekeeper.services.seasons import add_season, remove_season
from scorekeeper.services.seats import add_seat, deal_me_in, leave_seat
from scorekeeper.services.sign_ins import make_sign_in_code, record_phone, use_sign_in_code
from scorekeeper.table.spreadsheet.reading import read_sheet
from tests.examples import examples
from tests.helpers import log_in, make_group, make_user
from tests.management.test_backup import (
    assert_reads_the_same,
    backed_up_and_restored,
    empty_the_database,
    pages_read,
)
from tests.services.test_name_keys import stored_name_keys

MEMBERS = ("Anna", "Bram", "Chris", "Dana")
GUESTS = ("Gus", "Hal")
SYSTEMS: tuple[dict, ...] = (
    {},
    {"scoop": 0, "majority": 1},
    {"scoop": 0, "majority": 0},
    {"scoop": 5, "majority": 2},
)


class Table:
    """The group the doors act on, and a random choice for each door."""

    def __init__(self) -> None:
        self.group = make_group(members=MEMBERS)
        self.users = {user.name: user for user in User.objects.all()}
        self.pick = random.Random(0)

    def running(self) -> Night | None:
        return self.group.nights.filter(ended_at__isnull=True).first()

    def member(self) -> User:
        return self.users[self.pick.choice(MEMBERS)]

    def open_round(self, night: Night):
        return night.rounds.filter(recorded_at__isnull=True).first()

    def playing(self, night: Night, number: int):
        return [seat for seat in night.seats.all() if seat.plays(number)]

    def by_for(self, night: Night, seat) -> User:
        return seat.user or night.seats.exclude(user=None).first().user

    def zero_sum(self, count: int) -> list[int]:
        points = [self.pick.randint(-30, 30) for _ in range(count - 1)]
        return [*points, -sum(points)]


def start(table: Table) -> None:
    if table.running():
        return
    players = table.pick.sample(MEMBERS, table.pick.randint(2, 3))
    # Three at most: every game takes three (Pineapple no more).
    guests = table.pick.sample(GUESTS, 3 - len(players)) if table.pick.random() < 0.5 else []
    start_night(
        group=table.group,
        started_by=table.users[players[0]],
        game_id=table.pick.choice(list(PRESETS)),
        rules={"scoring": table.pick.choice(SYSTEMS)} if table.pick.random() < 0.5 else {},
        point_cents=table.pick.choice((5, 10, 50)),
        seats=[SeatRequest(user=table.users[name]) for name in players]
        + [SeatRequest(guest_name=name) for name in guests],
        first_dealer=0,
        loss_cap_cents=table.pick.choice((None, 300)),
    )


def totals(table: Table, whole: bool = True) -> None:
    night = table.running()
    round_ = night and table.open_round(night)
    if round_ is None:
        return
    seats = table.playing(night, round_.number)
    options = [option.id for option in night.game_rules.entry_options]
    for seat, points in zip(seats, table.zero_sum(len(seats)), strict=True):
        made = table.pick.choice(options) if options and table.pick.random() < 0.2 else ""
        record_entry(
            night=night,
            round_number=round_.number,
            seat=seat,
            points=points,
            entered_by=table.by_for(night, seat),
            fantasyland_made=made,
        )
        if not whole:
            return


def cards(table: Table) -> None:
    night = table.running()
    round_ = night and table.open_round(night)
    if round_ is None:
        return
    deck = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
    table.pick.shuffle(deck)
    for seat in table.playing(night, round_.number):
        hand, deck = deck[:13], deck[13:]
        board = parse_board({"top": hand[:3], "middle": hand[3:8], "bottom": hand[8:]})
        record_board(
            night=night,
            round_number=round_.number,
            seat=seat,
            board=board,
            entered_by=table.by_for(night, seat),
        )


def fix(table: Table) -> None:
    night = table.pick.choice(list(table.group.nights.all()) or [None])
    recorded = night and list(night.rounds.filter(recorded_at__isnull=False))
    if not recorded:
        return
    round_ = table.pick.choice(recorded)
    seats = [entry.seat_id for entry in round_.entries.all()]
    edit_round(
        night=night,
        number=round_.number,
        points=dict(zip(seats, table.zero_sum(len(seats)), strict=True)),
        edited_by=night.started_by,
    )


def undo(table: Table) -> None:
    night = table.running()
    if night is not None:
        undo_last_round(night=night, by=night.started_by)


def late_seat(table: Table) -> None:
    night = table.running()
    if night is None or night.seats.count() >= 4:
        return
    if table.pick.random() < 0.5:
        seated = {seat.user_id for seat in night.seats.all()}
        member = table.member()
        if member.pk not in seated:
            deal_me_in(night=night, user=member)
    else:
        name = table.pick.choice((*GUESTS, "Ivo"))
        add_seat(night=night, by=night.started_by, guest_name=name, position=99)


def leaver(table: Table) -> None:
    night = table.running()
    if night is not None:
        seat = table.pick.choice(list(night.seats.all()))
        leave_seat(night=night, seat=seat, by=table.by_for(night, seat))


def end(table: Table) -> None:
    night = table.running()
    if night is not None:
        end_night(night=night, by=night.started_by)


def pay_a_night(table: Table) -> None:
    nights = list(table.group.nights.all())
    if not nights:
        return
    night = table.pick.choice(nights)
    lines = [line for line in payment_lines(night) if line.is_open]
    if lines:
        line = table.pick.choice(lines)
        by = line.payer.user or line.payee.user or night.started_by
        mark_paid(night=night, payer=line.payer, payee=line.payee, cents=line.cents, marked_by=by)


def unpay_a_night(table: Table) -> None:
    payment = Payment.objects.filter(night__group=table.group).order_by("?").first()
    if payment is not None:
        unmark_paid(night=payment.night, payment=payment, by=payment.marked_by or table.member())


def pay_across(table: Table) -> None:
    owed = owed_across_nights(table.group)
    if owed.payments:
        payment = table.pick.choice(owed.payments)
        pay_owed(
            group=table.group,
            payer=payment.payer.key,
            payee=payment.payee.key,
            cents=max(1, payment.cents // table.pick.choice((1, 2))),
            currency=payment.currency,
            fingerprint=owed.fingerprint,
            marked_by=table.member(),
        )


def unpay_across(table: Table) -> None:
    payment = TabPayment.objects.filter(group=table.group).first()
    if payment is not None:
        undo_owed_payment(group=table.group, payment=payment, by=payment.marked_by)


def settle_everything(table: Table) -> None:
    group = Group.objects.get(pk=table.group.pk)
    set_settle_everything(group=group, on=not group.settle_everything, by=table.member())


def house_rules(table: Table) -> None:
    rules = {"scoring": table.pick.choice(SYSTEMS)} if table.pick.random() < 0.7 else {}
    night = table.running()
    if night is not None and table.pick.random() < 0.5:
        change_night_rules(night=night, by=night.started_by, table_rules=rules)
    else:
        set_house_rules(group=table.group, by=table.member(), rules=rules)


def currency(table: Table) -> None:
    set_currency(group=table.group, by=table.member(), currency=table.pick.choice(("EUR", "USD")))


def pay_details(table: Table) -> None:
    # Blank is a choice too: every field empty, as the account page saves it cleared.
    links = table.pick.choice(({}, {"paypal": "https://paypal.me/someone"}))
    save_pay_details(user=table.member(), holder=table.pick.choice(("", "A. Someone")), **links)


def import_a_file(table: Table) -> None:
    day = date(2024, 1, 1 + table.pick.randint(0, 27)).isoformat()
    a, b = table.pick.sample((*MEMBERS, *GUESTS), 2)
    points = table.pick.randint(1, 40)
    sheet = read_sheet(
        f"date,name,points\n{day},{a},{points}\n{day},{b},{-points}\n".encode(),
        currency=table.group.currency,
        point_cents=10,
        games=game_names(),
    )
    import_nights(
        group=table.group,
        nights=list(sheet.nights),
        by=table.member(),
        settled=table.pick.random() < 0.5,
    )


def season(table: Table) -> None:
    seasons = list(Season.objects.filter(group=table.group))
    if seasons and table.pick.random() < 0.3:
        remove_season(group=table.group, by=table.member(), season=seasons[0])
    else:
        add_season(
            group=table.group,
            by=table.member(),
            name=f"Season {table.pick.randint(1, 9)}",
            starts_on=date(2024, table.pick.randint(1, 12), 1),
        )


def call_off(table: Table) -> None:
    night = table.running()
    if night is not None:
        call_off_night(night=night, by=night.started_by)


def sign_in_code(table: Table) -> None:
    user, maker = table.member(), table.member()
    code = make_sign_in_code(user=user, made_by=maker)
    if table.pick.random() < 0.7:
        used = use_sign_in_code(code=code.code)
        record_phone(user=user, session_key=f"s{code.pk:039d}", label="", sign_in=used)


def screen(table: Table) -> None:
    night = table.running()
    if night is not None:
        share_screen(night=night, by=night.started_by)


def members(table: Table) -> None:
    user = table.users["Dana"]
    if table.group.has_member(user):
        leave_group(group=table.group, user=user)
    else:
        join_group(group=table.group, user=user)


DOORS: tuple[Callable[[Table], None], ...] = (
    start,
    totals,
    totals,
    lambda table: totals(table, whole=False),
    cards,
    fix,
    undo,
    late_seat,
    leaver,
    end,
    pay_a_night,
    unpay_a_night,
    pay_across,
    unpay_across,
    settle_everything,
    house_rules,
    currency,
    pay_details,
    import_a_file,
    season,
    call_off,
    sign_in_code,
    screen,
    members,
)

history = st.lists(
    st.tuples(st.sampled_from(DOORS), st.integers(0, 2**32)), min_size=8, max_size=30
)


def pages(group: Group, at: datetime) -> dict[str, str]:
    """Every page a member reads of the group, its members and its nights, and both
    exports, as Anna's phone gets them at the moment ``at`` (a page says "changed 3
    seconds ago")."""
    with mock.patch.object(timezone, "now", return_value=at):
        return _pages(group)


def _pages(group: Group) -> dict[str, str]:
    client = log_in(Client(), "Anna")
    # Not the account page: it lists the phones signed in, this client's among them,
    # and a restore signs every phone out.
    urls = [
        reverse(name, args=[group.pk])
        for name in ("group_detail", "group_table", "players", "group_owed", "group_changes")
    ]
    urls += [reverse("group_export", args=[group.pk, fmt]) for fmt in ("csv", "json")]
    urls += [
        reverse("player_history", args=[group.pk, membership.user_id])
        for membership in group.memberships.all()
    ]
    for night in Night.objects.filter(group=group):
        urls += [
            reverse(name, args=[night.pk])
            for name in ("night_detail", "night_rounds", "night_settle", "night_log")
        ]
        urls += [reverse("night_export", args=[night.pk, fmt]) for fmt in ("csv", "json")]
    return pages_read(client, urls)


def a_group_backed_up_and_restored(doors, tmp_path) -> None:
    empty_the_database()
    make_user("Eve")  # an account of no group: the backup carries it too
    table = Table()
    for door, seed in doors:
        table.pick.seed(seed)
        # A refused door: the page would have said why, and nothing was written.
        with contextlib.suppress(Refused):
            door(table)
    read_at = timezone.now()
    before = pages(table.group, read_at)
    names = stored_name_keys()  # every door stored each name's key
    backed_up_and_restored(tmp_path)
    assert_reads_the_same(pages(table.group, read_at), before)
    assert stored_name_keys() == names


SETTINGS = settings(
    max_examples=examples(4),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


# Besides the random ones: a round taken back with undo (its correction changes no total).
UNDONE = [(start, 0), (totals, 0), (cards, 0), (undo, 0), (pay_details, 0)]


@SETTINGS
@example(doors=UNDONE)
@given(doors=history)
def test_whatever_a_group_did_its_backup_restores_as_it_was(db, tmp_path, doors):
    a_group_backed_up_and_restored(doors, tmp_path)


# Skipped before hypothesis runs it: a skip inside its example was printed as failing.
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the PostgreSQL pass of `make test` runs it"
)
@pytest.mark.database
@SETTINGS
@example(doors=UNDONE)
@given(doors=history)
def test_whatever_a_group_did_its_backup_restores_as_it_was_on_postgresql(db, tmp_path, doors):
    a_group_backed_up_and_restored(doors, tmp_path)
