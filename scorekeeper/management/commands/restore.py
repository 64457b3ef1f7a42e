from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from scorekeeper.backup import BackupError, restore_backup


class Command(BaseCommand):
    help = (
        "Bring a backup made by `manage.py backup` back into an empty database "
        "(SQLite or PostgreSQL), migrating it first. Everyone logs in again afterwards."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)

    def handle(self, *args, file: Path, **options):
        call_command("migrate", interactive=False, verbosity=0)
        try:
            counts = restore_backup(file)
        except BackupError as error:
            raise CommandError(str(error)) from None
        rows = ", ".join(f"{count} {label.split('.')[1]}" for label, count in counts.items())
        self.stdout.write(f"Restored from {file}: {rows}.")
