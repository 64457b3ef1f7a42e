"""The settlement page: points, money, payments, the loss cap, marking paid."""

import pytest
from django.urls import reverse

from scorekeeper.models import Night, Payment, User
from scorekeeper.services.nights import end_night
from tests.helpers import play, rounds_of, settle_url

# --- the settlement ---------------------------------------------------------------


def test_settlement_shows_each_players_points_money_and_the_exact_payments(make_night, login):
    night = play(make_night(), *rounds_of(2))
    page = login("Bram").get(settle_url(night))

    assert page.status_code == 200
    results = page.context["results"]
    assert [(p.seat.name, p.points, p.cents) for p in results.players] == [
        ("Anna", 15, 150),
        ("Bram", -3, -30),
        ("Chris", -12, -120),
    ]
    assert [(line.payer.name, line.payee.name, line.cents) for line in results.payments] == [
        ("Chris", "Anna", 120),
        ("Bram", "Anna", 30),
    ]
    html = page.content.decode()
    assert "If we stopped now" in html  # the night is still running
    assert "€1.50" in html and "−€1.20" in html
    assert "Mark paid" not in html  # nothing to mark until the night is over
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in html


def test_settlement_uses_the_fewest_payments_for_four_players(make_night, login):
    night = make_night(("Anna", "Bram", "Chris", "Dora"), point_cents=25)
    play(night, {"Anna": 6, "Bram": 1, "Chris": -3, "Dora": -4})
    end_night(night=night, by=User.objects.get(name="Anna"))

    page = login("Dora").get(settle_url(night))

    payments = [
        (line.payer.name, line.payee.name, line.cents) for line in page.context["results"].payments
    ]
    assert payments == [("Dora", "Anna", 100), ("Chris", "Anna", 50), ("Chris", "Bram", 25)]
    assert sum(cents for _, _, cents in payments) == 175


def test_the_copy_text_has_every_balance_and_payment_and_a_copy_button(make_night, login):
    night = play(make_night(), *rounds_of(2))
    end_night(night=night, by=User.objects.get(name="Anna"))

    page = login("Anna").get(settle_url(night))

    text = page.context["share_text"]
    assert "Friday OFC" in text and "2 rounds · €0.10/pt" in text
    assert "Anna +15 €1.50\nBram −3 −€0.30\nChris −12 −€1.20" in text
    assert "Chris → Anna €1.20\nBram → Anna €0.30" in text
    html = page.content.decode()
    assert '<textarea id="share-text"' in html and "readonly" in html
    assert 'data-copy="#share-text"' in html
    assert "<script" not in html.split("</head>")[1]  # no inline scripts in the page body


def test_the_loss_cap_is_applied_and_the_page_says_who_was_capped(make_night, login):
    night = make_night()
    Night.objects.filter(pk=night.pk).update(loss_cap_cents=600)
    play(night, {"Anna": 70, "Bram": 30, "Chris": -100})

    page = login("Chris").get(settle_url(night))

    results = page.context["results"]
    assert {p.seat.name: p.cents for p in results.players} == {
        "Anna": 420,
        "Bram": 180,
        "Chris": -600,
    }
    assert [(line.payer.name, line.payee.name, line.cents) for line in results.payments] == [
        ("Chris", "Anna", 420),
        ("Chris", "Bram", 180),
    ]
    html = page.content.decode()
    assert "Loss cap €6.00." in html
    assert "Chris pays €6.00 instead of €10.00 (€4.00 less)" in html
    assert "Taken off the winners: Anna €2.80, Bram €1.20." in html
    assert "Chris capped at €6.00 (€4.00 not paid)" in page.context["share_text"]


def test_a_night_without_rounds_settles_to_nothing(make_night, login):
    night = make_night()
    page = login("Anna").get(settle_url(night))
    assert page.status_code == 200
    assert page.context["results"].payments == []
    assert "Nobody owes anything." in page.content.decode()
    assert "No rounds yet" in page.content.decode()


# --- marking payments paid -----------------------------------------------------------


def mark(client, night: Night, payer: str, payee: str, cents: int):
    seats = {seat.name: seat.pk for seat in night.seats.all()}
    return client.post(
        reverse("payment_mark", args=[night.pk]),
        {"payer": seats[payer], "payee": seats[payee], "cents": cents},
    )


def test_any_player_marks_a_payment_paid_and_can_undo_it(make_night, login):
    night = play(make_night(), *rounds_of(2))
    end_night(night=night, by=User.objects.get(name="Anna"))
    client = login("Bram")

    response = mark(client, night, "Chris", "Anna", 120)
    assert response.status_code == 302 and response.url == settle_url(night)
    payment = Payment.objects.get()
    assert (payment.payer.name, payment.payee.name, payment.cents) == ("Chris", "Anna", 120)
    assert payment.marked_by.name == "Bram"

    page = client.get(settle_url(night))
    paid = [line for line in page.context["results"].payments if line.is_paid]
    assert [(line.payer.name, line.cents) for line in paid] == [("Chris", 120)]
    assert "✓ Paid, marked by Bram" in page.content.decode()
    assert "Chris → Anna €1.20 ✓ paid" in page.context["share_text"]

    mark(client, night, "Chris", "Anna", 120)  # a double tap marks it once
    assert Payment.objects.count() == 1

    response = client.post(reverse("payment_undo", args=[night.pk, payment.pk]))
    assert response.status_code == 302
    assert not Payment.objects.exists()


