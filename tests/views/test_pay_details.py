"""How members like to be paid: the account page, and the ways to pay on the
settlement's and the group page's payment lines, shown only within the group."""

import html
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from scorekeeper.models import Group, Night, PayDetails, User
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import leave_group
from scorekeeper.services.pay_details import save_pay_details
from tests.helpers import finish, make_group, play, rounds_of, settle_url

IBAN = "NL91 ABNA 0417 1643 00"
COMPACT = "NL91ABNA0417164300"  # as it is kept
ACCOUNT = reverse("account")


def anna_is_paid_by(**details: str) -> None:
    save_pay_details(user=User.objects.get(name="Anna"), **details)


@pytest.fixture
def night(make_night) -> Night:
    """Over: Chris pays Anna €1.20, Bram pays her €0.30."""
    return finish(play(make_night(), *rounds_of(2)))


# --- the account page --------------------------------------------------------------


def test_the_account_page_keeps_the_iban_compact_and_each_link(login, make_user):
    make_user("Anna")
    client = login("Anna")
    assert client.get(ACCOUNT).status_code == 200
    response = client.post(
        ACCOUNT,
        {"holder": "Anna de Vries", "iban": IBAN, "paypal": "paypal.me/AnnaDV", "wise": ""},
    )
    assert response.status_code == 302
    details = PayDetails.objects.get(user__name="Anna")
    assert (details.holder, details.iban, details.paypal) == (
        "Anna de Vries",
        COMPACT,
        "https://paypal.me/AnnaDV",
    )
    # The menu's name leads here.
    assert ACCOUNT in client.get(reverse("home") + "?stay=1").content.decode()


@pytest.mark.parametrize(
    ("posted", "field", "words"),
    [
        ({"holder": "Anna", "iban": "NL92 ABNA 0417 1643 00"}, "iban", "check digits"),
        ({"holder": "Anna", "iban": "NL91 ABNA 0417 1643 0"}, "iban", "18 characters"),
        ({"iban": IBAN}, "holder", "name on the account"),
        ({"paypal": "https://paypal.com/anna-dv"}, "paypal", "not a PayPal address"),
        ({"revolut": "https://revolut.com/anna"}, "revolut", "not a Revolut address"),
        ({"bunq": "https://bunq.com/anna"}, "bunq", "not a bunq address"),
        ({"tikkie": "https://tikkie.me/anna"}, "tikkie", "not a Tikkie address"),
        ({"wise": "https://wise.com/anna"}, "wise", "not a Wise address"),
        ({"link": "http://pay.example.org"}, "link", "starts with https://"),
    ],
)
def test_a_wrong_field_is_refused_in_words_and_nothing_is_saved(
    login, make_user, posted, field, words
):
    make_user("Anna")
    response = login("Anna").post(ACCOUNT, posted)
    assert response.status_code == 200
    assert words in " ".join(response.context["form"].errors[field])
    assert words in html.unescape(response.content.decode())
    assert not PayDetails.objects.exists()


# --- the settlement's payment lines -------------------------------------------------


def test_a_payee_with_an_iban_gets_a_qr_code_copy_iban_and_the_masked_account(night, login):
    # A phone cannot scan its own screen: the QR code is on the payee's phone, for the
    # payer to scan; the payer's phone has "Copy IBAN" and the account, masked.
    anna_is_paid_by(holder="Anna de Vries", iban=IBAN)
    page = login("Bram").get(settle_url(night)).content.decode()

    assert 'data-testid="epc-qr"' not in page
    assert "NL•• •••• •••• •••• 4300" in page
    assert page.count("Copy IBAN") == 1  # his own line to Anna; Chris → Anna is not his
    # In full only for the copy button.
    copies = re.findall(r'<span id="(iban-\d)" class="copy-source"[^>]*>([^<]*)</span>', page)
    assert copies == [("iban-1", COMPACT)]
    assert 'data-copy="#iban-1"' in page
    assert page.count("Mark paid") == 1  # his own line; Chris → Anna is read-only for him

    page = login("Anna").get(settle_url(night)).content.decode()
    assert page.count('data-testid="epc-qr"') == 2  # Chris → Anna and Bram → Anna
    assert "Let Chris scan this with their bank app." in page
    assert "Let Bram scan this with their bank app." in page
    assert "Copy IBAN" not in page and COMPACT not in page.split("<svg", 1)[0]


