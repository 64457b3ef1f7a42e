"""The settlement is about you (issue 32): each phone's own lines first, in words, the
others below; the QR code on the payee's phone only; "Paid ✓", never struck through;
a mark that may be a payment across nights again asked about; who left, squared."""

import html
import re
from pathlib import Path

from django.conf import settings
from django.test import Client
from django.urls import reverse

from scorekeeper.models import PayDetails, Payment, Seat, User
from scorekeeper.services.seats import leave_seat
from tests.helpers import finish, log_in, make_night, play, rounds_of, seats_of, settle_url
from tests.services.test_money_moments import _bo_paid_ada_across_nights

IBAN = "NL91ABNA0417164300"


def _page(name: str, night) -> str:
    return html.unescape(log_in(Client(), name).get(settle_url(night)).content.decode())


def _words(page: str) -> list[str]:
    """The payment lines' words, in the page's order."""
    return re.findall(r'<span class="pay-words">([^<]*)</span>', page)


def _over(db):
    """Over: Chris pays Anna €1.20, Bram pays Anna €0.30."""
    return finish(play(make_night(), *rounds_of(2)))


def test_the_payers_phone_says_you_pay_first_and_the_others_below(db):
    night = _over(db)
    page = _page("Bram", night)
    assert _words(page) == ["You pay Anna €0.30", "Chris pays Anna €1.20"]
    assert page.index("You pay Anna") < page.index("The others") < page.index("Chris pays Anna")
    # Before the standings and the chart: no scrolling past everyone to find your line.
    assert page.index("You pay Anna") < page.index('class="standings settle-table"')


def test_the_payees_phone_says_who_pays_you(db):
    night = _over(db)
    page = _page("Anna", night)
    assert _words(page) == ["Chris pays you €1.20", "Bram pays you €0.30"]
    assert "The others" not in page  # nobody else pays anyone


def test_a_third_player_reads_who_pays_whom_by_name(db):
    # Dora plays and ends square: she reads the others' lines by name.
    night = finish(
        play(
            make_night(("Anna", "Bram", "Chris", "Dora")),
            {"Anna": 10, "Bram": -4, "Chris": -6, "Dora": 0},
        )
    )
    page = _page("Dora", night)
    assert _words(page) == ["Chris pays Anna €0.60", "Bram pays Anna €0.40"]
    assert "You pay" not in page and "pays you" not in page


def test_the_qr_code_is_on_the_payees_phone_and_copy_iban_on_the_payers(db):
    night = _over(db)
    PayDetails.objects.create(user=User.objects.get(name="Anna"), iban=IBAN, holder="Anna de Vries")
    anna, bram, chris = (_page(name, night) for name in ("Anna", "Bram", "Chris"))
    assert anna.count('data-testid="epc-qr"') == 2 and anna.count("<svg") >= 2
    assert "Let Bram scan this with their bank app." in anna and "Copy IBAN" not in anna
    for payer in (bram, chris):
        assert "epc-qr" not in payer and payer.count("Copy IBAN") == 1
        assert "Bank account of Anna de Vries: NL•• •••• •••• •••• 4300." in payer


def test_a_paid_line_reads_paid_and_is_not_struck_through(db):
    night = _over(db)
    seats = seats_of(night)
    client = log_in(Client(), "Bram")
    client.post(
        reverse("payment_mark", args=[night.pk]),
        {"payer": seats["Bram"].pk, "payee": seats["Anna"].pk, "cents": 30},
    )
    page = _page("Anna", night)
    line = re.search(r'<li class="payment read-line paid[^"]*"[^>]*>.*?</li>', page, re.S).group(0)
    assert "Bram pays you €0.30" in line and "Paid ✓" in line and "Marked by Bram." in line
    css = (Path(settings.BASE_DIR) / "static/ofcboard/app.css").read_text()
    paid_rules = [
        rule for rule in re.findall(r"[^{}]*\{[^}]*\}", css) if ".paid" in rule.split("{")[0]
    ]
    assert paid_rules and not any("line-through" in rule for rule in paid_rules)


def test_a_mark_that_may_be_a_payment_across_nights_again_is_asked_then_told(db):
    _, second, _ = _bo_paid_ada_across_nights()
    seats = seats_of(second)
    page = _page("Ada", second)
    assert re.search(r"Is this the €0\.60 Bo paid Ada on [^?]+\? It went to the night of ", page)
    assert "No, another payment: mark paid" in page and 'name="another_payment" value="1"' in page

    client = log_in(Client(), "Ada")
    form = {"payer": seats["Bo"].pk, "payee": seats["Ada"].pk, "cents": 60}
    refused = client.post(reverse("payment_mark", args=[second.pk]), form, follow=True)
    assert "Is this the €0.60 Bo paid Ada on" in html.unescape(refused.content.decode())
    assert not Payment.objects.exists()

    client.post(reverse("payment_mark", args=[second.pk]), {**form, "another_payment": "1"})
    assert Payment.objects.count() == 1
    assert "Paid ✓" in _page("Bo", second)


def test_who_left_is_squared_on_the_running_nights_settlement_and_can_pay_now(db):
    night = make_night(("Anna", "Bram", "Cora", "Dan"))
    play(
        night,
        {"Anna": 40, "Bram": -30, "Cora": 10, "Dan": -20},
        {"Anna": 10, "Bram": -20, "Cora": 0, "Dan": 10},
    )
    leave_seat(night=night, seat=seats_of(night)["Bram"], by=User.objects.get(name="Anna"))

    page = _page("Cora", night)
    assert "Bram left after round 2: their result is final." in page
    assert page.index("Bram left after round 2") < page.index("Bram pays Anna €5.00")
    assert "Mark paid" not in page  # Bram's line is his and Anna's, not Cora's
    assert _page("Anna", night).count("Mark paid") == 1  # only his line, while the night runs
    assert _page("Bram", night).index("You pay Anna €5.00") < _page("Bram", night).index(
        "The others"
    )

    seats = seats_of(night)
    client = log_in(Client(), "Anna")
    client.post(
        reverse("payment_mark", args=[night.pk]),
        {"payer": seats["Bram"].pk, "payee": seats["Anna"].pk, "cents": 500},
    )
    assert Seat.objects.get(pk=seats["Bram"].pk).unpaid_cents == 0
    assert "Paid ✓" in _page("Anna", night)
    # The others' lines wait for the end of the night.
    refused = client.post(
        reverse("payment_mark", args=[night.pk]),
        {"payer": seats["Dan"].pk, "payee": seats["Cora"].pk, "cents": 100},
        follow=True,
    )
    assert "Payments can be marked once the night is over." in refused.content.decode()
    assert Payment.objects.count() == 1
