"""Marking a settlement payment as paid."""

from django import forms

from scorekeeper.models import Night, Seat


class PaymentForm(forms.Form):
    """A payment of the settlement, between two of the night's own seats."""

    payer = forms.ModelChoiceField(queryset=Seat.objects.none())
    payee = forms.ModelChoiceField(queryset=Seat.objects.none())
    cents = forms.IntegerField(min_value=1)

    def __init__(self, *args, night: Night, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["payer"].queryset = night.seats.all()
        self.fields["payee"].queryset = night.seats.all()
