"""One-time sign-in codes: made by yourself or by someone at your table (nobody
else), used once within 10 minutes by a POST (a GET only asks), signing the person
in as themselves with their history; someone else's code holds the pay details for
a day and tells the account's other phones. The account page lists the phones and
signs them out, and adds a password that then logs in by itself."""

import html
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.models import Membership, PayDetails, Phone, Seat, SignInCode, User
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import leave_group
from scorekeeper.services.sign_ins import make_sign_in_code
from tests.helpers import PASSWORD, log_in, members_since, play

ACCOUNT = reverse("account")
IBAN = "NL91ABNA0417164300"
HOLD = "Your pay details can be changed again from"
USED = "This sign-in code was used already: each works once. Ask for a new one."
STOPPED = "This sign-in code stopped working at"


def text(response) -> str:
    """The page's words as read, its HTML escapes (an apostrophe's ``&#x27;``) undone."""
    return html.unescape(response.content.decode())


class _PayForm(HTMLParser):
    """Whether the pay details' submit button can be pressed: not when it, or a
    fieldset around it, is disabled."""

    def __init__(self):
        super().__init__()
        self.in_form = False
        self.fieldsets: list[bool] = []
        self.buttons: list[bool] = []  # each submit button: disabled?

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and attrs.get("data-testid") == "pay-details":
            self.in_form = True
        elif self.in_form and tag == "fieldset":
            self.fieldsets.append("disabled" in attrs)
        elif self.in_form and tag == "button" and attrs.get("type") == "submit":
            self.buttons.append("disabled" in attrs or any(self.fieldsets))

    def handle_endtag(self, tag):
        if tag == "form":
            self.in_form = False
        elif self.in_form and tag == "fieldset" and self.fieldsets:
            self.fieldsets.pop()


def pay_save_disabled(page: str) -> bool:
    parser = _PayForm()
    parser.feed(page)
    assert len(parser.buttons) == 1, parser.buttons
    return parser.buttons[0]


def signed_in_as(client: Client) -> User | None:
    user_id = client.session.get("_auth_user_id")
    return User.objects.get(pk=user_id) if user_id else None


def member_code_url(group, user) -> str:
    return reverse("member_sign_in_code", args=[group.pk, user.pk])


def sign_in_url(made: SignInCode) -> str:
    return reverse("sign_in", args=[made.code])


def use(made: SignInCode, phone: Client | None = None) -> Client:
    """A (new) phone that opens ``made``'s link and taps its button: signed in."""
    phone = phone or Client()
    assert phone.get(sign_in_url(made)).status_code == 200
    response = phone.post(sign_in_url(made))
    assert response.status_code == 302, text(response)
    assert response.url == reverse("home")
    return phone


def save_iban(phone: Client):
    return phone.post(ACCOUNT, {"holder": "Bram", "iban": IBAN})


@pytest.fixture
def table(make_group, make_night):
    """Anna and Bram at one table tonight, each names to users."""
    group = make_group(members=("Anna", "Bram"))
    members_since(group, days=30)
    make_night(("Anna", "Bram"), group=group)
    return group, User.objects.get(name="Anna"), User.objects.get(name="Bram")


# Making a code.


def test_you_make_a_code_for_your_own_other_phone(login, table):
    _group, _anna, bram = table
    response = login("Bram").post(reverse("own_sign_in_code"))
    assert response.status_code == 200
    made = SignInCode.objects.get()
    assert made.user == bram and made.made_by == bram
    assert made.used_at is None
    lifetime = made.expires_at - made.made_at
    assert timedelta(minutes=9) < lifetime <= timedelta(minutes=10)
    page = text(response)
    assert "Sign in another phone" in page
    assert "<svg" in page and "Sign-in link" in page  # the QR code, named
    assert f"{made.code[:4]}-{made.code[4:]}" in page  # the code, grouped


