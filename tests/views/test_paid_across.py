"""A night's settlement next to the payments across nights: what they squared of it
is shown, and never marked paid a second time (issue 22's "money recorded twice")."""

from django.test import Client
from django.urls import reverse

from scorekeeper.models import Payment, User
from scorekeeper.models.pay_details import PayDetails
from scorekeeper.models.payments import TabPayment
from tests.helpers import settle_url
from tests.views.test_results import _pay_form, _two_finished_nights, owed_url


def _marks_offered(page) -> list[tuple[str, str]]:
    return [
        (line.payer.name, line.payee.name)
        for line in page.context["results"].payments
        if line.is_open
    ]


def _mark(client, night, payer, payee, cents):
    seats = {seat.name: seat.pk for seat in night.seats.all()}
    return client.post(
        reverse("payment_mark", args=[night.pk]),
        {"payer": seats[payer], "payee": seats[payee], "cents": cents},
        follow=True,
    )


def test_what_a_payment_across_nights_squared_is_shown_and_cannot_be_marked_again(
    make_night, login
):
    # Night one: Chris → Anna €0.60, Bram → Anna €0.40; night two: Chris → Bram €0.30.
    first, second = _two_finished_nights(make_night)
    anna = User.objects.get(name="Anna")
    PayDetails.objects.create(user=anna, iban="NL91ABNA0417164300", holder="Anna de Vries")
    client = login("Chris")
    # Across nights Chris owes Anna €0.90; he pays €0.50 of it, which goes to night one.
    client.post(
        reverse("owed_pay", args=[first.group_id]),
        _pay_form(client.get(owed_url(first)), amount="0.50"),
    )

    page = client.get(settle_url(first))
    body = page.content.decode()
    assert "€0.50 of this was paid across nights already." in body
    assert "Chris paid Anna €0.90" not in body and "Chris paid Anna €0.50 across nights" in body
    assert "€0.50 of it squared this night." in body
    assert _marks_offered(page) == [("Bram", "Anna")]
    # Chris's own line is squared and Bram's is not his to mark.
    assert body.count(reverse("payment_mark", args=[first.pk])) == 0
    # Nor is a bank code offered for what was paid across nights: on Anna's phone (the
    # payee's, where the codes are) only Bram's line has one.
    anna_page = Client()
    anna_page.force_login(anna)
    on_annas_phone = anna_page.get(settle_url(first)).content.decode()
    assert on_annas_phone.count('data-testid="epc-qr"') == 1
    assert on_annas_phone.count(reverse("payment_mark", args=[first.pk])) == 1

    refused = _mark(client, first, "Chris", "Anna", 60)
    assert "€0.50 of this was paid across nights already." in refused.content.decode()
    assert not Payment.objects.exists()

    # Night two sees the payment too, and that none of it squared this night.
    later = client.get(settle_url(second)).content.decode()
    assert "it squared other nights, not this one." in later

    # Bram's line is open: Anna marking it counts once, and what is owed adds up.
    _mark(anna_page, first, "Bram", "Anna", 40)
    owed = client.get(owed_url(first)).context["owed"]
    assert sorted((p.payer.name, p.payee.name, p.cents) for p in owed.payments) == [
        ("Chris", "Anna", 10),
        ("Chris", "Bram", 30),
    ]


def test_taking_back_the_payment_across_nights_opens_the_line_again(make_night, login):
    first, _ = _two_finished_nights(make_night)
    client = login("Chris")
    client.post(reverse("owed_pay", args=[first.group_id]), _pay_form(client.get(owed_url(first))))
    assert _marks_offered(client.get(settle_url(first))) == []

    payment = TabPayment.objects.get()
    client.post(reverse("owed_undo", args=[first.group_id, payment.pk]))

    page = client.get(settle_url(first))
    assert _marks_offered(page) == [("Chris", "Anna"), ("Bram", "Anna")]
    assert "across nights" not in page.content.decode().split("Copy for the group chat")[0]
