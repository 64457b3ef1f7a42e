from django.core.management.base import BaseCommand, CommandError

from scorekeeper.models import Night
from scorekeeper.services.publisher import publisher
from scorekeeper.services.rebuild import rebuild_stored_figures

# The process ends when the command returns, and the publishing thread with it: the
# phones of the nights whose figures were different are told before that. A front that
# does not answer holds the command this long at most; those phones' safety poll (30 s)
# shows the change then.
TELLING_SECONDS = 10


class Command(BaseCommand):
    help = (
        "Work out again, from the rounds, entries and payments, every figure stored to "
        "spare the pages the work (each seat's points, hands, Fantasylands, money after "
        "the loss cap and what is still unpaid; each board's result) and store it: for "
        "every night, or for the nights given with --night. One transaction; safe while "
        "the app runs (saves wait for it). `restore` runs it by itself."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--night",
            type=int,
            action="append",
            metavar="ID",
            help="only this night (its page's number); may be given more than once",
        )

    def handle(self, *args, night: list[int] | None = None, **options):
        if night:
            missing = sorted(
                set(night) - set(Night.objects.filter(pk__in=night).values_list("pk", flat=True))
            )
            if missing:
                raise CommandError(f"There is no night {', '.join(map(str, missing))}.")
        rebuilt = rebuild_stored_figures(night)
        if not publisher.sent_within(TELLING_SECONDS):
            self.stderr.write(
                f"The front did not take the news within {TELLING_SECONDS} s: phones showing "
                "the nights rebuilt show their figures at their next check, within 30 s."
            )
        self.stdout.write(
            f"Rebuilt the stored figures of {_count(rebuilt.nights, 'night')}: "
            f"{_count(rebuilt.seats, 'seat')} ({rebuilt.seats_changed} different) and "
            f"{_count(rebuilt.boards, 'board')} ({rebuilt.entries_changed} entries different)."
        )


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}" if number == 1 else f"{number} {thing}s"
