"""Settlement payments someone marked as paid: a night's own, and what was still
owed across nights."""

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from scorekeeper.models.groups import Group
from scorekeeper.models.nights import Night, Seat

if TYPE_CHECKING:
    from scorekeeper.models.accounts import User


class Payment(models.Model):
    """A settlement payment someone marked as paid."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="payments")
    payer = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    payee = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    cents = models.PositiveIntegerField()
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    marked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["night", "payer", "payee", "cents"], name="payment_marked_once"
            ),
            models.CheckConstraint(condition=Q(cents__gt=0), name="payment_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.cents}"


class TabPayment(models.Model):
    """A payment of what was still owed across a group's finished nights.

    People are known across nights by account (``user:<id>``) or, for a guest, by
    name (``guest:<name>``), the same way the group's history knows them. What the
    payment cleared on which night is in its parts.
    """

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="tab_payments")
    currency = models.CharField(max_length=3)
    payer_name = models.CharField(max_length=30)
    payee_name = models.CharField(max_length=30)
    cents = models.PositiveIntegerField()
    # What the owed list looked like when the button was pressed, with who pays whom:
    # a second tap on the same button finds this row instead of paying again. Unique
    # within the group: the same people owing the same in two groups make equal keys.
    key = models.CharField(max_length=200)
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    marked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(cents__gt=0), name="tab_payment_positive"),
            models.UniqueConstraint(fields=["group", "key"], name="tab_payment_once_per_group"),
        ]

    def __str__(self) -> str:
        return f"{self.payer_name} pays {self.payee_name} {self.cents}"

    def may_be_undone_by(self, user: "User") -> bool:
        """Either side of the payment, or whoever entered it, may take it back (its
        parts name both sides' seats; a guest's side has no account to do it)."""
        if user.pk == self.marked_by_id:
            return True
        return any(part.seat.user_id == user.pk for part in self.parts.all())


class TabPart(models.Model):
    """The part of a tab payment that squares one seat's night, in whole cents:
    positive for the payer's seat (their debt shrinks), negative for the payee's."""

    payment = models.ForeignKey(TabPayment, on_delete=models.CASCADE, related_name="parts")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="tab_parts")
    cents = models.IntegerField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(cents=0), name="tab_part_not_zero"),
            models.UniqueConstraint(fields=["payment", "seat"], name="one_tab_part_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.seat} {self.cents:+}"
