"""Taking an import back: every night one import brought in, gone together, by the
member who imported them, within a day of it (a wrong file, the wrong group), and on
the group's record. After a day, imported nights are history like any other."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.dates import day
from scorekeeper.models import Change, Group, Night, Round, User
from scorekeeper.models.changes import TAKE_BACK_WITHIN
from scorekeeper.models.payments import TabPart
from scorekeeper.services.errors import Refused
from scorekeeper.services.locks import group_change, record


@transaction.atomic
def take_back_import(*, group: Group, preview: str, by: User) -> int:
    """Delete the nights the import ``preview`` (its fingerprint) brought into ``group``,
    with their seats, rounds, entries and payments, in one transaction; the number of
    nights. Refused in words, with nothing changed, for anyone but who imported them,
    after a day, once taken back, and while a payment across nights counts their money."""
    with group_change(group, by=by):
        imported = Change.objects.filter(
            group=group, kind=Change.Kind.NIGHTS_IMPORTED, values__preview=preview
        ).first()
        if imported is None:
            raise Refused(_("This group has no such import."))
        if imported.by_id != by.pk:
            raise Refused(_("Only the member who imported these nights can take them back."))
        if timezone.now() - imported.at > TAKE_BACK_WITHIN:
            raise Refused(
                _(
                    "These nights were imported on %(date)s: an import can be taken back "
                    "within a day, and after that its nights are history like any other."
                )
                % {"date": day(imported.at)}
            )
        nights = Night.objects.filter(group=group, imported_from=preview)
        count = nights.count()
        if not count:
            raise Refused(_("These nights were taken back already."))
        if TabPart.objects.filter(seat__night__in=nights).exists():
            raise Refused(
                _(
                    "A payment across nights counts money of these nights. Take that "
                    "payment back first, then the import."
                )
            )
        # A round's dealer protects its seat, so the rounds (and their entries) go first.
        Round.objects.filter(night__in=nights).delete()
        nights.delete()
        record(Change.Kind.IMPORT_TAKEN_BACK, count=count, preview=preview)
    return count
