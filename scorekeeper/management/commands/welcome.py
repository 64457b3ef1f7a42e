import os

import segno
from django.core.management.base import BaseCommand, OutputWrapper
from django.core.management.color import supports_color
from django.db.models import Max, QuerySet
from django.db.models.functions import Coalesce, Greatest
from django.utils.translation import gettext as _

from scorekeeper.models import Group
from scorekeeper.services.groups import create_group
from scorekeeper.site.network import base_urls

# Dark modules black on a white ground, whatever the terminal's own colours (256-colour
# black and white, which colour schemes leave alone, where the 16 basic colours are
# often themed): a dark terminal drawing only its text colour would show the code
# inverted, and not every phone's camera reads an inverted code.
DARK_ON_LIGHT = "\033[38;5;16;48;5;231m"
PLAIN = "\033[0m"
# Two rows of modules to a line of text (top, bottom; True is dark): a character cell
# is about twice as tall as it is wide, so each module comes out square, and the code
# half as tall as with a line per row.
HALVES = {
    (False, False): " ",
    (True, False): "\u2580",
    (False, True): "\u2584",
    (True, True): "\u2588",
}
QUIET_ZONE = 4  # modules of light around the code, as the QR standard asks
INDENT = "    "


def terminal_qr(text: str, *, colours: bool) -> list[str]:
    """``text`` as a QR code in lines of text: dark modules drawn in blocks, the
    quiet zone included. With ``colours`` every line sets black on white itself;
    without, the blocks are the terminal's text colour (dark on a light terminal)."""
    # make_qr, not make: a short text could come out as a Micro QR code, which a
    # phone's camera does not read.
    code = segno.make_qr(text, error="m")
    rows = [[bool(bit) for bit in row] for row in code.matrix_iter(scale=1, border=QUIET_ZONE)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        cells = "".join(HALVES[pair] for pair in zip(top, bottom, strict=True))
        lines.append(f"{INDENT}{DARK_ON_LIGHT}{cells}{PLAIN}" if colours else f"{INDENT}{cells}")
    return lines


def wants_colours(stdout: OutputWrapper, options: dict[str, object]) -> bool:
    """Whether to colour the QR code: on a terminal that shows colours, unless told not
    to (--no-color, or NO_COLOR as no-color.org asks); --force-color always."""
    if options.get("force_color"):
        return True
    if options.get("no_color") or os.environ.get("NO_COLOR"):
        return False
    return bool(stdout.isatty() and supports_color())


def latest_first() -> QuerySet[Group]:
    """The groups, the one whose last night started (or, with none yet, which was made)
    most recently first."""
    last_seen = Greatest("created_at", Coalesce(Max("nights__started_at"), "created_at"))
    return Group.objects.annotate(last_seen=last_seen).order_by("-last_seen", "-pk")


class Command(BaseCommand):
    help = (
        "Print the address phones should open and how to join: the group's join code, "
        "its invitation link and that link as a QR code. On an empty database, first "
        "make a group."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--group-name", default="OFC night")

    def handle(self, *args, port: int, group_name: str, **options):
        urls = base_urls(port)
        colours = wants_colours(self.stdout, options)
        self.stdout.write("")
        self.stdout.write(_("OFC Board is starting. On a phone on the same Wi-Fi, open:"))
        for url in urls:
            self.stdout.write(f"{INDENT}{url}/")
        made = None
        if not Group.objects.exists():
            made = create_group(name=group_name, created_by=None)
        groups = list(latest_first())
        self.stdout.write("")
        if made is not None:
            self.stdout.write(_('A first group, "%(name)s", was made.') % {"name": made.name})
        if len(groups) > 1:
            self.stdout.write(_("The groups here, each with its join code:"))
            for group in groups:
                self.stdout.write(f"{INDENT}{group.join_code}  {group.name}")
                if refusal := group.invite_refusal():
                    self.stdout.write(f"{INDENT}{INDENT}{refusal}")
            # One QR code, not one for each group: a screen of them is more than anyone
            # scrolls through. The group that played last (or was made last, when that
            # is later) is the likeliest to be at the table tonight; the others' codes
            # are listed above, to be typed on the front page.
            groups = [group for group in groups if not group.invite_refusal()][:1]
            if not groups:
                self.stdout.write("")
                return
            self.stdout.write("")
            self.stdout.write(
                _('The group that played last, or was made last, "%(name)s":')
                % {"name": groups[0].name}
            )
        else:
            self.stdout.write(_('The group "%(name)s":') % {"name": groups[0].name})
        self.show_the_way_in(groups[0], urls[0], colours)
        if made is not None:
            self.stdout.write(
                _("Join on your phone, then share the code or the link from the group page.")
            )
        self.stdout.write("")

    def show_the_way_in(self, group: Group, base_url: str, colours: bool) -> None:
        code_line = _("Join code: %(code)s (typed on the front page)") % {"code": group.join_code}
        self.stdout.write(f"{INDENT}{code_line}")
        if refusal := group.invite_refusal():
            self.stdout.write(f"{INDENT}{refusal}")
            return
        link = group.invite_url(base_url)
        link_line = _("Invitation link: %(link)s") % {"link": link}
        self.stdout.write(f"{INDENT}{link_line}")
        self.stdout.write(_("Or scan the invitation link with a phone's camera:"))
        for line in terminal_qr(link, colours=colours):
            self.stdout.write(line)
