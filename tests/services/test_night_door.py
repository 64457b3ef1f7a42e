"""The one door every change to a night goes through (services/locks.py): the night's
row locked once, who may checked, and the version bumped once on the way out when
something was written, never when the change is refused."""

from collections.abc import Callable

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Group, Night, Payment, RoundEdit, User
from scorekeeper.reads.owed import folded_settlement, owed_across_nights
from scorekeeper.services.boards import record_board
from scorekeeper.services.errors import Refused
from scorekeeper.services.locks import at_table, night_change
from scorekeeper.services.nights import (
    change_night_rules,
    end_night,
    share_screen,
    stop_sharing_screen,
)
from scorekeeper.services.payments import (
    mark_paid,
    pay_owed,
    set_settle_everything,
    undo_owed_payment,
    unmark_paid,
)
from scorekeeper.services.round_fixes import edit_round, undo_last_round
from scorekeeper.services.rounds import record_entry
from scorekeeper.services.seats import add_seat, leave_seat
from scorekeeper.table.people import person_key
from tests.helpers import enter, finish, make_night, open_round, play, seats_of

KEY = "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6"
ANNA_BOARD = {
    "top": ["2c", "3d", "4h"],
    "middle": ["5s", "6s", "8s", "9d", "Jc"],
    "bottom": ["Qh", "Qd", "Kc", "Kd", "As"],
}


def user(name: str) -> User:
    return User.objects.get(name=name)


def version(night: Night) -> int:
    return Night.objects.get(pk=night.pk).version


# Each case sets a night up (not counted) and returns the one change to make on it.
Change = Callable[[], object]


def a_total(night: Night) -> Change:
    return lambda: enter(night, "Anna", 5)


def a_total_with_its_key(night: Night) -> Change:
    seat = seats_of(night)["Anna"]
    return lambda: record_entry(
        night=night, round_number=1, seat=seat, points=5, entered_by=user("Anna"), key=KEY
    )


def the_total_that_records_the_round(night: Night) -> Change:
    enter(night, "Anna", 5)
    enter(night, "Bram", -5)
    # Saved, recorded and the next round opened: one change for the phones.
    return lambda: enter(night, "Chris", 0)


def a_board(night: Night) -> Change:
    seat = seats_of(night)["Anna"]
    return lambda: record_board(
        night=night, round_number=1, seat=seat, board=ANNA_BOARD, entered_by=user("Anna")
    )


def a_fix(night: Night) -> Change:
    play(night, {"Anna": 5, "Bram": -5, "Chris": 0})
    totals = {seat.pk: points for seat, points in zip(night.seats.all(), (4, -4, 0), strict=True)}
    return lambda: edit_round(night=night, number=1, points=totals, edited_by=user("Anna"))


def an_undo(night: Night) -> Change:
    play(night, {"Anna": 5, "Bram": -5, "Chris": 0})
    return lambda: undo_last_round(night=night, by=user("Anna"))


def the_nights_rules(night: Night) -> Change:
    return lambda: change_night_rules(night=night, by=user("Anna"), table_rules={})


def the_end(night: Night) -> Change:
    return lambda: end_night(night=night, by=user("Anna"))


def a_screen_link(night: Night) -> Change:
    return lambda: share_screen(night=night, by=user("Anna"))


def the_screen_link_taken_back(night: Night) -> Change:
    share_screen(night=night, by=user("Anna"))
    return lambda: stop_sharing_screen(night=night, by=user("Anna"))


def a_late_arrival(night: Night) -> Change:
    return lambda: add_seat(night=night, by=user("Anna"), guest_name="Gus", position=4)


def someone_leaving(night: Night) -> Change:
    seat = seats_of(night)["Chris"]
    return lambda: leave_seat(night=night, seat=seat, by=user("Anna"))


def _settled(night: Night) -> Night:
    return finish(play(night, {"Anna": 10, "Bram": -4, "Chris": -6}))


