"""Issue 42: whoever holds a group's join code cannot become a member of it. The
intruder's path, step by step, each refused in words; the record says who signed whom
in; the group's keeper removes a member, whose pages and streams then end."""

import html
from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.models import Membership, PayDetails, Phone, SignInCode, User
from scorekeeper.services.sign_ins import make_sign_in_code
from tests.helpers import finish, log_in, make_group, make_night, members_since

ACCOUNT = reverse("account")
NOT_AT_TABLE = "only when you both sat at the same night within the last day"


def text(response) -> str:
    return html.unescape(response.content.decode())


def join_with_name(group, name: str) -> Client:
    phone = Client()
    phone.post(
        reverse("join", args=[group.invite_token]),
        {"action": "signup", "signup-name": name},
        REMOTE_ADDR="198.51.100.9",
    )
    return phone


def ask_code(phone: Client, group, user):
    return phone.post(reverse("member_sign_in_code", args=[group.pk, user.pk]), follow=True)


def test_the_join_code_takeover_is_refused_at_each_step_in_words(db):
    friday = make_group(members=("Anna", "Bram", "Cora"))
    sunday = make_group("Sunday OFC", members=("Bram", "Dora"))
    for group in (friday, sunday):
        members_since(group, days=30)
    bram, dora = User.objects.get(name="Bram"), User.objects.get(name="Dora")
    User.objects.filter(pk=bram.pk).update(password="!")  # joined by name only
    bram.refresh_from_db()
    finish(make_night(("Anna", "Bram"), group=friday))
    Membership.objects.filter(user__name="Bram").update(joined_at=timezone.now())
    brams_phone = log_in(Client(), bram)

    # 1. A stranger with the join code joins as Molly, and asks a code for Bram: refused.
    molly = join_with_name(friday, "Molly")
    assert molly.session.get("_auth_user_id")
    page = text(molly.get(reverse("group_detail", args=[friday.pk])))
    assert "Sign Bram in on a phone" not in page
    assert "You can sign in only someone who sat at the same night as you" in page
    refused = text(ask_code(molly, friday, bram))
    assert NOT_AT_TABLE in refused and "with a code from the server's owner" in refused
    # 2. Even at a night Molly starts herself with Bram's name on it: she joined today.
    make_night(("Molly", "Bram"), group=friday)
    assert NOT_AT_TABLE in text(ask_code(molly, friday, bram))
    assert not SignInCode.objects.exists()

    # Suppose a code got him in anyway (someone at a night with Bram was fooled).
    anna = User.objects.get(name="Anna")
    made = make_sign_in_code(user=bram, made_by=anna)
    intruder = Client()
    intruder.post(reverse("sign_in", args=[made.code]))
    assert intruder.session["_auth_user_id"] == str(bram.pk)

    # 3. As Bram he makes a code for himself: refused for a day.
    refused = text(intruder.post(reverse("own_sign_in_code"), follow=True))
    assert "it can sign in another phone only from" in refused
    # 4. He sets a password without any current one: held for a day.
    refused = text(intruder.post(reverse("account_password"), {"password": "river-stone-73"}))
    assert "You can add a password from" in refused
    assert not User.objects.get(pk=bram.pk).has_usable_password()
    # 5. He signs out Bram's own phone: refused, Bram's phone stays in.
    brams_row = Phone.objects.get(session_key=brams_phone.session.session_key)
    refused = text(intruder.post(reverse("phone_sign_out", args=[brams_row.pk]), follow=True))
    assert "it can sign your other phones out only from" in refused
    assert brams_phone.get(ACCOUNT).status_code == 200
    # 6. He replaces Bram's IBAN: held.
    intruder.post(ACCOUNT, {"holder": "B. Bakker", "iban": "NL91ABNA0417164300"})
    assert not PayDetails.objects.filter(user=bram).exists()
    # 7. Through Bram he asks a code for Dora in the other group: never sat with her.
    assert NOT_AT_TABLE in text(ask_code(intruder, sunday, dora))

    # Bram's own phone names who made the code; the intruder's cannot clear it.
    assert "with a code Anna made." not in text(intruder.get(ACCOUNT))
    intruder.post(reverse("notice_seen"), {"next": ACCOUNT})
    assert "with a code Anna made." in text(brams_phone.get(ACCOUNT))
    # Every member reads it on the record.
    changes = text(log_in(Client(), "Cora").get(reverse("group_changes", args=[friday.pk])))
    assert "Anna signed Bram in on a new phone." in changes
    assert "Molly joined the group." in changes


