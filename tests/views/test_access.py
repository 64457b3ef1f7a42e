"""Everything of a group is for its members only: strangers, members of another group
and members who left get exactly the 404 of a group or night that does not exist,
for every URL of a group found from the URL conf, by GET and by a POST of a full form,
and nothing is written. (The views' own tests leave this to the matrix here.)"""

import pytest
from django.apps import apps
from django.urls import URLPattern, reverse

from scorekeeper import urls
from scorekeeper.models import Group, Membership, Night, Payment, User
from scorekeeper.models.pay_details import PayDetails
from scorekeeper.services.groups import leave_group
from scorekeeper.services.rounds import record_entry
from tests.views.test_house_rules import house_post

OBJECT_ARGS = ("group_id", "night_id")
MISSING = 987654


def member_urls() -> list[str]:
    """Every URL name that points into a group, found from the URL conf itself, so a
    new page cannot be forgotten here."""
    names = []
    for pattern in urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        if any(arg in pattern.pattern.converters for arg in OBJECT_ARGS):
            names.append(pattern.name)
    return names


def kwargs_for(name: str, night: Night, *, missing: bool = False) -> dict:
    pattern = next(p for p in urls.urlpatterns if p.name == name)
    anna, bram = night.seats.order_by("position")
    values = {
        "group_id": night.group_id,
        "night_id": night.pk,
        "seat_id": anna.pk,
        "number": 1,
        "user_id": bram.user_id,
        "payment_id": Payment.objects.get_or_create(night=night, payer=bram, payee=anna, cents=60)[
            0
        ].pk,
        "fmt": "csv",
    }
    kwargs = {arg: values[arg] for arg in pattern.pattern.converters}
    if missing:
        kwargs = {
            arg: (MISSING if arg in ("group_id", "night_id") else v) for arg, v in kwargs.items()
        }
    return kwargs


IBAN = "NL91ABNA0417164300"
SCOREKEEPER = apps.get_app_config("scorekeeper")


@pytest.fixture
def night_with_a_round(make_night):
    night = make_night(("Anna", "Bram"))
    anna, bram = night.seats.all()
    record_entry(night=night, round_number=1, seat=anna, points=6, entered_by=anna.user)
    record_entry(night=night, round_number=1, seat=bram, points=-6, entered_by=bram.user)
    # Anna is paid by bank: her IBAN is on the group's pages, for members only.
    PayDetails.objects.create(user=anna.user, iban=IBAN, holder="Anna")
    return night


def a_full_form(night: Night) -> dict:
    """What a member's phone would post to any of the URLs: a total, a payment, house
    rules, a currency, a seat, a fix."""
    anna, bram = night.seats.order_by("position")
    return {
        **house_post("2-4"),
        "round": 1,
        "seat": anna.pk,
        "points": 5,
        f"points_{anna.pk}": 5,
        f"points_{bram.pk}": -5,
        "payer": bram.pk,
        "payee": anna.pk,
        "cents": 120,
        "currency": "GBP",
        "name": "Zed",
    }


def everything(night: Night) -> tuple:
    """The rows a visitor could change, and how many rows each table has."""
    # A visitor's own phone is listed when it signs in (models/sign_ins.Phone): that is
    # the sign-in, not a page's write.
    counts = {
        model.__name__: model.objects.count()
        for model in SCOREKEEPER.get_models()
        if model.__name__ != "Phone"
    }
    return (
        list(Night.objects.filter(pk=night.pk).values()),
        list(Group.objects.filter(pk=night.group_id).values()),
        list(Membership.objects.filter(group=night.group_id).values()),
        counts,
    )


def test_the_matrix_covers_every_group_page():
    assert {
        "group_detail",
        "night_detail",
        "night_live",
        "entry_save",
        "round_edit",
        "member_sign_in_code",
        "night_same_table",
        "night_call_off",
    } <= set(member_urls())


def non_members(night: Night, make_group, make_user) -> dict[str, User]:
    """Someone in no group, a member of another group, and a member who left."""
    make_group(name="Other table", members=("Olga",))
    dora = make_user("Dora")
    Membership.objects.create(group=night.group, user=dora)
    leave_group(group=night.group, user=dora)
    return {
        "stranger": make_user("Zed"),
        "other group's member": User.objects.get(name="Olga"),
        "member who left": dora,
    }


@pytest.mark.parametrize("name", member_urls())
def test_non_members_get_the_same_404_as_for_nothing(
    client, login, night_with_a_round, make_group, make_user, name
):
    night = night_with_a_round
    kwargs = kwargs_for(name, night)  # made before the snapshot: it may add a payment
    ghost_kwargs = kwargs_for(name, night, missing=True)
    visitors = non_members(night, make_group, make_user)
    form = a_full_form(night)
    before = everything(night)

    for who, visitor in visitors.items():
        login(visitor)
        for method in ("get", "post"):
            data = form if method == "post" else None
            real = getattr(client, method)(reverse(name, kwargs=kwargs), data)
            ghost = getattr(client, method)(reverse(name, kwargs=ghost_kwargs), data)

            assert real.status_code in (404, 405), (who, method)
            assert real.status_code == ghost.status_code, (who, method)
            body = real.content.decode()
            assert night.group.name not in body and IBAN[-4:] not in body, (who, method)
        assert everything(night) == before, who  # nothing was written, by GET or POST


@pytest.mark.parametrize("name", member_urls())
def test_logged_out_visitors_are_sent_to_log_in_and_learn_nothing(client, night_with_a_round, name):
    night = night_with_a_round
    real = client.get(reverse(name, kwargs=kwargs_for(name, night)))
    ghost = client.get(reverse(name, kwargs=kwargs_for(name, night, missing=True)))
    assert real.status_code == ghost.status_code
    if real.status_code == 302:
        assert real.url.startswith(reverse("login"))
    else:
        assert real.status_code == 405  # a POST-only URL refuses a GET before anything else


def test_a_member_sees_the_group_and_its_night(client, login, night_with_a_round):
    night = night_with_a_round
    login("Bram")
    assert client.get(reverse("group_detail", args=[night.group_id])).status_code == 200
    assert client.get(reverse("night_detail", args=[night.pk])).status_code == 200
