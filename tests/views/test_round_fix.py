"""Fixing a round from its page: the page carries the round as it showed it, and a
fix from an out-of-date page is refused with what changed, by whom."""

from django.test import Client
from django.urls import reverse

from scorekeeper.models import Entry, RoundEdit, User
from scorekeeper.services.round_fixes import undo_last_round
from tests.helpers import enter, log_in, play


def fix_page(client, night):
    return client.get(reverse("round_edit", args=[night.pk, 1]))


def state_on(page) -> str:
    html = page.content.decode()
    start = html.index('name="state" value="') + len('name="state" value="')
    return html[start : html.index('"', start)]


def post_fix(client, night, state, anna, bram):
    seats = {seat.name: seat.pk for seat in night.seats.all()}
    data = {f"points_{seats['Anna']}": anna, f"points_{seats['Bram']}": bram}
    if state is not None:
        data["state"] = state
    return client.post(reverse("round_edit", args=[night.pk, 1]), data)


def test_a_fix_from_a_page_opened_before_another_fix_is_refused(login, make_night):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 2, "Bram": -2})
    anna = login("Anna")
    anna_state = state_on(fix_page(anna, night))  # Anna opens "fix round 1"...

    bram = log_in(Client(), "Bram")
    saved = post_fix(bram, night, state_on(fix_page(bram, night)), 5, -5)
    assert saved.status_code == 302  # ...Bram saves his fix first...

    refused = post_fix(anna, night, anna_state, 3, -3)  # ...Anna saves from the old page.
    html = refused.content.decode()
    assert refused.status_code == 200
    assert "Round 1 changed while this page was open" in html
    assert "Bram changed it" in html and "Anna +2 → +5" in html
    # Bram's fix stands, and the form starts again from the totals as they are now.
    assert sorted(Entry.objects.values_list("points", flat=True)) == [-5, 5]
    assert RoundEdit.objects.count() == 1
    assert 'value="5"' in html and 'value="-5"' in html
    # From the page she now has, Anna's fix goes through.
    assert post_fix(anna, night, state_on(refused), 3, -3).status_code == 302
    assert sorted(Entry.objects.values_list("points", flat=True)) == [-3, 3]


def test_two_fixes_in_sequence_each_from_a_fresh_page_both_count(login, make_night):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 2, "Bram": -2})
    client = login("Anna")
    assert post_fix(client, night, state_on(fix_page(client, night)), 4, -4).status_code == 302
    assert post_fix(client, night, state_on(fix_page(client, night)), 6, -6).status_code == 302
    assert [e.changes for e in RoundEdit.objects.order_by("pk")] == [
        [["Anna", 2, 4], ["Bram", -2, -4]],
        [["Anna", 4, 6], ["Bram", -4, -6]],
    ]


def test_a_fix_without_the_pages_state_says_reload_and_saves_nothing(login, make_night):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 2, "Bram": -2})
    client = login("Anna")
    for state in (None, "x" * 500):
        response = post_fix(client, night, state, 4, -4)
        assert response.status_code == 200
        assert "This page is out of date. Reload it" in response.content.decode()
    assert not RoundEdit.objects.exists()


def test_an_undo_since_the_page_was_opened_is_said_in_words(login, make_night):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 2, "Bram": -2})
    anna = login("Anna")
    anna_state = state_on(fix_page(anna, night))
    undo_last_round(night=night, by=User.objects.get(name="Bram"))
    play(night, {"Anna": 2, "Bram": -2})  # the same totals again: recorded, nothing fixed
    assert list(RoundEdit.objects.values_list("kind", flat=True)) == [RoundEdit.Kind.UNDO]

    html = post_fix(anna, night, anna_state, 3, -3).content.decode()
    assert "Round 1 changed while this page was open (Bram reopened it with undo at " in html


def test_the_rounds_page_says_an_undo_in_the_readers_language(login, make_night):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 2, "Bram": -2})
    undo_last_round(night=night, by=User.objects.get(name="Bram"))
    enter(night, "Anna", 5)
    enter(night, "Bram", -5)
    anna = login("Anna")
    url = reverse("night_rounds", args=[night.pk])
    html = anna.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Reopened with undo by Bram, " in html
    assert "Fixed by Anna, " in html and "Anna +2 → +5" in html
    html = anna.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Teruggedraaid door Bram, " in html
