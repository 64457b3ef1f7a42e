"""Invitation links that stop by themselves: after a while, or after so many joins."""

from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.models import Group, Membership, User
from scorekeeper.services.groups import replace_invite_link
from tests.helpers import PASSWORD, log_in


def join(group, name):
    return Client().post(
        reverse("join", args=[group.invite_token]),
        {"action": "signup", "signup-name": name, "signup-password": PASSWORD},
    )


def test_a_member_makes_a_link_for_a_week_and_five_people(login, make_group):
    group = make_group(members=("Anna",))
    client = login("Anna")
    page = client.get(reverse("group_detail", args=[group.pk])).content.decode()
    assert 'name="valid_for"' in page and 'name="uses"' in page
    client.post(reverse("group_new_link", args=[group.pk]), {"valid_for": "7d", "uses": "5"})
    group.refresh_from_db()
    assert group.invite_uses_left == 5
    expected = timezone.now() + timedelta(days=7)
    assert abs((group.invite_expires_at - expected).total_seconds()) < 60
    page = client.get(reverse("group_detail", args=[group.pk])).content.decode()
    assert "Lets 5 more people join." in page and "Works until" in page


def test_a_link_for_two_people_lets_two_in_then_says_it_is_used_up(make_group):
    group = make_group(members=("Anna",))
    replace_invite_link(group=group, uses=2)
    assert join(group, "Bram").status_code == 302
    assert join(group, "Chris").status_code == 302
    refused = join(group, "Dora")
    assert refused.status_code == 404
    assert "let in as many people as they allowed" in refused.content.decode()
    page = Client().get(reverse("join", args=[group.invite_token]))
    assert "let in as many people as they allowed" in page.content.decode()
    assert Membership.objects.filter(group=group).count() == 3


def test_an_expired_link_says_when_it_stopped(make_group, make_user):
    group = make_group(members=("Anna",))
    replace_invite_link(group=group, valid_for=timedelta(hours=1))
    Group.objects.filter(pk=group.pk).update(invite_expires_at=timezone.now() - timedelta(1))
    page = Client().get(reverse("join", args=[group.invite_token]))
    assert page.status_code == 404
    assert "code and invitation link stopped working on" in page.content.decode()
    # Someone with an account cannot use it either.
    make_user("Bram")
    response = log_in(Client(), "Bram").post(
        reverse("join", args=[group.invite_token]), {"action": "join"}
    )
    assert response.status_code == 404
    assert not group.has_member(User.objects.get(name="Bram"))


def test_a_link_without_limits_works_as_before(make_group):
    group = make_group(members=("Anna",))
    for name in ("Bram", "Chris", "Dora"):
        assert join(group, name).status_code == 302
    group.refresh_from_db()
    assert group.invite_uses_left is None and group.invite_expires_at is None


def test_an_account_named_like_a_member_is_told_on_the_join_page(make_group):
    make_group("Elsewhere", members=("\u0410nna",))  # a Cyrillic А
    group = make_group(members=("Anna",))
    url = reverse("join", args=[group.invite_token])
    logged_in = log_in(Client(), "\u0410nna")
    page = logged_in.post(url, {"action": "join"})
    assert page.status_code == 200
    assert "looks just like the name of someone in this group" in page.content.decode()
    # Logging in on the join page: the same words, and not logged in for nothing.
    other = Client()
    page = other.post(
        url, {"action": "login", "login-username": "\u0410nna", "login-password": PASSWORD}
    )
    assert "looks just like the name of someone in this group" in page.content.decode()
    assert "_auth_user_id" not in other.session
    assert not Membership.objects.filter(group=group, user__name="\u0410nna").exists()
