"""Starting a group, the table's own house rules (royalties and scoring), and a new
invitation link."""

from datetime import date, timedelta
from functools import cache

from babel.core import get_global
from babel.numbers import get_currency_name, get_territory_currencies
from django import forms
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from scorekeeper.forms.fields import TitleField
from scorekeeper.models.titles import GROUP_NAME
from scorekeeper.ofc import STANDARD_ROYALTIES, Royalties
from scorekeeper.ofc.royalties import MAX_ROYALTY, ROYALTY_KEYS, royalty_table
from scorekeeper.ofc.scoring_systems import MAX_BONUS, ONE_SIX, SYSTEMS, Scoring, scoring_system
from scorekeeper.reads.rules import (
    SECTION_TITLES,
    paid_sections,
    royalty_label,
    short_royalty_label,
)
from scorekeeper.table.formatting import locale_of


class GroupForm(forms.Form):
    name = TitleField(label=gettext_lazy("Group name"), rule=GROUP_NAME)


class CurrencyForm(forms.Form):
    """The group's currency, from ISO 4217 as CLDR keeps it, named in the reader's
    language: the currencies in use today, and the group's own if it no longer is."""

    currency = forms.ChoiceField(
        label=gettext_lazy("Currency"),
        error_messages={
            "invalid_choice": gettext_lazy(
                "“%(value)s” is not a currency the app knows. Pick one from the list."
            ),
        },
    )

    def __init__(self, *args, current: str = "EUR", **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["currency"]
        field.choices = currency_choices(current)
        field.initial = current


def currency_choices(current: str) -> list[tuple[str, str]]:
    language = get_language() or "en"
    codes = currencies_in_use() | {current}
    named = [(code, currency_name(code, language)) for code in codes]
    return sorted(named, key=lambda choice: (choice[1].casefold(), choice[0]))


def currency_name(code: str, language: str) -> str:
    return _("%(name)s (%(code)s)") % {
        "name": get_currency_name(code, locale=locale_of(language)),
        "code": code,
    }


@cache
def currencies_in_use() -> frozenset[str]:
    """Every currency that is legal tender somewhere today (CLDR's territories)."""
    today = date.today()
    return frozenset(
        code
        for territory in get_global("territory_currencies")
        for code in get_territory_currencies(territory, today)
    )


SYSTEM_CHOICES = [
    ("1-6", gettext_lazy("1-6: a row is 1, a scoop 6")),
    ("2-4", gettext_lazy("2-4: winning more rows is 2, a scoop 4")),
    ("1-1-1", gettext_lazy("1-1-1: rows only, a scoop 3")),
    ("own", gettext_lazy("Our own scoop and majority bonus")),
]
OWN = "own"


def _field_name(section: str, key: str) -> str:
    return f"{section}__{key.replace(' ', '_')}"


class HouseRulesForm(forms.Form):
    """The table's own house rules: every royalty amount of the sections shown, and
    the scoring system. ``base`` holds the rules to start from and to keep for the
    sections not shown (a night's game pays only some of them)."""

    system = forms.ChoiceField(
        choices=SYSTEM_CHOICES,
        widget=forms.RadioSelect,
        label=gettext_lazy("Scoring"),
        error_messages={
            code: gettext_lazy("Pick how the table scores: 1-6, 2-4, 1-1-1 or your own.")
            for code in ("required", "invalid_choice")
        },
    )
    scoop = forms.IntegerField(
        required=False,
        label=gettext_lazy("Scoop bonus (all three rows)"),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "size": 3}),
    )
    majority = forms.IntegerField(
        required=False,
        label=gettext_lazy("Majority bonus (more rows won)"),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "size": 3}),
    )

    def __init__(self, *args, base: dict | None = None, sections: tuple[str, ...] = (), **kwargs):
        self.base_royalties = royalty_table(dict((base or {}).get("royalties", {})))
        scoring = scoring_system(dict((base or {}).get("scoring", {})))
        self.sections = sections or paid_sections(None)
        kwargs["initial"] = {
            "system": scoring.name or OWN,
            "scoop": scoring.scoop,
            "majority": scoring.majority,
            **kwargs.get("initial", {}),
        }
        super().__init__(*args, **kwargs)
        for section in self.sections:
            for key in ROYALTY_KEYS[section]:
                label = royalty_label(section, key)
                message = _("%(entry)s: enter a whole number from 0 to %(most)s.") % {
                    "entry": label,
                    "most": MAX_ROYALTY,
                }
                self.fields[_field_name(section, key)] = forms.IntegerField(
                    label=label,
                    min_value=0,
                    max_value=MAX_ROYALTY,
                    initial=self.base_royalties.amount(section, key),
                    error_messages={
                        code: message for code in ("required", "invalid", "min_value", "max_value")
                    },
                    widget=forms.TextInput(
                        attrs={
                            "inputmode": "numeric",
                            "size": 3,
                            "class": "amount",
                            "aria-label": label,
                        }
                    ),
                )
                # The grid shows the entry alone under its section's title.
                self.fields[_field_name(section, key)].short = short_royalty_label(section, key)

    def royalty_sections(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The royalty fields, section by section, for the template."""
        return [
            (
                str(SECTION_TITLES[section]),
                [self[_field_name(section, key)] for key in ROYALTY_KEYS[section]],
            )
            for section in self.sections
        ]

    def clean(self):
        data = super().clean()
        if data.get("system") != OWN:
            # The bonuses are the named system's: whatever was typed there is not used.
            for name in ("scoop", "majority"):
                self.errors.pop(name, None)
        else:
            for name, what in (
                ("scoop", _("The scoop bonus")),
                ("majority", _("The majority bonus")),
            ):
                value = data.get(name)
                if name in self.errors or value is None or not 0 <= value <= MAX_BONUS:
                    self.errors.pop(name, None)
                    self.add_error(
                        name,
                        _("%(what)s is a whole number from 0 to %(most)s.")
                        % {"what": what, "most": MAX_BONUS},
                    )
        return data

    def scoring(self) -> Scoring:
        system = self.cleaned_data["system"]
        if system == OWN:
            return Scoring(self.cleaned_data["scoop"], self.cleaned_data["majority"])
        return SYSTEMS[system]

    def royalties(self) -> Royalties:
        """The base table with the amounts shown here."""
        amounts = {
            section: {
                key: self.cleaned_data[_field_name(section, key)] for key in ROYALTY_KEYS[section]
            }
            for section in self.sections
        }
        return self.base_royalties.with_changes(amounts)

    def table_rules(self) -> dict:
        """The rules as a night or a group keeps them: only what differs from the
        standard table and from 1-6, so an untouched form stores nothing."""
        rules: dict = {}
        changes = self.royalties().changes_from(STANDARD_ROYALTIES)
        if changes:
            rules["royalties"] = changes
        scoring = self.scoring()
        if scoring != ONE_SIX:
            rules["scoring"] = scoring.as_json()
        return rules


# How long a new invitation link works, and for how many people.
LINK_LIFETIMES = {"": None, "1d": timedelta(days=1), "7d": timedelta(days=7)}


class InviteLinkForm(forms.Form):
    valid_for = forms.ChoiceField(
        label=gettext_lazy("Works for"),
        required=False,
        choices=[
            ("", gettext_lazy("until replaced")),
            ("1d", gettext_lazy("one day")),
            ("7d", gettext_lazy("a week")),
        ],
    )
    uses = forms.TypedChoiceField(
        label=gettext_lazy("Lets in"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[
            ("", gettext_lazy("anyone with it")),
            ("1", gettext_lazy("one person")),
            ("5", gettext_lazy("5 people")),
            ("10", gettext_lazy("10 people")),
        ],
    )

    def lifetime(self) -> timedelta | None:
        return LINK_LIFETIMES[self.cleaned_data.get("valid_for") or ""]
