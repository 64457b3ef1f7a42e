"""Everything of a group is for its members only: strangers get exactly a 404."""

import pytest
from django.urls import URLPattern, reverse

from scorekeeper import urls
from scorekeeper.models import Night, Payment, User
from scorekeeper.services.rounds import record_entry

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


@pytest.fixture
def night_with_a_round(make_night):
    night = make_night(("Anna", "Bram"))
    anna, bram = night.seats.all()
    record_entry(night=night, round_number=1, seat=anna, points=6, entered_by=anna.user)
    record_entry(night=night, round_number=1, seat=bram, points=-6, entered_by=bram.user)
    return night


def test_the_matrix_covers_every_group_page():
    assert {"group_detail", "night_detail", "night_live", "entry_save", "round_edit"} <= set(
        member_urls()
    )


@pytest.mark.parametrize("name", member_urls())
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("who", ["stranger", "other_group_member"])
def test_non_members_get_the_same_404_as_for_nothing(
    client, login, night_with_a_round, make_group, make_user, name, method, who
):
    night = night_with_a_round
    if who == "stranger":
        visitor = make_user("Zed")
    else:
        make_group(name="Other table", members=("Olga",))
        visitor = User.objects.get(name="Olga")
    login(visitor)
    version = Night.objects.get(pk=night.pk).version

    real = getattr(client, method)(reverse(name, kwargs=kwargs_for(name, night)))
    ghost = getattr(client, method)(reverse(name, kwargs=kwargs_for(name, night, missing=True)))

    assert real.status_code in (404, 405)
    assert real.status_code == ghost.status_code
    assert night.group.name not in real.content.decode()
    assert Night.objects.get(pk=night.pk).version == version  # nothing was written


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
