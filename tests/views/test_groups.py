"""Groups and invitation links from a phone: the join page, the group page, who gets in."""

import html
import re

import pytest
from django.urls import reverse

from scorekeeper.models import Group, Membership, User
from scorekeeper.services.groups import join_group, replace_invite_link
from tests.helpers import PASSWORD, finish, play, rounds_of

# --- the join page ---------------------------------------------------------------


def join_url(group: Group) -> str:
    return reverse("join", args=[group.invite_token])


def test_a_newcomer_picks_a_name_and_password_and_is_in_the_group(client, make_group):
    group = make_group(members=("Anna", "Bram"))
    page = client.get(join_url(group))
    assert page.status_code == 200
    assert "Join “Friday OFC”" in page.content.decode()
    assert "Anna and Bram play here." in page.content.decode()

    response = client.post(
        join_url(group), {"action": "signup", "signup-name": " Chris ", "signup-password": PASSWORD}
    )
    assert response.status_code == 302
    assert response.url == reverse("group_detail", args=[group.pk])
    chris = User.objects.get(name="Chris")
    assert Membership.objects.filter(group=group, user=chris, left_at=None).exists()
    assert client.get(response.url).status_code == 200  # logged in


def test_a_taken_name_is_refused_with_a_suggestion_and_nothing_is_created(
    client, make_group, make_user
):
    group = make_group(members=("Anna",))
    make_user("Tom")  # of another group
    response = client.post(join_url(group), {"action": "signup", "signup-name": "tom"})
    body = response.content.decode()
    assert response.status_code == 200
    assert "already taken" in body and "Tom B" in body
    assert User.objects.count() == 2
    assert Membership.objects.count() == 1


def test_a_members_name_on_a_new_phone_is_sent_to_a_sign_in_not_a_new_person(client, make_group):
    group = make_group(members=("Tom", "Anna"))
    response = client.post(join_url(group), {"action": "signup", "signup-name": "tom"})
    body = response.content.decode()
    assert "Tom is already in this group" in body
    assert "Sign Tom in on a phone" in body
    assert User.objects.count() == 2 and Membership.objects.count() == 2


def test_a_name_is_all_it_takes_to_join(client, make_group):
    group = make_group(members=("Anna",))
    response = client.post(join_url(group), {"action": "signup", "signup-name": "Dana"})
    assert response.url == reverse("group_detail", args=[group.pk])
    dana = User.objects.get(name="Dana")
    assert not dana.has_usable_password()
    assert group.has_member(dana)
    assert client.get(reverse("group_detail", args=[group.pk])).status_code == 200


