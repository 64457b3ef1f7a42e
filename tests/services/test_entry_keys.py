"""The key a phone makes for each intended save: a save sent again (kept offline,
retried, tapped twice) is written once, and never lands anywhere else."""

import pytest

from scorekeeper.models import Entry, Night, User
from scorekeeper.services.boards import record_board
from scorekeeper.services.errors import Refused
from scorekeeper.services.rounds import record_entry
from tests.helpers import enter, make_user, open_round, seats_of
from tests.services.test_concurrency import run_at_once

KEY = "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6"
OTHER_KEY = "ffffeeeeddddccccbbbbaaaa99998888"

ANNA_BOARD = {
    "top": ["2c", "3d", "4h"],
    "middle": ["5s", "6s", "8s", "9d", "Jc"],
    "bottom": ["Qh", "Qd", "Kc", "Kd", "As"],
}


def save(night, name, points, *, key=KEY, by=None, number=None):
    seat = seats_of(night)[name]
    user = User.objects.get(name=by or name)
    number = number or open_round(night).number
    return record_entry(
        night=night, round_number=number, seat=seat, points=points, entered_by=user, key=key
    )


def version(night) -> int:
    return Night.objects.get(pk=night.pk).version


def test_a_replayed_key_is_answered_already_saved_and_writes_nothing(make_night):
    night = make_night()
    first = save(night, "Anna", 12)
    assert not first.already_saved
    before = version(night)
    again = save(night, "Anna", 12)
    assert again.already_saved and again.entry.pk == first.entry.pk
    assert Entry.objects.get().client_key == KEY
    assert version(night) == before


def test_a_replay_after_the_round_went_through_is_already_saved(make_night):
    night = make_night(("Anna", "Bram"))
    save(night, "Anna", 4)
    assert enter(night, "Bram", -4).round_recorded
    result = save(night, "Anna", 4, number=1)  # the answer to the first send was lost
    assert result.already_saved and result.entry.round.number == 1
    assert not open_round(night).entries.exists()  # nothing lands in round 2


def test_a_kept_total_whose_round_went_through_with_another_entry_is_refused(make_night):
    night = make_night(("Anna", "Bram"))
    enter(night, "Anna", -3, by="Bram")  # typed for Anna while her phone was offline
    enter(night, "Bram", 3)
    with pytest.raises(Refused, match="Round 1 already went through: your \\+5 was not used"):
        save(night, "Anna", 5, number=1)
    assert Entry.objects.get(seat__name="Anna").points == -3
    assert not open_round(night).entries.exists()


def test_a_key_reused_for_another_seat_or_round_is_refused(make_night):
    night = make_night(("Anna", "Bram"), guests=("Gus",))
    save(night, "Gus", 7, by="Anna")
    with pytest.raises(Refused, match="already used for another seat or round"):
        save(night, "Bram", 7, by="Bram")
    with pytest.raises(Refused, match="already used for another seat or round"):
        save(night, "Gus", 7, by="Anna", number=2)
    assert list(Entry.objects.values_list("seat__name", "points")) == [("Gus", 7)]


def test_a_replayed_key_from_someone_not_seated_is_refused(make_night):
    night = make_night(("Anna", "Bram"))
    dora = make_user("Dora")
    night.group.memberships.create(user=dora)
    save(night, "Anna", 6)
    with pytest.raises(Refused, match="Only players seated"):
        save(night, "Anna", 6, by="Dora")


@pytest.mark.parametrize("key", ["", KEY])
def test_the_retry_shortcut_refuses_a_member_not_seated(make_night, key):
    """A total already recorded, posted again by a member who is not at the table,
    is refused rather than answered "saved"."""
    night = make_night(("Anna", "Bram"))
    dora = make_user("Dora")
    night.group.memberships.create(user=dora)
    enter(night, "Anna", 5)
    enter(night, "Bram", -5)
    with pytest.raises(Refused, match="Only players seated"):
        save(night, "Anna", 5, by="Dora", number=1, key=key.replace("a", "b"))
    # The seated player's own retry is still answered "saved".
    assert enter(night, "Anna", 5, number=1).already_saved


def test_the_same_value_saved_with_a_new_key_keeps_the_new_key(make_night):
    night = make_night(("Anna", "Bram"))
    save(night, "Anna", 2)
    save(night, "Anna", 2, key=OTHER_KEY)  # the same total, tapped again after a reload
    assert Entry.objects.get().client_key == OTHER_KEY
    enter(night, "Bram", -2)
    assert save(night, "Anna", 2, key=OTHER_KEY, number=1).already_saved


def test_a_changed_total_carries_its_own_key(make_night):
    night = make_night()
    save(night, "Anna", 2)
    changed = save(night, "Anna", 9, key=OTHER_KEY)
    assert not changed.already_saved
    assert Entry.objects.get().points == 9
    # The first save, sent again late (its answer was lost), is older than the entry.
    with pytest.raises(Refused, match="was saved again since, by Anna"):
        save(night, "Anna", 2)
    assert Entry.objects.get().points == 9


def test_a_late_resend_never_writes_over_a_total_changed_on_another_device(make_night):
    night = make_night(("Anna", "Bram"))
    save(night, "Anna", 5)  # Anna's phone: saved, but the answer was lost on the Wi-Fi
    save(night, "Anna", 7, key=OTHER_KEY)  # she corrects it on the tablet on the table
    before = version(night)
    with pytest.raises(Refused, match="saved again since, by Anna"):
        save(night, "Anna", 5)  # Anna's phone sends its kept save again
    assert Entry.objects.get(seat__name="Anna").points == 7
    assert version(night) == before
    # Still so once the round went through.
    assert enter(night, "Bram", -7).round_recorded
    with pytest.raises(Refused, match="saved again since"):
        save(night, "Anna", 5, number=1)
    assert Entry.objects.get(seat__name="Anna").points == 7
    assert not open_round(night).entries.exists()


def test_only_the_latest_earlier_keys_are_kept(make_night):
    night = make_night()
    for number in range(Entry.EARLIER_KEYS_KEPT + 5):
        save(night, "Anna", number, key=f"{number:032x}")
    entry = Entry.objects.get()
    assert len(entry.earlier_keys) == Entry.EARLIER_KEYS_KEPT
    assert entry.earlier_keys[-1] == f"{Entry.EARLIER_KEYS_KEPT + 3:032x}"


def test_a_board_sent_twice_with_its_key_counts_once(make_night):
    night = make_night(("Anna", "Bram"))
    anna = User.objects.get(name="Anna")
    seat = seats_of(night)["Anna"]

    def send():
        return record_board(
            night=night, round_number=1, seat=seat, board=ANNA_BOARD, entered_by=anna, key=KEY
        )

    first = send()
    before = version(night)
    again = send()
    assert again.entry.pk == first.entry.pk and again.result.royalties == first.result.royalties
    assert version(night) == before
    assert Entry.objects.get().client_key == KEY


@pytest.mark.database
@pytest.mark.django_db(transaction=True)
def test_two_phones_racing_with_one_key_write_one_entry(make_night):
    night = make_night()  # three seats: the round stays open
    results = []

    def send():
        results.append(save(night, "Anna", 11))

    assert run_at_once([send, send, send]) == []
    assert Entry.objects.filter(round__night=night).count() == 1
    assert sorted(result.already_saved for result in results) == [False, True, True]