@pytest.mark.parametrize("language", ["en", "zh-hans", "de"])
def test_the_qr_codes_payload_carries_the_amount_of_its_line_and_the_night(night, login, language):
    # The bank's text is the night's date in ISO 8601 whatever the page's language,
    # plain ASCII a bank carries as it is (not "星期五" or "Mär").
    anna_is_paid_by(holder="Anna de Vries", iban=IBAN)
    response = login("Bram").get(settle_url(night), HTTP_ACCEPT_LANGUAGE=language)
    payloads = _payloads(response)
    day = timezone.localdate(night.started_at)
    assert [fields[7] for fields in payloads] == ["EUR1.20", "EUR0.30"]
    assert {fields[10] for fields in payloads} == {f"OFC {day:%Y-%m-%d}"}


def _payloads(response) -> list[list[str]]:
    from scorekeeper.reads.pay_details import pay_to

    context = response.context
    lines = context["results"].payments
    found = [
        pay_to(context["pay_details"], line.payee, line.cents, "EUR", context["remittance"])
        for line in lines
    ]
    return [pay.payload.split("\n") for pay in found if pay]


def test_no_qr_code_for_a_payee_without_an_iban(night, login):
    anna_is_paid_by(paypal="https://paypal.me/AnnaDV")
    page = login("Bram").get(settle_url(night)).content.decode()
    assert "epc-qr" not in page and "Copy IBAN" not in page
    assert 'href="https://paypal.me/AnnaDV/0.30EUR"' in page
    assert "Pay €0.30 with PayPal" in page


def test_another_currency_gets_no_qr_code_but_keeps_the_links(make_night, login):
    night = make_night()
    Night.objects.filter(pk=night.pk).update(currency="GBP")
    Group.objects.filter(pk=night.group_id).update(currency="GBP")
    finish(play(Night.objects.get(pk=night.pk), *rounds_of(2)))
    anna_is_paid_by(holder="Anna de Vries", iban=IBAN, paypal="https://paypal.me/AnnaDV")
    page = login("Bram").get(settle_url(night)).content.decode()

    assert "epc-qr" not in page
    assert "NL•• •••• •••• •••• 4300" in page  # the account is still said, masked
    assert 'href="https://paypal.me/AnnaDV/0.30GBP"' in page


def test_each_services_link_on_the_line_has_its_amount_where_it_takes_one(night, login):
    anna_is_paid_by(
        paypal="https://paypal.me/AnnaDV",
        revolut="https://revolut.me/annadv",
        bunq="https://bunq.me/AnnaDV",
        tikkie="https://tikkie.me/pay/Tikkie/abc123",
        wise="https://wise.com/pay/me/annad12",
        link="https://pay.example.org/anna",
    )
    # Chris pays Anna €1.20: his phone has her links, with the amount where they take it.
    page = html.unescape(login("Chris").get(settle_url(night)).content.decode())
    for href in [
        "https://paypal.me/AnnaDV/1.20EUR",
        "https://revolut.me/annadv?amount=120&currency=EUR",
        "https://bunq.me/AnnaDV/1.20",
        "https://tikkie.me/pay/Tikkie/abc123",
        "https://wise.com/pay/me/annad12",
        "https://pay.example.org/anna",
    ]:
        assert f'href="{href}"' in page, href
    assert "Pay €1.20 with Wise (type in the amount)" in page


def test_a_paid_line_shows_no_ways_to_pay(night, login):
    anna_is_paid_by(holder="Anna de Vries", iban=IBAN)
    client = login("Bram")
    seats = {seat.name: seat for seat in night.seats.all()}
    client.post(
        reverse("payment_mark", args=[night.pk]),
        {"payer": seats["Bram"].pk, "payee": seats["Anna"].pk, "cents": 30},
    )
    assert "Copy IBAN" not in client.get(settle_url(night)).content.decode()
    page = login("Anna").get(settle_url(night)).content.decode()
    assert page.count('data-testid="epc-qr"') == 1  # only Chris → Anna is left


def test_the_group_pages_still_owed_lines_show_the_same(night, login):
    anna_is_paid_by(holder="Anna de Vries", iban=IBAN, bunq="https://bunq.me/AnnaDV")
    client = login("Chris")
    for url in [
        reverse("group_detail", args=[night.group_id]),
        reverse("group_owed", args=[night.group_id]),
    ]:
        page = client.get(url).content.decode()
        assert page.count('data-testid="epc-qr"') == 2, url
        assert 'href="https://bunq.me/AnnaDV/1.20"' in page
    part = client.get(reverse("group_owed", args=[night.group_id]), HTTP_HX_REQUEST="true")
    assert 'data-testid="epc-qr"' in part.content.decode()


