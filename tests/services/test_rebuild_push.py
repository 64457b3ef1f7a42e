"""``rebuild`` goes through its door (services/locks.figures_change): the nights whose
stored figures it found different go up a version and their phones are told after
commit (a running night on its own channel, the settlements on the group's), the
others are left as they were, and nothing goes on the record (why: the door's
docstring)."""

from scorekeeper.models import Change, Entry, Night, Seat
from scorekeeper.services.rebuild import rebuild_stored_figures
from tests.helpers import finish, make_group, make_night, play
from tests.services.test_push import front  # noqa: F401 (a fixture)


def versions() -> dict[int, int]:
    return dict(Night.objects.values_list("pk", "version"))


def test_a_rebuild_tells_the_phones_of_the_nights_it_found_different(
    front,  # noqa: F811
    db,
    django_capture_on_commit_callbacks,
):
    group = make_group(members=("Anna", "Bram"))
    other = make_group(name="Tuesday", members=("Cleo", "Dora"))
    kept = finish(play(make_night(("Anna", "Bram"), group=group), {"Anna": 5, "Bram": -5}))
    ended = finish(play(make_night(("Anna", "Bram"), group=group), {"Anna": 2, "Bram": -2}))
    running = play(make_night(("Anna", "Bram"), group=group), {"Anna": 1, "Bram": -1})
    elsewhere = play(make_night(("Cleo", "Dora"), group=other), {"Cleo": 3, "Dora": -3})
    Seat.objects.filter(night__in=[ended, running]).update(cents=0, unpaid_cents=0)
    before, changes = versions(), Change.objects.count()

    with django_capture_on_commit_callbacks(execute=True):
        rebuilt = rebuild_stored_figures()
        assert front.posts() == []  # not while the transaction is open

    assert rebuilt.seats_changed == 4
    after = versions()
    assert after[ended.pk] == before[ended.pk] + 1
    assert after[running.pk] == before[running.pk] + 1
    assert after[kept.pk] == before[kept.pk]
    assert after[elsewhere.pk] == before[elsewhere.pk]
    assert front.posts() == [
        (f"/night-{running.pk}", f"version {after[running.pk]}"),
        (f"/screen-{running.pk}", f"version {after[running.pk]}"),
        (f"/group-{group.pk}", f"version {group.nights_version()}"),
    ]
    assert Change.objects.count() == changes

    # Again: nothing is different now, so no version moves and nobody is told.
    sent = len(front.posts())
    with django_capture_on_commit_callbacks(execute=True):
        assert rebuild_stored_figures().seats_changed == 0
    assert versions() == after
    assert len(front.posts()) == sent


def test_a_board_result_found_different_tells_its_nights_phones(
    front,  # noqa: F811
    db,
    django_capture_on_commit_callbacks,
):
    night = play(make_night(("Anna", "Bram")), {"Anna": 5, "Bram": -5})
    entry = Entry.objects.filter(round__night=night).first()
    # A result on an entry without cards is nobody's: the rebuild clears it.
    Entry.objects.filter(pk=entry.pk).update(card_result={"stale": True})
    before = versions()[night.pk]
    with django_capture_on_commit_callbacks(execute=True):
        rebuilt = rebuild_stored_figures([night.pk])
    assert (rebuilt.seats_changed, rebuilt.entries_changed) == (0, 1)
    assert versions()[night.pk] == before + 1
    assert [path for path, _body in front.posts()] == [
        f"/night-{night.pk}",
        f"/screen-{night.pk}",
        f"/group-{night.group_id}",
    ]
