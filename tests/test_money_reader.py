"""Money is read in one place (table/amounts.py): the forms read an amount in the
reader's language, the spreadsheet import reads a file, which has none, and they
take and refuse the same texts as the same amounts. What a language decides is which
mark is the thousands mark ("1.234", "1.234,50"): a form refuses the other order as
ambiguous, a file reads the marks in the order it has them, as one of the app's
languages does."""

import pytest
from django import forms
from django.conf import settings
from django.utils import translation
from hypothesis import example, given
from hypothesis import strategies as st

from scorekeeper.forms.fields import MAX_MINOR_UNITS, MoneyField
from scorekeeper.table import amounts
from scorekeeper.table.amounts import read_money

LANGUAGES = [code for code, _name in settings.LANGUAGES]
CURRENCIES = ["EUR", "JPY", "BHD"]
TYPED = st.text(alphabet="0123456789.,-+\u2212\u2013€¥ １２．，", max_size=10)


def typed_in_a_form(text: str, currency: str, language: str) -> int | str | None:
    """What the form makes of ``text``: minor units, None when blank, or why not."""
    with translation.override(language):
        try:
            return MoneyField(currency=currency, required=False).clean(text)
        except forms.ValidationError as refused:
            return f"refused: {refused.error_list[0].code}"


@given(text=TYPED, currency=st.sampled_from(CURRENCIES))
@example(text="１２,５０", currency="EUR")  # a Chinese keyboard's full-width digits
@example(text="\u20135", currency="EUR")  # a spreadsheet's minus, an en dash
@example(text="12.", currency="EUR")
@example(text="1.234,50", currency="EUR")
def test_a_form_and_a_file_read_the_same_text_as_the_same_amount(text, currency):
    in_a_file = read_money(text, currency)
    if in_a_file is not None and abs(in_a_file) > MAX_MINOR_UNITS:
        return  # the form's own limit, said in words of its own
    in_forms = {language: typed_in_a_form(text, currency, language) for language in LANGUAGES}
    for language, in_a_form in in_forms.items():
        if in_a_form == "refused: ambiguous":
            continue  # this language would read it otherwise, and says so
        if isinstance(in_a_form, int):
            assert in_a_form == in_a_file, language
        else:
            assert in_a_file is None, (language, in_a_form)
    if in_a_file is not None:  # and some language reads it the file's way
        assert in_a_file in in_forms.values()


def test_the_reader_knows_the_currency_signs_of_every_language_of_the_app():
    assert sorted(amounts.LANGUAGES) == sorted(LANGUAGES)


@pytest.mark.parametrize(
    ("text", "currency", "minor"),
    [("US$5", "USD", 500), ("-AU$ 1,50", "AUD", -150), ("JP¥500", "JPY", 500)],
)
def test_a_file_takes_a_currency_sign_as_any_language_of_the_app_writes_it(text, currency, minor):
    assert read_money(text, currency) == minor
