"""Names posted as bytes that are not UTF-8 (``%FF%FE``): Django reads them as
replacement characters (U+FFFD), which nobody typed, so the name is refused in words
like the invisible characters and nothing is stored."""

import pytest
from django.urls import reverse

from scorekeeper.models import Group, User
from tests.helpers import PASSWORD

FORM = "application/x-www-form-urlencoded"


@pytest.mark.parametrize("raw", ["%FF%FE", "Friday%20%FF", "Friday%20%EF%BF%BD"])
def test_a_group_name_that_is_not_text_is_refused_in_words(login, make_user, raw):
    make_user("Anna")
    response = login("Anna").post(reverse("group_create"), data=f"name={raw}", content_type=FORM)
    assert response.status_code == 200
    assert "invisible characters or control codes" in response.content.decode()
    assert not Group.objects.exists()


def test_a_members_name_that_is_not_text_is_refused_in_words(client, make_group):
    group = make_group(members=("Bram",))
    response = client.post(
        reverse("join", args=[group.invite_token]),
        data=f"action=signup&signup-name=Ann%FF%FE&signup-password={PASSWORD}",
        content_type=FORM,
    )
    assert response.status_code == 200
    assert "only have letters and spaces" in response.content.decode()
    assert User.objects.count() == 1
