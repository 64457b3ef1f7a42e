"""A file brought in (a whole-site restore, a group imported as a new group) is taken
only as it would be typed: a crafted file is refused whole, in words naming the
record and the field, and the database is left as it was."""

import json
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError

from scorekeeper.copies.backup import BackupError, restore_backup
from scorekeeper.copies.group_copy import import_group
from scorekeeper.copies.import_checks.records import check_file
from scorekeeper.copies.import_checks.refusal import MOST_SAID
from scorekeeper.models import Group, PayDetails, User
from tests.copies.conftest import IBAN

pytestmark = pytest.mark.database

REFUSED = "Nothing was brought in and nothing was changed"


def everything() -> dict[str, int]:
    """How many rows each table holds: this app's and django-axes' (its lockouts)."""
    counts = {
        m._meta.label: m.objects.count() for m in apps.get_app_config("scorekeeper").get_models()
    }
    counts["axes.AccessAttempt"] = AccessAttempt.objects.count()
    return counts


def records(path: Path) -> list[dict]:
    return json.loads(path.read_text())["objects"]


def crafted(path: Path, change) -> Path:
    """A copy of the file at ``path`` with its list of records changed by ``change``."""
    document = json.loads(path.read_text())
    change(document["objects"])
    out = path.with_name("crafted-" + path.name)
    out.write_text(json.dumps(document))
    return out


def the_record(objects: list[dict], model: str, **fields) -> dict:
    return next(
        row
        for row in objects
        if row["model"] == model and all(row["fields"].get(k) == v for k, v in fields.items())
    )


def number_of(objects: list[dict], row: dict) -> int:
    return objects.index(row) + 1


def a_lockout(objects: list[dict]) -> None:
    """django-axes' record of Anna locked out (99 wrong passwords) from the table's Wi-Fi."""
    objects.insert(
        1,
        {
            "model": "axes.accessattempt",
            "pk": 1,
            "fields": {
                "user_agent": "phone",
                "ip_address": "192.168.1.20",
                "username": "Anna",
                "http_accept": "*/*",
                "path_info": "/login/",
                "attempt_time": "2026-12-03T20:00:00+00:00",
                "get_data": "",
                "post_data": "",
                "failures_since_start": 99,
            },
        },
    )


def pay_details_of_anna(objects: list[dict]) -> dict:
    anna = the_record(objects, "scorekeeper.user", name="Anna")
    return next(
        row
        for row in objects
        if row["model"] == "scorekeeper.paydetails" and row["fields"]["user"] == anna["pk"]
    )


def refused_restore(path: Path) -> str:
    with pytest.raises(BackupError) as refusal:
        restore_backup(path)
    assert str(refusal.value).startswith(REFUSED)
    assert everything() == dict.fromkeys(everything(), 0)  # nothing at all was written
    return str(refusal.value)


# --- a whole site ----------------------------------------------------------------------


def test_a_site_file_with_another_apps_records_is_refused_whole(site_file):
    said = refused_restore(crafted(site_file, a_lockout))
    assert "Record 2 belongs to axes.accessattempt, a table this file cannot bring in." in said


def test_the_command_says_so_in_words(site_file):
    with pytest.raises(CommandError, match=r"Record 2 belongs to axes\.accessattempt"):
        call_command("restore", str(crafted(site_file, a_lockout)))
    assert not User.objects.exists() and not AccessAttempt.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("paypal", "javascript:alert(document.cookie)", "That is not a PayPal address."),
        ("link", "javascript:alert(1)", "Enter a web address that starts with https://."),
        ("iban", "NOT-AN-IBAN", "That is not an IBAN"),
        ("iban", "NL92ABNA0417164300", "The check digits of this IBAN do not match"),
        ("holder", "Anna \u202eseirV ed", "The name on the account cannot have invisible"),
        ("holder", "", "Enter the name on the account, as your bank writes it."),
        ("bic", "NOT A BIC", "A BIC has 8 or 11 letters and digits"),
    ],
)
def test_pay_details_are_taken_only_as_the_account_page_takes_them(site_file, field, value, words):
    def change(objects):
        pay_details_of_anna(objects)["fields"][field] = value

    said = refused_restore(crafted(site_file, change))
    number = number_of(records(site_file), pay_details_of_anna(records(site_file)))
    assert f"Record {number} (pay details of Anna), {field}: {words}" in said


