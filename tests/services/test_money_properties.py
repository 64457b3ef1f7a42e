"""Random groups played through the app's own services, with the money checked after
every step against a plain recomputation (issue 22).

Each example plays nights at two stakes and in two currencies, with a loss cap or
none, a guest, a member who leaves, a player who leaves a night early and may pay
before going (issue 32), marks on the nights' settlements, partial
payments across nights, payments taken back, fixes, and settle-everything switched on
and off. After every step: the stored figures equal what the entries, the caps and
the payments come to, worked out here without the app's code; per currency the
unpaid money sums to zero; every settlement page and the group page render; a mark
on a line that a payment across nights squared is refused, one on a line whose two
players paid across nights since, to other nights, asks first and writes nothing
(issue 32), and one on an open line goes through once; every settlement's lines
square every seat, so nobody pays twice. At the end, paying every payment the group
page shows leaves nothing owed.
"""

from collections import defaultdict

from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from scorekeeper.models import Entry, Group, Night, Payment, Seat, User
from scorekeeper.models.payments import TabPart, TabPayment
from scorekeeper.reads.owed import owed_across_nights
from scorekeeper.reads.results import night_results
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import leave_group
from scorekeeper.services.payments import (
    mark_paid,
    pay_owed,
    set_settle_everything,
    undo_owed_payment,
    unmark_paid,
)
from scorekeeper.services.round_fixes import edit_round
from scorekeeper.services.seats import leave_seat
from scorekeeper.table.people import person_key
from scorekeeper.table.settlement import apply_loss_cap
from tests.examples import examples
from tests.helpers import finish, log_in, make_group, make_night, play

MEMBERS = ("Anna", "Bram", "Chris", "Dora")
STEPS = (
    "night",
    "night",
    "mark",
    "pay",
    "pay",
    "undo",
    "unmark",
    "fix",
    "leave",
    "fold",
    "early",
    "again",
)


def _zero_sum(data, players: list[str]) -> dict[str, int]:
    points = [data.draw(st.integers(-30, 30)) for _ in players[1:]]
    return dict(zip(players, [-sum(points), *points], strict=True))


def _recomputed() -> dict[int, tuple[int, int, int]]:
    """Each seat's (points, cents, unpaid cents), from the rows alone."""
    points: dict[int, int] = defaultdict(int)
    for seat_id, value in Entry.objects.filter(round__recorded_at__isnull=False).values_list(
        "seat_id", "points"
    ):
        points[seat_id] += value
    paid: dict[int, int] = defaultdict(int)
    for payer, payee, cents in Payment.objects.values_list("payer_id", "payee_id", "cents"):
        paid[payer] += cents
        paid[payee] -= cents
    for seat_id, cents in TabPart.objects.values_list("seat_id", "cents"):
        paid[seat_id] += cents
    figures = {}
    for night in Night.objects.prefetch_related("seats"):
        seats = list(night.seats.all())
        money = {seat.pk: points[seat.pk] * night.point_cents for seat in seats}
        if night.loss_cap_cents:
            money = dict(apply_loss_cap(money, night.loss_cap_cents).balances)
        for seat in seats:
            figures[seat.pk] = (points[seat.pk], money[seat.pk], money[seat.pk] + paid[seat.pk])
    return figures


def _party(night: Night, payer: Seat, payee: Seat, **_) -> User:
    """Someone who may mark a payment of ``night`` paid: its payer or payee while in the
    group, or whoever started the night, who speaks for a guest."""
    for seat in (payer, payee):
        if seat.user_id and night.has_member(seat.user):
            return seat.user
    return night.started_by


