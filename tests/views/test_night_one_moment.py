"""Every part of a night page drawn from one moment, each part saying which, and a
night that ends taking every phone to its settlement."""

import re

from django.urls import reverse

from scorekeeper.models import Night, User
from scorekeeper.reads import nights as night_reads
from scorekeeper.services.round_fixes import undo_last_round
from tests.helpers import enter, finish, play_round

VERSIONS = re.compile(r'id="([\w-]+)"[^>]*data-version="(\d+)"')


def parts(body: str) -> dict[str, int]:
    """Each live part of the page and the version it says it shows."""
    return {part: int(version) for part, version in VERSIONS.findall(body)}


def saving_while_the_page_is_read(monkeypatch, saves):
    """The chart, read after the round and the standings, finds ``saves`` landing first
    (one per read, while any are left): a phone's save between two of the page's queries."""
    chart = night_reads.night_chart

    def chart_after_a_save(night):
        if saves:
            saves.pop(0)()
        return chart(night)

    monkeypatch.setattr(night_reads, "night_chart", chart_after_a_save)


def test_a_save_landing_while_the_page_is_read_gives_a_page_of_the_moment_after(
    login, make_night, monkeypatch
):
    night = make_night(("Anna", "Bram"))
    enter(night, "Anna", 3)
    saving_while_the_page_is_read(monkeypatch, [lambda: enter(night, "Bram", -3)])
    body = login("Anna").get(reverse("night_detail", args=[night.pk])).content.decode()
    version = Night.objects.get(pk=night.pk).version
    # Without reading it again: "Round 1" and "Sum so far +3" beside a chart after round 1.
    assert "Round 2" in body and "after 1 round" in body and "Round 1 went through" in body
    assert "Sum so far +3" not in body
    assert set(parts(body).values()) == {version}


def test_a_page_whose_night_keeps_changing_is_read_under_its_lock(login, make_night, monkeypatch):
    night = make_night(("Anna", "Bram"))
    totals = [(3, -3), (1, -1), (2, -2)]
    saves = [
        (lambda a=a, b=b: (enter(night, "Anna", a), enter(night, "Bram", b))) for a, b in totals
    ]
    saving_while_the_page_is_read(monkeypatch, saves)
    body = login("Anna").get(reverse("night_detail", args=[night.pk])).content.decode()
    assert not saves  # a save landed during each of the tries without the lock
    assert "Round 4" in body and "after 3 rounds" in body
    assert set(parts(body).values()) == {Night.objects.get(pk=night.pk).version}


def test_every_live_answer_says_the_version_it_was_drawn_from(login, make_night):
    night = make_night(("Anna", "Bram"))
    anna = login("Anna")
    poll = anna.get(reverse("night_live", args=[night.pk]), {"version": "0", "round": "1"})
    saved = anna.post(
        reverse("entry_save", args=[night.pk]),
        {"round": 1, "seat": night.seats.get(name="Anna").pk, "points": 4},
        HTTP_HX_REQUEST="true",
    )
    refused = anna.post(
        reverse("entry_save", args=[night.pk]),
        {"round": 1, "seat": night.seats.get(name="Anna").pk, "points": "x"},
        HTTP_HX_REQUEST="true",
    )
    assert poll["OFC-Version"] == "1"
    assert set(parts(poll.content.decode()).values()) == {1}
    assert saved["OFC-Version"] == refused["OFC-Version"] == "2"
    assert set(parts(saved.content.decode()).values()) == {2}


def test_when_the_night_ends_every_phone_polling_it_goes_to_its_settlement(login, make_night):
    night = make_night(("Anna", "Bram", "Chris"))
    play_round(night, {"Anna": 3, "Bram": -3, "Chris": 0})
    version = Night.objects.get(pk=night.pk).version
    finish(night)
    for name in ("Bram", "Chris"):
        answer = login(name).get(
            reverse("night_live", args=[night.pk]), {"version": version, "round": "2"}
        )
        assert answer["HX-Redirect"] == reverse("night_settle", args=[night.pk])


def test_a_reopened_round_says_whose_confirmation_it_waits_for(login, make_night):
    night = make_night(("Anna", "Bram", "Chris"))
    play_round(night, {"Anna": 3, "Bram": -3, "Chris": 0})
    undo_last_round(night=night, by=User.objects.get(name="Anna"))
    enter(night, "Bram", -3)
    body = login("Chris").get(reverse("night_detail", args=[night.pk])).content.decode()
    assert "Round 1 was reopened by Anna." in body
    assert "Waiting for Anna and Chris to confirm." in body
    enter(night, "Chris", 1)  # a changed total: the sum is off, and it says that instead
    body = login("Chris").get(reverse("night_detail", args=[night.pk])).content.decode()
    assert "Waiting for Anna" not in body and "1 point too many" in body
