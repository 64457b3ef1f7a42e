"""What a stranger or a slip of the thumb may post is answered in words (a 4xx or a
redirect), never a server error: odd pages to come back to after the language switcher,
an amount owed thousands of digits long."""

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.models import Payment
from scorekeeper.models.payments import TabPayment
from tests.helpers import settle_url
from tests.views.test_results import _pay_form, _two_finished_nights, owed_url

# Pages to come back to that are no page of this site, or not a path at all: a URL
# pattern's name, a word, dots, control characters, other sites, other schemes.
ODD_NEXT_PAGES = [
    "",
    " ",
    "home",
    "login",
    "group_detail",
    "abc",
    "nights",
    "x" * 5000,
    "0",
    "-1",
    "%",
    "%00",
    "\x00",
    "\t",
    "\u202e",
    "😀",
    "a\nb",
    ".",
    "..",
    "../..",
    "./rules/",
    "rules/",
    "?next=/",
    "#top",
    "javascript:alert(1)",
    "data:text/html,hi",
    "mailto:someone@example.org",
    "http://evil.example/",
    "https://evil.example/",
    "//evil.example/",
    "///evil.example/",
    "/\\evil.example/",
    "\\\\evil.example/",
    "http:/evil.example",
    "/rules/\r\nSet-Cookie: taken=1",
]


@pytest.mark.parametrize("anonymous", [True, False], ids=["anonymous", "logged in"])
@pytest.mark.parametrize("language", ["nl", "xx"], ids=["known language", "unknown language"])
def test_the_language_switcher_goes_back_to_a_page_of_this_site_whatever_next_says(
    db, login, make_user, anonymous, language
):
    client = Client() if anonymous else login(make_user("Anna"))
    for next_page in ODD_NEXT_PAGES:
        response = client.post(reverse("language"), {"language": language, "next": next_page})
        assert response.status_code == 302, repr(next_page)
        location = response["Location"]
        assert location.startswith("/") and not location.startswith(("//", "/\\")), (
            repr(next_page),
            location,
        )
        assert "\n" not in location and "\r" not in location


def test_the_language_switcher_still_goes_back_to_the_page_it_was_on(db):
    response = Client().post(reverse("language"), {"language": "nl", "next": "/rules/?a=1#b"})
    assert response.status_code == 302 and response["Location"] == "/rules/?a=1#b"
    assert response.cookies["django_language"].value == "nl"


HUGE = "9" * 5000


TOO_LARGE = "This amount is too large. Check its digits."


@pytest.mark.parametrize(
    "amount, words",
    [
        (HUGE, TOO_LARGE),
        ("1" + "0" * 4999, TOO_LARGE),
        (HUGE + ".50", TOO_LARGE),
        ("€ " + HUGE, TOO_LARGE),
        ("21474836.48", TOO_LARGE),  # one cent more than any amount can be
        ("1e5000", "An amount is a number, for example €4.30."),
        ("-" + HUGE, "Enter an amount of more than zero."),
    ],
)
@pytest.mark.parametrize("where", ["group", "settlement"])
def test_an_amount_owed_thousands_of_digits_long_is_refused_in_words(
    make_night, login, amount, words, where
):
    first, _ = _two_finished_nights(make_night)
    client = login("Chris")
    form = _pay_form(client.get(owed_url(first)), amount=amount)
    url = (
        reverse("owed_pay", args=[first.group_id])
        if where == "group"
        else reverse("night_owed_pay", args=[first.pk])
    )
    response = client.post(url, form, follow=True)
    assert response.status_code == 200
    assert words in response.content.decode()
    assert not TabPayment.objects.exists()
    assert client.get(settle_url(first)).status_code == 200


def test_the_largest_amount_is_refused_by_what_is_owed_not_by_its_size(make_night, login):
    first, _ = _two_finished_nights(make_night)
    client = login("Chris")
    form = _pay_form(client.get(owed_url(first)), amount="21474836.47")
    body = client.post(reverse("owed_pay", args=[first.group_id]), form, follow=True)
    assert "Chris owes Anna less than that." in body.content.decode()


@pytest.mark.parametrize("cents", ["9" * 4000, "9" * 5000, str(2**31), str(2**63)])
def test_a_settlement_line_marked_with_a_huge_number_of_cents_cannot_be_read(
    make_night, login, cents
):
    first, _ = _two_finished_nights(make_night)
    seats = {seat.name: seat.pk for seat in first.seats.all()}
    response = login("Chris").post(
        reverse("payment_mark", args=[first.pk]),
        {"payer": seats["Chris"], "payee": seats["Anna"], "cents": cents},
        follow=True,
    )
    assert response.status_code == 200
    assert "That payment could not be read. Try again." in response.content.decode()
    assert not Payment.objects.exists()
