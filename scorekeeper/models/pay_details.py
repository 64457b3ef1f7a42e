"""How a member likes to be paid: a bank account and payment links, all optional."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from scorekeeper.table.names import has_hidden_characters
from scorekeeper.table.paying import Service

# The links, one field per service, named as the service (scorekeeper.table.paying.Service).
LINK_FIELDS = tuple(service.value for service in Service)

HOLDER_NEEDED = gettext_lazy("Enter the name on the account, as your bank writes it.")
# Zero-width spaces, text-direction overrides, terminal escapes: a name that hides what
# it is, refused as in people's and groups' names (table.names.has_hidden_characters).
HIDDEN_IN_HOLDER = gettext_lazy(
    "The name on the account cannot have invisible characters or control codes "
    "(such as a zero-width space or a text-direction mark)."
)


class PayDetails(models.Model):
    """One member's ways to be paid. The IBAN is kept compact and in capitals
    (``NL91ABNA0417164300``, table.paying.check_iban) and checked when saved; others
    see it masked, except inside the payment QR code."""

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

    def clean(self) -> None:
        """The account holder's rule, in one place for the account page's form (a
        ModelForm runs it) and the service that saves (services.pay_details): the name
        with its spaces collapsed, nothing invisible in it, and there whenever an IBAN
        is (a transfer needs the name on the account as much as its number; the
        constraint above is the database's guard of the same rule)."""
        self.holder = " ".join(self.holder.split())
        if has_hidden_characters(self.holder):
            raise ValidationError({"holder": ValidationError(HIDDEN_IN_HOLDER, code="hidden")})
        if self.iban and not self.holder:
            raise ValidationError({"holder": ValidationError(HOLDER_NEEDED, code="holder_needed")})

    def links(self) -> list[tuple[Service, str]]:
        """The services set, in the order of the account page."""
        return [
            (service, getattr(self, service.value))
            for service in Service
            if getattr(self, service.value)
        ]
