"""The group's currency, set on its house rules page from ISO 4217 (CLDR through
Babel), and amounts in the currency's own minor unit: yen have none."""

import re

from django.urls import reverse

from scorekeeper.forms.nights import StartNightForm
from scorekeeper.models import Group, Night, User
from tests.helpers import finish, play


def set_currency(client, group: Group, code: str):
    return client.post(reverse("group_currency", args=[group.pk]), {"currency": code})


def start_from_page(client, group: Group, point_value: str):
    anna, bram = User.objects.order_by("pk")[:2]
    data = {"game": "standard", "dealer": "1", "seat_1": anna.pk, "seat_2": bram.pk}
    return client.post(
        reverse("night_start", args=[group.pk]), {**data, "point_value": point_value}
    )


def test_a_member_sets_pounds_on_the_house_rules_page_and_the_next_night_plays_in_them(
    login, make_group
):
    group = make_group(members=("Anna", "Bram"))
    client = login("Anna")
    page = client.get(reverse("group_house_rules", args=[group.pk])).content.decode()
    # The list is CLDR's, named in the reader's language.
    assert '<option value="GBP">British Pound (GBP)</option>' in page
    assert '<option value="EUR" selected>Euro (EUR)</option>' in page
    response = set_currency(client, group, "GBP")
    assert response.status_code == 302
    group.refresh_from_db()
    assert group.currency == "GBP"
    start_from_page(client, group, "0.25")
    night = Night.objects.get()
    assert (night.currency, night.point_cents) == ("GBP", 25)
    assert "£0.25/pt" in client.get(reverse("night_detail", args=[night.pk])).content.decode()
    dutch = client.get(
        reverse("group_house_rules", args=[group.pk]), HTTP_ACCEPT_LANGUAGE="nl"
    ).content.decode()
    assert '<option value="GBP" selected>Britse pond (GBP)</option>' in dutch


def test_a_yen_night_keeps_whole_yen_from_the_start_page_to_the_settlement(login, make_group):
    group = make_group(members=("Anna", "Bram"))
    client = login("Anna")
    set_currency(client, group, "JPY")
    Group.objects.filter(pk=group.pk).update(default_point_cents=500)
    start_page = client.get(reverse("night_start", args=[group.pk])).content.decode()
    stake = re.search(r'<input[^>]*name="point_value"[^>]*>', start_page)[0]
    assert 'value="500"' in stake  # not "5.00": a yen has no smaller unit
    refused = start_from_page(client, group, "12.5")
    assert "This currency has no smaller unit" in refused.content.decode()
    assert not Night.objects.exists()
    start_from_page(client, group, "¥100")
    night = Night.objects.get()
    assert (night.currency, night.point_cents) == ("JPY", 100)
    play(night, {"Anna": 25, "Bram": -25})
    finish(night)
    settlement = client.get(reverse("night_settle", args=[night.pk])).content.decode()
    assert "¥2,500" in settlement and "¥100/pt" in settlement
    assert "¥25.00" not in settlement and "¥2,500.00" not in settlement
    chinese = client.get(
        reverse("night_settle", args=[night.pk]), HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).content.decode()
    assert "JP¥2,500" in chinese  # in Chinese a bare ¥ is the yuan

    # What is still owed is offered to be paid in whole yen, and takes them back.
    owed_url = reverse("group_owed", args=[group.pk])
    owed = client.get(owed_url)
    assert 'name="amount" value="2500"' in owed.content.decode()
    payment = owed.context["owed"].payments[0]
    client.post(
        reverse("owed_pay", args=[group.pk]),
        {
            "payer": payment.payer.key,
            "payee": payment.payee.key,
            "currency": "JPY",
            "fingerprint": owed.context["owed"].fingerprint,
            "amount": payment.amount_input,
        },
    )
    assert client.get(owed_url).context["owed"].payments == []


def test_an_unknown_currency_code_is_refused_in_words_and_changes_nothing(login, make_group):
    group = make_group(members=("Anna", "Bram"))
    response = set_currency(login("Anna"), group, "XYZ")
    assert response.status_code == 400
    assert "“XYZ” is not a currency the app knows. Pick one from the list." in (
        response.content.decode()
    )
    group.refresh_from_db()
    assert group.currency == "EUR"


def test_a_yen_form_leaves_another_phones_euro_form_its_cents():
    # Two requests at once: a euro form made, then a yen form, then the euro one read.
    euro = StartNightForm(currency="EUR")
    yen = StartNightForm(currency="JPY")
    assert euro.fields["point_value"].clean("0.10") == 10
    assert yen.fields["point_value"].clean("500") == 500
    assert StartNightForm.base_fields["point_value"].clean("0.25") == 25
