"""A group copied out of one install and into another as a new group: every page of
the copy reads as the original's, beside whatever the other install holds."""

import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scorekeeper.copies.group_copy import import_group, write_group
from scorekeeper.models import Entry, Group, Night, User
from scorekeeper.models.pay_details import PayDetails
from scorekeeper.models.payments import TabPayment
from scorekeeper.reads.history import group_table
from scorekeeper.services.rounds import record_entry
from tests.helpers import PASSWORD, enter, make_group, make_night, play
from tests.management.test_backup import empty_the_database, everything_read, played_site

pytestmark = pytest.mark.database


def read_as_text(group: Group) -> list[str]:
    """What a person reads on every page and export of the group and its nights,
    oldest night first, without what differs between installs by design: the
    join code and its link, and the rows' keys in the exports."""
    nights = list(group.nights.order_by("started_at", "pk"))
    pages = []
    for page in everything_read(group, nights).values():
        page = re.sub(r"<(script|style)\b.*?</\1>|<[^>]+>", " ", page, flags=re.S)
        page = re.sub(r"/join/[^/\s]+/", "/join/-/", page)
        page = page.replace(group.join_code, "-")
        page = re.sub(r'"(id|night|night_id|seat_id)": \d+', "", page)
        page = re.sub(r"(?m)^\d+,", ",", page)  # the CSV's first column: the night's key
        pages.append(" ".join(page.split()))
    return pages


def copy_out(group: Group, tmp_path) -> str:
    path = tmp_path / "group.json"
    write_group(path, group.pk)
    assert oct(path.stat().st_mode)[-3:] == "600"  # password hashes are in it
    return path


def test_a_group_copied_into_another_install_reads_as_the_original(db, tmp_path):
    group, _ = played_site()
    elsewhere = make_group("Not copied", members=("Zed", "Yan"))
    play(make_night(("Zed", "Yan"), group=elsewhere), {"Zed": 4, "Yan": -4})
    before = read_as_text(group)
    path = copy_out(group, tmp_path)

    empty_the_database()  # the other install
    make_group("Theirs", members=("Xavi",))
    copy, renamed, counts = import_group(path)

    assert renamed == {}
    assert counts["scorekeeper.Night"] == 3 and counts["scorekeeper.TabPayment"] == 1
    assert not User.objects.filter(name__in=("Zed", "Yan")).exists()  # only the group's
    assert read_as_text(copy) == before
    assert copy.invite_token != group.invite_token
    # The night in progress goes on: Bram's Fantasyland hand is his again.
    tonight = copy.nights.get(ended_at=None)
    assert enter(tonight, "Bram", 9, fantasyland_stayed=True).entry.round.number == 2
    assert enter(tonight, "Chris", -5).round_recorded
    assert User.objects.get(name="Anna").check_password(PASSWORD)


def test_a_copy_into_the_same_install_renames_the_accounts_and_leaves_the_original(db, tmp_path):
    group, nights = played_site()
    before = read_as_text(group)
    standings = [
        (row.name, row.points_by_stake, row.money)
        for table in group_table(group)
        for row in table.rows
    ]
    copy, renamed, _ = import_group(copy_out(group, tmp_path))

    assert renamed == {"Anna": "Anna B", "Bram": "Bram B", "Chris": "Chris B"}
    assert read_as_text(group) == before  # the original, untouched
    copied = [
        (row.name, row.points_by_stake, row.money)
        for table in group_table(copy)
        for row in table.rows
    ]
    assert copied == [(renamed.get(name, name), *figures) for name, *figures in standings]
    assert Night.objects.count() == 2 * len(nights)
    # What phones sent their saves with, and the owed list's taps, stay the original's.
    assert not Entry.objects.filter(round__night__group=copy).exclude(client_key="").exists()
    assert TabPayment.objects.count() == 2
    # A save with a key the original holds lands in the copy as any other.
    original = nights[-1]
    key = Entry.objects.filter(round__night=original).first().client_key or "k" * 32
    tonight = copy.nights.get(ended_at=None)
    bram = tonight.seats.get(user__name="Bram B")
    saved = record_entry(
        night=tonight,
        round_number=2,
        seat=bram,
        points=9,
        entered_by=bram.user,
        fantasyland_stayed=True,
        key=key,
    )
    assert saved.entry.round.night == tonight


def test_the_commands_copy_a_group_and_say_what_was_renamed(db, tmp_path, capsys):
    group, _ = played_site()
    path = tmp_path / "group.json"
    call_command("backup", str(path), "--group", str(group.pk))
    call_command("restore", str(path), "--as-new-group")
    out = capsys.readouterr().out
    copy = Group.objects.exclude(pk=group.pk).get()
    assert f"is group {copy.pk} here" in out
    assert '"Anna" was taken here: that account is "Anna B" now.' in out
    with pytest.raises(CommandError, match="There is no group 999"):
        call_command("backup", str(path), "--group", "999")
    site = tmp_path / "site.json"
    call_command("backup", str(site))
    with pytest.raises(CommandError, match="is not a group copied by OFC Board"):
        call_command("restore", str(site), "--as-new-group")


def test_how_a_member_likes_to_be_paid_stays_with_their_account(db, tmp_path):
    group, _nights = played_site()
    anna = User.objects.get(name="Anna")
    PayDetails.objects.create(user=anna, iban="NL91ABNA0417164300", holder="Anna")

    copy, renamed, _ = import_group(copy_out(group, tmp_path))

    copied_anna = User.objects.get(name=renamed["Anna"])
    assert copy.memberships.filter(user=copied_anna).exists()
    assert list(PayDetails.objects.values_list("user__name", flat=True)) == ["Anna"]
