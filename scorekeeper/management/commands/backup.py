from pathlib import Path

from django.core.management.base import BaseCommand

from scorekeeper.backup import write_backup


class Command(BaseCommand):
    help = (
        "Write the whole site (accounts, groups, nights, rounds including the one in "
        "progress, entries with their cards, corrections, payments) to FILE. Safe while "
        "the app runs."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)

    def handle(self, *args, file: Path, **options):
        counts = write_backup(file)
        rows = ", ".join(f"{count} {label.split('.')[1]}" for label, count in counts.items())
        self.stdout.write(f"Backed up to {file}: {rows}.")
