"""How a member likes to be paid: every field optional, each checked to its shape."""

from django import forms
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper.models import PayDetails
from scorekeeper.models.pay_details import LINK_FIELDS
from scorekeeper.table.paying import (
    SHAPES,
    BadIban,
    BadLink,
    Service,
    check_bic,
    check_iban,
    check_link,
    grouped_iban,
)

LINK_LABELS = {
    Service.PAYPAL: _("PayPal.Me link"),
    Service.REVOLUT: _("Revolut link (revolut.me)"),
    Service.BUNQ: _("bunq.me link"),
    Service.TIKKIE: _("Tikkie link"),
    Service.WISE: _("Wise link (Wisetag)"),
    Service.LINK: _("Another payment link"),
}

NOT_THE_SERVICE = gettext_lazy("That is not a %(service)s address. It looks like %(example)s.")
NOT_A_LINK = gettext_lazy("Enter a web address that starts with https://.")


class PayDetailsForm(forms.ModelForm):
    class Meta:
        model = PayDetails
        fields = ["holder", "iban", "bic", *LINK_FIELDS]
        labels = {
            "holder": _("Name on the account"),
            "iban": _("IBAN"),
            "bic": _("BIC (only for a bank outside the EEA)"),
            **{service.value: label for service, label in LINK_LABELS.items()},
        }
        error_messages = {
            "holder": {"max_length": _("A bank takes at most 70 characters for the name.")},
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.iban:  # kept compact; shown as people read it
            self.initial["iban"] = grouped_iban(self.instance.iban)
        self.fields["iban"].widget.attrs.update(
            {"autocapitalize": "characters", "spellcheck": "false", "autocomplete": "off"}
        )
        self.fields["bic"].widget.attrs.update({"autocapitalize": "characters"})
        for service in Service:
            widget = self.fields[service.value].widget
            widget.input_type = "url"
            example = SHAPES[service].example if service in SHAPES else "https://…"
            widget.attrs.update({"placeholder": example, "inputmode": "url"})

    def clean_iban(self) -> str:
        value = self.cleaned_data["iban"].strip()
        if not value:
            return ""
        try:
            return check_iban(value)
        except BadIban as problem:
            raise forms.ValidationError(iban_problem(problem)) from None

    def clean_bic(self) -> str:
        value = self.cleaned_data["bic"].strip()
        if not value:
            return ""
        try:
            return check_bic(value)
        except ValueError:
            raise forms.ValidationError(
                gettext("A BIC has 8 or 11 letters and digits, for example ABNANL2A.")
            ) from None

    def clean(self):
        data = super().clean()
        for service in Service:
            value = (data.get(service.value) or "").strip()
            if not value:
                data[service.value] = ""
                continue
            try:
                data[service.value] = check_link(service, value)
            except BadLink:
                if service is Service.LINK:
                    self.add_error(service.value, NOT_A_LINK)
                else:
                    shape = SHAPES[service]
                    self.add_error(
                        service.value,
                        NOT_THE_SERVICE % {"service": shape.name, "example": shape.example},
                    )
        # The account holder's own rule (an IBAN needs one, nothing invisible in it) is
        # the model's clean(), which a ModelForm runs after this.
        return data


def iban_problem(problem: BadIban) -> str:
    """What is wrong with an IBAN, in the reader's language."""
    if problem.kind == "checksum":
        return gettext(
            "The check digits of this IBAN do not match its number: a character is "
            "mistyped. Check it against your bank app."
        )
    if problem.kind == "length":
        return gettext("An IBAN from this country has %(count)d characters.") % {
            "count": problem.length
        }
    if problem.kind == "country":
        return gettext("An IBAN starts with its country's two letters, such as NL or DE.")
    return gettext("That is not an IBAN: it looks like NL91 ABNA 0417 1643 00.")
