from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from scorekeeper.copies.backup import BackupError, restore_backup
from scorekeeper.copies.group_copy import import_group


class Command(BaseCommand):
    help = (
        "Bring a backup made by `manage.py backup` back into an empty database "
        "(SQLite or PostgreSQL), migrating it first; a backup made by an older version "
        "goes through the migrations since. The stored figures (each seat's money, each "
        "board's result) are worked out again from the rows, as `manage.py rebuild` does. "
        "Everyone logs in again afterwards. "
        "With --as-new-group: a group written by `manage.py backup --group`, added to "
        "this database beside what is in it."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--as-new-group", action="store_true")

    def handle(self, *args, file: Path, as_new_group: bool = False, **options):
        call_command("migrate", interactive=False, verbosity=0)
        try:
            if as_new_group:
                group, renamed, counts = import_group(file)
            else:
                counts = restore_backup(file)
        except BackupError as error:
            raise CommandError(str(error)) from None
        take_stock()
        rows = ", ".join(f"{count} {label.split('.')[1]}" for label, count in counts.items())
        self.stdout.write(f"Restored from {file}: {rows}.")
        if as_new_group:
            self.stdout.write(f'The group "{group.name}" is group {group.pk} here.')
            for old, new in renamed.items():
                self.stdout.write(f'"{old}" was taken here: that account is "{new}" now.')


def take_stock() -> None:
    """PostgreSQL's statistics of the tables just filled, gathered now. Until autovacuum
    gathers them, a minute or more later, its planner takes the tables for empty, and
    the group page of a restored group of 300 nights ran for minutes (issue 44). SQLite
    plans without them."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
