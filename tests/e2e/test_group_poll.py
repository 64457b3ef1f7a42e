"""The group page polls every 2 s with the last night it shows; the poll must find
what it sends in every state of the list, or htmx logs an error on every poll."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import User
from scorekeeper.reads.history import NIGHTS_PER_PAGE
from tests.helpers import finish

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_group_page_polls_without_a_console_error_in_every_state(
    make_group, make_night, log_in_phone
):
    group = make_group(members=("Anna", "Bram"))
    page = log_in_phone(User.objects.get(name="Anna"))
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))

    def a_poll_answered() -> None:
        with page.expect_response(lambda response: "/live/" in response.url, timeout=10_000):
            pass

    def new_nights(count: int) -> None:
        for _ in range(count):
            finish(make_night(("Anna", "Bram"), group=group))  # a night nobody played

    page.goto(f"/groups/{group.pk}/")
    nights = page.locator("[data-testid=nights] .night-row")
    a_poll_answered()  # no older nights (none at all)
    new_nights(NIGHTS_PER_PAGE + 1)
    page.reload()
    expect(page.locator(".older-nights")).to_have_count(1)  # older nights to page in
    a_poll_answered()
    page.locator(".older-nights").scroll_into_view_if_needed()
    expect(nights).to_have_count(NIGHTS_PER_PAGE + 1)  # all of them scrolled in
    a_poll_answered()
    assert errors == []
