"""The night's chart as the pages read it: who keeps which colour, where each line starts."""

import pytest

from scorekeeper.models import User
from scorekeeper.reads.results import night_chart
from scorekeeper.services.seats import add_seat, leave_seat
from tests.helpers import enter, play, seats_of

pytestmark = pytest.mark.django_db


def chart_of(night):
    """``{name: (colour class, [(x, y), ...])}`` from the night's chart."""
    return {
        line.title.rsplit(" ", 1)[0]: (line.css_class, list(line.points))
        for line in night_chart(night).lines
    }


def colours(chart):
    return {name: colour for name, (colour, _) in chart.items()}


def test_a_guest_sitting_in_between_two_players_changes_nobody_elses_colour(make_night):
    night = play(make_night(), {"Anna": 5, "Bram": -2, "Chris": -3})
    before = colours(chart_of(night))

    # Dana sits down between Anna and Bram: Bram and Chris move one place round the table.
    add_seat(night=night, by=User.objects.get(name="Anna"), guest_name="Dana", position=2)
    assert [seat.name for seat in night.seats.all()] == ["Anna", "Dana", "Bram", "Chris"]
    play(night, {"Anna": 1, "Bram": -1, "Chris": 0})  # the hand on the table: Dana plays the next
    play(night, {"Anna": 1, "Dana": 2, "Bram": -1, "Chris": -2})
    after = colours(chart_of(night))

    assert before == {"Anna": "player-1", "Bram": "player-2", "Chris": "player-3"}
    assert after == {**before, "Dana": "player-4"}


def test_someone_leaving_and_coming_back_keeps_their_colour_and_the_others_theirs(make_night):
    night = make_night(("Anna", "Bram", "Chris"), guests=("Gus",))
    play(night, {"Anna": 3, "Bram": -1, "Chris": -1, "Gus": -1})
    before = colours(chart_of(night))
    anna = User.objects.get(name="Anna")

    leave_seat(night=night, seat=seats_of(night)["Bram"], by=anna)
    play(night, {"Anna": 2, "Chris": -1, "Gus": -1})
    while_away = chart_of(night)
    add_seat(night=night, by=anna, user=User.objects.get(name="Bram"), position=1)
    # Round 3 was dealt without him (Gus's total typed by Anna, Bram now sitting first).
    for name, points in (("Anna", 1), ("Chris", -1), ("Gus", 0)):
        enter(night, name, points, by="Anna")
    play(night, {"Anna": 1, "Bram": 4, "Chris": -2, "Gus": -3})
    back = chart_of(night)

    assert colours(while_away) == colours(back) == before
    # Away for round 2: his line stops after round 1, then, back, runs on from it.
    assert len(while_away["Bram"][1]) == 2
    (_, bram), (_, gus) = back["Bram"], back["Gus"]
    assert [x for x, _ in bram] == [x for x, _ in gus]
    assert bram[2][1] == bram[1][1]  # round 2 left his total where it was


def test_a_late_arrivals_line_starts_at_the_round_they_sat_down(make_night):
    night = play(make_night(), {"Anna": 5, "Bram": -2, "Chris": -3})
    add_seat(night=night, by=User.objects.get(name="Anna"), guest_name="Dana", position=4)
    play(night, {"Anna": 1, "Bram": -1, "Chris": 0})  # round 2 was dealt without her
    play(night, *[{"Anna": 1, "Bram": 1, "Chris": -4, "Dana": 2}] * 2)

    chart = chart_of(night)

    (_, anna), (_, dana) = chart["Anna"], chart["Dana"]
    zero_y = anna[0][1]
    # Dana sat down during round 2, dealt in from round 3: her line starts at 0 after
    # round 2, not at round 0.
    assert dana[0] == (anna[2][0], zero_y)
    assert [x for x, _ in dana] == [x for x, _ in anna[2:]]
    assert dana[1][1] < zero_y  # +2 after round 3, higher up the chart


def test_someone_dealt_in_from_the_next_round_has_no_line_yet(make_night):
    night = play(make_night(), {"Anna": 5, "Bram": -2, "Chris": -3})
    add_seat(night=night, by=User.objects.get(name="Anna"), guest_name="Dana", position=4)

    assert set(chart_of(night)) == {"Anna", "Bram", "Chris"}
