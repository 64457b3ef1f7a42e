"""Settlement payments someone marked as paid."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from scorekeeper.models.nights import Night, Seat


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
