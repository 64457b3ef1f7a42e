"""An import happens once: the same preview confirmed twice (a second tap, the page
sent again) imports its nights once, and the second answer says they were already
imported; the group's record keeps the import."""

import threading

import pytest
from django.urls import reverse

from scorekeeper.models import Night
from scorekeeper.models.changes import Change
from tests.helpers import make_group
from tests.views.test_import import confirm, upload

FILE = b"date,name,points\n2024-03-07,Anna,40\n2024-03-07,Bram,-40\n"


def test_a_preview_confirmed_twice_imports_once(client, login, db):
    group = make_group(members=("Anna", "Bram"))
    login("Anna")
    preview = upload(client, group, FILE)
    assert confirm(client, group, preview).status_code == 302
    again = confirm(client, group, preview)
    assert again.status_code == 200
    assert "These nights were imported already" in again.content.decode()
    assert Night.objects.filter(group=group).count() == 1
    assert Change.objects.filter(group=group, kind=Change.Kind.NIGHTS_IMPORTED).count() == 1
    # The same file uploaded again is a new preview: a choice made again, imported again.
    assert confirm(client, group, upload(client, group, FILE)).status_code == 302
    assert Night.objects.filter(group=group).count() == 2


@pytest.mark.database
@pytest.mark.django_db(transaction=True)
def test_two_confirmations_at_once_import_once(login):
    from django.test import Client

    from tests.helpers import log_in

    group = make_group(members=("Anna", "Bram"))
    phones = [log_in(Client(), "Anna") for _ in range(2)]
    preview = upload(phones[0], group, FILE)
    token = preview.context["confirm"]["nights"].value()
    answers: list[int] = []

    def tap(phone) -> None:
        url = reverse("group_import", args=[group.pk])
        answers.append(phone.post(url, {"nights": token}).status_code)

    threads = [threading.Thread(target=tap, args=(phone,)) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(answers) == [200, 302]
    assert Night.objects.filter(group=group).count() == 1
