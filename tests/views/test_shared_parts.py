"""A change costs the node one render of what every phone shows alike: the night's
shared live parts are rendered once per version and language, and nothing of one
person is in them."""

import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

from django.core.cache import cache
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from scorekeeper.models import Night, User
from scorekeeper.services.nights import end_night
from scorekeeper.views import shared_parts
from scorekeeper.views.shared_parts import SharedNight, kept, shared_night
from tests.helpers import log_in, make_group, make_night, play


def a_table(db):
    group = make_group(members=("Anna", "Bram", "Chris", "Dora"))
    night = make_night(("Anna", "Bram", "Chris"), group=group, guests=("Gus",))
    night.refresh_from_db()
    shown = night.version
    play(night, {"Bram": 4, "Gus": 2})  # Bram typed the guest's total
    return night, shown


def fetch(night, who, version):
    seat = night.seats.filter(user__name=who).first()
    params = {"version": version, "round": 1, "seat": seat.pk if seat else ""}
    return log_in(Client(), who).get(reverse("night_live", args=[night.pk]), params)


def shared_html(shared: SharedNight) -> str:
    parts = [shared.round_head, shared.status_top, shared.status_bottom, shared.standings]
    return "".join(parts + [line.html for line in shared.lines])


def cached_parts(night) -> SharedNight:
    """What the cache keeps for the night's current version (rendered, if it does not)."""
    return shared_night(Night.objects.get(pk=night.pk))


def test_the_shared_parts_are_the_same_bytes_for_any_member_and_nobodys_own(db):
    night, shown = a_table(db)
    assert fetch(night, "Bram", shown).status_code == 200
    for_bram = shared_html(cached_parts(night))
    cache.clear()
    assert fetch(night, "Dora", shown).status_code == 200  # follows along, not playing
    for_dora = shared_html(cached_parts(night))

    assert for_bram == for_dora
    assert "+4" in for_bram and "Gus" in for_bram  # the table's news is in them
    assert "csrf" not in for_bram.lower()
    assert not re.search(r"\byou(r)?\b", for_bram, re.IGNORECASE)
    assert "Change Gus" not in for_bram  # a button offered to some players only


def test_each_phone_gets_its_own_part_around_the_shared_one(db):
    night, shown = a_table(db)
    bram = fetch(night, "Bram", shown).content.decode()
    dora = fetch(night, "Dora", shown).content.decode()
    anna = fetch(night, "Anna", shown).content.decode()

    assert "Change Gus's total" in bram  # he typed it
    assert "Change Gus's total" in anna  # a guest's total: anyone playing
    assert "Change" not in dora  # she does not play this round
    assert "Enter for someone else" in anna and "Enter for someone else" not in dora
    bram_seat = night.seats.get(name="Bram").pk
    assert re.findall(r"&amp;seat=(\d*)\"", bram) == [str(bram_seat)]
    assert re.findall(r"&amp;seat=(\d*)\"", dora) == [""]


def test_the_second_phone_of_a_version_renders_none_of_the_shared_parts(db):
    night, shown = a_table(db)
    with mock.patch.object(shared_parts, "render_to_string", wraps=render_to_string) as renders:
        assert fetch(night, "Anna", shown).status_code == 200
        first = [call.args[0] for call in renders.call_args_list]
        renders.reset_mock()
        assert fetch(night, "Bram", shown).status_code == 200
        assert fetch(night, "Dora", shown).status_code == 200

    assert "scorekeeper/night.html#standings-shared" in first
    assert renders.call_args_list == []


def an_ended_night():
    night = make_night(("Anna", "Bram", "Chris"))
    play(night, {"Anna": 9, "Bram": -3, "Chris": -6})
    end_night(night=night, by=User.objects.get(name="Anna"))
    return night


def fetch_settlement(night, who):
    url = reverse("night_settle_live", args=[night.pk])
    return log_in(Client(), who).get(url, {"version": 0})


def test_the_settlements_shared_parts_are_the_same_for_any_member_and_nobodys_own(db):
    night = an_ended_night()
    parts = []
    for who in ("Chris", "Anna"):  # one who pays, one who is paid
        cache.clear()
        with mock.patch.object(shared_parts, "cache", wraps=cache) as kept:
            assert fetch_settlement(night, who).status_code == 200
        (shared,) = [call.args[1] for call in kept.set.call_args_list]
        parts.append(shared.standings + shared.chart + shared.share)

    assert parts[0] == parts[1]
    assert "Chris" in parts[0] and "−€0.60" in parts[0]
    assert "csrf" not in parts[0].lower()
    assert not re.search(r"\byou(r)?\b", parts[0], re.IGNORECASE)
    assert "Mark paid" not in parts[0]


def test_the_second_phone_renders_none_of_the_settlements_shared_parts(db):
    night = an_ended_night()
    with mock.patch.object(shared_parts, "render_to_string", wraps=render_to_string) as renders:
        chris = fetch_settlement(night, "Chris").content.decode()
        first = [call.args[0] for call in renders.call_args_list]
        renders.reset_mock()
        anna = fetch_settlement(night, "Anna").content.decode()

    assert "scorekeeper/settlement.html#chart-shared" in first
    assert renders.call_args_list == []
    assert "Mark paid" in chris and "Mark paid" in anna  # each its own payments' buttons


def test_phones_asking_for_a_version_together_wait_for_one_render():
    renders = []

    def render():
        renders.append(threading.get_ident())
        time.sleep(0.05)  # the others ask meanwhile
        return "night-shared:test", "the parts"

    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(lambda _: kept("night-shared:test", str, render), range(6)))

    assert answers == ["the parts"] * 6
    assert len(renders) == 1


def fetch_group_list(group, who, version="0"):
    url = reverse("group_live", args=[group.pk])
    return log_in(Client(), who).get(url, {"version": version})


def test_the_group_list_is_rendered_once_a_change_for_every_member(db):
    night = an_ended_night()
    group = night.group
    make_night(("Anna", "Bram"), group=group)  # running: on the list with its round
    with mock.patch.object(shared_parts, "render_to_string", wraps=render_to_string) as renders:
        chris = fetch_group_list(group, "Chris")
        anna = fetch_group_list(group, "Anna")
        rendered = len(renders.call_args_list)
        play(Night.objects.get(ended_at__isnull=True), {"Anna": 2, "Bram": -2})
        after_a_round = fetch_group_list(group, "Chris")

    assert chris.status_code == anna.status_code == 200
    assert chris.content == anna.content  # the same bytes: nothing of either is in them
    assert "csrf" not in chris.content.decode().lower()
    assert rendered == 1
    assert len(renders.call_args_list) == 2  # the round changed what the list shows
    assert "round 2" in after_a_round.content.decode()
    assert "round 2" not in chris.content.decode()