@pytest.mark.parametrize(
    ("name", "password", "message"),
    [
        ("", PASSWORD, "Please enter a name."),
        ("x" * 31, PASSWORD, "at most 30 characters"),
        ("R2D2", PASSWORD, "only have letters and spaces"),
    ],
)
def test_bad_sign_up_input_gets_a_clear_message_and_changes_nothing(
    client, make_group, name, password, message
):
    group = make_group(members=("Anna",))
    response = client.post(
        join_url(group), {"action": "signup", "signup-name": name, "signup-password": password}
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert User.objects.count() == 1
    assert Membership.objects.filter(group=group).count() == 1


def test_someone_logged_in_joins_with_one_tap(client, login, make_group, make_user):
    group = make_group(members=("Anna",))
    dana = make_user("Dana")
    login(dana)
    page = client.get(join_url(group))
    assert "You are logged in as" in page.content.decode()
    response = client.post(join_url(group), {"action": "join"})
    assert response.url == reverse("group_detail", args=[group.pk])
    assert group.memberships.filter(user=dana, left_at=None).exists()


def test_a_member_following_the_link_again_lands_on_the_group(client, login, make_group):
    group = make_group(members=("Anna",))
    login("Anna")
    response = client.get(join_url(group))
    assert response.status_code == 302
    assert response.url == reverse("group_detail", args=[group.pk])


def test_someone_with_an_account_logs_in_on_the_join_page_and_joins(client, make_group, make_user):
    group = make_group(members=("Anna",))
    eve = make_user("Eve")
    response = client.post(
        join_url(group),
        {"action": "login", "login-username": "eve", "login-password": PASSWORD},
    )
    assert response.status_code == 302
    assert group.memberships.filter(user=eve, left_at=None).exists()


def test_a_wrong_password_on_the_join_page_says_so_and_joins_nobody(client, make_group, make_user):
    group = make_group(members=("Anna",))
    eve = make_user("Eve")
    response = client.post(
        join_url(group), {"action": "login", "login-username": "Eve", "login-password": "nope"}
    )
    assert response.status_code == 200
    assert "do not match" in response.content.decode()
    assert not group.memberships.filter(user=eve).exists()


def test_a_replaced_link_stops_working_at_once(client, make_group):
    group = make_group(members=("Anna",))
    old = join_url(group)
    replace_invite_link(group=group)
    response = client.get(old)
    assert response.status_code == 404
    assert "This code no longer works" in response.content.decode()
    assert "took this code and its invitation link back" in response.content.decode()
    response = client.post(
        old, {"action": "signup", "signup-name": "Zed", "signup-password": PASSWORD}
    )
    assert response.status_code == 404
    assert not User.objects.filter(name="Zed").exists()


@pytest.mark.parametrize("token", ["x", "not a token", "A" * 64, "%00"])
def test_malformed_tokens_get_the_friendly_page(client, db, token):
    response = client.get(f"/join/{token}/")
    assert response.status_code == 404
    assert "No group has this code: check it with the person who gave it to you." in (
        response.content.decode()
    )


# --- the group page ------------------------------------------------------------------


def test_the_group_page_shows_members_link_and_qr_code(client, login, make_group):
    group = make_group(members=("Anna", "Bram"))
    login("Anna")
    body = client.get(reverse("group_detail", args=[group.pk])).content.decode()
    assert "Bram" in body
    assert f"/join/{group.invite_token}/" in body
    assert "<svg" in body and 'class="qr"' in body
    assert 'data-copy="#invite-link"' in body


def test_new_link_replaces_the_old_one(client, login, make_group):
    group = make_group(members=("Anna", "Bram"))
    old = group.invite_token
    login("Bram")  # any member may
    client.post(reverse("group_new_link", args=[group.pk]))
    group.refresh_from_db()
    assert group.invite_token != old
    assert not Group.objects.filter(invite_token=old).exists()


def test_any_logged_in_person_can_create_a_group(client, login, make_user):
    login(make_user("Anna"))
    response = client.post(reverse("group_create"), {"name": "  Friday   OFC "})
    group = Group.objects.get()
    assert group.name == "Friday OFC"
    assert response.url == reverse("group_detail", args=[group.pk])
    assert group.memberships.filter(user__name="Anna").exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [("", "Please give the group a name."), ("x" * 61, "at most 60 characters")],
)
def test_a_bad_group_name_is_refused(client, login, make_user, name, message):
    login(make_user("Anna"))
    response = client.post(reverse("group_create"), {"name": name})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Group.objects.exists()


def test_a_member_who_leaves_loses_access_but_can_rejoin(client, login, make_group):
    group = make_group(members=("Anna", "Bram"))
    bram = User.objects.get(name="Bram")
    login(bram)
    client.post(reverse("group_leave", args=[group.pk]))
    assert client.get(reverse("group_detail", args=[group.pk])).status_code == 404
    assert Membership.objects.filter(group=group, user=bram, left_at__isnull=False).exists()
    join_group(group=group, user=bram)
    assert client.get(reverse("group_detail", args=[group.pk])).status_code == 200


def test_names_are_always_shown_escaped(client, login, make_group, make_user):
    group = make_group(members=("Anna",))
    login("Anna")
    group.name = "<b>Friday</b>"
    group.save()
    body = client.get(reverse("group_detail", args=[group.pk])).content.decode()
    assert "<b>Friday</b>" not in body
    assert "&lt;b&gt;Friday&lt;/b&gt;" in body


def test_leaving_the_group_while_seated_at_a_running_night_is_refused(client, login, make_night):
    night = make_night(("Anna", "Bram"))
    login("Bram")
    response = client.post(reverse("group_leave", args=[night.group_id]), follow=True)
    assert "seated at tonight" in response.content.decode()
    assert client.get(reverse("night_detail", args=[night.pk])).status_code == 200


# --- the group page, live -----------------------------------------------------------


def group_url(group: Group) -> str:
    return reverse("group_detail", args=[group.pk])


