"""The night as a state machine: totals for the open round and for rounds that went
through (a lagging phone, a save kept offline), confirmations and changes after an
undo, fixes, late seats and leavers, from random phones in random orders. After every
step the stored rounds equal a plain model's, and no total ever lands in a round
other than the one it was typed for."""

from dataclasses import dataclass, field

import pytest
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from scorekeeper.models import Night, Round, User
from scorekeeper.services.entry_keys import NotOpen
from scorekeeper.services.errors import Refused
from scorekeeper.services.round_fixes import edit_round, undo_last_round
from scorekeeper.services.rounds import record_entry
from scorekeeper.services.seats import add_seat, leave_seat
from tests.examples import examples
from tests.helpers import make_night

PLAYERS = ("Anna", "Bram", "Cora", "Dan")
LATE = ("Eve", "Finn")


@dataclass
class Model:
    """What the table expects: the rounds that went through, the open one's totals, who
    plays which rounds, and, after an undo, whether the table looked at the round again."""

    recorded: dict[int, dict[str, int]] = field(default_factory=dict)
    open_number: int = 1
    open_totals: dict[str, int] = field(default_factory=dict)
    seats: dict[str, tuple[int, int | None]] = field(default_factory=dict)  # first, last
    reopened: bool = False
    changed: bool = False
    confirmed: set[str] = field(default_factory=set)

    def playing(self, number: int) -> list[str]:
        return [
            name
            for name, (first, last) in self.seats.items()
            if first <= number and (last is None or number <= last)
        ]

    def save(self, name: str, points: int) -> None:
        before = self.open_totals.get(name)
        self.open_totals[name] = points
        if self.reopened:
            if before is not None and before != points:
                self.changed = True
            elif before == points:
                self.confirmed.add(name)
        playing = self.playing(self.open_number)
        complete = set(self.open_totals) == set(playing) and sum(self.open_totals.values()) == 0
        looked_at = not self.reopened or self.changed or self.confirmed >= set(playing)
        if complete and looked_at:
            self.recorded[self.open_number] = dict(self.open_totals)
            self.open_number += 1
            self.open_totals = {}
            self.reopened, self.changed, self.confirmed = False, False, set()


class NightMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        # Each example in a transaction of its own, taken back in teardown().
        self.example = transaction.atomic()
        self.example.__enter__()
        self.night = make_night(PLAYERS)
        self.model = Model(seats={name: (1, None) for name in PLAYERS})
        self.keys = 0

    def seat(self, name: str):
        return self.night.seats.get(name=name)

    def by(self, name: str | None = None) -> User:
        """The player ``name``, or for a guest (or the table) a member playing now;
        when only guests play on, whoever started the night, whose phone is still
        at the table."""
        seat = self.seat(name) if name else None
        if seat is not None and seat.user is not None:
            return seat.user
        playing = self.model.playing(self.model.open_number)
        members = (self.seat(n).user for n in playing if self.seat(n).user is not None)
        return next(members, self.night.started_by)

    def key(self) -> str:
        self.keys += 1
        return f"{self.keys:032x}"

    def enter_open(self, name: str, points: int) -> None:
        """``name``'s total for the open round, entered by whoever by() says, and in the model."""
        record_entry(
            night=self.night,
            round_number=self.model.open_number,
            seat=self.seat(name),
            points=points,
            entered_by=self.by(name),
            key=self.key(),
        )
        self.model.save(name, points)

    @rule(data=st.data(), points=st.integers(-30, 30))
    def a_total_for_the_open_round(self, data, points):
        playing = self.model.playing(self.model.open_number)
        missing = [n for n in playing if n not in self.model.open_totals]
        # Mostly a total still missing, as a table plays; sometimes one changed again.
        name = data.draw(
            st.sampled_from(missing if missing and data.draw(st.booleans()) else playing)
        )
        missing = [n for n in playing if n not in self.model.open_totals]
        if data.draw(st.booleans()) and missing == [name]:
            points = -sum(self.model.open_totals.values())  # the total that adds up
        self.enter_open(name, points)

    @precondition(lambda self: self.model.reopened)
    @rule(data=st.data())
    def a_confirmation_after_the_undo(self, data):
        name = data.draw(st.sampled_from(sorted(self.model.open_totals)))
        points = self.model.open_totals[name]
        self.enter_open(name, points)

    @precondition(lambda self: self.model.recorded)
    @rule(data=st.data(), points=st.integers(-30, 30))
    def a_total_for_a_round_that_went_through(self, data, points):
        number = data.draw(st.sampled_from(sorted(self.model.recorded)))
        name = data.draw(st.sampled_from(sorted(self.model.recorded[number])))
        with pytest.raises(NotOpen):
            record_entry(
                night=self.night,
                round_number=number,
                seat=self.seat(name),
                points=points,
                entered_by=self.by(name),
                key=self.key(),
            )

    @precondition(lambda self: self.model.recorded and not self.model.open_totals)
    @rule()
    def undo(self):
        undo_last_round(night=self.night, by=self.by())
        model = self.model
        model.open_number -= 1
        model.open_totals = model.recorded.pop(model.open_number)
        model.reopened, model.changed, model.confirmed = True, False, set()

    @precondition(lambda self: self.model.recorded)
    @rule(data=st.data(), shift=st.integers(1, 9))
    def a_fix(self, data, shift):
        number = data.draw(st.sampled_from(sorted(self.model.recorded)))
        totals = dict(self.model.recorded[number])
        first, second = data.draw(
            st.lists(st.sampled_from(sorted(totals)), min_size=2, max_size=2, unique=True)
        )
        totals[first] += shift
        totals[second] -= shift
        seats = {self.seat(name).pk: points for name, points in totals.items()}
        edit_round(night=self.night, number=number, points=seats, edited_by=self.by())
        self.model.recorded[number] = totals

    @precondition(lambda self: len([n for n in LATE if n not in self.model.seats]) > 0)
    @rule()
    def a_late_seat(self):
        name = next(n for n in LATE if n not in self.model.seats)
        if len(self.model.playing(self.model.open_number + 1)) >= 4:
            with pytest.raises(Refused):
                add_seat(night=self.night, by=self.by(), guest_name=name, position=9)
            return
        add_seat(night=self.night, by=self.by(), guest_name=name, position=9)
        self.model.seats[name] = (self.model.open_number + 1, None)

    @precondition(lambda self: not self.model.open_totals)
    @rule(data=st.data())
    def a_leaver(self, data):
        playing = self.model.playing(self.model.open_number)
        name = data.draw(st.sampled_from(playing))
        if len(playing) <= 2:
            with pytest.raises(Refused):
                leave_seat(night=self.night, seat=self.seat(name), by=self.by())
            return
        leave_seat(night=self.night, seat=self.seat(name), by=self.by())
        first, _last = self.model.seats[name]
        if first >= self.model.open_number and not any(
            name in totals for totals in self.model.recorded.values()
        ):
            del self.model.seats[name]  # never played a hand: the seat is gone
        else:
            self.model.seats[name] = (first, self.model.open_number - 1)

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self.example.__exit__(None, None, None)

    @invariant()
    def the_stored_rounds_are_the_models(self):
        night = Night.objects.get(pk=self.night.pk)
        stored = {
            round_.number: dict(round_.entries.values_list("seat__name", "points"))
            for round_ in Round.objects.filter(night=night)
        }
        recorded = {
            number
            for number in stored
            if Round.objects.get(night=night, number=number).recorded_at is not None
        }
        assert recorded == set(self.model.recorded)
        assert {n: stored[n] for n in recorded} == self.model.recorded
        assert night.open_round().number == self.model.open_number
        assert stored[self.model.open_number] == self.model.open_totals
        # No round past the open one ever holds a total.
        assert not any(
            totals for number, totals in stored.items() if number > self.model.open_number
        )


@pytest.mark.django_db
def test_a_night_driven_in_random_orders_stores_what_the_model_expects():
    NightMachine.TestCase.settings = settings(
        max_examples=examples(10),
        stateful_step_count=30,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    NightMachine.TestCase().runTest()
