from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse
from django.utils.translation import gettext as _

from scorekeeper.dates import moment
from scorekeeper.management.commands.welcome import INDENT, terminal_qr, wants_colours
from scorekeeper.models import User
from scorekeeper.services.errors import Refused
from scorekeeper.services.sign_ins import make_sign_in_code
from scorekeeper.site.network import base_urls
from scorekeeper.table.codes import grouped


class Command(BaseCommand):
    help = (
        "For the server's owner: a one-time sign-in for a member locked out with no phone "
        "signed in. Prints its code, its link and the link as a QR code; it works once, "
        "for 10 minutes."
    )

    def add_arguments(self, parser):
        parser.add_argument("name", help="the member's name (capitals or not)")
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args, name: str, port: int, **options):
        try:
            user = User.objects.get_by_natural_key(name.strip())
        except User.DoesNotExist:
            raise CommandError(
                _('No account has the name "%(name)s". Check how it is written on the group page.')
                % {"name": name}
            ) from None
        try:
            sign_in = make_sign_in_code(user=user, made_by=None)
        except Refused as error:
            raise CommandError(str(error)) from None
        link = base_urls(port)[0].rstrip("/") + reverse("sign_in", args=[sign_in.code])
        self.stdout.write("")
        self.stdout.write(_("A one-time sign-in for %(name)s:") % {"name": user.name})
        code_line = _("Sign-in code: %(code)s (typed on the front page)") % {
            "code": grouped(sign_in.code)
        }
        self.stdout.write(f"{INDENT}{code_line}")
        link_line = _("Link: %(link)s") % {"link": link}
        self.stdout.write(f"{INDENT}{link_line}")
        self.stdout.write(_("Or scan the link with the phone's camera:"))
        for line in terminal_qr(link, colours=wants_colours(self.stdout, options)):
            self.stdout.write(line)
        self.stdout.write(
            _("It signs in one phone, once, until %(when)s.") % {"when": moment(sign_in.expires_at)}
        )
        self.stdout.write("")