def test_the_record_says_each_password_and_phone_signed_out(db):
    group = make_group(members=("Anna", "Bram"))
    bram = User.objects.get(name="Bram")
    here, there = log_in(Client(), bram), log_in(Client(), bram)
    there_row = Phone.objects.get(session_key=there.session.session_key)
    here.post(reverse("phone_sign_out", args=[there_row.pk]))
    wrong = here.post(reverse("account_password"), {"current": "nope", "password": "x-river-73"})
    assert "That is not your current password." in text(wrong)
    here.post(reverse("account_password"), {"current": "table-talk-42", "password": "x-river-73"})
    changes = text(log_in(Client(), "Anna").get(reverse("group_changes", args=[group.pk])))
    assert "Bram signed out one of their phones." in changes
    assert "Bram changed their password, which signed their other phones out." in changes
    assert changes.count("Bram changed their password") == 1


def test_a_payer_sees_pay_details_that_changed_this_week(db):
    night = make_night(("Anna", "Bram"))
    PayDetails.objects.create(
        user=User.objects.get(name="Bram"),
        holder="B. Bakker",
        iban="NL91ABNA0417164300",
        updated_at=timezone.now() - timedelta(hours=2),
    )
    from tests.helpers import play, settle_url

    finish(play(night, {"Anna": -6, "Bram": 6}))
    page = text(log_in(Client(), "Anna").get(settle_url(night)))
    assert "These pay details changed 2 hours ago." in page
    PayDetails.objects.update(updated_at=timezone.now() - timedelta(days=8))
    assert "These pay details changed" not in text(log_in(Client(), "Anna").get(settle_url(night)))


def test_the_groups_keeper_removes_a_member_whose_pages_and_streams_end(db):
    group = make_group(members=("Anna", "Bram", "Molly"))
    night = make_night(("Anna", "Bram"), group=group)
    molly = User.objects.get(name="Molly")
    mollys_phone = log_in(Client(), molly)
    pages = [
        reverse("group_detail", args=[group.pk]),
        reverse("group_live", args=[group.pk]),
        reverse("night_detail", args=[night.pk]),
        reverse("night_live", args=[night.pk]),
    ]
    assert [mollys_phone.get(url).status_code for url in pages] == [200] * 4
    # Bram is no keeper: refused in words.
    bram = log_in(Client(), "Bram")
    remove = reverse("group_remove_member", args=[group.pk, molly.pk])
    assert "Only the person who started the group" in text(bram.post(remove, follow=True))
    anna = log_in(Client(), "Anna")
    page = text(anna.get(reverse("group_detail", args=[group.pk])))
    assert "Anna can remove a member" in page and remove in page

    assert "Molly is removed from the group" in text(anna.post(remove, follow=True))
    assert [mollys_phone.get(url).status_code for url in pages] == [404] * 4
    membership = Membership.objects.get(group=group, user=molly)
    assert membership.left_at is not None and membership.removed  # a former member
    changes = text(anna.get(reverse("group_changes", args=[group.pk])))
    assert "Anna removed Molly from the group." in changes
    # The join code does not bring her back.
    mollys_phone.post(reverse("join", args=[group.invite_token]), {"action": "join"})
    assert not Membership.objects.filter(group=group, user=molly, left_at__isnull=True).exists()
