"""`manage.py signin NAME`: the server's owner signs in a member locked out with no
phone signed in, with a one-time code, its link and that link as a QR code."""

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone

from scorekeeper.models import SignInCode
from scorekeeper.models.sign_ins import SIGN_IN_CODE_LIFETIME
from scorekeeper.table.codes import grouped
from tests.helpers import make_user
from tests.management.test_welcome import qr_lines, scanned

BASE = "http://192.0.2.7:8000"


def signin(*arguments: str) -> str:
    out = io.StringIO()
    call_command("signin", *arguments, stdout=out)
    return out.getvalue()


@pytest.fixture(autouse=True)
def the_address(monkeypatch):
    monkeypatch.setenv("OFCBOARD_BASE_URL", BASE)


def test_the_printed_code_signs_the_member_in_once(db):
    anna = make_user("Anna")
    before = timezone.now()
    out = signin("anna")  # names match whatever their capitals
    sign_in = SignInCode.objects.get()
    assert sign_in.user == anna
    assert sign_in.made_by is None
    assert sign_in.used_at is None and not sign_in.is_expired()
    assert before + SIGN_IN_CODE_LIFETIME - timedelta(seconds=5) <= sign_in.expires_at
    assert grouped(sign_in.code) in out
    link = BASE + reverse("sign_in", args=[sign_in.code])
    assert link in out
    assert scanned(qr_lines(out)) == [link]
    assert "Anna" in out


def test_each_run_makes_a_new_code(db):
    make_user("Anna")
    signin("Anna")
    signin("Anna")
    assert SignInCode.objects.values("code").distinct().count() == 2


def test_an_unknown_name_is_said_in_words(db):
    make_user("Anna")
    with pytest.raises(CommandError, match='No account has the name "Bob"'):
        signin("Bob")
    assert not SignInCode.objects.exists()


def test_a_switched_off_account_gets_no_code(db):
    anna = make_user("Anna")
    anna.is_active = False
    anna.save(update_fields=["is_active"])
    with pytest.raises(CommandError, match="switched off"):
        signin("Anna")
    assert not SignInCode.objects.exists()
