"""Marking a settlement payment as paid, paying what is still owed across nights,
and the group's settle-everything choice."""

from decimal import Decimal

from babel.numbers import is_currency
from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from scorekeeper.forms.fields import MAX_MINOR_UNITS, MoneyField
from scorekeeper.models import Night, Seat


class PaymentForm(forms.Form):
    """A payment of the settlement, between two of the night's own seats."""

    payer = forms.ModelChoiceField(queryset=Seat.objects.none())
    payee = forms.ModelChoiceField(queryset=Seat.objects.none())
    # Its view says "could not be read" for anything the form refuses.
    cents = forms.IntegerField(min_value=1, max_value=MAX_MINOR_UNITS)
    # Told that this is another payment, not one across nights the page asked about.
    another_payment = forms.BooleanField(required=False)

    def __init__(self, *args, night: Night, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["payer"].queryset = night.seats.all()
        self.fields["payee"].queryset = night.seats.all()


class OwedPaymentForm(forms.Form):
    """A payment of what is still owed across nights, whole or in part.

    People come as the owed list names them (``user:3``, ``guest:eve``); whether the
    payment is owed, and how much, the service checks against the list itself.
    """

    payer = forms.CharField(max_length=80)
    payee = forms.CharField(max_length=80)
    currency = forms.CharField(max_length=3)
    fingerprint = forms.CharField(max_length=64)
    amount = MoneyField(
        min_value=Decimal("0.01"),
        example=430,
        error_messages={
            "required": _("Enter the amount paid, for example %(example)s."),
            "invalid": _("An amount is a number, for example %(example)s."),
            "min_value": _("Enter an amount of more than zero."),
            "max_decimal_places": ngettext_lazy(
                "An amount has at most %(max)s decimal, for example %(example)s.",
                "An amount has at most %(max)s decimals, for example %(example)s.",
                "max",
            ),
        },
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The amount is read in the posted currency's own unit (yen have no cents);
        # an unknown code is the service's to refuse.
        posted = str(self.data.get("currency", ""))
        if is_currency(posted):
            self.fields["amount"].for_currency(posted)


class SettleEverythingForm(forms.Form):
    """Whether the group's settlements fold in what earlier nights still owe."""

    on = forms.BooleanField(required=False)
