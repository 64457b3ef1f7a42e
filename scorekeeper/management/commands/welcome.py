from django.core.management.base import BaseCommand

from scorekeeper.models import Group
from scorekeeper.services.groups import create_group
from scorekeeper.site.network import base_urls


class Command(BaseCommand):
    help = (
        "Print the address phones should open; on an empty database, first create a "
        "group and print its invitation link."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--group-name", default="OFC night")

    def handle(self, *args, port: int, group_name: str, **options):
        urls = base_urls(port)
        self.stdout.write("")
        self.stdout.write("OFC Board is starting. On a phone on the same Wi-Fi, open:")
        for url in urls:
            self.stdout.write(f"    {url}/")
        if not Group.objects.exists():
            group = create_group(name=group_name, created_by=None)
            self.stdout.write("")
            self.stdout.write(f'A first group, "{group.name}", was made. Its invitation link:')
            self.stdout.write(f"    {group.invite_url(urls[0])}")
            self.stdout.write("Open it on your phone to join, then share it from the group page.")
        self.stdout.write("")
