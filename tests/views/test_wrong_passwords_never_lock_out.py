"""The finding "20 wrong passwords for 'bram' from 3 addresses keep Bram from logging
in from any address he never used for up to an hour": the password door for his
name is slowed down on purpose (scorekeeper/site/throttle.py), so a new phone gets
him in by another door, a sign-in code someone at his table makes, which no number
of wrong passwords touches."""

from django.test import Client
from django.urls import reverse

from scorekeeper.models import Group, Phone, SignInCode, User
from scorekeeper.site.throttle import LOGIN_TRIES_PER_NAME
from tests.helpers import PASSWORD, log_in, make_night, members_since

PER_NAME = int(LOGIN_TRIES_PER_NAME.split("/")[0])
ATTACKERS = ("198.51.100.1", "198.51.100.2", "198.51.100.3")
NEW_ADDRESS = "203.0.113.50"  # Bram's new phone, on an address he never used
SLOWED = "Many wrong passwords were just tried for this name"


def try_login(client: Client, name: str, password: str, address: str):
    return client.post(
        reverse("login"), {"username": name, "password": password}, REMOTE_ADDR=address
    )


def signed_in_as(client: Client) -> User | None:
    user_id = client.session.get("_auth_user_id")
    return User.objects.get(pk=user_id) if user_id else None


def hammer_bram() -> None:
    """More than the name's share of wrong passwords for "bram", from three addresses."""
    for attempt in range(PER_NAME + 1):
        phone = Client()
        response = try_login(phone, "bram", "wrong", ATTACKERS[attempt % len(ATTACKERS)])
        assert response.status_code in (200, 429)
        assert signed_in_as(phone) is None
    # The name's share is used up: the slow-down is on (the premise of the finding).
    assert SLOWED in try_login(Client(), "bram", "wrong", "192.0.2.200").content.decode()


def member_makes_code(group: Group, for_name: str, *, by: str = "Anna") -> str:
    """The sign-in page's address for ``for_name``, made on ``by``'s phone with the
    group page's "Sign ... in on a phone"."""
    member = User.objects.get(name=for_name)
    made = log_in(Client(), by).post(reverse("member_sign_in_code", args=[group.pk, member.pk]))
    assert made.status_code == 200
    return reverse("sign_in", args=[SignInCode.objects.filter(user=member).latest("pk").code])


def at_one_table(group):
    """``group``, whose members (of a month) sit at tonight's night: Anna may sign Bram in."""
    members_since(group, days=30)
    make_night(("Anna", "Bram"), group=group)
    return group


def test_bram_gets_in_by_a_members_code_while_his_password_from_a_new_address_is_slowed(
    make_group,
):
    # Bram has a password (tests.helpers.PASSWORD).
    group = at_one_table(
        make_group(members=("Anna", "Bram"))
    )  # Bram has a password (tests.helpers.PASSWORD)
    hammer_bram()

    # His password from the new address is not even checked this hour: that is the
    # slow-down working, and fine, because he has another way in.
    refused_phone = Client()
    refused = try_login(refused_phone, "Bram", PASSWORD, NEW_ADDRESS)
    assert refused.status_code == 429
    assert SLOWED in refused.content.decode()
    assert signed_in_as(refused_phone) is None

    # Anna taps "Sign Bram in on a phone"; Bram's new phone, from the new address,
    # opens the link and taps the button.
    link = member_makes_code(group, "Bram")
    new_phone = Client()
    assert new_phone.get(link, REMOTE_ADDR=NEW_ADDRESS).status_code == 200
    response = new_phone.post(link, REMOTE_ADDR=NEW_ADDRESS)
    assert response.status_code == 302
    bram = User.objects.get(name="Bram")
    assert signed_in_as(new_phone) == bram
    assert new_phone.get(reverse("account"), REMOTE_ADDR=NEW_ADDRESS).status_code == 200
    assert Phone.objects.filter(user=bram, session_key=new_phone.session.session_key).exists()
    # Signed in there, the address is one Bram logged in from (site/throttle.py,
    # remember_login): from now on his password works from it too, slow-down or not,
    # while a stranger's new address is still slowed.
    later = Client()
    assert try_login(later, "Bram", PASSWORD, NEW_ADDRESS).status_code == 302
    assert signed_in_as(later) == bram
    assert try_login(Client(), "Bram", PASSWORD, "203.0.113.77").status_code == 429


def test_bram_without_a_password_gets_in_by_a_code_however_many_passwords_were_tried(
    make_group,
):
    group = at_one_table(make_group(members=("Anna", "Bram")))
    bram = User.objects.get(name="Bram")
    bram.set_unusable_password()  # joined with a name only
    bram.save()
    hammer_bram()
    link = member_makes_code(group, "Bram")
    new_phone = Client()
    assert new_phone.post(link, REMOTE_ADDR=NEW_ADDRESS).status_code == 302
    assert signed_in_as(new_phone) == bram


def test_the_wrong_passwords_use_up_none_of_the_code_doors_share_from_those_addresses(
    make_group,
):
    # The code box and the sign-in page count codes that match nothing, not passwords:
    # from an address that sent wrong passwords, a right code still works.
    group = at_one_table(make_group(members=("Anna", "Bram")))
    hammer_bram()
    link = member_makes_code(group, "Bram")
    phone = Client()
    assert phone.post(link, REMOTE_ADDR=ATTACKERS[0]).status_code == 302
    assert signed_in_as(phone) == User.objects.get(name="Bram")
