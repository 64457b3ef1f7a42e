"""A dropped connection never looks like a saved total."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Entry, User

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_save_without_connection_is_kept_and_a_retry_counts_once(make_night, log_in_phone):
    night = make_night(("Anna", "Bram"))
    page = log_in_phone(User.objects.get(name="Anna"))
    page.goto(f"/nights/{night.pk}/")

    page.context.set_offline(True)
    page.fill("#id_points", "6")
    page.locator("#entry-form").get_by_role("button", name="Save").click()
    # Kept on the phone, and said so: never shown as saved.
    expect(page.get_by_test_id("queued")).to_have_text("Waiting for the Wi-Fi: +6, round 1.")
    expect(page.locator(".saved")).to_have_count(0)
    expect(page.locator("#connection")).to_contain_text("No connection")
    assert not Entry.objects.exists()

    # Back online, a tap races the phone's own send of the kept total: one entry.
    page.context.set_offline(False)
    page.locator("#entry-form").get_by_role("button", name="Save").click()
    expect(page.locator(".entry-line[data-seat='Anna']")).to_contain_text("+6")
    page.locator("#entry-form").get_by_role("button", name="Save").click()  # a double tap
    expect(page.locator(".saved")).to_contain_text("Saved: +6")
    assert Entry.objects.filter(seat__name="Anna").count() == 1


def test_a_server_error_on_save_says_so(make_night, log_in_phone):
    night = make_night(("Anna", "Bram"))
    page = log_in_phone(User.objects.get(name="Anna"))
    page.goto(f"/nights/{night.pk}/")
    page.route("**/entry/", lambda route: route.fulfill(status=500, body="boom"))
    page.fill("#id_points", "6")
    page.locator("#entry-form").get_by_role("button", name="Save").click()
    expect(page.locator(".send-error")).to_contain_text("Not saved: the server had a problem")
    assert not Entry.objects.exists()
