"""A file brought in knows two accounts of one name by the app's one name key
(table/names.name_key), as the sign-up does: a full-width "ＡＮＮＡ" is Anna."""

import pytest

from scorekeeper.copies.backup import restore_backup
from scorekeeper.copies.group_copy import import_group, write_group
from scorekeeper.models import User
from tests.copies.test_import_checks import (
    crafted,
    number_of,
    records,
    refused_restore,
    the_record,
)
from tests.management.test_backup import played_site
from tests.services.test_name_keys import stored_name_keys

pytestmark = pytest.mark.database


def test_a_site_file_with_two_accounts_of_one_name_is_refused(site_file):
    def change(objects):
        the_record(objects, "scorekeeper.user", name="Bram")["fields"]["name"] = "ＡＮＮＡ"

    said = refused_restore(crafted(site_file, change))
    anna = number_of(
        records(site_file), the_record(records(site_file), "scorekeeper.user", name="Anna")
    )
    assert f"Record {anna} is an account of the same name." in said


def test_a_group_copy_renames_an_account_named_here_in_other_capitals(db, tmp_path):
    group, _nights = played_site()
    path = tmp_path / "group.json"
    write_group(path, group.pk)
    User.objects.create(name="STRASSE")

    def change(objects):
        the_record(objects, "scorekeeper.user", name="Chris")["fields"]["name"] = "Straße"

    _copy, renamed, _counts = import_group(crafted(path, change))
    assert renamed["Straße"] == "Straße B"
    assert not User.objects.filter(name="Straße").exists()


def test_a_name_key_in_a_file_is_worked_out_again_from_its_name(site_file):
    # A hand-edited file: Bram's key says Anna, and the seats carry no key at all
    # (as a file written before the keys): each row gets its own name's key.
    def change(objects):
        the_record(objects, "scorekeeper.user", name="Bram")["fields"]["name_key"] = "anna"
        for row in objects:
            if row["model"] == "scorekeeper.seat":
                del row["fields"]["name_key"]

    restore_backup(crafted(site_file, change))
    assert ("Bram", "bram") in stored_name_keys()["User"]


def test_a_group_copy_keeps_the_key_of_each_name_it_brings_in(group_file):
    User.objects.create(name="STRASSE")

    def change(objects):
        chris = the_record(objects, "scorekeeper.user", name="Chris")
        chris["fields"].update(name="Straße", name_key="anna")

    import_group(crafted(group_file, change))
    assert ("Straße B", "strasse b") in stored_name_keys()["User"]
