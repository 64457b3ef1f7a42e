"""Two phones saving a fix of the same round at the same instant, from the same
page: one fix counts, the other is refused in words; never both, never silently."""

import pytest

from scorekeeper.models import Entry, RoundEdit, User
from scorekeeper.services.round_fixes import OutOfDateFix, edit_round, fix_state
from tests.helpers import play, seats_of
from tests.services.test_concurrency import run_at_once

pytestmark = pytest.mark.database

PAIRS = 10


@pytest.mark.django_db(transaction=True)
def test_simultaneous_fixes_from_the_same_page_one_wins_the_other_is_told(make_night):
    night = make_night(("Anna", "Bram"))
    seats = seats_of(night)
    anna, bram = User.objects.get(name="Anna"), User.objects.get(name="Bram")
    for pair in range(PAIRS):
        play(night, {"Anna": 1, "Bram": -1})
        number = pair + 1
        round_ = night.rounds.get(number=number)
        seen = fix_state(round_, round_.entries.all())
        refused: list[OutOfDateFix] = []

        def fix(by, value, number=number, seen=seen, refused=refused):
            try:
                edit_round(
                    night=night,
                    number=number,
                    edited_by=by,
                    seen=seen,
                    points={seats["Anna"].pk: value, seats["Bram"].pk: -value},
                )
            except OutOfDateFix as error:
                refused.append(error)

        errors = run_at_once([lambda: fix(anna, 5), lambda: fix(bram, 7)])
        assert errors == []
        assert len(refused) == 1
        edits = list(RoundEdit.objects.filter(round__number=number))
        assert len(edits) == 1
        winner = edits[0].edited_by.name
        assert f"{winner} changed it" in str(refused[0])
        anna_points = Entry.objects.get(round__number=number, seat=seats["Anna"]).points
        assert anna_points == (5 if winner == "Anna" else 7)
