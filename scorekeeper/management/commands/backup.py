from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scorekeeper.copies.backup import BackupError, write_backup
from scorekeeper.copies.group_copy import write_group


class Command(BaseCommand):
    help = (
        "Write the whole site (accounts, groups, nights, rounds including the one in "
        "progress, entries with their cards, corrections, payments) to FILE. Safe while "
        "the app runs. With --group ID: that group only, with the accounts it names, "
        "for `manage.py restore --as-new-group` on another install."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--group", type=int, metavar="ID", help="one group (its page's number)")

    def handle(self, *args, file: Path, group: int | None = None, **options):
        try:
            counts = write_backup(file) if group is None else write_group(file, group)
        except BackupError as error:
            raise CommandError(str(error)) from None
        rows = ", ".join(f"{count} {label.split('.')[1]}" for label, count in counts.items())
        self.stdout.write(f"Backed up to {file}: {rows}.")
