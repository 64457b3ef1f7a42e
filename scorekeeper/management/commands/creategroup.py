from django.core.management.base import BaseCommand, CommandError

from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import create_group
from scorekeeper.site.network import base_urls


class Command(BaseCommand):
    help = "Create a group and print its invitation link (the way in for its first member)."

    def add_arguments(self, parser):
        parser.add_argument("name", help='the group\'s name, e.g. "Friday OFC"')
        parser.add_argument(
            "--base-url", help="the address phones open, e.g. http://192.0.2.5:8000"
        )
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args, name: str, base_url: str | None, port: int, **options):
        try:
            group = create_group(name=name, created_by=None)
        except Refused as error:
            raise CommandError(str(error)) from None
        base = base_url or base_urls(port)[0]
        self.stdout.write(f'Group "{group.name}" created. Its invitation link:')
        self.stdout.write(group.invite_url(base))
