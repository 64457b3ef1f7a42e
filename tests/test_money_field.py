"""Amounts typed as the page shows them, in each language: the thousands mark, the
currency sign and either mark for cents are read; what could mean two amounts is
refused with an example in the language's own marks."""

import re

import pytest
from django import forms
from django.http import HttpResponse
from django.urls import reverse
from django.utils import translation

from scorekeeper.forms.fields import MoneyField
from scorekeeper.forms.nights import StartNightForm
from scorekeeper.forms.payments import OwedPaymentForm
from scorekeeper.models import Group, Night, User

AMBIGUOUS = {
    "en": "This amount can be read more than one way. Write it as 1234.50 or 1,234.50.",
    "nl": "Dit bedrag kun je op meer dan één manier lezen. Schrijf het als 1234,50 of 1.234,50.",
    "zh-hans": "这个金额有不止一种读法。请写成 1234.50 或 1,234.50。",
}


def cents(typed: str, language: str) -> int | None:
    with translation.override(language):
        return MoneyField(required=False).clean(typed)


def refusal(typed: str, language: str, field: forms.Field | None = None) -> list[str]:
    with translation.override(language):
        with pytest.raises(forms.ValidationError) as refused:
            (field or MoneyField()).clean(typed)
        return refused.value.messages


@pytest.mark.parametrize(
    ("typed", "language", "expected"),
    [
        ("1,234.50", "en", 123450),
        ("1234.50", "en", 123450),
        ("€1,234.50", "en", 123450),
        ("1,234", "en", 123400),
        ("1,234,567.89", "en", 123456789),
        ("€ 1.234,50", "nl", 123450),
        ("1.234,50", "nl", 123450),
        ("1234,50", "nl", 123450),
        ("1.234", "nl", 123400),
        ("€\u00a01.234,50", "nl", 123450),  # a non-breaking space, as copied from a page
        ("1\u202f234,50", "nl", 123450),  # a narrow no-break space between thousands
        ("¥1,234.50", "zh-hans", 123450),
        ("１２３４．５０", "zh-hans", 123450),  # full-width, as a Chinese keyboard types
        ("£ 5", "en", 500),
        ("12,5 €", "nl", 1250),
    ],
)
def test_an_amount_as_the_page_writes_it_is_read_in_whole_cents(typed, language, expected):
    assert cents(typed, language) == expected


@pytest.mark.parametrize("language", ["en", "nl", "zh-hans", "de"])
@pytest.mark.parametrize(("typed", "expected"), [("0,10", 10), ("0.10", 10), ("4,3", 430)])
def test_either_mark_for_cents_still_reads_in_every_language(typed, expected, language):
    assert cents(typed, language) == expected


@pytest.mark.parametrize(
    ("typed", "language"),
    [
        ("1.234", "en"),  # one and a bit, or a thousand the Dutch way?
        ("1.234", "zh-hans"),
        ("1,234", "nl"),
        ("1.234,50", "en"),  # the marks in the Dutch order
        ("€ 1.234,50", "zh-hans"),
        ("1,234.50", "nl"),  # the marks in the English order
        ("1.234.567", "en"),
        ("12,34.50", "en"),  # not groups of three
    ],
)
def test_an_amount_that_reads_two_ways_is_refused_with_an_example(typed, language):
    assert refusal(typed, language) == [AMBIGUOUS[language]]


@pytest.mark.parametrize("typed", ["abc", "1e3", "NaN", "1.2.3", "€-", "1,23,456"])
def test_what_is_not_an_amount_is_refused_as_before(typed):
    amount = OwedPaymentForm.base_fields["amount"]
    assert refusal(typed, "en", amount) == ["An amount is a number, for example €4.30."]
    assert refusal(typed, "nl", amount) == [
        "Een bedrag moet een getal zijn, bijvoorbeeld €\u00a04,30."
    ]


@pytest.mark.parametrize("typed", ["0.105", "0,105", "1.2345", "1,234.567"])
def test_more_than_two_decimals_keeps_its_own_message(typed):
    amount = OwedPaymentForm.base_fields["amount"]
    message = "An amount has at most 2 decimals, for example €4.30."
    assert refusal(typed, "en", amount) == [message]


def test_a_negative_amount_keeps_its_own_message_with_a_real_minus():
    amount = OwedPaymentForm.base_fields["amount"]
    assert refusal("−€ 0,50", "nl", amount) == ["Vul een bedrag van meer dan nul in."]


def test_a_blank_amount_or_a_lone_currency_sign_is_blank():
    assert cents("", "en") is None
    assert cents(" € ", "nl") is None


def start_night(client, group, **amounts) -> HttpResponse:
    anna, bram = User.objects.order_by("pk")
    data = {"game": "standard", "dealer": "1", "seat_1": anna.pk, "seat_2": bram.pk}
    return client.post(reverse("night_start", args=[group.pk]), {**data, **amounts})


