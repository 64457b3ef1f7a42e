"""How a member likes to be paid: a bank account and payment links, all optional."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from scorekeeper.table.paying import Service

# The links, one field per service, named as the service (scorekeeper.table.paying.Service).
LINK_FIELDS = tuple(service.value for service in Service)


class PayDetails(models.Model):
    """One member's ways to be paid. The IBAN is kept as typed (spaces and all) and
    checked when saved; others see it masked, except inside the payment QR code."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pay_details"
    )
    iban = models.CharField(max_length=50, blank=True, default="")
    holder = models.CharField(max_length=70, blank=True, default="")
    bic = models.CharField(max_length=11, blank=True, default="")
    paypal = models.CharField(max_length=200, blank=True, default="")
    revolut = models.CharField(max_length=200, blank=True, default="")
    bunq = models.CharField(max_length=200, blank=True, default="")
    tikkie = models.CharField(max_length=200, blank=True, default="")
    wise = models.CharField(max_length=200, blank=True, default="")
    link = models.CharField(max_length=200, blank=True, default="")
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "pay details"
        constraints = [
            # A transfer needs the name on the account as much as its number.
            models.CheckConstraint(
                condition=Q(iban="") | ~Q(holder=""), name="pay_details_iban_has_holder"
            ),
        ]

    def __str__(self) -> str:
        return f"pay details of {self.user_id}"

    def links(self) -> list[tuple[Service, str]]:
        """The services set, in the order of the account page."""
        return [
            (service, getattr(self, service.value))
            for service in Service
            if getattr(self, service.value)
        ]
