"""Getting in by a group's code: the front page's one box (typed as people type it,
counted when it matches nothing, refused per address past its share), joining with
a name and nothing else, and the codes that no longer let anyone in saying why."""

import html
import re
from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.models import Group, Membership, Phone, RetiredCode, User
from scorekeeper.services.groups import replace_invite_link
from scorekeeper.services.sign_ins import make_sign_in_code
from scorekeeper.site.throttle import WRONG_CODES_PER_ADDRESS

WRONG_CODES = int(WRONG_CODES_PER_ADDRESS.split("/")[0])
WAIT = r"(\d+ minutes?|1 hour)"
NO_SUCH_CODE = "No group has this code: check it with the person who gave it to you."
TAKEN_BACK = "The group took this code and its invitation link back and made new ones."
NOT_A_CODE = "A code has 8 letters and digits, like K7QM-3XPD."
TOO_MANY = "Too many codes that match nothing were tried from this phone or its network."
# A code no group is ever given by these tests (each group gets a fresh random one).
UNKNOWN = "ZZZZ-ZZZZ"


def with_code(group: Group, code: str) -> Group:
    """``group``, its join code made ``code`` (as stored) so a test can mistype it."""
    Group.objects.filter(pk=group.pk).update(invite_token=code)
    group.refresh_from_db()
    return group


def type_code(client: Client, typed: str, address: str = "192.0.2.10"):
    return client.post(reverse("enter_code"), {"code": typed}, REMOTE_ADDR=address)


def join_with_name(client: Client, group: Group, name: str, address: str = "192.0.2.10"):
    return client.post(
        reverse("join", args=[group.invite_token]),
        {"action": "signup", "signup-name": name},
        REMOTE_ADDR=address,
    )


def text(response) -> str:
    """The page's words as read, its HTML escapes (an apostrophe's ``&#x27;``) undone."""
    return html.unescape(response.content.decode())


def signed_in_as(client: Client) -> User | None:
    user_id = client.session.get("_auth_user_id")
    return User.objects.get(pk=user_id) if user_id else None


# The front page's box.


def test_the_front_page_has_the_code_box(client, db):
    page = client.get(reverse("login"))
    assert page.status_code == 200
    body = text(page)
    assert f'action="{reverse("enter_code")}"' in body
    assert 'name="code"' in body


def test_a_code_typed_in_small_letters_with_an_o_for_a_zero_lands_on_its_join_page(
    client, make_group
):
    group = with_code(make_group(members=("Anna",)), "K7QM3XP0")
    response = type_code(client, "k7qm-3xpo")
    assert response.status_code == 302
    assert response.url == reverse("join", args=["K7QM3XP0"])
    page = client.get(response.url)
    assert page.status_code == 200
    assert f"Join “{group.name}”" in text(page)


def test_an_unknown_code_is_a_404_in_words_and_nothing_else_happens(client, make_group):
    make_group(members=("Anna",))
    response = type_code(client, UNKNOWN)
    assert response.status_code == 404
    assert NO_SUCH_CODE in text(response)
    assert signed_in_as(client) is None


def test_a_code_that_cannot_be_one_is_a_400_in_words(client, db):
    for typed in ("K7QM-3XP", "K7QM-3XPU", "x" * 40, ""):
        response = type_code(client, typed)
        assert response.status_code == 400, typed
        body = text(response)
        assert NOT_A_CODE in body or "Please enter the code you were given." in body, typed


def test_unknown_codes_are_counted_and_past_their_share_even_a_right_code_is_refused(
    make_group,
):
    group = make_group(members=("Anna",))
    for _ in range(WRONG_CODES - 1):
        assert type_code(Client(), UNKNOWN, address="198.51.100.7").status_code == 404
    # One short of the share: the right code still works from there.
    assert type_code(Client(), group.join_code, address="198.51.100.7").status_code == 302
    assert type_code(Client(), UNKNOWN, address="198.51.100.7").status_code == 404

    refused = type_code(Client(), group.join_code, address="198.51.100.7")
    assert refused.status_code == 429
    words = text(refused)
    assert TOO_MANY in words
    assert re.search(rf"Wait {WAIT}, then try again", words)
    # The join page itself, opened by link from that address, says the same.
    page = Client().get(reverse("join", args=[group.invite_token]), REMOTE_ADDR="198.51.100.7")
    assert page.status_code == 429
    assert TOO_MANY in text(page)

    # Another address is not held back by this one's guesses.
    elsewhere = type_code(Client(), group.join_code, address="203.0.113.20")
    assert elsewhere.status_code == 302
    assert elsewhere.url == reverse("join", args=[group.invite_token])


def test_codes_that_cannot_be_codes_are_not_counted_against_the_address(make_group):
    group = make_group(members=("Anna",))
    for _ in range(WRONG_CODES + 5):
        assert type_code(Client(), "K7QM-3XP", address="198.51.100.8").status_code == 400
    assert type_code(Client(), group.join_code, address="198.51.100.8").status_code == 302


def test_unknown_codes_opened_as_join_links_count_too(make_group):
    group = make_group(members=("Anna",))
    for _ in range(WRONG_CODES):
        page = Client().get(reverse("join", args=["ZZZZZZZZ"]), REMOTE_ADDR="198.51.100.9")
        assert page.status_code == 404
        assert NO_SUCH_CODE in text(page)
    refused = type_code(Client(), group.join_code, address="198.51.100.9")
    assert refused.status_code == 429


