"""The settlement page: points, money, payments, the loss cap, marking paid."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.models import Group, Night, Payment, User
from scorekeeper.models.payments import TabPayment
from scorekeeper.services.groups import leave_group
from scorekeeper.services.nights import end_night
from scorekeeper.table.formatting import money
from tests.helpers import finish, log_in, play, rounds_of, settle_url

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
    # No inline scripts in the page body: a script file, and the picture's data (never run).
    scripts = re.findall(r"<script[^>]*>", html.split("</head>")[1])
    assert all(" src=" in tag or 'type="application/json"' in tag for tag in scripts)


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
    assert "Taken off the winners: Anna €2.80 and Bram €1.20." in html
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


def test_the_payer_or_the_payee_marks_a_payment_paid_and_can_undo_it(make_night, login):
    night = play(make_night(), *rounds_of(2))
    end_night(night=night, by=User.objects.get(name="Anna"))
    client = login("Chris")

    response = mark(client, night, "Chris", "Anna", 120)
    assert response.status_code == 302 and response.url == settle_url(night)
    payment = Payment.objects.get()
    assert (payment.payer.name, payment.payee.name, payment.cents) == ("Chris", "Anna", 120)
    assert payment.marked_by.name == "Chris"

    page = client.get(settle_url(night))
    paid = [line for line in page.context["results"].payments if line.is_paid]
    assert [(line.payer.name, line.cents) for line in paid] == [("Chris", 120)]
    assert "Paid ✓" in page.content.decode() and "Marked by Chris." in page.content.decode()
    assert "Chris → Anna €1.20 ✓ paid" in page.context["share_text"]

    mark(client, night, "Chris", "Anna", 120)  # a double tap marks it once
    assert Payment.objects.count() == 1

    # The payee may take it back as well as the payer.
    response = login("Anna").post(reverse("payment_undo", args=[night.pk, payment.pk]))
    assert response.status_code == 302
    assert not Payment.objects.exists()


def test_a_bystander_reads_other_peoples_payments_and_their_posts_are_refused(make_night, login):
    night = play(make_night(), *rounds_of(2))
    end_night(night=night, by=User.objects.get(name="Anna"))
    mark(login("Chris"), night, "Chris", "Anna", 120)
    payment = Payment.objects.get()
    night.refresh_from_db()
    version = night.version

    # Bram pays Anna himself; Chris → Anna is between the two others.
    bram = login("Bram")
    page = bram.get(settle_url(night)).content.decode()
    others = page.split('data-testid="other-payments"', 1)[1].split("</ul>", 1)[0]
    assert "Chris pays Anna €1.20" in others and "Paid ✓" in others
    assert "Undo" not in others and "payment_undo" not in others
    assert reverse("payment_undo", args=[night.pk, payment.pk]) not in page
    mine = page.split('data-testid="my-payments"', 1)[1].split("</ul>", 1)[0]
    assert "Mark paid" in mine

    refused = bram.post(reverse("payment_undo", args=[night.pk, payment.pk]), follow=True)
    words = "Only Chris and Anna can mark this payment paid or take the mark back."
    assert words in refused.content.decode()
    assert Payment.objects.filter(pk=payment.pk).exists()
    payment.delete()
    night.refresh_from_db()
    version = night.version
    refused = bram.post(
        reverse("payment_mark", args=[night.pk]),
        {
            "payer": night.seats.get(name="Chris").pk,
            "payee": night.seats.get(name="Anna").pk,
            "cents": 120,
        },
        follow=True,
    )
    assert words in refused.content.decode()
    assert not Payment.objects.exists()
    night.refresh_from_db()
    assert night.version == version  # nothing changed, no phone is told of a change


def test_whoever_started_the_night_marks_a_guests_payment(make_night, login):
    # Bram started the night; Chris is a guest, without a phone of his own.
    night = finish(play(make_night(("Bram", "Anna"), guests=("Chris",)), *rounds_of(2)))
    bram = login("Bram")
    page = bram.get(settle_url(night)).content.decode()
    assert page.count("Mark paid") == 2  # his own line, and the guest's

    mark(bram, night, "Chris", "Anna", 120)
    assert Payment.objects.get().marked_by.name == "Bram"


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
    from scorekeeper.services.round_fixes import edit_round

    seats = {seat.name: seat.pk for seat in night.seats.all()}
    with pytest.raises(Refused, match=r"paid already \(Chris → Anna €1.20\)"):
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


def test_logged_out_visitors_are_sent_to_log_in(make_night, client):
    night = play(make_night(), *rounds_of(2))
    for method, url in new_urls(night):
        response = getattr(client, method)(url)
        assert response.status_code == 302, url
        assert response.url.startswith(reverse("login") + "?next="), url


# --- queries -----------------------------------------------------------------------------


@pytest.mark.database
@pytest.mark.parametrize("loss_cap", [None, 500])
@pytest.mark.parametrize("count", [2, 6])
def test_the_settlement_takes_seven_queries_however_many_rounds(
    make_night, login, django_assert_num_queries, loss_cap, count
):
    night = make_night()
    Night.objects.filter(pk=night.pk).update(loss_cap_cents=loss_cap)
    play(night, *rounds_of(count))
    client = login("Anna")
    # User, night, its seats (with their stored totals), its recorded entries, its
    # marked payments, the members' pay details, and the session.
    with django_assert_num_queries(7):
        client.get(settle_url(night))


# --- money across nights ------------------------------------------------------------------


def _two_finished_nights(make_night, *, stakes=(10, 10)):
    """Night one: Anna +10, Bram -4, Chris -6; night two: Bram +3, Chris -3 (points)."""
    first = make_night(point_cents=stakes[0])
    play(first, {"Anna": 10, "Bram": -4, "Chris": -6})
    finish(first)
    second = make_night(group=first.group, point_cents=stakes[1])
    play(second, {"Anna": 0, "Bram": 3, "Chris": -3})
    finish(second)
    return first, second


def _owed_on(page):
    return [(p.payer.name, p.payee.name, p.cents) for p in page.context["owed"].payments]


def _pay_form(page, index=0, **changes):
    owed = page.context["owed"]
    payment = owed.payments[index]
    data = {
        "payer": payment.payer.key,
        "payee": payment.payee.key,
        "currency": payment.currency,
        "fingerprint": owed.fingerprint,
        "amount": payment.amount_input,
    }
    return data | changes


def owed_url(night):
    return reverse("group_owed", args=[night.group_id])


def test_the_owed_page_nets_every_finished_night_and_marking_paid_clears_it(make_night, login):
    first, _ = _two_finished_nights(make_night)
    client = login("Bram")
    page = client.get(owed_url(first))
    # Anna is owed 100 ct; Bram owes 40 and is owed 30; Chris owes 90.
    assert _owed_on(page) == [("Chris", "Anna", 90), ("Bram", "Anna", 10)]
    html = page.content.decode()
    assert "Still owed" in html and "€0.90" in html and "Mark paid" in html

    response = client.post(reverse("owed_pay", args=[first.group_id]), _pay_form(page), follow=True)

    assert _owed_on(response) == [("Bram", "Anna", 10)]
    assert "Chris paid Anna €0.90: marked." in response.content.decode()


def test_a_payment_across_nights_entered_by_mistake_is_taken_back_from_the_group_page(
    make_night, login
):
    first, _ = _two_finished_nights(make_night)
    chris = login("Chris")
    page = chris.get(owed_url(first))
    chris.post(reverse("owed_pay", args=[first.group_id]), _pay_form(page))
    tab = TabPayment.objects.get()

    page = chris.get(owed_url(first))
    html = page.content.decode()
    start = html.index('data-testid="paid-across-nights"')
    paid = html[start : html.index("</ul>", start)]
    assert "Chris" in paid and "€0.90" in paid and "marked by Chris" in paid
    assert reverse("owed_undo", args=[first.group_id, tab.pk]) in paid
    # Bram is neither side and did not enter it: no Undo for him.
    bram_page = log_in(Client(), "Bram").get(owed_url(first)).content.decode()
    assert reverse("owed_undo", args=[first.group_id, tab.pk]) not in bram_page

    response = chris.post(reverse("owed_undo", args=[first.group_id, tab.pk]), follow=True)

    assert "Chris → Anna €0.90 is owed again." in response.content.decode()
    assert _owed_on(response) == [("Chris", "Anna", 90), ("Bram", "Anna", 10)]
    assert not TabPayment.objects.exists()


def test_an_older_nights_settlement_says_why_it_cannot_fold_in_instead_of_a_500(make_night, login):
    first, second = _two_finished_nights(make_night)
    client = login("Chris")
    page = client.get(owed_url(first))
    # Chris pays Anna 70 ct across nights: 60 of night one and 10 of night two.
    client.post(reverse("owed_pay", args=[first.group_id]), _pay_form(page, amount="0.70"))
    Group.objects.filter(pk=first.group_id).update(settle_everything=True)

    older = client.get(settle_url(first))

    assert older.status_code == 200
    html = older.content.decode()
    assert "a payment across nights also paid off a night after this one" in html
    assert 'data-testid="settlement"' in html  # the night's own settlement is there
    newer = client.get(settle_url(second))
    assert newer.status_code == 200 and "cannot include" not in newer.content.decode()
    assert [(p.payer.name, p.payee.name, p.cents) for p in newer.context["folded"].payments] == [
        ("Chris", "Anna", 20),
        ("Bram", "Anna", 10),
    ]


def test_a_partial_payment_is_typed_in_and_the_rest_stays_owed(make_night, login):
    first, _ = _two_finished_nights(make_night)
    client = login("Chris")
    page = client.get(owed_url(first))

    response = client.post(
        reverse("owed_pay", args=[first.group_id]), _pay_form(page, amount="0,25"), follow=True
    )

    assert _owed_on(response) == [("Chris", "Anna", 65), ("Bram", "Anna", 10)]


@pytest.mark.parametrize(
    ("amount", "says"),
    [
        ("0.91", "less than that"),
        ("0", "more than zero"),
        ("lots", "for example €4.30"),
        ("", "Enter"),
    ],
)
def test_a_bad_amount_is_refused_in_plain_words_and_changes_nothing(
    make_night, login, amount, says
):
    first, _ = _two_finished_nights(make_night)
    client = login("Chris")
    page = client.get(owed_url(first))

    response = client.post(
        reverse("owed_pay", args=[first.group_id]), _pay_form(page, amount=amount), follow=True
    )

    assert says in response.content.decode()
    assert _owed_on(response) == [("Chris", "Anna", 90), ("Bram", "Anna", 10)]
    assert not TabPayment.objects.exists()


def test_a_double_tap_on_mark_paid_records_the_payment_once(make_night, login):
    first, _ = _two_finished_nights(make_night)
    client = login("Chris")
    form = _pay_form(client.get(owed_url(first)))
    url = reverse("owed_pay", args=[first.group_id])

    client.post(url, form)
    response = client.post(url, form, follow=True)

    assert TabPayment.objects.count() == 1
    assert _owed_on(response) == [("Bram", "Anna", 10)]


def test_mixed_stakes_are_owed_as_money(make_night, login):
    # 10 points at 50 ct is €5; 3 points at 10 ct is 30 ct.
    first, _ = _two_finished_nights(make_night, stakes=(50, 10))

    page = login("Anna").get(owed_url(first))

    # Anna +500; Bram -200 + 30 = -170; Chris -300 - 30 = -330.
    assert _owed_on(page) == [("Chris", "Anna", 330), ("Bram", "Anna", 170)]
    assert "€3.30" in page.content.decode()


def test_someone_who_left_still_owes_and_is_marked_as_gone(make_night, login):
    first, _ = _two_finished_nights(make_night)
    leave_group(group=first.group, user=User.objects.get(name="Chris"))

    page = login("Anna").get(owed_url(first))

    assert _owed_on(page)[0] == ("Chris", "Anna", 90)
    assert 'class="badge left">left</span>' in page.content.decode()


def test_settle_everythings_payments_mark_who_left_as_the_group_page_does(make_night, login):
    first = finish(play(make_night(), {"Anna": 10, "Bram": -4, "Chris": -6}))
    tonight = finish(play(make_night(group=first.group), {"Anna": 0, "Bram": 0, "Chris": 0}))
    Group.objects.filter(pk=first.group_id).update(settle_everything=True)
    leave_group(group=first.group, user=User.objects.get(name="Chris"))

    html = login("Anna").get(settle_url(tonight)).content.decode()

    start = html.index('data-testid="payments"')
    payments = html[start : html.index("</ul>", start)]
    chris = payments.index("Chris")
    assert payments.index('class="badge left">left</span>', chris) < payments.index("→", chris)


def test_the_owed_part_alone_comes_back_for_htmx(make_night, login):
    first, _ = _two_finished_nights(make_night)

    body = login("Anna").get(owed_url(first), HTTP_HX_REQUEST="true").content.decode()

    assert body.lstrip().startswith('<section id="owed"') and "<html" not in body


@pytest.mark.database
@pytest.mark.parametrize("nights", [2, 6])
def test_the_owed_part_takes_the_same_queries_however_many_nights(
    make_night, login, django_assert_num_queries, nights
):
    first = make_night()
    for index in range(nights):
        night = first if index == 0 else make_night(group=first.group)
        finish(play(night, *rounds_of(2 + 2 * index)))
    client = login("Anna")
    # User, group; the seats with their points, the nights' marks, the tab's parts, who
    # left, the latest payments across nights, the members' pay details, and the
    # session.
    with django_assert_num_queries(9):
        page = client.get(owed_url(first), HTTP_HX_REQUEST="true")
    body = page.content.decode()
    # Each night leaves Chris owing Anna €1.20 and Bram owing her €0.30.
    assert body.count('data-testid="owed-payment"') == 2
    assert money(120 * nights) in body and money(30 * nights) in body


def test_settle_everything_tonight_folds_earlier_nights_in_as_their_own_lines(make_night, login):
    first = finish(play(make_night(), {"Anna": 10, "Bram": -4, "Chris": -6}))
    tonight = play(make_night(group=first.group), {"Anna": -2, "Bram": 2, "Chris": 0})
    client = login("Bram")
    client.post(reverse("settle_everything", args=[tonight.pk]), {"on": "1"})
    assert Group.objects.get().settle_everything

    page = client.get(settle_url(tonight))

    folded = page.context["folded"]
    assert [(line.person.name, line.cents) for line in folded.earlier] == [
        ("Anna", 100),
        ("Bram", -40),
        ("Chris", -60),
    ]
    assert [(p.payer.name, p.payee.name, p.cents) for p in folded.payments] == [
        ("Chris", "Anna", 60),
        ("Bram", "Anna", 20),
    ]
    html = page.content.decode()
    assert "from earlier nights: −€0.40" in html
    assert "Payments, earlier nights included" in html
    assert "Mark paid" not in html  # tonight is still running
    text = page.context["share_text"]
    assert "Bram from earlier nights: −€0.40" in text
    assert "Chris → Anna €0.60\nBram → Anna €0.20" in text

    finish(tonight)
    page = client.get(settle_url(tonight))
    form = page.context["folded"]
    payment = form.payments[1]
    client.post(
        reverse("night_owed_pay", args=[tonight.pk]),
        {
            "payer": payment.payer.key,
            "payee": payment.payee.key,
            "currency": "EUR",
            "fingerprint": form.owed.fingerprint,
            "amount": "0.20",
        },
    )
    after = client.get(settle_url(tonight)).context["folded"]
    assert [(p.payer.name, p.payee.name, p.cents) for p in after.payments] == [
        ("Chris", "Anna", 60)
    ]

    client.post(reverse("settle_everything", args=[tonight.pk]))
    assert "folded" not in client.get(settle_url(tonight)).context


@pytest.mark.database
@pytest.mark.parametrize("nights", [2, 6])
def test_the_folded_settlement_takes_the_same_queries_however_many_nights(
    make_night, login, django_assert_num_queries, nights
):
    first = make_night()
    Group.objects.filter(pk=first.group_id).update(settle_everything=True)
    for index in range(nights):
        night = first if index == 0 else make_night(group=first.group)
        play(night, *rounds_of(2 + 2 * index))
        finish(night)
    client = login("Anna")
    # The seven of a night's settlement, the payments across nights since it, and the
    # four of what earlier nights still owe.
    with django_assert_num_queries(12):
        page = client.get(settle_url(night))
    assert len(page.context["folded"].earlier) == 3


def test_a_nights_own_mark_is_refused_once_the_tab_paid_part_of_it(make_night, login):
    first, _ = _two_finished_nights(make_night)
    client = login("Chris")
    client.post(reverse("owed_pay", args=[first.group_id]), _pay_form(client.get(owed_url(first))))
    chris, anna = first.seats.get(name="Chris"), first.seats.get(name="Anna")

    response = client.post(
        reverse("payment_mark", args=[first.pk]),
        {"payer": chris.pk, "payee": anna.pk, "cents": 60},
        follow=True,
    )

    # The whole line was squared across nights: the page says so and offers no mark.
    assert "of this was paid across nights already" in response.content.decode()
    assert not Payment.objects.exists()
