"""How a payment is made outside the app: an IBAN shown masked, the EPC QR code's
payload (EPC069-12, the "GiroCode" European banking apps scan), and the payment links
of the services people use, with the amount filled in where the service takes one.

Pure: no Django, so it is checked on its own (``mypy --strict``) and reads as data.

>>> mask_iban("NL91ABNA0417164300")
'NL•• •••• •••• •••• 4300'
>>> epc_payload(name="Anna de Vries", iban="NL91ABNA0417164300", cents=420,
...             text="OFC Friday 3 Dec").split("\\n")[:8]
['BCD', '002', '1', 'SCT', '', 'Anna de Vries', 'NL91ABNA0417164300', 'EUR4.20']
>>> pay_link("paypal", "https://paypal.me/AnnaDV", 420, "EUR").url
'https://paypal.me/AnnaDV/4.20EUR'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from stdnum import bic as stdnum_bic
from stdnum import iban as stdnum_iban
from stdnum import numdb
from stdnum.exceptions import InvalidChecksum, ValidationError

from scorekeeper.table.formatting import minor_digits

# EPC069-12 version 002: the lengths a bank app accepts.
EPC_NAME_MAX = 70
EPC_TEXT_MAX = 140
EPC_MAX_CENTS = 99_999_999_999  # 999,999,999.99


def compact_iban(value: str) -> str:
    """An IBAN as banks read it: no spaces, upper case (``nl91 abna…`` → ``NL91ABNA…``)."""
    return re.sub(r"[\s.-]", "", value).upper()


class BadIban(ValueError):
    """Not an IBAN. ``kind`` says why: "checksum" (the mod-97 check digits), "length"
    (``length`` is then its country's), "country" (no IBAN country) or "format"."""

    def __init__(self, kind: str, length: int = 0) -> None:
        super().__init__(kind)
        self.kind = kind
        self.length = length


def iban_length(country: str) -> int:
    """How many characters an IBAN of ``country`` has (0: not an IBAN country), from
    python-stdnum's registry of the countries' account structures.

    >>> iban_length("NL"), iban_length("DE"), iban_length("XX")
    (18, 22, 0)
    """
    info = numdb.get("iban").info(country.upper())[0][1]
    bban = info.get("bban", "") if info else ""
    counts = [int(count) for count in re.findall(r"(\d+)!?[nac]", bban)]
    return 4 + sum(counts) if counts else 0


def check_iban(value: str) -> str:
    """``value`` as it is kept, once it is an IBAN (its country's length and pattern,
    and ISO 13616's mod-97 check digits): compact, as :func:`compact_iban` writes it,
    whatever spaces, tabs or line breaks and lower case it was typed with. Raises
    :class:`BadIban`.

    >>> check_iban(" nl91 abna\\t0417 1643\\n00 ")
    'NL91ABNA0417164300'
    """
    iban = compact_iban(value)
    if not re.fullmatch(r"[A-Z]{2}[0-9]{2}[A-Z0-9]+", iban):
        raise BadIban("format")
    length = iban_length(iban[:2])
    if not length:
        raise BadIban("country")
    if len(iban) != length:
        raise BadIban("length", length)
    try:
        stdnum_iban.validate(iban)
    except InvalidChecksum:
        raise BadIban("checksum") from None
    except ValidationError:
        raise BadIban("format") from None
    return iban


def grouped_iban(value: str) -> str:
    """An IBAN as people read and type it, in groups of four (how the account page
    shows a kept one, which is compact).

    >>> grouped_iban("NL91ABNA0417164300")
    'NL91 ABNA 0417 1643 00'
    """
    iban = compact_iban(value)
    return " ".join(iban[start : start + 4] for start in range(0, len(iban), 4))


def check_bic(value: str) -> str:
    """A BIC (ISO 9362: 8 or 11 characters) in upper case; ``ValueError`` otherwise."""
    try:
        return str(stdnum_bic.validate(value))
    except ValidationError:
        raise ValueError("not a BIC") from None


def mask_iban(value: str) -> str:
    """An IBAN as others see it: its country and its last four characters only. The
    middle is always the same number of dots, so neither length nor bank shows."""
    iban = compact_iban(value)
    return f"{iban[:2]}•• •••• •••• •••• {iban[-4:]}"


def epc_payload(*, name: str, iban: str, cents: int, text: str, bic: str = "") -> str:
    """The text of an EPC QR code for a SEPA credit transfer of ``cents`` euro cents.

    Version 002, character set 1 (UTF-8), the BIC optional (blank within the EEA), no
    purpose code, no structured reference, and ``text`` as the unstructured remittance.
    ``name`` and ``text`` are cut to the standard's 70 and 140 characters.
    Written out here rather than with ``segno.helpers.make_epc_qr``: that one writes
    €4.20 as ``EUR4.2`` and picks Latin-1 whenever it can.
    """
    if not 1 <= cents <= EPC_MAX_CENTS:
        raise ValueError(f"an EPC transfer is 0.01 to 999999999.99 euros, not {cents} cents")
    holder = " ".join(name.split())[:EPC_NAME_MAX]
    if not holder:
        raise ValueError("an EPC transfer needs the account holder's name")
    lines = [
        "BCD",  # service tag
        "002",  # version
        "1",  # character set: UTF-8
        "SCT",  # SEPA credit transfer
        compact_iban(bic),
        holder,
        compact_iban(iban),
        f"EUR{cents // 100}.{cents % 100:02d}",
        "",  # purpose
        "",  # structured remittance (a creditor reference): unused
        " ".join(text.split())[:EPC_TEXT_MAX],
    ]
    return "\n".join(lines)


class Service(StrEnum):
    PAYPAL = "paypal"
    REVOLUT = "revolut"
    BUNQ = "bunq"
    TIKKIE = "tikkie"
    WISE = "wise"
    LINK = "link"


@dataclass(frozen=True)
class Shape:
    """A service's address: the hosts it lives on, and the pattern of its path."""

    name: str  # as the service writes itself
    hosts: tuple[str, ...]
    path: str  # a regular expression for the whole path; its group "handle" names the account
    example: str


# Each service's own address for a person, as its help pages and shared links show it.
SHAPES: dict[Service, Shape] = {
    # PayPal.Me names: letters and digits, at most 20 (PayPal's help on choosing one).
    Service.PAYPAL: Shape(
        "PayPal",
        ("paypal.me", "www.paypal.me", "paypal.com", "www.paypal.com"),
        r"/(?:paypalme/)?(?P<handle>[A-Za-z0-9]{1,20})/?",
        "https://paypal.me/yourname",
    ),
    # A Revtag: letters, digits, dots, dashes and underscores.
    Service.REVOLUT: Shape(
        "Revolut",
        ("revolut.me",),
        r"/@?(?P<handle>[A-Za-z0-9._-]{3,32})/?",
        "https://revolut.me/yourname",
    ),
    Service.BUNQ: Shape(
        "bunq",
        ("bunq.me",),
        r"/(?P<handle>[A-Za-z0-9._-]{1,64})/?",
        "https://bunq.me/yourname",
    ),
    # A Tikkie is one payment request made in the app, its amount fixed by whoever made it.
    Service.TIKKIE: Shape(
        "Tikkie",
        ("tikkie.me",),
        r"/pay/(?P<handle>[A-Za-z0-9]+(?:/[A-Za-z0-9_-]+)*)/?",
        "https://tikkie.me/pay/…",
    ),
    # A Wisetag's link.
    Service.WISE: Shape(
        "Wise",
        ("wise.com",),
        r"/pay/me/(?P<handle>[A-Za-z0-9._-]{1,64})/?",
        "https://wise.com/pay/me/yourname",
    ),
}

_URL = re.compile(r"https://(?P<host>[A-Za-z0-9.-]+)(?P<path>/[^\s?#]*)?(?P<rest>[?#]\S*)?")


class BadLink(ValueError):
    """A link that is not the service's address; ``str()`` says so in plain English."""


def check_link(service: Service, value: str) -> str:
    """``value`` as stored: trimmed, ``https://`` added when typed without it; raises
    :class:`BadLink` when it is not the service's shape (any https address for LINK)."""
    link = value.strip()
    if not re.match(r"[a-z]+://", link, re.IGNORECASE):
        link = "https://" + link
    match = _URL.fullmatch(link)
    if match is None or not link.lower().startswith("https://"):
        raise BadLink("not an https address")
    host = match["host"].lower()
    if service is Service.LINK:
        if "." not in host:
            raise BadLink("not an address on the web")
        return link
    shape = SHAPES[service]
    if host not in shape.hosts or match["rest"]:
        raise BadLink(f"not a {shape.name} address")
    if re.fullmatch(shape.path, match["path"] or "") is None:
        raise BadLink(f"not a {shape.name} address")
    return f"https://{host}{match['path']}"


def _handle(service: Service, link: str) -> str:
    match = _URL.fullmatch(link)
    assert match is not None  # stored links passed check_link
    found = re.fullmatch(SHAPES[service].path, match["path"] or "")
    assert found is not None
    return found["handle"]


@dataclass(frozen=True)
class PayLink:
    service: Service
    url: str
    with_amount: bool  # the service opens with the amount filled in


def _decimal(minor: int, currency: str) -> str:
    """An amount with a point for its cents, as addresses write it ("4.20", "500" yen)."""
    digits = minor_digits(currency)
    if not digits:
        return str(minor)
    whole, part = divmod(minor, 10**digits)
    return f"{whole}.{part:0{digits}d}"


def pay_link(service: Service | str, link: str, cents: int, currency: str) -> PayLink:
    """The address that pays ``cents`` in ``currency`` through the stored ``link``.

    - PayPal.Me: ``paypal.me/<name>/4.20EUR`` (amount and currency after the name).
    - bunq.me: ``bunq.me/<name>/4.20`` (euros only: bunq.me asks in euros).
    - Revolut: ``revolut.me/<tag>?amount=420&currency=EUR`` (the amount in minor units);
      not in Revolut's own documentation, but how shared revolut.me links carry one.
    - Tikkie, Wise and a plain link: as stored; the payer types the amount.
    """
    service = Service(service)
    amounts = cents > 0 and len(currency) == 3
    if service is Service.PAYPAL and amounts:
        return PayLink(
            service,
            f"https://paypal.me/{_handle(service, link)}/{_decimal(cents, currency)}{currency}",
            True,
        )
    if service is Service.BUNQ and amounts and currency == "EUR":
        return PayLink(
            service, f"https://bunq.me/{_handle(service, link)}/{_decimal(cents, 'EUR')}", True
        )
    if service is Service.REVOLUT and amounts:
        handle = _handle(service, link)
        return PayLink(
            service, f"https://revolut.me/{handle}?amount={cents}&currency={currency}", True
        )
    return PayLink(service, link, False)
