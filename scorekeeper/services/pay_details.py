"""Saving how a member likes to be paid."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.dates import moment
from scorekeeper.i18n import sentences
from scorekeeper.models import Change, PayDetails, User
from scorekeeper.models.pay_details import LINK_FIELDS
from scorekeeper.services.errors import Refused
from scorekeeper.services.locks import member_change, record
from scorekeeper.table.paying import BadIban, BadLink, Service, check_bic, check_iban, check_link


def pay_details_hold(user: User) -> str:
    """Why ``user``'s pay details cannot be changed now, in words; "" when they can.
    A phone signed in by someone else's code holds them for a day
    (models/sign_ins.PAY_DETAILS_HOLD)."""
    held_until = user.held_until()
    if held_until is None:
        return ""
    return _(
        "Your pay details can be changed again from %(when)s. A phone was signed in as "
        "you with a code someone else made, and this wait keeps anyone from redirecting "
        "your money by signing in as you."
    ) % {"when": moment(held_until)}


@transaction.atomic
def save_pay_details(
    *, user: User, holder: str = "", iban: str = "", bic: str = "", **links: str
) -> PayDetails:
    """Keep ``user``'s bank account and links (blank: none), each checked again here:
    the IBAN kept compact and in capitals (check_iban), the account holder by the
    model's own rule (PayDetails.clean), the same the account page's form says."""
    held = pay_details_hold(user)
    if held:
        raise Refused(held)
    unknown = set(links) - set(LINK_FIELDS)
    if unknown:
        raise TypeError(f"not a payment link: {sorted(unknown)}")
    try:
        iban = check_iban(iban) if iban.strip() else ""
        bic = check_bic(bic) if bic.strip() else ""
        checked = {
            name: check_link(Service(name), value) if value.strip() else ""
            for name, value in links.items()
        }
    except (BadIban, BadLink, ValueError):
        raise Refused(_("Those payment details could not be saved: check each field.")) from None
    with member_change(user):
        # A refusal below takes back the row made here with the rest of the transaction.
        details, _created = PayDetails.objects.select_for_update().get_or_create(user=user)
        details.holder, details.iban, details.bic = holder, iban, bic
        for name in LINK_FIELDS:
            setattr(details, name, checked.get(name, ""))
        details.updated_at = timezone.now()
        try:
            details.full_clean(validate_unique=False)
        except ValidationError as problem:
            raise Refused(sentences(problem.messages)) from None
        details.save()
        record(Change.Kind.PAY_DETAILS, name=user.name)  # that they changed, never the values
    return details