def test_a_loss_cap_typed_as_the_page_writes_it_starts_the_night(login, make_group):
    group = make_group(members=("Anna", "Bram"))
    start_night(login("Anna"), group, point_value="€0.25", loss_cap="1,234.50")
    night = Night.objects.get()
    assert (night.point_cents, night.loss_cap_cents) == (25, 123450)


def test_in_dutch_the_page_reads_dutch_amounts_and_refuses_an_ambiguous_one(login, make_group):
    group = make_group(members=("Anna", "Bram"))
    client = login("Anna")
    client.post(reverse("language"), {"language": "nl"})
    response = start_night(client, group, point_value="0,10", loss_cap="1,234")
    assert response.status_code == 200
    assert AMBIGUOUS["nl"] in response.content.decode()
    assert not Night.objects.exists()
    start_night(client, group, point_value="0.10", loss_cap="€ 1.234,50")
    night = Night.objects.get()
    assert (night.point_cents, night.loss_cap_cents) == (10, 123450)


# --- the messages in the group's currency ------------------------------------------


def money_fields(currency: str) -> dict[str, forms.Field]:
    """Every field a person types an amount of ``currency`` into, as its form sets it."""
    night = StartNightForm(currency=currency)
    owed = OwedPaymentForm(data={"currency": currency})
    return {
        "point value": night.fields["point_value"],
        "loss cap": night.fields["loss_cap"],
        "owed payment": owed.fields["amount"],
    }


# A word for the minor unit or for decimals, and an amount with two decimals (4.30,
# 0,10: not 2,000 or 2.000).
CENTS_OR_DECIMALS = {
    "en": r"cent|decimal",
    "nl": r"cent|decima",
    "de": r"Cent|Nachkomma|Dezimal",
    "zh-hans": r"小数|分钱",
}
TWO_DECIMALS = r"\d[.,]\d{2}(?!\d)"
NOT_AN_AMOUNT = ["", "abc", "0.5", "12,34.50", "0,105", "1.234,5", "−3"]


@pytest.mark.parametrize("language", ["en", "nl", "de", "zh-hans"])
@pytest.mark.parametrize("field", ["point value", "loss cap", "owed payment"])
def test_a_yen_group_is_never_told_of_cents_or_decimals(language, field):
    said = []
    for typed in NOT_AN_AMOUNT:
        if typed == "" and field == "loss cap":
            continue  # a blank cap is no cap
        said += refusal(typed, language, money_fields("JPY")[field])
    assert said  # every one of them refused
    for message in said:
        assert not re.search(CENTS_OR_DECIMALS[language], message), message
        assert not re.search(TWO_DECIMALS, message), message


@pytest.mark.parametrize(
    ("currency", "field", "typed", "language", "message"),
    [
        ("JPY", "point value", "abc", "en", "Enter the value of one point, for example ¥10."),
        ("EUR", "point value", "abc", "en", "Enter the value of one point, for example €0.10."),
        (
            "JPY",
            "point value",
            "0.5",
            "en",
            "This currency has no smaller unit: write a whole number, for example ¥10.",
        ),
        (
            "EUR",
            "point value",
            "0.105",
            "en",
            "A point value has at most 2 decimals, for example €0.10.",
        ),
        (
            "JPY",
            "loss cap",
            "x",
            "nl",
            "Vul in hoeveel iemand vanavond hoogstens betaalt, bijvoorbeeld JP¥\u00a02.000,"
            " of laat het leeg.",
        ),
        (
            "EUR",
            "loss cap",
            "0,105",
            "de",
            "Eine Verlustgrenze darf höchstens 2 Nachkommastellen haben, zum Beispiel"
            " 20,00\u00a0€.",
        ),
        ("JPY", "owed payment", "", "zh-hans", "请输入已付金额，例如 JP¥430。"),
        ("EUR", "owed payment", "", "zh-hans", "请输入已付金额，例如 €4.30。"),
        (
            "JPY",
            "owed payment",
            "1.234",
            "en",
            "This amount can be read more than one way. Write it as 1234 or 1,234.",
        ),
    ],
)
def test_a_money_message_names_its_example_in_the_groups_currency(
    currency, field, typed, language, message
):
    assert refusal(typed, language, money_fields(currency)[field]) == [message]


def test_a_yen_group_starting_a_night_is_told_in_yen(login, make_group):
    group = make_group(members=("Anna", "Bram"))
    Group.objects.filter(pk=group.pk).update(currency="JPY")
    response = start_night(login("Anna"), group, point_value="0.5", loss_cap="lots")
    page = response.content.decode()
    assert "This currency has no smaller unit: write a whole number, for example ¥10." in page
    assert "Enter the most anyone pays tonight, for example ¥2,000, or leave it blank." in page
    assert not Night.objects.exists()


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "A loss cap can be at most €100,000.00."),
        ("nl", "Een verliesgrens mag hoogstens €\xa0100.000,00 zijn."),
        ("de", "Eine Verlustgrenze darf höchstens 100.000,00\xa0€ betragen."),
    ],
)
def test_the_most_a_field_takes_is_written_as_the_language_writes_amounts(language, said):
    field = StartNightForm.base_fields["loss_cap"]
    assert refusal("200000", language, field) == [said]
