"""How the people a payment goes to like to be paid, as a payment line shows it.

Only to members of a group the person is in: a page of a group reads the pay details
of that group's current members (one query), never anyone else's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import segno
from django.utils import timezone
from django.utils.translation import gettext

from scorekeeper.dates import ago
from scorekeeper.models import Group, Membership, Night, PayDetails, User
from scorekeeper.reads.qr import QRDrawing, qr_drawing
from scorekeeper.table.paying import SHAPES, PayLink, Service, epc_payload, mask_iban, pay_link
from scorekeeper.table.people import user_id_of_key

# Pay details changed this recently say so beside them, on the payer's phone: money
# sent to an account someone swapped in is money gone.
CHANGED_LATELY = timedelta(days=7)


def pay_details_in(group: Group) -> dict[int, PayDetails]:
    """The pay details of ``group``'s current members, by user id (one query). The
    page asking is the group's own, so its reader is a member."""
    current = Membership.objects.current_through("user__memberships__")
    return {
        details.user_id: details
        for details in PayDetails.objects.filter(current, user__memberships__group=group)
    }


def own_pay_details(user: User) -> PayDetails | None:
    return PayDetails.objects.filter(user=user).first()


@dataclass(frozen=True)
class PayTo:
    """One payment line's ways to pay: the EPC QR code (euros to an IBAN only), the
    account masked, the full IBAN for "Copy IBAN", and the payee's links."""

    details: PayDetails
    cents: int
    currency: str
    text: str  # the remittance information: "OFC 2026-12-03"

    @property
    def changed(self) -> str:
        """When the details changed, as "2 hours ago", if within CHANGED_LATELY; else ""."""
        when = self.details.updated_at
        return ago(when) if timezone.now() - when < CHANGED_LATELY else ""

    @property
    def masked_iban(self) -> str:
        return mask_iban(self.details.iban) if self.details.iban else ""

    @property
    def payload(self) -> str:
        """The EPC QR code's text; empty when there is none to make."""
        if not self.details.iban or self.currency != "EUR" or self.cents <= 0:
            return ""
        return epc_payload(
            name=self.details.holder,
            iban=self.details.iban,
            bic=self.details.bic,
            cents=self.cents,
            text=self.text,
        )

    @property
    def qr(self) -> QRDrawing | None:
        """The EPC QR code to draw (``{% qr %}``); None when there is none to make."""
        payload = self.payload
        if not payload:
            return None
        # EPC069-12: error correction M exactly, never raised by segno, version 13 at most.
        code = segno.make_qr(payload.encode("utf-8"), error="m", boost_error=False)
        return qr_drawing(code, title=gettext("Payment code for your bank app"), scale=4, border=4)

    @property
    def links(self) -> list[tuple[PayLink, str]]:
        """Each link the payee set, with the amount in it where the service takes one,
        and the service's name."""
        return [
            (pay_link(service, url, self.cents, self.currency), service_name(service))
            for service, url in self.details.links()
        ]


def service_name(service: Service) -> str:
    if service is Service.LINK:
        return gettext("their payment link")
    return SHAPES[service].name


def payee_user_id(payee: object) -> int | None:
    """The account a payment line's payee is: a seat's user, or an owed line's person
    (its :func:`~scorekeeper.reads.tally.person_key`); None for a guest."""
    user_id = getattr(payee, "user_id", None)
    if user_id is not None:
        return int(user_id)
    key = getattr(payee, "key", "")
    return user_id_of_key(key) if isinstance(key, str) else None


def pay_to(
    known: dict[int, PayDetails], payee: object, cents: int, currency: str, text: str
) -> PayTo | None:
    """The ways to pay ``payee`` that ``known`` (:func:`pay_details_in`) holds."""
    user_id = payee_user_id(payee)
    details = known.get(user_id) if user_id is not None else None
    if details is None or not (details.iban or details.links()):
        return None
    return PayTo(details=details, cents=cents, currency=currency, text=text)


def night_pay_context(night: Night) -> dict:
    """What a night's settlement needs for its payment lines' ways to pay: the
    payees' details (one query) and the transfer's description ("OFC 2026-12-03")."""
    # The bank's text, not the page's: the night's date in ISO 8601, the same in every
    # language and plain ASCII, which every bank carries as it is (a SEPA transfer's
    # character set is Latin letters, digits and a little punctuation).
    day = timezone.localdate(night.started_at).isoformat()
    return {"pay_details": pay_details_in(night.group), "remittance": f"OFC {day}"}


def group_pay_context(group: Group) -> dict:
    """The same for what is still owed across a group's nights (one query)."""
    return {"pay_details": pay_details_in(group), "remittance": f"OFC {group.name}"}
