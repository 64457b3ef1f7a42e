"""The files the tests of bringing a file in start from: a played site written by
`backup` and its group written by `backup --group`."""

from pathlib import Path

import pytest
from django.db import transaction

from scorekeeper.copies.backup import write_backup
from scorekeeper.copies.group_copy import write_group
from scorekeeper.models import User
from scorekeeper.services.pay_details import save_pay_details
from tests.management.test_backup import played_site

IBAN = "NL91ABNA0417164300"


@pytest.fixture(scope="session")
def played_files(django_db_setup, django_db_blocker, tmp_path_factory) -> dict[str, bytes]:
    """The played site written by `backup`, with Anna's pay details, and its group
    written by `backup --group`. Played once a run on each test worker and then taken
    back: playing it was most of each test's time, five times more on PostgreSQL."""
    folder = tmp_path_factory.mktemp("played")
    with django_db_blocker.unblock(), transaction.atomic():
        group, _nights = played_site()
        save_pay_details(user=User.objects.get(name="Anna"), holder="Anna de Vries", iban=IBAN)
        write_backup(folder / "site.json")
        write_group(folder / "group.json", group.pk)
        transaction.set_rollback(True)
    return {name: (folder / f"{name}.json").read_bytes() for name in ("site", "group")}


@pytest.fixture
def site_file(db, tmp_path, played_files) -> Path:
    """A whole site written by `backup`, to restore into an empty database."""
    path = tmp_path / "site.json"
    path.write_bytes(played_files["site"])
    return path


@pytest.fixture
def group_file(db, tmp_path, played_files) -> Path:
    """The played group written by `backup --group`, brought to a site without it."""
    path = tmp_path / "group.json"
    path.write_bytes(played_files["group"])
    return path