# --- who sees them -----------------------------------------------------------------


def test_a_strangers_own_account_page_shows_only_her_own_details(night, make_user, login):
    # The group's pages answer her 404 without them: tests/views/test_access.py.
    anna_is_paid_by(holder="Anna de Vries", iban=IBAN)
    make_user("Eve")
    make_group(name="Eve's table", members=("Eve",))
    client = login("Eve")
    # Her own account page shows only her own details (none).
    assert IBAN not in client.get(ACCOUNT).content.decode()


def test_someone_who_left_the_group_is_no_longer_shown_to_it(night, login):
    anna_is_paid_by(holder="Anna de Vries", iban=IBAN, paypal="https://paypal.me/AnnaDV")
    leave_group(group=night.group, user=User.objects.get(name="Anna"))
    page = login("Bram").get(settle_url(night)).content.decode()
    assert "epc-qr" not in page and "4300" not in page and "paypal.me" not in page


def test_the_account_page_is_for_the_logged_in_only(client):
    response = client.get(ACCOUNT)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


# --- what is kept, and the account holder's one rule --------------------------------


@pytest.mark.parametrize(
    "typed",
    ["nl91 abna 0417 1643 00", "NL91\tABNA\t0417\t1643\t00", "nl91abna0417\n164300", f" {IBAN} "],
)
def test_an_iban_typed_with_spaces_tabs_or_lower_case_is_kept_compact_in_capitals(
    login, make_user, typed
):
    make_user("Anna")
    response = login("Anna").post(ACCOUNT, {"holder": "Anna de Vries", "iban": typed})
    assert response.status_code == 302
    assert PayDetails.objects.get(user__name="Anna").iban == COMPACT
    # The service alone keeps it the same way.
    anna_is_paid_by(holder="Anna de Vries", iban=typed)
    assert PayDetails.objects.get(user__name="Anna").iban == COMPACT


HIDDEN_HOLDER = "cannot have invisible characters or control codes"


@pytest.mark.parametrize(
    "holder",
    ["Anna \u202eseirV ed", "Anna\x1b[31m de Vries", "\u200b", "Anna\u200bde Vries"],
    ids=["right-to-left override", "escape", "lone zero-width space", "zero-width space"],
)
def test_an_account_holder_with_hidden_characters_is_refused_in_words(login, make_user, holder):
    make_user("Anna")
    response = login("Anna").post(ACCOUNT, {"holder": holder, "iban": IBAN})
    assert response.status_code == 200
    assert HIDDEN_HOLDER in " ".join(response.context["form"].errors["holder"])
    assert not PayDetails.objects.exists()
    with pytest.raises(Refused, match=HIDDEN_HOLDER):
        anna_is_paid_by(holder=holder, iban=IBAN)
    assert not PayDetails.objects.exists()


def test_the_holder_an_iban_needs_is_asked_for_in_one_message_by_form_and_service(login, make_user):
    make_user("Anna")
    response = login("Anna").post(ACCOUNT, {"holder": "  ", "iban": IBAN})
    from_the_form = response.context["form"].errors["holder"]
    with pytest.raises(Refused) as from_the_service:
        anna_is_paid_by(holder=" \t ", iban=IBAN)
    assert from_the_form == [str(from_the_service.value)]
    assert str(from_the_service.value) == "Enter the name on the account, as your bank writes it."
    # The page says it once (no second words from the database's constraint).
    assert response.content.decode().count("name on the account, as your bank") == 1
    assert not PayDetails.objects.exists()


def test_the_holder_is_kept_with_its_spaces_collapsed(login, make_user):
    make_user("Anna")
    login("Anna").post(ACCOUNT, {"holder": " Anna \t de  Vries ", "iban": IBAN})
    assert PayDetails.objects.get(user__name="Anna").holder == "Anna de Vries"


def test_the_account_page_shows_the_kept_iban_in_groups_of_four(login, make_user):
    make_user("Anna")
    anna_is_paid_by(holder="Anna de Vries", iban="nl91abna0417164300")
    page = login("Anna").get(ACCOUNT).content.decode()
    assert 'value="NL91 ABNA 0417 1643 00"' in page