def a_payment_marked(night: Night) -> Change:
    seats = seats_of(_settled(night))
    return lambda: mark_paid(
        night=night, payer=seats["Chris"], payee=seats["Anna"], cents=60, marked_by=user("Anna")
    )


def a_mark_taken_back(night: Night) -> Change:
    seats = seats_of(_settled(night))
    payment = mark_paid(
        night=night, payer=seats["Chris"], payee=seats["Anna"], cents=60, marked_by=user("Anna")
    )
    return lambda: unmark_paid(night=night, payment=payment, by=user("Chris"))


def what_is_owed_paid_on_the_night(night: Night) -> Change:
    return _paid_across(_settled(night), on_its_settlement=True)


def a_payment_across_nights(night: Night) -> Change:
    return _paid_across(_settled(night))


def _paid_across(night: Night, *, on_its_settlement: bool = False) -> Change:
    """Chris pays Anna 60 ct of what is owed: from the group page, or from ``night``'s
    settlement with earlier nights folded in."""
    seats = seats_of(night)
    if on_its_settlement:
        owed, where = folded_settlement(night).owed, {"night": night}
    else:
        owed, where = owed_across_nights(night.group), {}
    return lambda: pay_owed(
        group=night.group,
        payer=person_key(seats["Chris"]),
        payee=person_key(seats["Anna"]),
        cents=60,
        currency="EUR",
        fingerprint=owed.fingerprint,
        marked_by=user("Anna"),
        **where,
    )


def a_payment_across_nights_taken_back(night: Night) -> Change:
    payment = a_payment_across_nights(night)()
    return lambda: undo_owed_payment(group=night.group, payment=payment, by=user("Chris"))


def settle_everything_turned_on(night: Night) -> Change:
    _settled(night)
    return lambda: set_settle_everything(group=night.group, on=True, by=user("Bram"))


EVERY_CHANGE = [
    a_total,
    a_total_with_its_key,
    the_total_that_records_the_round,
    a_board,
    a_fix,
    an_undo,
    the_nights_rules,
    the_end,
    a_screen_link,
    the_screen_link_taken_back,
    a_late_arrival,
    someone_leaving,
    a_payment_marked,
    a_mark_taken_back,
    what_is_owed_paid_on_the_night,
    a_payment_across_nights,
    a_payment_across_nights_taken_back,
    settle_everything_turned_on,
]


@pytest.mark.parametrize("case", EVERY_CHANGE, ids=lambda case: case.__name__)
def test_every_change_to_a_night_bumps_its_version_exactly_once(db, case):
    night = make_night()
    change = case(night)
    before = version(night)
    change()
    assert version(night) == before + 1


def _same_total_again(night: Night) -> Change:
    enter(night, "Anna", 5)
    return lambda: enter(night, "Anna", 5)


def _the_end_again(night: Night) -> Change:
    finish(night)
    return lambda: end_night(night=night, by=user("Anna"))


def _the_same_link_shared_again(night: Night) -> Change:
    share_screen(night=night, by=user("Anna"))
    return lambda: share_screen(night=night, by=user("Anna"))


def _a_fix_to_the_same_totals(night: Night) -> Change:
    play(night, {"Anna": 5, "Bram": -5, "Chris": 0})
    totals = {entry.seat_id: entry.points for entry in night.rounds.get(number=1).entries.all()}
    return lambda: edit_round(night=night, number=1, points=totals, edited_by=user("Anna"))


def _a_payment_marked_twice(night: Night) -> Change:
    mark = a_payment_marked(night)
    mark()
    return mark


def _a_keyed_save_sent_again(night: Night) -> Change:
    save = a_total_with_its_key(night)
    save()
    return save


def _settle_everything_turned_on_again(night: Night) -> Change:
    turn_on = settle_everything_turned_on(night)
    turn_on()
    return turn_on


@pytest.mark.parametrize(
    "case",
    [
        _settle_everything_turned_on_again,
        _same_total_again,
        _the_end_again,
        _the_same_link_shared_again,
        _a_fix_to_the_same_totals,
        _a_payment_marked_twice,
        _a_keyed_save_sent_again,
    ],
    ids=lambda case: case.__name__.strip("_"),
)
def test_a_change_that_writes_nothing_leaves_the_version_as_it_was(db, case):
    night = make_night()
    change = case(night)
    before = version(night)
    change()
    assert version(night) == before