def test_a_name_with_a_direction_override_is_refused_and_shown_with_its_code(site_file):
    def change(objects):
        the_record(objects, "scorekeeper.user", name="Bram")["fields"]["name"] = "Br\u202emA"

    said = refused_restore(crafted(site_file, change))
    number = number_of(
        records(site_file), the_record(records(site_file), "scorekeeper.user", name="Bram")
    )
    assert (
        f"Record {number} (account Br<U+202E>mA), name: A name can only have letters and spaces."
        in said
    )
    assert "\u202e" not in said  # the refusal itself prints no override


@pytest.mark.parametrize(
    ("model", "field", "value", "words"),
    [
        ("scorekeeper.group", "name", "Friday\u200b", "cannot have invisible characters"),
        ("scorekeeper.group", "currency", "XXY", "is not a currency the app knows"),
        ("scorekeeper.group", "house_rules", {"royalties": "lots"}, "cannot be played"),
        ("scorekeeper.night", "game", "poker", "is not one of the app's games"),
        ("scorekeeper.night", "rules", "all of them", "These house rules cannot be played."),
        ("scorekeeper.night", "rules", {"royalties": {"top": [1]}}, "cannot be played"),
        ("scorekeeper.night", "rules", {"hold_button": "sometimes"}, "is on or off"),
        ("scorekeeper.seat", "name", "Gus\x1b[2J", "can only have letters and spaces"),
        ("scorekeeper.entry", "board", {"top": ["Zz"]}, "The cards of this board cannot be read."),
        ("scorekeeper.entry", "points", 5000, "Constraint"),
        ("scorekeeper.user", "name", "A" * 200, "at most 30 characters"),
        ("scorekeeper.user", "language", "xx", "Select a valid choice"),
    ],
)
def test_every_table_is_checked_as_typed(site_file, model, field, value, words):
    def change(objects):
        next(row for row in objects if row["model"] == model)["fields"][field] = value

    said = refused_restore(crafted(site_file, change))
    assert f"), {field}: " in said or "Constraint" in said
    assert words in said


def test_an_older_versions_backup_with_another_apps_records_is_refused_before_its_upgrade(
    db, tmp_path
):
    """A backup of an older version is brought up through the migrations in this
    database's tables: another app's records must be refused before that, not only
    after it (where the upgraded file no longer shows them)."""
    anna = {
        "model": "scorekeeper.user",
        "pk": 1,
        "fields": {
            "password": "!",
            "last_login": None,
            "name": "Anna",
            "is_active": True,
            "date_joined": "2026-12-01T20:00:00+00:00",
            "language": "",
        },
    }
    objects = [anna]
    a_lockout(objects)
    path = tmp_path / "older.json"
    path.write_text(
        json.dumps(
            {
                "format": "ofcboard-backup",
                "version": 1,
                "migration": "0014_entry_card_result",
                "objects": objects,
            }
        )
    )
    said = refused_restore(path)
    assert "Record 2 belongs to axes.accessattempt, a table this file cannot bring in." in said


def test_a_record_pointing_at_nothing_before_it_is_refused(site_file):
    def change(objects):
        next(row for row in objects if row["model"] == "scorekeeper.seat")["fields"]["night"] = 999

    said = refused_restore(crafted(site_file, change))
    assert "night: It names a record that does not come before it in the file." in said


def test_many_problems_are_said_ten_at_most_with_how_many_more(site_file):
    def change(objects):
        for row in objects:
            if row["model"] == "scorekeeper.entry":
                row["fields"]["points"] = 5000

    said = refused_restore(crafted(site_file, change))
    entries = sum(row["model"] == "scorekeeper.entry" for row in records(site_file))
    assert entries > MOST_SAID + 1
    assert said.count("\n") == MOST_SAID + 1
    assert said.endswith(f"…and {entries - MOST_SAID} more problems.")


def test_an_older_files_iban_is_restored_compact_in_capitals(site_file):
    def change(objects):
        pay_details_of_anna(objects)["fields"]["iban"] = "nl91 abna\t0417 1643 00"

    restore_backup(crafted(site_file, change))
    assert PayDetails.objects.get(user__name="Anna").iban == IBAN


def test_an_untouched_backup_passes_every_check(site_file):
    document = json.loads(site_file.read_text())
    check_file(document, list(apps.get_app_config("scorekeeper").get_models()))
    assert document == json.loads(site_file.read_text())  # nothing to put otherwise