class MoneyOverRandomGroups(TestCase):
    def check(self, group: Group, client: Client) -> None:
        stored = {
            seat.pk: (seat.points, seat.cents, seat.unpaid_cents) for seat in Seat.objects.all()
        }
        self.assertEqual(stored, _recomputed())
        unpaid: dict[str, int] = defaultdict(int)
        for seat in Seat.objects.filter(night__ended_at__isnull=False).select_related("night"):
            unpaid[seat.night.currency] += seat.unpaid_cents
        self.assertEqual({currency: 0 for currency in unpaid}, dict(unpaid))
        self.assertEqual(client.get(reverse("group_detail", args=[group.pk])).status_code, 200)
        for night in group.nights.all():
            page = client.get(reverse("night_settle", args=[night.pk]))
            self.assertEqual(page.status_code, 200, night)
            # The settlement's lines square every seat once: nobody pays twice.
            squared = {seat.pk: seat.cents for seat in night.seats.all()}
            for line in night_results(night).payments:
                squared[line.payer.pk] += line.cents
                squared[line.payee.pk] -= line.cents
            self.assertEqual(set(squared.values()) - {0}, set(), night)

    @settings(
        max_examples=examples(8),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(st.data())
    def test_the_money_adds_up_after_every_step(self, data) -> None:
        group = make_group(members=MEMBERS)
        anna = User.objects.get(name="Anna")
        client = log_in(Client(), anna)
        members = list(MEMBERS)

        for step in data.draw(st.lists(st.sampled_from(STEPS), min_size=3, max_size=9)):
            finished = list(group.nights.filter(ended_at__isnull=False).order_by("pk"))
            if step == "night" or not finished:
                players = data.draw(st.lists(st.sampled_from(members), min_size=2, unique=True))
                players = ["Anna", *[name for name in players if name != "Anna"]][:4]
                guests = ("Gus",) if len(players) < 4 and data.draw(st.booleans()) else ()
                night = make_night(
                    tuple(players),
                    guests=guests,
                    group=group,
                    point_cents=data.draw(st.sampled_from([10, 50])),
                    loss_cap_cents=data.draw(st.sampled_from([None, 300])),
                )
                if data.draw(st.integers(0, 3)) == 0:  # a night played abroad
                    Night.objects.filter(pk=night.pk).update(currency="GBP")
                seated = [*players, *guests]
                rounds = data.draw(st.integers(1, 3))
                finish(play(night, *[_zero_sum(data, seated) for _ in range(rounds)]))
            elif step == "mark":
                night = data.draw(st.sampled_from(finished))
                for line in night_results(night).payments:
                    if line.is_paid:
                        continue
                    kwargs = dict(payer=line.payer, payee=line.payee, cents=line.cents)
                    if line.across:  # squared across nights: a mark would count it twice
                        with self.assertRaises(Refused):
                            mark_paid(night=night, marked_by=_party(night, **kwargs), **kwargs)
                    elif line.elsewhere:
                        # The two paid across nights since, and it went to other nights:
                        # one tap may be that money again, so it asks and writes nothing.
                        marks = Payment.objects.count()
                        with self.assertRaisesRegex(Refused, "Is this the "):
                            mark_paid(night=night, marked_by=_party(night, **kwargs), **kwargs)
                        self.assertEqual(Payment.objects.count(), marks)
                        if data.draw(st.booleans()):  # told it is another payment
                            mark_paid(
                                night=night,
                                marked_by=_party(night, **kwargs),
                                another_payment=True,
                                **kwargs,
                            )
                    elif data.draw(st.booleans()):
                        mark_paid(night=night, marked_by=_party(night, **kwargs), **kwargs)
                        mark_paid(
                            night=night, marked_by=_party(night, **kwargs), **kwargs
                        )  # a double tap
            elif step == "pay":
                owed = owed_across_nights(group)
                if owed.payments:
                    payment = data.draw(st.sampled_from(owed.payments))
                    cents = data.draw(st.integers(1, payment.cents))
                    pay_owed(
                        group=group,
                        payer=payment.payer.key,
                        payee=payment.payee.key,
                        cents=cents,
                        currency=payment.currency,
                        fingerprint=owed.fingerprint,
                        marked_by=anna,
                    )
            elif step == "undo":
                payments = list(TabPayment.objects.filter(group=group).order_by("pk"))
                if payments:
                    undo_owed_payment(
                        group=group, payment=data.draw(st.sampled_from(payments)), by=anna
                    )
            elif step == "unmark":
                marks = list(Payment.objects.filter(night__group=group).order_by("pk"))
                if marks:
                    mark = data.draw(st.sampled_from(marks))
                    unmark_paid(
                        night=mark.night,
                        payment=mark,
                        by=_party(mark.night, mark.payer, mark.payee),
                    )
            elif step == "fix":
                night = data.draw(st.sampled_from(finished))
                seats = list(night.seats.all())
                points = {seat.pk: 0 for seat in seats}
                paid = Payment.objects.filter(night=night).exists() or (
                    TabPart.objects.filter(seat__night=night).exists()
                )
                by = night.started_by
                if paid:  # a fix under money already paid is refused until it is undone
                    with self.assertRaises(Refused):
                        edit_round(night=night, number=1, points=points, edited_by=by)
                else:
                    edit_round(night=night, number=1, points=points, edited_by=by)
            elif step == "leave" and "Dora" in members:
                running = group.nights.filter(ended_at__isnull=True, seats__user__name="Dora")
                if not running.exists():
                    leave_group(group=group, user=User.objects.get(name="Dora"))
                    members.remove("Dora")
            elif step == "early":
                # Someone leaves after the first round and may pay before going; the
                # night goes on without them and ends.
                players = [name for name in members if name != "Dora"][:3]
                if len(players) < 3:
                    continue
                night = make_night(tuple(players), group=group, point_cents=10)
                play(night, _zero_sum(data, players))
                leaver = night.seats.get(name=data.draw(st.sampled_from(players)))
                leave_seat(night=night, seat=leaver, by=anna)
                for line in night_results(night).payments:
                    if line.leaver is not None and data.draw(st.booleans()):
                        mark_paid(
                            night=night,
                            payer=line.payer,
                            payee=line.payee,
                            cents=line.cents,
                            marked_by=_party(night, line.payer, line.payee),
                        )
                self.check(group, client)
                rest = [name for name in players if name != leaver.name]
                finish(play(night, _zero_sum(data, rest)))
            elif step == "again":
                # Someone pays across nights what a night's open line owes; when it all
                # goes to other nights (oldest first), one tap on that line may be the
                # same money again: it asks and writes nothing. The newest night with
                # such a line is taken: the payment goes to older ones first.
                owed = owed_across_nights(group)
                found = []
                for night in reversed(finished):
                    for line in night_results(night).payments:
                        sides = (person_key(line.payer), person_key(line.payee), night.currency)
                        if line.is_open and owed.find(*sides):
                            found.append((night, line, sides))
                if not found:
                    continue
                night, line, sides = found[0]
                owing = owed.find(*sides)
                tab = pay_owed(
                    group=group,
                    payer=sides[0],
                    payee=sides[1],
                    cents=data.draw(st.integers(1, owing.cents)),
                    currency=night.currency,
                    fingerprint=owed.fingerprint,
                    marked_by=anna,
                )
                if not tab.parts.filter(seat__night=night).exists():
                    marks = Payment.objects.count()
                    kwargs = dict(payer=line.payer, payee=line.payee, cents=line.cents)
                    with self.assertRaisesRegex(Refused, "Is this the "):
                        mark_paid(night=night, marked_by=_party(night, **kwargs), **kwargs)
                    self.assertEqual(Payment.objects.count(), marks)
            elif step == "fold":
                set_settle_everything(group=group, on=data.draw(st.booleans()), by=anna)
            self.check(group, client)

        # Everything the group page shows, paid in full, leaves nothing owed.
        for _ in range(50):
            owed = owed_across_nights(group)
            if not owed.payments:
                break
            payment = owed.payments[0]
            pay_owed(
                group=group,
                payer=payment.payer.key,
                payee=payment.payee.key,
                cents=payment.cents,
                currency=payment.currency,
                fingerprint=owed.fingerprint,
                marked_by=anna,
            )
        self.assertEqual(owed_across_nights(group).payments, [])
        # Nobody is left owing or owed in any currency (one of their nights can still
        # be +€0.50 and another -€0.50).
        left: dict[tuple[str, str], int] = defaultdict(int)
        for seat in Seat.objects.filter(night__ended_at__isnull=False).select_related("night"):
            left[person_key(seat), seat.night.currency] += seat.unpaid_cents
        self.assertEqual({key: 0 for key in left}, dict(left))
        self.check(group, client)