def test_a_member_makes_a_code_for_someone_at_their_table(login, table):
    group, anna, bram = table
    group_page = text(login("Anna").get(reverse("group_detail", args=[group.pk])))
    assert "Sign Bram in on a phone" in group_page
    assert member_code_url(group, bram) in group_page
    assert member_code_url(group, anna) not in group_page  # not for oneself here

    response = login("Anna").post(member_code_url(group, bram))
    assert response.status_code == 200
    made = SignInCode.objects.get()
    assert made.user == bram and made.made_by == anna
    page = text(response)
    assert "Sign Bram in" in page
    assert "<svg" in page and "Sign-in link" in page
    assert f"{made.code[:4]}-{made.code[4:]}" in page
    assert "pay details cannot be changed for 24 hours" in page


def test_a_code_is_made_only_by_a_post(login, table):
    group, _anna, bram = table
    assert login("Anna").get(member_code_url(group, bram)).status_code == 405
    assert login("Bram").get(reverse("own_sign_in_code")).status_code == 405
    assert not SignInCode.objects.exists()


def non_members(group, make_group, make_user) -> dict[str, User]:
    """Someone in no group, a member of another group, and a member who left."""
    make_group(name="Other table", members=("Olga",))
    dora = make_user("Dora")
    Membership.objects.create(group=group, user=dora)
    leave_group(group=group, user=dora)
    return {
        "stranger": make_user("Zed"),
        "other group's member": User.objects.get(name="Olga"),
        "member who left": dora,
    }


def test_nobody_outside_the_table_makes_a_code_for_a_member(
    client, login, table, make_group, make_user
):
    group, _anna, bram = table
    for who, visitor in non_members(group, make_group, make_user).items():
        login(visitor)
        response = client.post(member_code_url(group, bram))
        assert response.status_code == 404, who
        assert not SignInCode.objects.exists(), who
        # The service refuses them too, whatever the page.
        with pytest.raises(Refused, match="only yourself or someone in one of your groups"):
            make_sign_in_code(user=bram, made_by=visitor)
        assert not SignInCode.objects.exists(), who


def test_a_member_makes_no_code_for_someone_not_in_the_group_now(
    client, login, table, make_group, make_user
):
    group, _anna, _bram = table
    outsiders = non_members(group, make_group, make_user)
    login("Anna")
    for who, outsider in outsiders.items():
        response = client.post(member_code_url(group, outsider))
        assert response.status_code == 404, who
    assert not SignInCode.objects.exists()


def test_a_member_of_another_group_cannot_reach_through_a_group_they_share(
    client, login, table, make_group
):
    # Olga shares "Other table" with Anna, not with Bram: Anna's group's address with
    # Bram's id gets Olga nowhere, nor does her own group's address.
    group, _anna, bram = table
    other = make_group(name="Other table", members=("Olga", "Anna"))
    login("Olga")
    assert client.post(member_code_url(group, bram)).status_code == 404
    assert client.post(member_code_url(other, bram)).status_code == 404
    assert not SignInCode.objects.exists()


# Using a code.


def test_opening_the_link_asks_and_only_the_button_signs_in(table):
    _group, anna, bram = table
    made = make_sign_in_code(user=bram, made_by=anna)
    phone = Client()
    for _ in range(3):  # a link previewer, a reload: none of them uses it up
        page = phone.get(sign_in_url(made))
        assert page.status_code == 200
        assert "Sign in as Bram" in text(page)
    made.refresh_from_db()
    assert made.used_at is None
    assert signed_in_as(phone) is None

    response = phone.post(sign_in_url(made))
    assert response.status_code == 302
    assert signed_in_as(phone) == bram
    made.refresh_from_db()
    assert made.used_at is not None
    assert "This phone is signed in as Bram." in text(phone.get(reverse("home"), follow=True))


def test_a_code_works_once(table):
    _group, anna, bram = table
    made = make_sign_in_code(user=bram, made_by=anna)
    use(made)
    second = Client()
    for method in ("get", "post"):
        response = getattr(second, method)(sign_in_url(made))
        assert response.status_code == 410, method
        assert USED in text(response), method
    assert signed_in_as(second) is None


