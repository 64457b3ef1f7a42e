"""The ways to pay outside the app: IBANs, the EPC QR code's payload, payment links."""

import io

import pytest
import segno

from scorekeeper.table.paying import (
    BadIban,
    BadLink,
    Service,
    check_iban,
    check_link,
    epc_payload,
    mask_iban,
    pay_link,
)
from tests.qr import decode_png


def test_an_iban_is_kept_compact_and_upper_case_once_its_check_digits_and_length_are_right():
    assert check_iban("NL91 ABNA 0417 1643 00") == "NL91ABNA0417164300"
    assert check_iban("de89370400440532013000") == "DE89370400440532013000"
    # Tabs, line breaks and no-break spaces are spaces too (a paste from a bank's page).
    assert check_iban("\tnl91\u00a0abna 0417\n1643 00 ") == "NL91ABNA0417164300"


@pytest.mark.parametrize(
    ("typed", "kind"),
    [
        ("NL92 ABNA 0417 1643 00", "checksum"),  # one check digit off
        ("NL91 ABNA 0417 1643 01", "checksum"),  # one digit of the account off
        ("NL91 ABNA 0417 1643 0", "length"),  # a Dutch IBAN has 18 characters
        ("DE89 3704 0044 0532 0130 0", "length"),
        ("XX91 ABNA 0417 1643 00", "country"),
        ("hello", "format"),
    ],
)
def test_a_wrong_iban_is_refused_with_the_reason(typed, kind):
    with pytest.raises(BadIban) as problem:
        check_iban(typed)
    assert problem.value.kind == kind
    if kind == "length":
        assert problem.value.length in (18, 22)


def test_others_see_an_iban_masked_but_for_its_country_and_last_four():
    assert mask_iban("NL91 ABNA 0417 1643 00") == "NL•• •••• •••• •••• 4300"
    assert "0417" not in mask_iban("NL91ABNA0417164300")


def _decoded(payload: str) -> list[str]:
    code = segno.make_qr(payload.encode("utf-8"), error="m", boost_error=False)
    out = io.BytesIO()
    code.save(out, kind="png", scale=6, border=4)
    (text,) = decode_png(out.getvalue())
    return text.split("\n")


def test_the_epc_code_decodes_to_the_standards_fields_one_by_one():
    payload = epc_payload(
        name="Anna de Vriës", iban="NL91 ABNA 0417 1643 00", cents=420, text="OFC Friday 3 Dec"
    )
    fields = _decoded(payload)

    assert fields == [
        "BCD",  # service tag
        "002",  # version
        "1",  # character set: UTF-8
        "SCT",  # SEPA credit transfer
        "",  # BIC: optional within the EEA
        "Anna de Vriës",  # the name, in UTF-8
        "NL91ABNA0417164300",  # the IBAN without spaces
        "EUR4.20",  # euros, two decimals
        "",  # purpose
        "",  # structured remittance
        "OFC Friday 3 Dec",  # the unstructured remittance text
    ]


def test_the_epc_code_keeps_a_bic_and_cuts_name_and_text_to_the_standards_lengths():
    fields = _decoded(
        epc_payload(
            name="A" * 90, iban="NL91ABNA0417164300", cents=100_000, text="x" * 200, bic="abnanl2a"
        )
    )
    assert fields[4] == "ABNANL2A"
    assert len(fields[5]) == 70 and len(fields[10]) == 140
    assert fields[7] == "EUR1000.00"


def test_no_epc_payload_for_nothing_to_pay():
    with pytest.raises(ValueError):
        epc_payload(name="Anna", iban="NL91ABNA0417164300", cents=0, text="")


@pytest.mark.parametrize(
    ("service", "typed", "stored", "paying"),
    [
        (
            Service.PAYPAL,
            "paypal.me/AnnaDV",
            "https://paypal.me/AnnaDV",
            "https://paypal.me/AnnaDV/4.20EUR",
        ),
        (
            Service.PAYPAL,
            "https://www.paypal.com/paypalme/AnnaDV",
            "https://www.paypal.com/paypalme/AnnaDV",
            "https://paypal.me/AnnaDV/4.20EUR",
        ),
        (
            Service.BUNQ,
            "https://bunq.me/AnnaDV",
            "https://bunq.me/AnnaDV",
            "https://bunq.me/AnnaDV/4.20",
        ),
        (
            Service.REVOLUT,
            "revolut.me/anna.dv",
            "https://revolut.me/anna.dv",
            "https://revolut.me/anna.dv?amount=420&currency=EUR",
        ),
        (
            Service.TIKKIE,
            "https://tikkie.me/pay/Tikkie/abcDEF123",
            "https://tikkie.me/pay/Tikkie/abcDEF123",
            "https://tikkie.me/pay/Tikkie/abcDEF123",
        ),
        (
            Service.WISE,
            "https://wise.com/pay/me/annad12",
            "https://wise.com/pay/me/annad12",
            "https://wise.com/pay/me/annad12",
        ),
        (
            Service.LINK,
            "https://pay.example.org/anna?x=1",
            "https://pay.example.org/anna?x=1",
            "https://pay.example.org/anna?x=1",
        ),
    ],
)
def test_each_services_link_is_built_with_the_amount_where_it_takes_one(
    service, typed, stored, paying
):
    assert check_link(service, typed) == stored
    link = pay_link(service, stored, 420, "EUR")
    assert link.url == paying
    assert link.with_amount == (paying != stored)


def test_links_in_other_currencies_keep_their_own():
    assert pay_link(Service.PAYPAL, "https://paypal.me/AnnaDV", 1250, "GBP").url == (
        "https://paypal.me/AnnaDV/12.50GBP"
    )
    assert pay_link(Service.PAYPAL, "https://paypal.me/AnnaDV", 500, "JPY").url == (
        "https://paypal.me/AnnaDV/500JPY"
    )
    # bunq.me asks in euros only: another currency opens the plain link.
    assert not pay_link(Service.BUNQ, "https://bunq.me/AnnaDV", 1250, "GBP").with_amount


@pytest.mark.parametrize(
    ("service", "typed"),
    [
        (Service.PAYPAL, "https://paypal.me/anna-dv"),  # PayPal.Me names are letters and digits
        (Service.PAYPAL, "https://paypa1.me/AnnaDV"),
        (Service.PAYPAL, "http://paypal.me/AnnaDV"),  # not https
        (Service.REVOLUT, "https://revolut.com/anna"),
        (Service.BUNQ, "https://bunq.me/AnnaDV/5/x?y"),
        (Service.TIKKIE, "https://tikkie.me/anna"),
        (Service.WISE, "https://wise.com/anna"),
        (Service.WISE, "https://wise.com.evil.example/pay/me/anna"),
        (Service.LINK, "http://example.org/pay"),
        (Service.LINK, "javascript:alert(1)"),
        (Service.LINK, "https://localhost/pay"),
    ],
)
def test_a_link_not_of_its_services_shape_is_refused(service, typed):
    with pytest.raises(BadLink):
        check_link(service, typed)
