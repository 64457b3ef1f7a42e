"""A dropped connection never looks like a saved total."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Entry, User

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_save_without_connection_says_so_and_a_retry_counts_once(make_night, log_in_phone):
    night = make_night(("Anna", "Bram"))
    page = log_in_phone(User.objects.get(name="Anna"))
    page.goto(f"/nights/{night.pk}/")

    page.context.set_offline(True)
    page.fill("#id_points", "6")
    page.locator("#entry-form").get_by_role("button", name="Save").click()
    expect(page.locator(".send-error")).to_contain_text("Not saved: no connection")
    assert not Entry.objects.exists()

    page.context.set_offline(False)
    page.locator("#entry-form").get_by_role("button", name="Save").click()
    expect(page.locator(".entry-line[data-seat='Anna']")).to_contain_text("+6")
    page.locator("#entry-form").get_by_role("button", name="Save").click()  # a double tap
    expect(page.locator(".saved")).to_contain_text("Saved: +6")
    assert Entry.objects.filter(seat__name="Anna").count() == 1
