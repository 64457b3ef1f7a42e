"""Fields for what people type on a phone: a hand's total and an amount of money."""

from decimal import Decimal

from django import forms
from django.core.validators import RegexValidator
from django.utils.formats import number_format
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper.models import MAX_POINTS
from scorekeeper.names import has_hidden_characters, tidy_title


class PointsInput(forms.IntegerField):
    """A hand's total as typed on a phone: "-7", "−7" (a real minus) or "+5"."""

    default_error_messages = {
        "required": _("Enter a total, for example 12 or −7."),
        "invalid": _("A total is a whole number, for example 12 or −7."),
        "min_value": format_lazy(_("A total must be between −{most} and {most}."), most=MAX_POINTS),
        "max_value": format_lazy(_("A total must be between −{most} and {most}."), most=MAX_POINTS),
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", -MAX_POINTS)
        kwargs.setdefault("max_value", MAX_POINTS)
        attrs = {"inputmode": "numeric", "autocomplete": "off", "class": "points"}
        kwargs.setdefault("widget", forms.TextInput(attrs=attrs))
        super().__init__(**kwargs)

    def to_python(self, value):
        if isinstance(value, str):
            value = value.strip().replace("\u2212", "-").replace(" ", "")
            if value.startswith("+"):
                value = value[1:]
        return super().to_python(value)


class SaveKeyField(forms.CharField):
    """The key the phone makes for one intended save (``Entry.client_key``): hidden,
    filled by the page's script, blank when the page runs without JavaScript."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 64)
        kwargs.setdefault("widget", forms.HiddenInput(attrs={"data-save-key": ""}))
        kwargs.setdefault(
            "validators",
            [
                RegexValidator(
                    r"^[A-Za-z0-9-]{16,64}$",
                    gettext_lazy("This save cannot be read. Reload the page and save again."),
                )
            ],
        )
        super().__init__(**kwargs)


class MoneyField(forms.DecimalField):
    """An amount typed on a phone: "0,10" as well as "0.10", a currency sign allowed.

    Cleans to whole cents (an int), or None when left blank; money is never a float.
    """

    def __init__(self, **kwargs):
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal"}))
        super().__init__(**kwargs)

    def to_python(self, value):
        if isinstance(value, str):
            value = value.strip().strip("€$£¥₹").strip().replace(",", ".")
        return super().to_python(value)

    def prepare_value(self, value):
        # Shown as the reader's language writes amounts ("0,10" in Dutch); either mark
        # is read back in every language.
        if isinstance(value, Decimal):
            return number_format(value, 2)
        return value

    def clean(self, value) -> int | None:
        amount: Decimal | None = super().clean(value)
        return None if amount is None else int(amount * 100)


class TitleField(forms.CharField):
    """A name for something shared (a group): any letters, digits, signs or emoji,
    NFKC-normalised and its spaces collapsed; nothing invisible and no control codes."""

    default_error_messages = {
        "hidden": gettext_lazy(
            "A group name cannot have invisible characters or control codes "
            "(such as a zero-width space or a text-direction mark)."
        ),
    }

    def to_python(self, value):
        return tidy_title(super().to_python(value))

    def validate(self, value):
        if has_hidden_characters(value):
            raise forms.ValidationError(self.error_messages["hidden"], code="hidden")
        super().validate(value)
