"""Joining a group from an invitation link, in real browsers at a phone's size."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Group
from scorekeeper.services.groups import replace_invite_link
from tests.helpers import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_friend_joins_by_link_and_a_replaced_link_stops_working(make_group, phone):
    group = make_group(name="Friday OFC", members=("Anna",))

    # A logs in through the login form (the one browser test that does: the others
    # start with a session cookie) and lands on her group's page.
    a = phone()
    a.goto("/login/")
    a.fill("#id_username", "Anna")
    a.fill("#id_password", PASSWORD)
    a.get_by_role("button", name="Sign in", exact=True).click()
    a.wait_for_url(f"**/groups/{group.pk}/")
    expect(a.locator("h1")).to_have_text("Friday OFC")
    link = a.locator("#invite-link").input_value()
    assert link.endswith(f"/join/{group.invite_token}/")
    assert a.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # B opens the link on another phone, signs up and lands on the group page.
    b = phone()
    b.goto(link)
    expect(b.locator("h1")).to_have_text("Join “Friday OFC”")
    b.fill("#id_signup-name", "Bram")
    b.get_by_role("button", name="Join").click()
    b.wait_for_url(f"**/groups/{group.pk}/")
    expect(b.locator(".members")).to_contain_text("Bram")

    # A reloads and sees B.
    a.reload()
    expect(a.locator(".members")).to_contain_text("Bram")

    # The link is replaced; C follows the old one and is told it no longer works.
    replace_invite_link(group=group)
    c = phone()
    c.goto(link)
    expect(c.locator("h1")).to_have_text("This code no longer works")
    assert Group.objects.get(pk=group.pk).memberships.count() == 2