def test_a_sign_in_code_in_the_box_goes_to_its_sign_in_page(client, make_group):
    make_group(members=("Anna", "Bram"))
    _anna, bram = User.objects.get(name="Anna"), User.objects.get(name="Bram")
    made = make_sign_in_code(user=bram, made_by=None)  # the server's owner's
    typed = f"{made.code[:4].lower()} {made.code[4:].lower()}"
    response = type_code(client, typed)
    assert response.status_code == 302
    assert response.url == reverse("sign_in", args=[made.code])
    # Going there asks; it does not sign in by itself.
    page = client.get(response.url)
    assert "Sign in as Bram" in text(page)
    assert signed_in_as(client) is None
    made.refresh_from_db()
    assert made.used_at is None


def test_a_join_link_typed_as_people_type_it_goes_to_the_pages_own_address(client, make_group):
    with_code(make_group(members=("Anna",)), "K7QM3XP0")
    response = client.get("/join/k7qm-3xpo/")
    assert response.status_code == 302
    assert response.url == reverse("join", args=["K7QM3XP0"])


# Joining with a name.


def test_a_name_is_all_it_takes_to_join(client, make_group):
    group = make_group(members=("Anna",))
    page = text(client.get(reverse("join", args=[group.invite_token])))
    assert 'name="signup-name"' in page
    assert 'name="signup-password"' not in page

    response = join_with_name(client, group, "Zoë")
    assert response.status_code == 302
    assert response.url == reverse("group_detail", args=[group.pk])
    zoe = User.objects.get(name="Zoë")
    assert signed_in_as(client) == zoe
    assert Membership.objects.filter(group=group, user=zoe, left_at=None).exists()
    assert not zoe.has_usable_password()
    phone = Phone.objects.get(user=zoe)
    assert phone.session_key == client.session.session_key
    assert phone.signed_in_by is None and not phone.by_the_owner
    # The phone stays in: the group page opens.
    assert client.get(response.url).status_code == 200


def test_a_name_a_member_has_is_sent_to_sign_in_never_made_a_second_person(client, make_group):
    group = make_group(members=("Anna", "Bram"))
    accounts, members = User.objects.count(), Membership.objects.count()
    for typed in ("Bram", "bram", " BRAM "):
        response = join_with_name(client, group, typed)
        assert response.status_code == 200, typed
        words = text(response)
        assert "Bram is already in this group." in words, typed
        assert "“Sign Bram in on a phone”" in words, typed
    assert signed_in_as(client) is None
    assert User.objects.count() == accounts
    assert Membership.objects.count() == members
    assert not Phone.objects.exists()


def test_the_name_of_someone_who_left_is_taken_but_not_sent_to_sign_in(client, make_group):
    from scorekeeper.services.groups import leave_group

    group = make_group(members=("Anna", "Bram"))
    leave_group(group=group, user=User.objects.get(name="Bram"))
    words = text(join_with_name(client, group, "Bram"))
    assert "Bram is already in this group." not in words
    assert '"Bram" is already taken.' in words
    assert signed_in_as(client) is None
    assert User.objects.filter(name__iexact="bram").count() == 1


# Codes that no longer let anyone in.


def test_a_code_taken_back_says_so_when_opened_as_a_link(make_group, login):
    group = make_group(members=("Anna",))
    old = group.invite_token
    login("Anna").post(reverse("group_new_link", args=[group.pk]), {})
    group.refresh_from_db()
    assert group.invite_token != old
    assert RetiredCode.objects.filter(code=old, group=group).exists()

    page = Client().get(reverse("join", args=[old]))
    assert page.status_code == 404
    body = text(page)
    assert TAKEN_BACK in body
    assert NO_SUCH_CODE not in body
    # The new one works.
    assert join_with_name(Client(), group, "Zoë").status_code == 302


def test_a_code_taken_back_and_typed_in_the_box_says_it_was_taken_back(client, make_group):
    group = make_group(members=("Anna",))
    old = group.join_code
    replace_invite_link(group=group)
    response = type_code(client, old)
    if response.status_code == 302:
        response = client.get(response.url)
    assert response.status_code == 404
    assert TAKEN_BACK in text(response)


def test_a_taken_back_code_is_not_counted_as_a_guess(make_group):
    group = make_group(members=("Anna",))
    old = group.invite_token
    replace_invite_link(group=group)
    for _ in range(WRONG_CODES + 1):
        page = Client().get(reverse("join", args=[old]), REMOTE_ADDR="198.51.100.30")
        assert page.status_code == 404
    group.refresh_from_db()
    assert type_code(Client(), group.join_code, address="198.51.100.30").status_code == 302


def test_an_expired_code_says_when_it_stopped(client, make_group):
    group = make_group(members=("Anna",))
    replace_invite_link(group=group, valid_for=timedelta(hours=1))
    Group.objects.filter(pk=group.pk).update(invite_expires_at=timezone.now() - timedelta(1))
    response = type_code(client, group.join_code.lower())
    assert response.status_code == 302
    page = client.get(response.url)
    assert page.status_code == 404
    body = text(page)
    assert "This group's code and invitation link stopped working on" in body
    assert "let in as many people as they allowed" not in body
    refused = join_with_name(Client(), group, "Zoë")
    assert refused.status_code == 404
    assert not User.objects.filter(name="Zoë").exists()


def test_a_used_up_code_says_it_let_in_as_many_as_it_allowed(client, make_group):
    group = make_group(members=("Anna",))
    replace_invite_link(group=group, uses=1)
    group.refresh_from_db()
    assert join_with_name(Client(), group, "Zoë").status_code == 302
    response = type_code(client, group.join_code)
    page = client.get(response.url)
    assert page.status_code == 404
    body = text(page)
    assert "have let in as many people as they allowed" in body
    assert "stopped working on" not in body
    assert join_with_name(Client(), group, "Yara").status_code == 404
    assert not User.objects.filter(name="Yara").exists()
