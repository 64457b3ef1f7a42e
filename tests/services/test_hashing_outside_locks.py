"""The finding "a sign-up hashes its password while holding SQLite's write lock":
hashing takes half a second of a core on purpose (PBKDF2 in production), and on
SQLite a transaction holds the one write lock from its start (BEGIN IMMEDIATE), so a
hash inside one stopped every other phone's save for that long. Every password is
now hashed before its transaction opens.

The password hasher in use (settings.PASSWORD_HASHERS; a fast one in the tests) is
watched: each time it hashes, whether the connection is inside an atomic block. The
tests run without pytest-django's wrapping transaction (``transaction=True``), so
the only atomic blocks are the code's own."""

import pytest
from django.contrib.auth.hashers import get_hashers
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from scorekeeper.models import Membership, User
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import create_group, sign_up, sign_up_and_join
from scorekeeper.services.sign_ins import set_password

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hashing(monkeypatch) -> list[bool]:
    """Whether each password hashed from now on was hashed inside an atomic block."""
    inside: list[bool] = []
    for hasher in get_hashers():
        encode = type(hasher).encode

        def watched(self, password, salt, *args, _encode=encode, **kwargs):
            inside.append(connection.in_atomic_block)
            return _encode(self, password, salt, *args, **kwargs)

        monkeypatch.setattr(type(hasher), "encode", watched)
    assert not connection.in_atomic_block  # nothing of the test's own wraps the code
    return inside


def test_the_watch_sees_a_hash_inside_a_transaction(hashing):
    # The watch itself: a password hashed inside a transaction is seen as such, so the
    # tests below fail when a hash moves back inside one.
    with transaction.atomic():
        User.objects.create_user(name="Inside", password="river-stone-73")
    assert hashing == [True]


def test_a_sign_up_hashes_its_password_before_its_transaction(hashing):
    user = sign_up(name="Anna", password="river-stone-73")
    assert hashing == [False]
    assert User.objects.get(pk=user.pk).check_password("river-stone-73")


def test_joining_a_group_hashes_the_password_before_its_transaction(hashing):
    group = create_group(name="Friday OFC", created_by=None)
    user = sign_up_and_join(
        group=group, name="Bram", password="river-stone-73", token=group.invite_token
    )
    assert hashing == [False]
    assert Membership.objects.filter(group=group, user=user).exists()
    assert User.objects.get(pk=user.pk).check_password("river-stone-73")


def test_a_join_refused_after_hashing_still_hashed_outside(hashing):
    group = create_group(name="Friday OFC", created_by=None)
    sign_up_and_join(group=group, name="Bram", password="river-stone-73")
    hashing.clear()
    with pytest.raises(Refused, match="already in this group"):
        sign_up_and_join(group=group, name="bram", password="other-stone-73")
    assert hashing == [False]
    assert User.objects.filter(name__iexact="bram").count() == 1


def test_setting_a_password_hashes_it_before_its_transaction(hashing):
    user = sign_up(name="Chris")
    assert hashing == []  # no password, nothing hashed
    set_password(user=user, password="river-stone-73")
    assert hashing == [False]
    assert User.objects.get(pk=user.pk).check_password("river-stone-73")


def test_the_account_pages_password_is_hashed_outside_any_transaction(hashing):
    user = sign_up(name="Dora")
    phone = Client()
    phone.force_login(user)
    hashing.clear()
    response = phone.post(reverse("account_password"), {"password": "river-stone-73"})
    assert response.status_code == 302
    assert hashing and not any(hashing)
    assert User.objects.get(pk=user.pk).check_password("river-stone-73")