def test_a_refusal_inside_the_door_bumps_nothing_and_saves_nothing(make_night):
    night = make_night()
    before = version(night)
    with (
        pytest.raises(Refused, match="not today"),
        transaction.atomic(),  # the service's own, as every service has
        night_change(night, by=user("Anna"), may=at_table) as locked,
    ):
        locked.rules = {"jokers": True}
        locked.save(update_fields=["rules"])
        RoundEdit.objects.create(round=open_round(night), changes=[["Anna", 1, 2]])
        raise Refused("not today")
    night.refresh_from_db()
    assert night.version == before and night.rules == {}
    assert not RoundEdit.objects.exists()


def _a_fix_that_does_not_add_up(night: Night) -> Change:
    play(night, {"Anna": 5, "Bram": -5, "Chris": 0})
    totals = {seat.pk: points for seat, points in zip(night.seats.all(), (4, -3, 0), strict=True)}
    return lambda: edit_round(night=night, number=1, points=totals, edited_by=user("Anna"))


def _a_board_with_a_card_twice(night: Night) -> Change:
    seat = seats_of(night)["Anna"]
    board = {**ANNA_BOARD, "top": ["As", "3d", "4h"]}  # the ace of spades is at the bottom too
    return lambda: record_board(
        night=night, round_number=1, seat=seat, board=board, entered_by=user("Anna")
    )


def _leaving_mid_round(night: Night) -> Change:
    enter(night, "Anna", 5)
    return someone_leaving(night)


@pytest.mark.parametrize(
    "case",
    [_a_fix_that_does_not_add_up, _a_board_with_a_card_twice, _leaving_mid_round],
    ids=lambda case: case.__name__.strip("_"),
)
def test_a_refused_change_leaves_the_version_as_it_was(db, case):
    night = make_night()
    change = case(night)
    before = version(night)
    with pytest.raises(Refused):
        change()
    assert version(night) == before


@pytest.mark.database
@pytest.mark.django_db(transaction=True)
def test_the_door_opens_only_inside_a_transaction_that_can_take_a_change_back():
    night = make_night()
    with (
        pytest.raises(TransactionManagementError),
        night_change(night, by=user("Anna"), may=at_table),
    ):
        pass


def test_someone_not_at_the_table_is_refused_before_the_change_runs(make_night, make_user):
    night = make_night()
    dana = make_user("Dana")
    ran = []
    with (
        pytest.raises(Refused, match="Only the players at this table"),
        night_change(night, by=dana, may=at_table),
    ):
        ran.append(True)
    assert ran == []
    with pytest.raises(Refused, match="Only the players at this table"):
        end_night(night=night, by=dana)
    assert not Night.objects.get(pk=night.pk).is_over


def test_only_a_member_of_the_group_marks_its_payments(make_night, make_user):
    night = _settled(make_night())
    seats = seats_of(night)
    with pytest.raises(Refused, match="Dana is not in this group"):
        mark_paid(
            night=night,
            payer=seats["Chris"],
            payee=seats["Anna"],
            cents=60,
            marked_by=make_user("Dana"),
        )
    assert not Payment.objects.exists()


def test_the_locked_night_carries_its_new_version(make_night):
    night = make_night()
    ended = end_night(night=night, by=user("Anna"))
    assert ended.version == version(night) == night.version + 1


def _night_row_reads(queries: list[dict]) -> list[str]:
    row = f'FROM "{Night._meta.db_table}" WHERE "{Night._meta.db_table}"."id" = '
    return [query["sql"] for query in queries if row in query["sql"]]


