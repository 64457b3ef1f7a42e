"""Marking settlement payments as paid, and taking a mark back."""

from django.db import transaction

from scorekeeper.models import Night, Payment, Seat, User
from scorekeeper.reads.results import settlement_payments
from scorekeeper.services.errors import Refused
from scorekeeper.services.locks import lock_night


@transaction.atomic
def mark_paid(*, night: Night, payer: Seat, payee: Seat, cents: int, marked_by: User) -> Payment:
    """Record that ``payer`` paid ``payee`` ``cents``; marking it twice changes nothing.

    Only a payment of the night's current settlement can be marked, and only
    once the night is over: before that the amounts can still change.
    """
    night = lock_night(night)
    if not night.is_over:
        raise Refused("Payments can be marked once the night is over.")
    if (payer.pk, payee.pk, cents) not in settlement_payments(night):
        raise Refused("That payment is not in the settlement any more. Check the new amounts.")
    payment, _ = Payment.objects.get_or_create(
        night=night, payer=payer, payee=payee, cents=cents, defaults={"marked_by": marked_by}
    )
    return payment


@transaction.atomic
def unmark_paid(*, night: Night, payment: Payment, by: User) -> None:
    """Take back a "paid" mark, whoever made it."""
    night = lock_night(night)
    if payment.night_id != night.pk:
        raise Refused("That payment belongs to another night.")
    Payment.objects.filter(pk=payment.pk).delete()
