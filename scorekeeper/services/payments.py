"""Marking settlement payments as paid, and taking a mark back; paying what is
still owed across nights, whole or in part; the group's settle-everything choice.

A night's own marks go through the night's door (:func:`.locks.night_change`); what
spans nights goes through the door of its own (:func:`.locks.nights_change`), which
bumps every night whose settlement it changed. Both lock the group first, then
nights by id: a night's marks and the payments across nights change the same
amounts, so they queue behind each other.
"""

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from scorekeeper.i18n import money, sentences
from scorekeeper.models import Change, Group, Night, Payment, Seat, User
from scorekeeper.models.owed import (
    CANNOT_FOLD,
    HalfPaidAcross,
    finished_nights,
    folded_nights,
    owed_in,
)
from scorekeeper.models.payments import TabPart, TabPayment
from scorekeeper.models.settlements import PAID_ACROSS, payment_lines, same_money_question
from scorekeeper.services.errors import Refused
from scorekeeper.services.locks import in_group, member_of, night_change, nights_change, record


@transaction.atomic
def mark_paid(
    *,
    night: Night,
    payer: Seat,
    payee: Seat,
    cents: int,
    marked_by: User,
    another_payment: bool = False,
) -> Payment:
    """Record that ``payer`` paid ``payee`` ``cents``; marking it twice changes nothing.

    Only a payment of the night's current settlement can be marked, and only once the
    night is over (before that the amounts can still change), except a payment that
    squares someone who left: their result is final, so they can pay before they go.
    When the two have a payment across nights since the night ended that went to other
    nights, the mark may be that same money again: it is refused with the question
    until ``another_payment`` says it is another payment.
    """
    with night_change(night, by=marked_by, may=in_group) as night:
        line = next(
            (
                line
                for line in payment_lines(night)
                if (line.payer.pk, line.payee.pk, line.cents) == (payer.pk, payee.pk, cents)
            ),
            None,
        )
        if not night.is_over and (line is None or line.leaver is None):
            raise Refused(_("Payments can be marked once the night is over."))
        if line is None:
            raise Refused(
                _("That payment is not in the settlement any more. Check the new amounts.")
            )
        _check_between(night, marked_by, payer, payee)
        if line.is_paid:
            return line.marked  # type: ignore[return-value]
        if line.across:
            # A payment across nights squared some of it: a mark would count that twice.
            raise Refused(PAID_ACROSS % {"amount": money(line.across, night.currency)})
        if line.elsewhere and not another_payment:
            raise Refused(sentences(same_money_question(line, night.currency)))
        payment, _created = Payment.objects.get_or_create(
            night=night, payer=payer, payee=payee, cents=cents, defaults={"marked_by": marked_by}
        )
        record(Change.Kind.PAID, **_line(payer.name, payee.name, cents, night.currency))
        return payment


@transaction.atomic
def unmark_paid(*, night: Night, payment: Payment, by: User) -> None:
    """Take back a "paid" mark: its payer or its payee may (:meth:`Night.may_mark_between`)."""
    with night_change(night, by=by, may=in_group) as night:
        if payment.night_id != night.pk:
            raise Refused(_("That payment belongs to another night."))
        _check_between(night, by, payment.payer, payment.payee)
        Payment.objects.filter(pk=payment.pk).delete()
        names = (payment.payer.name, payment.payee.name)
        record(Change.Kind.UNPAID, **_line(*names, payment.cents, night.currency))


def _check_between(night: Night, user: User, payer: Seat, payee: Seat) -> None:
    """Refused in words unless ``user`` is a side of the payment (or speaks for a guest's)."""
    if night.may_mark_between(user, payer, payee):
        return
    names = {"payer": payer.name, "payee": payee.name}
    if payer.is_guest or payee.is_guest:
        raise Refused(
            _(
                "Only %(payer)s and %(payee)s can mark this payment paid or take the mark "
                "back; for a guest, whoever started the night does."
            )
            % names
        )
    raise Refused(
        _("Only %(payer)s and %(payee)s can mark this payment paid or take the mark back.") % names
    )


