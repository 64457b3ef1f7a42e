"""Fields for what people type on a phone: a hand's total and an amount of money."""

from decimal import Decimal

from django import forms
from django.core.validators import DecimalValidator, RegexValidator
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper.i18n import language, money, money_input
from scorekeeper.models import MAX_POINTS, points_out_of_range
from scorekeeper.models.titles import TitleRefused, TitleRule
from scorekeeper.table import formatting
from scorekeeper.table.amounts import NotAnAmount, amount_text
from scorekeeper.table.formatting import minor_digits


class PointsInput(forms.IntegerField):
    """A hand's total as typed on a phone: "-7", "−7" (a real minus) or "+5"."""

    default_error_messages = {
        "required": _("Enter a total, for example 12 or −7."),
        "invalid": _("A total is a whole number, for example 12 or −7."),
        "min_value": lazy(points_out_of_range, str)(),
        "max_value": lazy(points_out_of_range, str)(),
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


# The most minor units an amount may have: what a PositiveIntegerField holds on every
# database (PostgreSQL's integer), and far more than a night at the table moves. A
# longer amount ("9" 5,000 times) is refused in words, before it reaches a query.
MAX_MINOR_UNITS = 2**31 - 1


class MoneyField(forms.DecimalField):
    """An amount typed on a phone, read the way the page writes amounts.

    Cleans to whole minor units of ``currency`` (an int: cents for euros, yen for
    yen, as ``formatting.minor_digits`` says), or None when left blank; money is
    never a float.

    The marks are the active language's, from the same CLDR data the pages write
    amounts with (``formatting.marks``: "€1,234.50" in English and Chinese,
    "€ 1.234,50" in Dutch, "1.234,50 €" in German). Then:

    - spaces (non-breaking and narrow ones too), a currency sign (any one-character
      sign such as € $ £ ¥ ₹, or the currency's own: "CHF", "JP¥", its code) and a
      plus or minus sign are left out; full-width digits and marks read as ASCII;
    - both marks: thousands marks between groups of three, then one decimal mark
      ("1,234.50" in English, "1.234,50" in Dutch);
    - the thousands mark alone between groups of three is a thousands mark
      ("1,234" is 1234 in English, "1.234" in Dutch; "1,234,567");
    - otherwise one mark of either kind is the decimal mark, in every language:
      "0,10" and "0.10" are ten cents, "1234,5" is 1234.50;
    - refused as ambiguous, with an example in the language's marks ("Write it as
      1234.50 or 1,234.50."): the decimal mark where a thousands mark would fit
      ("1.234" in English, "1,234" in Dutch: a thousand, or one and a bit?), and
      both marks in another order or grouping than the language's ("1.234,50" in
      English);
    - anything else is not an amount (the form's "invalid" message); more decimals
      than the currency has are the form's "max_decimal_places" one ("0.105"), and
      any decimal at all in a currency without a minor unit is "whole" ("500.5" yen).

    Every message may name ``%(example)s``: ``example`` minor units written as money
    of the field's currency ("€0.10", "¥10"), so no currency is told of cents it
    does not have, and ``%(most)s``: the field's ``max_value`` written the same way
    ("€100,000.00", "€ 100.000,00"); "max_decimal_places" also has the currency's
    ``%(max)s`` decimals.
    More than ``MAX_MINOR_UNITS`` either way is "too_big", when no smaller
    ``max_value`` (or ``min_value``) refused it first.
    """

    default_error_messages = {
        "ambiguous": _(
            "This amount can be read more than one way. Write it as %(plain)s or %(grouped)s."
        ),
        "whole": _(
            "This currency has no smaller unit: write a whole number, for example %(example)s."
        ),
        "too_big": _("This amount is too large. Check its digits."),
    }

    def __init__(self, *, currency: str = "EUR", example: int = 430, **kwargs):
        kwargs.setdefault("decimal_places", minor_digits(currency))
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal"}))
        super().__init__(**kwargs)
        self.currency = currency
        self.example = example

    def for_currency(self, currency: str) -> None:
        """Read amounts of ``currency`` from now on (a form's copy of the field, set
        once the form knows its group's currency)."""
        self.currency = currency
        self.decimal_places = minor_digits(currency)
        # New validators, not changed ones: a form's copy of a field shares the
        # declared field's validator objects with every other form.
        self.validators = [
            DecimalValidator(self.max_digits, self.decimal_places)
            if isinstance(validator, DecimalValidator)
            else validator
            for validator in self.validators
        ]

    def to_python(self, value):
        if isinstance(value, str):
            value = self.as_decimal_text(value)
        return super().to_python(value)

    def as_decimal_text(self, typed: str) -> str:
        """``typed`` as Python's ``Decimal`` reads it ("1234.50"), or "" when blank: read
        by the one reader of amounts (table/amounts.py) in the active language's marks."""
        try:
            return amount_text(typed, self.currency, formatting.marks(language()))
        except NotAnAmount as wrong:
            if wrong.kind == "ambiguous":
                raise self.ambiguous() from None
            if wrong.kind == "whole":
                raise forms.ValidationError(self.error_messages["whole"], code="whole") from None
            raise self.not_an_amount() from None

    def not_an_amount(self) -> forms.ValidationError:
        # Also what Decimal would take but no one means: "1e3", "NaN", "1.2.3".
        return forms.ValidationError(self.error_messages["invalid"], code="invalid")

    def ambiguous(self) -> forms.ValidationError:
        # 1234.50 in the currency's own digits: 1234 yen, 1234.500 dinars.
        example = int(Decimal("1234.50").scaleb(self.decimal_places))
        return forms.ValidationError(
            self.error_messages["ambiguous"],
            code="ambiguous",
            params={
                "plain": money_input(example, self.currency),
                "grouped": formatting.decimal(
                    formatting.as_major(example, self.currency), self.decimal_places, language()
                ),
            },
        )

    def prepare_value(self, value):
        # Shown as the reader's language writes amounts ("0,10" in Dutch, "500" for
        # yen); either mark is read back in every language.
        if isinstance(value, Decimal):
            return money_input(int(value.scaleb(self.decimal_places)), self.currency)
        return value

    def clean(self, value) -> int | None:
        try:
            amount: Decimal | None = super().clean(value)
            if amount is None:
                return None
            # Compared before anything counts with it: Python will not even write an
            # integer of more than 4,300 digits as text.
            if abs(amount) > Decimal(MAX_MINOR_UNITS).scaleb(-self.decimal_places):
                raise forms.ValidationError(self.error_messages["too_big"], code="too_big")
        except forms.ValidationError as refused:
            said = {"example": money(self.example, self.currency)}
            if self.max_value is not None:
                said["most"] = money(int(self.max_value.scaleb(self.decimal_places)), self.currency)
            for error in refused.error_list:
                error.params = {**(error.params or {}), **said}
            raise
        return int(amount.scaleb(self.decimal_places))


class TitleField(forms.CharField):
    """A name for something shared (a group's, a season's): any letters, digits, signs
    or emoji, NFKC-normalised and its spaces collapsed; nothing invisible and no control
    codes. Checked by its ``rule`` (models/titles.py), which the service checks again:
    one rule, said in the same words."""

    def __init__(self, *, rule: TitleRule, **kwargs):
        super().__init__(**kwargs)
        self.rule = rule
        self.widget.attrs["maxlength"] = str(rule.most)

    def clean(self, value):
        try:
            return self.rule.checked(self.to_python(value))
        except TitleRefused as refused:
            raise forms.ValidationError(str(refused), code=refused.code) from None