@pytest.mark.database
@pytest.mark.parametrize("key", ["", KEY], ids=["a total", "a total with its key"])
def test_saving_a_total_reads_and_locks_the_night_once(make_night, key):
    night = make_night()
    seat = seats_of(night)["Anna"]
    with CaptureQueriesContext(connection) as captured:
        record_entry(
            night=night, round_number=1, seat=seat, points=5, entered_by=user("Anna"), key=key
        )
    reads = _night_row_reads(captured.captured_queries)
    assert len(reads) == 1
    if connection.features.has_select_for_update:
        assert reads[0].endswith("FOR UPDATE")


@pytest.mark.database
def test_setting_a_board_with_its_key_reads_and_locks_the_night_once(make_night):
    night = make_night()
    seat = seats_of(night)["Anna"]
    with CaptureQueriesContext(connection) as captured:
        record_board(
            night=night,
            round_number=1,
            seat=seat,
            board=ANNA_BOARD,
            entered_by=user("Anna"),
            key=KEY,
        )
    assert len(_night_row_reads(captured.captured_queries)) == 1


@pytest.mark.database
def test_a_keyed_total_reads_neither_the_night_nor_the_entry_twice(
    make_night, django_assert_num_queries
):
    night = make_night()
    seat = seats_of(night)["Anna"]
    anna = user("Anna")
    # The savepoints of record_entry and of the keyed insert, the group's lock (the lock
    # order: the group, then the night), the night locked, its seats, the key looked up,
    # the open round, its entries (read once), the insert and the version's update. A
    # total before the round adds up changes no seat's money, which is not worked out
    # again.
    with django_assert_num_queries(12):
        record_entry(night=night, round_number=1, seat=seat, points=5, entered_by=anna, key=KEY)


def _seat_writes(captured: CaptureQueriesContext) -> list[str]:
    return [
        query["sql"]
        for query in captured.captured_queries
        if query["sql"].startswith("UPDATE") and "scorekeeper_seat" in query["sql"]
    ]


@pytest.mark.database
def test_the_stored_money_is_written_when_a_round_goes_through_and_not_for_a_total_before(
    make_night,
):
    night = make_night()
    with CaptureQueriesContext(connection) as before:
        enter(night, "Anna", 5)
        enter(night, "Bram", -5)
    assert _seat_writes(before) == []
    with CaptureQueriesContext(connection) as through:
        enter(night, "Chris", 0)
    assert len(_seat_writes(through)) == 1
    stored = {seat.name: seat.points for seat in Night.objects.get(pk=night.pk).seats.all()}
    assert stored == {"Anna": 5, "Bram": -5, "Chris": 0}


def test_a_payment_across_nights_bumps_every_finished_night_of_its_group_and_currency(
    make_night,
):
    first = _settled(make_night())
    second = _settled(make_night(group=first.group))
    running = make_night(group=first.group)
    nights = (first, second, running)
    before = [version(night) for night in nights]
    _paid_across(second)()
    assert [version(night) for night in nights] == [before[0] + 1, before[1] + 1, before[2]]


def test_a_refused_payment_across_nights_bumps_nothing(make_night):
    night = _settled(make_night())
    before = version(night)
    with pytest.raises(Refused, match="has changed since"):
        pay_owed(
            group=night.group,
            payer=person_key(seats_of(night)["Chris"]),
            payee=person_key(seats_of(night)["Anna"]),
            cents=60,
            currency="EUR",
            fingerprint="an older page",
            marked_by=user("Anna"),
        )
    assert version(night) == before


@pytest.mark.database
@pytest.mark.parametrize("case", EVERY_CHANGE, ids=lambda case: case.__name__)
def test_every_door_locks_the_group_before_any_night(db, case):
    # One lock order everywhere (group, then nights by id): two doors can never each
    # hold what the other waits for.
    change = case(make_night())
    with CaptureQueriesContext(connection) as captured:
        change()
    sqls = [query["sql"] for query in captured.captured_queries]
    group_row = f'FROM "{Group._meta.db_table}" WHERE'
    night_rows = f'FROM "{Night._meta.db_table}" WHERE'
    first_group = next(i for i, sql in enumerate(sqls) if group_row in sql)
    assert all(night_rows not in sql for sql in sqls[:first_group])