@transaction.atomic
def pay_owed(
    *,
    group: Group,
    payer: str,
    payee: str,
    cents: int,
    currency: str,
    fingerprint: str,
    marked_by: User,
    night: Night | None = None,
) -> TabPayment:
    """Record that ``payer`` paid ``payee`` ``cents`` of what is still owed, people
    known by :func:`~scorekeeper.table.people.person_key`.

    Without ``night`` it pays the group's tab across all finished nights; with one,
    the night's settle-everything payments (that night and the ones before it). Less
    than the payment is a partial payment: the rest stays owed. The parts square the
    payer's and the payee's nights oldest first. ``fingerprint`` is the owed list the
    button was shown with: the same button pressed twice records the payment once,
    and a button from an older list is refused.
    """
    with nights_change(group, by=marked_by, may=member_of) as touched:
        if night is not None:
            night = Night.objects.get(pk=night.pk)  # as it is now, under the group's lock
            if night.group_id != group.pk:
                raise Refused(_("That night belongs to another group."))
            if not night.is_over:
                raise Refused(_("Payments can be marked once the night is over."))
        key = f"{fingerprint}|{night.pk if night else ''}|{payer}|{payee}|{cents}|{currency}"
        existing = TabPayment.objects.filter(group=group, key=key).first()
        if existing is not None:
            return existing  # the same button, pressed again
        if cents <= 0:
            raise Refused(_("Enter an amount of more than zero."))
        try:
            owed = owed_in(group, folded_nights(night) if night else finished_nights(group))
        except HalfPaidAcross:  # a stale page: the night cannot fold in earlier ones now
            raise Refused(CANNOT_FOLD) from None
        if owed.fingerprint != fingerprint:
            raise Refused(
                _("What is owed has changed since this page was shown. Check the new amounts.")
            )
        payment = owed.find(payer, payee, currency)
        if payment is None:
            raise Refused(_("That payment is not owed any more. Check the new amounts."))
        if cents > payment.cents:
            raise Refused(
                _("%(payer)s owes %(payee)s less than that. Enter at most what is owed.")
                % {"payer": payment.payer.name, "payee": payment.payee.name}
            )
        tab = TabPayment.objects.create(
            group=group,
            currency=currency,
            payer_name=payment.payer.name,
            payee_name=payment.payee.name,
            cents=cents,
            key=key,
            marked_by=marked_by,
        )
        parts = []
        for person, sign in ((payer, 1), (payee, -1)):
            left = cents
            for line in owed.seats:
                if not left:
                    break
                if line.person != person or line.seat.night.currency != currency:
                    continue
                # The payer's debts (negative) and the payee's credits (positive) only.
                open_cents = -sign * line.cents
                if open_cents <= 0:
                    continue
                part = min(open_cents, left)
                parts.append(TabPart(payment=tab, seat=line.seat, cents=sign * part))
                left -= part
            if left:  # the settlement never asks for more than their nights hold
                raise Refused(
                    _("That payment does not fit what the nights say. Check the amounts.")
                )
        TabPart.objects.bulk_create(parts)
        record(Change.Kind.OWED_PAID, **_line(tab.payer_name, tab.payee_name, cents, currency))
        touched.changed_money(part.seat.night_id for part in parts)
        touched.changed_pages(_nights_showing(tab))
        return tab


@transaction.atomic
def undo_owed_payment(*, group: Group, payment: TabPayment, by: User) -> TabPayment:
    """Take back a payment across nights entered by mistake: what it cleared is owed
    again, on the same nights. Either side, or whoever entered it, may."""
    with nights_change(group, by=by, may=_anyone) as touched:
        found = (
            TabPayment.objects.filter(pk=payment.pk, group=group)
            .prefetch_related("parts__seat")
            .first()
        )
        if found is None:
            raise Refused(_("That payment was taken back already."))
        if not found.may_be_undone_by(by):
            raise Refused(
                _("Only %(payer)s, %(payee)s or whoever marked it can take this payment back.")
                % {"payer": found.payer_name, "payee": found.payee_name}
            )
        touched.changed_money(part.seat.night_id for part in found.parts.all())
        touched.changed_pages(_nights_showing(found))
        found.delete()  # its parts go with it
        names = (found.payer_name, found.payee_name)
        record(Change.Kind.OWED_UNDONE, **_line(*names, found.cents, found.currency))
        return found


@transaction.atomic
def set_settle_everything(*, group: Group, on: bool, by: User) -> None:
    """Whether each night's settlement folds in what is still owed from earlier nights."""
    with nights_change(group, by=by, may=_settles_it) as touched:
        if (
            Group.objects.filter(pk=group.pk)
            .exclude(settle_everything=on)
            .update(settle_everything=on)
        ):
            # Every finished night's settlement folds earlier nights in, or stops to.
            touched.changed_pages(group.nights.values_list("pk", flat=True))
            record(Change.Kind.SETTLE_EVERYTHING_ON if on else Change.Kind.SETTLE_EVERYTHING_OFF)


def _line(payer: str, payee: str, cents: int, currency: str) -> dict:
    """A payment's values on the record of changes."""
    return {"payer": payer, "payee": payee, "cents": cents, "currency": currency}


def _anyone(group: Group, user: User) -> str:
    # Who may take a payment back is the payment's own rule (TabPayment.may_be_undone_by),
    # checked inside, once it is found: a former member who paid may still undo it.
    return ""


def _settles_it(group: Group, user: User) -> str:
    if group.has_member(user):
        return ""
    return _("Only members of the group can change how it settles.")


def _nights_showing(payment: TabPayment) -> "QuerySet[Night]":
    # A finished night's settlement lists the payments across nights in its currency
    # made since it ended (its folded settlement, what is still owed on its lines): a
    # payment made or taken back changes what each of them shows.
    return Night.objects.filter(
        group_id=payment.group_id, currency=payment.currency, ended_at__isnull=False
    ).values_list("pk", flat=True)