# --- one group, as a new group ---------------------------------------------------------


def refused_import(path: Path) -> str:
    before = everything()
    with pytest.raises(BackupError) as refusal:
        import_group(path)
    assert str(refusal.value).startswith(REFUSED)
    assert everything() == before
    return str(refusal.value)


def test_a_group_file_with_another_apps_records_is_refused_whole(group_file):
    said = refused_import(crafted(group_file, a_lockout))
    assert "Record 2 belongs to axes.accessattempt, a table this file cannot bring in." in said
    with pytest.raises(CommandError, match=r"axes\.accessattempt"):
        call_command("restore", "--as-new-group", str(crafted(group_file, a_lockout)))


def test_a_group_file_brings_no_pay_details(group_file):
    """How someone likes to be paid never travels with a group (group_copy), so a
    group file holding some was not written by `backup --group`."""

    def change(objects):
        anna = the_record(objects, "scorekeeper.user", name="Anna")
        objects.insert(
            len([r for r in objects if r["model"] == "scorekeeper.user"]),
            {
                "model": "scorekeeper.paydetails",
                "pk": 1,
                "fields": {"user": anna["pk"], "holder": "Anna", "link": "javascript:alert(1)"},
            },
        )

    said = refused_import(crafted(group_file, change))
    assert "belongs to scorekeeper.paydetails, a table this file cannot bring in." in said


@pytest.mark.parametrize(
    ("model", "field", "value", "words"),
    [
        ("scorekeeper.user", "name", "Anna\u202e", "A name can only have letters and spaces."),
        ("scorekeeper.group", "name", "\u202eCFO yadirF", "cannot have invisible characters"),
        ("scorekeeper.seat", "name", "\u200b", "A name can only have letters and spaces."),
        ("scorekeeper.tabpayment", "payee_name", "Bram\x1b", "letters and spaces"),
        ("scorekeeper.round", "fantasyland", {"12345": [14, 0]}, "Fantasyland cannot be read"),
        ("scorekeeper.roundedit", "changes", [["Anna", "x"]], "cannot be read"),
        ("scorekeeper.entry", "fantasyland_made", "royal", "is not a way into Fantasyland"),
    ],
)
def test_a_crafted_group_file_is_refused_whole(group_file, model, field, value, words):
    def change(objects):
        next(row for row in objects if row["model"] == model)["fields"][field] = value

    said = refused_import(crafted(group_file, change))
    assert f"), {field}: " in said and words in said


def test_an_untouched_group_file_comes_in(group_file):
    group, _renamed, _counts = import_group(group_file)
    assert Group.objects.filter(pk=group.pk).exists()


def test_an_entry_or_a_dealer_from_another_night_is_refused(group_file):
    def a_seat_not_at_the_night_of(objects, round_key):
        nights = {
            r["pk"]: r["fields"]["night"] for r in objects if r["model"] == "scorekeeper.round"
        }
        return next(
            row["pk"]
            for row in objects
            if row["model"] == "scorekeeper.seat" and row["fields"]["night"] != nights[round_key]
        )

    def change(objects):
        entry = the_record(objects, "scorekeeper.entry")
        entry["fields"]["seat"] = a_seat_not_at_the_night_of(objects, entry["fields"]["round"])
        round_ = the_record(objects, "scorekeeper.round")
        round_["fields"]["dealer"] = a_seat_not_at_the_night_of(objects, round_["pk"])

    said = refused_import(crafted(group_file, change))
    assert "seat: This seat is not at the night of this round." in said
    assert "dealer: This seat is not at the night of this round." in said


def a_second_total_for_one_seat(objects: list[dict]) -> None:
    # Passes every row's own checks; only the database holds the two apart.
    entry = next(row for row in objects if row["model"] == "scorekeeper.entry")
    twin = json.loads(json.dumps(entry))
    twin["pk"] = max(row["pk"] for row in objects if row["model"] == "scorekeeper.entry") + 1
    objects.append(twin)


def test_records_that_clash_only_in_the_database_are_refused_whole_in_words(site_file):
    said = refused_restore(crafted(site_file, a_second_total_for_one_seat))
    assert "clash with each other or with what is here" in said


def test_a_group_file_whose_records_clash_is_refused_whole_in_words(group_file):
    said = refused_import(crafted(group_file, a_second_total_for_one_seat))
    assert "clash with each other or with what is here" in said