def poll_url_on(body: str) -> str:
    """The address the page's live area polls, as the phone sends it."""
    found = re.findall(r'hx-get="([^"]+)"', body)
    assert len(found) == 1, found
    return html.unescape(found[0])


def test_a_running_night_is_shown_with_its_round_and_a_way_in(client, login, make_night):
    night = make_night(("Anna", "Bram"), game="pineapple")
    play(night, {"Anna": 3, "Bram": -3}, {"Anna": 1, "Bram": -1})
    body = login("Bram").get(group_url(night.group)).content.decode()
    banner = body[body.index('data-testid="running-night"') :]
    assert "▶ Tonight: Pineapple, round 3" in banner[: banner.index("</a>")]
    assert f'href="{reverse("night_detail", args=[night.pk])}"' in body


@pytest.mark.database
def test_the_group_poll_answers_204_without_rendering_when_no_night_changed(
    client, login, make_night, django_assert_num_queries
):
    night = make_night(("Anna", "Bram"))
    login("Anna")
    poll = poll_url_on(client.get(group_url(night.group)).content.decode())
    assert poll.startswith(reverse("group_live", args=[night.group_id]))
    # The session, the user, then the nights' fingerprint with the membership.
    with django_assert_num_queries(3):
        response = client.get(poll)
    assert response.status_code == 204
    assert response.content == b""


def test_a_night_started_by_another_member_shows_up_at_the_next_poll(
    client, login, make_group, make_night
):
    group = make_group(members=("Anna", "Bram", "Chris"))
    login("Anna")
    poll = poll_url_on(client.get(group_url(group)).content.decode())
    assert client.get(poll).status_code == 204

    night = make_night(("Bram", "Chris"), game="pineapple", group=group)  # on Bram's phone
    response = client.get(poll)
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="live"')
    assert "<html" not in body
    assert "▶ Tonight: Pineapple, round 1" in body
    assert f'href="{reverse("night_detail", args=[night.pk])}"' in body
    # The fragment polls on with the new fingerprint, which is unchanged from then on.
    assert client.get(poll_url_on(body)).status_code == 204


def test_a_round_going_through_moves_the_round_on_the_group_page(client, login, make_night):
    night = make_night(("Anna", "Bram"))
    login("Anna")
    poll = poll_url_on(client.get(group_url(night.group)).content.decode())
    play(night, {"Anna": 5, "Bram": -5})
    body = client.get(poll).content.decode()
    assert "round 2" in body and "round 1" not in body


def test_a_night_that_ends_moves_to_the_finished_list(client, login, make_night):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 5, "Bram": -5})
    login("Bram")
    poll = poll_url_on(client.get(group_url(night.group)).content.decode())
    finish(night)
    body = client.get(poll).content.decode()
    assert "Tonight" not in body
    finished = body[body.index('data-testid="nights"') :]
    assert f'href="{reverse("night_detail", args=[night.pk])}"' in finished
    assert "Anna <span" in finished and "+5" in finished


@pytest.mark.database
@pytest.mark.parametrize("played", [1, 5])
def test_the_group_poll_costs_the_same_however_many_nights(
    client, login, make_group, make_night, django_assert_num_queries, played
):
    group = make_group(members=("Anna", "Bram", "Chris"))
    for _ in range(played):
        finish(play(make_night(("Anna", "Bram", "Chris"), group=group), *rounds_of(2)))
    running = make_night(("Anna", "Bram", "Chris"), group=group)
    play(running, {"Anna": 1, "Bram": -1, "Chris": 0})
    login("Chris")
    poll = poll_url_on(client.get(group_url(group)).content.decode())
    with django_assert_num_queries(3):
        assert client.get(poll).status_code == 204
    changed = poll.replace("version=", "version=old-")
    # Rendered: the session, the user, the poll's fingerprint (read once: the fragment
    # shows the one the poll read), then the group, the running nights, a page of the
    # finished ones, their players and rounds.
    with django_assert_num_queries(8) as queries:
        body = client.get(changed).content.decode()
    assert len([query for query in queries if '"version")' in query["sql"]]) == 1
    assert f"version={group.nights_version()}" in body
    assert body.count('class="row-link night-row"') == played
    assert body.count('data-testid="running-night"') == 1