def test_a_code_stops_after_ten_minutes_and_says_when(table):
    _group, anna, bram = table
    made = make_sign_in_code(user=bram, made_by=anna)
    SignInCode.objects.filter(pk=made.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    phone = Client()
    for method in ("get", "post"):
        response = getattr(phone, method)(sign_in_url(made))
        assert response.status_code == 410, method
        words = text(response)
        assert STOPPED in words and "each works for 10 minutes" in words, method
    assert signed_in_as(phone) is None
    made.refresh_from_db()
    assert made.used_at is None
    bram.refresh_from_db()
    assert bram.pay_details_held_until is None  # nothing happened


def test_an_unknown_sign_in_code_is_a_404_in_words(client, db):
    for code in ("ZZZZZZZZ", "not-a-code"):
        response = client.get(f"/signin/{code}/")
        assert response.status_code == 404, code
        assert "No sign-in has this code" in text(response), code


def test_a_sign_in_link_typed_as_people_type_it_goes_to_its_own_address(client, table):
    _group, anna, bram = table
    made = make_sign_in_code(user=bram, made_by=anna)
    response = client.get(f"/signin/{made.code[:4].lower()}-{made.code[4:].lower()}/")
    assert response.status_code == 302
    assert response.url == sign_in_url(made)


def test_a_code_for_bram_signs_in_bram_with_his_history_as_it_was(make_night):
    night = play(make_night(("Anna", "Bram")), {"Anna": 6, "Bram": -6})
    members_since(night.group, days=30)
    anna, bram = User.objects.get(name="Anna"), User.objects.get(name="Bram")
    seats = list(Seat.objects.filter(user=bram).values())
    memberships = list(Membership.objects.filter(user=bram).values())
    accounts = User.objects.count()

    made = make_sign_in_code(user=bram, made_by=anna)
    phone = use(made)

    assert signed_in_as(phone) == bram
    assert list(Seat.objects.filter(user=bram).values()) == seats
    assert list(Membership.objects.filter(user=bram).values()) == memberships
    assert User.objects.count() == accounts
    assert phone.get(reverse("night_detail", args=[night.pk])).status_code == 200
    listed = Phone.objects.get(user=bram, session_key=phone.session.session_key)
    assert listed.signed_in_by == anna and not listed.by_the_owner
    account = text(phone.get(ACCOUNT))
    assert "by Anna's code" in account
    assert "(this phone)" in account


def test_signing_in_by_code_on_a_phone_signed_in_as_someone_else_says_so_then_switches(
    login, table
):
    _group, anna, bram = table
    made = make_sign_in_code(user=bram, made_by=anna)
    phone = login("Anna")
    page = text(phone.get(sign_in_url(made)))
    assert "This phone is signed in as Anna. It will be signed in as Bram instead." in page
    phone.post(sign_in_url(made))
    assert signed_in_as(phone) == bram


# The pay details' hold.


def test_pay_details_are_held_for_a_day_after_someone_elses_code(table):
    _group, anna, bram = table
    phone = use(make_sign_in_code(user=bram, made_by=anna))
    bram.refresh_from_db()
    held_for = bram.pay_details_held_until - timezone.now()
    assert timedelta(hours=23, minutes=59) < held_for <= timedelta(hours=24)

    response = save_iban(phone)
    assert HOLD in text(response)
    assert not PayDetails.objects.filter(user=bram, iban=IBAN).exists()

    page = text(phone.get(ACCOUNT))
    assert HOLD in page
    assert "A phone was signed in as you with a code someone else made" in page
    assert pay_save_disabled(page)


def test_a_code_from_the_servers_owner_holds_the_pay_details_too(table):
    _group, _anna, bram = table
    phone = use(make_sign_in_code(user=bram, made_by=None))
    listed = Phone.objects.get(session_key=phone.session.session_key)
    assert listed.by_the_owner and listed.signed_in_by is None
    assert "by the server's owner" in text(phone.get(ACCOUNT))
    assert HOLD in text(save_iban(phone))
    assert not PayDetails.objects.filter(user=bram, iban=IBAN).exists()


def test_pay_details_are_not_held_after_your_own_code(login, table):
    _group, _anna, bram = table
    login("Bram").post(reverse("own_sign_in_code"))
    made = SignInCode.objects.get(user=bram)
    phone = use(made)
    bram.refresh_from_db()
    assert bram.pay_details_held_until is None
    listed = Phone.objects.get(session_key=phone.session.session_key)
    assert listed.signed_in_by is None and not listed.by_the_owner

    page = text(phone.get(ACCOUNT))
    assert HOLD not in page
    assert not pay_save_disabled(page)
    assert save_iban(phone).status_code == 302
    assert PayDetails.objects.get(user=bram).iban == IBAN


def test_the_hold_ends_after_its_day(table):
    _group, anna, bram = table
    phone = use(make_sign_in_code(user=bram, made_by=anna))
    User.objects.filter(pk=bram.pk).update(
        pay_details_held_until=timezone.now() - timedelta(seconds=1)
    )
    assert HOLD not in text(phone.get(ACCOUNT))
    assert save_iban(phone).status_code == 302
    assert PayDetails.objects.get(user=bram).iban == IBAN


# The other phones.


def test_the_other_phone_is_told_and_got_it_clears_the_note(login, table):
    _group, anna, bram = table
    old_phone = log_in(Client(), bram)
    assert "signed-in-elsewhere" not in text(old_phone.get(ACCOUNT))

    use(make_sign_in_code(user=bram, made_by=anna))

    page = text(old_phone.get(ACCOUNT))
    assert 'data-testid="signed-in-elsewhere"' in page
    assert "Your account was signed in on another phone (" in page
    assert "with a code Anna made." in page
    # Every page says it until it is seen.
    assert "with a code Anna made." in text(old_phone.get(reverse("home"), follow=True))

    seen = old_phone.post(reverse("notice_seen"), {"next": ACCOUNT})
    assert seen.status_code == 302 and seen.url == ACCOUNT
    page = text(old_phone.get(ACCOUNT))
    assert 'data-testid="signed-in-elsewhere"' not in page
    assert signed_in_as(old_phone) == bram  # told, not signed out


def test_the_phone_that_signed_in_is_not_told_about_itself(table):
    _group, anna, bram = table
    phone = use(make_sign_in_code(user=bram, made_by=anna))
    assert 'data-testid="signed-in-elsewhere"' not in text(phone.get(ACCOUNT))


def test_someone_elses_phones_are_not_told(table):
    _group, anna, bram = table
    annas_phone = log_in(Client(), anna)
    use(make_sign_in_code(user=bram, made_by=anna))
    assert 'data-testid="signed-in-elsewhere"' not in text(annas_phone.get(ACCOUNT))


# The account page's phones.


def test_the_account_page_lists_the_phones_signed_in(table):
    _group, anna, bram = table
    iphone = Client(HTTP_USER_AGENT="Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Safari/604.1")
    use(make_sign_in_code(user=bram, made_by=anna), iphone)
    use(make_sign_in_code(user=bram, made_by=anna), Client(HTTP_USER_AGENT="Android Chrome/120"))
    assert Phone.objects.filter(user=bram).count() == 2
    page = text(iphone.get(ACCOUNT))
    assert "iPhone · Safari" in page and "Android · Chrome" in page
    assert page.count("(this phone)") == 1
    for phone in Phone.objects.filter(user=bram):
        assert reverse("phone_sign_out", args=[phone.pk]) in page


def test_signing_out_another_phone_ends_its_session(table):
    _group, anna, bram = table
    here = log_in(Client(), bram)
    there = use(make_sign_in_code(user=bram, made_by=anna))
    there_row = Phone.objects.get(session_key=there.session.session_key)
    assert there.get(ACCOUNT).status_code == 200

    response = here.post(reverse("phone_sign_out", args=[there_row.pk]))
    assert response.status_code == 302
    assert response.url == ACCOUNT + "#phones"
    assert not Phone.objects.filter(pk=there_row.pk).exists()
    assert "That phone is signed out." in text(here.get(ACCOUNT))

    gone = there.get(ACCOUNT)
    assert gone.status_code == 302
    assert gone.url.startswith(reverse("login"))
    assert signed_in_as(here) == bram  # this phone stays in


def test_signing_out_this_phone_logs_it_out(table):
    _group, _anna, bram = table
    here = log_in(Client(), bram)
    row = Phone.objects.get(session_key=here.session.session_key)
    response = here.post(reverse("phone_sign_out", args=[row.pk]))
    assert response.status_code == 302
    assert response.url == reverse("login")
    assert signed_in_as(here) is None
    assert not Phone.objects.filter(user=bram).exists()
    assert here.get(ACCOUNT).url.startswith(reverse("login"))


def test_nobody_signs_out_someone_elses_phone(table):
    _group, anna, bram = table
    brams_phone = log_in(Client(), bram)
    row = Phone.objects.get(session_key=brams_phone.session.session_key)
    response = log_in(Client(), anna).post(reverse("phone_sign_out", args=[row.pk]))
    assert response.status_code == 302
    assert Phone.objects.filter(pk=row.pk).exists()
    assert brams_phone.get(ACCOUNT).status_code == 200


def test_logging_out_takes_the_phone_off_the_list(table):
    _group, _anna, bram = table
    phone = log_in(Client(), bram)
    assert Phone.objects.filter(user=bram).count() == 1
    phone.post(reverse("logout"))
    assert not Phone.objects.filter(user=bram).exists()


# A password of one's own.


def test_a_password_added_on_the_account_page_then_logs_in_at_the_front_page(table):
    _group, _anna, bram = table
    bram.set_unusable_password()  # as a name-only join leaves him
    bram.save()
    phone = log_in(Client(), bram)  # his own phone: no one else's code, no hold
    page = text(phone.get(ACCOUNT))
    assert "Add a password to sign in on another phone yourself" in page
    assert "Current password" not in page

    response = phone.post(reverse("account_password"), {"password": "river-stone-73"})
    assert response.status_code == 302
    assert signed_in_as(phone) == bram  # this phone stays signed in
    assert "Your password is saved." in text(phone.get(ACCOUNT))
    assert "Change your password" in text(phone.get(ACCOUNT))

    new_phone = Client()
    logged_in = new_phone.post(
        reverse("login"),
        {"username": "bram", "password": "river-stone-73"},
        REMOTE_ADDR="192.0.2.3",
    )
    assert logged_in.status_code == 302
    assert signed_in_as(new_phone) == bram


def test_a_weak_password_is_refused_in_words(login, table):
    _group, _anna, bram = table
    before = User.objects.get(pk=bram.pk).password
    phone = login("Bram")
    for weak, words in (
        ("1234", "This password is too short. It must contain at least 6 characters."),
        ("password", "This password is too common."),
        ("", "Please choose a password."),
    ):
        response = phone.post(reverse("account_password"), {"password": weak})
        assert response.status_code == 400, weak
        assert words in text(response), weak
        assert User.objects.get(pk=bram.pk).password == before, weak


def change_password(phone: Client):
    return phone.post(
        reverse("account_password"), {"current": PASSWORD, "password": "river-stone-73"}
    )


def test_saving_a_password_signs_the_other_phones_out(table):
    _group, _anna, bram = table
    other = log_in(Client(), bram)
    here = log_in(Client(), bram)
    assert change_password(here).status_code == 302
    assert other.get(ACCOUNT).url.startswith(reverse("login"))
    assert here.get(ACCOUNT).status_code == 200


def test_after_a_password_is_saved_the_account_lists_only_the_phones_still_signed_in(table):
    _group, _anna, bram = table
    other = log_in(Client(), bram)
    here = log_in(Client(), bram)
    change_password(here)
    assert other.get(ACCOUNT).url.startswith(reverse("login"))  # signed out, as said
    # "Your other phones were signed out", the page says: then they are not listed.
    assert list(Phone.objects.filter(user=bram).values_list("session_key", flat=True)) == [
        here.session.session_key
    ]