def test_all_square_once_every_payment_is_marked(make_night, login):
    night = play(make_night(), *rounds_of(2))
    end_night(night=night, by=User.objects.get(name="Anna"))
    client = login("Anna")
    mark(client, night, "Chris", "Anna", 120)
    mark(client, night, "Bram", "Anna", 30)
    page = client.get(settle_url(night))
    assert page.context["results"].all_paid
    assert "All square" in page.content.decode()


def test_a_payment_that_is_not_in_the_settlement_cannot_be_marked(make_night, login):
    night = play(make_night(), *rounds_of(2))
    end_night(night=night, by=User.objects.get(name="Anna"))
    client = login("Anna")

    response = mark(client, night, "Chris", "Anna", 999)
    assert response.status_code == 302
    assert not Payment.objects.exists()
    page = client.get(settle_url(night))
    assert "not in the settlement any more" in page.content.decode()


def test_payments_are_marked_only_once_the_night_is_over(make_night, login):
    night = play(make_night(), *rounds_of(2))
    client = login("Anna")
    mark(client, night, "Chris", "Anna", 120)
    assert not Payment.objects.exists()
    assert "once the night is over" in client.get(settle_url(night)).content.decode()


def test_a_round_cannot_be_fixed_once_payments_are_marked_paid(make_night, login):
    night = play(make_night(), *rounds_of(2))
    end_night(night=night, by=User.objects.get(name="Anna"))
    client = login("Anna")
    mark(client, night, "Chris", "Anna", 120)
    from scorekeeper.services.errors import Refused
    from scorekeeper.services.rounds import edit_round

    seats = {seat.name: seat.pk for seat in night.seats.all()}
    with pytest.raises(Refused, match="already marked paid"):
        edit_round(
            night=night,
            number=1,
            points={seats["Anna"]: 11, seats["Bram"]: -4, seats["Chris"]: -7},
            edited_by=User.objects.get(name="Anna"),
        )
    page = client.get(settle_url(night))
    assert any(line.is_paid for line in page.context["results"].payments)


# --- who gets in -------------------------------------------------------------------------


def new_urls(night: Night) -> list[tuple[str, str]]:
    group = night.group
    anna = User.objects.get(name="Anna")
    payment = Payment.objects.create(
        night=night,
        payer=night.seats.get(name="Chris"),
        payee=night.seats.get(name="Anna"),
        cents=120,
        marked_by=anna,
    )
    return [
        ("get", settle_url(night)),
        ("post", reverse("payment_mark", args=[night.pk])),
        ("post", reverse("payment_undo", args=[night.pk, payment.pk])),
        ("get", reverse("night_export", args=[night.pk, "csv"])),
        ("get", reverse("night_export", args=[night.pk, "json"])),
        ("get", reverse("group_table", args=[group.pk])),
        ("get", reverse("player_history", args=[group.pk, anna.pk])),
        ("get", reverse("group_export", args=[group.pk, "csv"])),
        ("get", reverse("group_export", args=[group.pk, "json"])),
    ]


def test_a_stranger_gets_404_on_every_new_page(make_night, make_user, client, login):
    night = play(make_night(), *rounds_of(2))
    end_night(night=night, by=User.objects.get(name="Anna"))
    login(make_user("Zed"))
    for method, url in new_urls(night):
        response = getattr(client, method)(url, {"payer": 1, "payee": 2, "cents": 120})
        assert response.status_code == 404, url
    assert Payment.objects.count() == 1  # the stranger's undo did nothing


def test_a_member_who_left_the_group_gets_404(make_night, client, login):
    from scorekeeper.services.groups import leave_group

    night = play(make_night(), *rounds_of(2))
    end_night(night=night, by=User.objects.get(name="Anna"))  # no longer seated at it
    chris = User.objects.get(name="Chris")
    leave_group(group=night.group, user=chris)
    login(chris)
    assert client.get(settle_url(night)).status_code == 404


def test_logged_out_visitors_are_sent_to_log_in(make_night, client):
    night = play(make_night(), *rounds_of(2))
    for method, url in new_urls(night):
        response = getattr(client, method)(url)
        assert response.status_code == 302, url
        assert response.url.startswith(reverse("login") + "?next="), url


# --- queries -----------------------------------------------------------------------------


@pytest.mark.parametrize("loss_cap", [None, 500])
@pytest.mark.parametrize("count", [2, 6])
def test_the_settlement_takes_six_queries_however_many_rounds(
    make_night, login, django_assert_num_queries, loss_cap, count
):
    night = make_night()
    Night.objects.filter(pk=night.pk).update(loss_cap_cents=loss_cap)
    play(night, *rounds_of(count))
    client = login("Anna")
    # Session, user, night, its seats, its recorded entries, its marked payments.
    with django_assert_num_queries(6):
        client.get(settle_url(night))
