"""A save the server could not take now (502, 503, 504) or did not answer in time is
kept on the phone and sent again by itself, with the same key, so it is recorded once;
a refusal in words (4xx) is shown and dropped."""

import time

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Entry, User
from tests.helpers import enter

pytestmark = pytest.mark.django_db(transaction=True)

ANNA_CARDS = ("2c 3d 4h", "Qs Qd 5c 5d 9s", "Ah Jh 8h 6h 3h")


class Saves:
    """The phone's POSTs of saves, each first offered to `answer(number, route)` (the
    number counts from 1); one it leaves (returns False) goes to the server as it is."""

    def __init__(self, page, url, answer):
        self.sent: list[tuple[float, str]] = []  # (when, the save's key)
        self.answer = answer

        def handle(route):
            if route.request.method != "POST":
                route.continue_()
                return
            self.sent.append((time.monotonic(), route.request.post_data_json.get("key")))
            if not self.answer(len(self.sent), route):
                route.continue_()

        page.route(url, handle)

    def keys_sent(self) -> set[str]:
        return {key for _when, key in self.sent}


def busy(route, retry_after=None):
    headers = {"Retry-After": retry_after} if retry_after else {}
    route.fulfill(status=503, headers=headers, body="")
    return True


def anna_at(night, log_in_phone):
    page = log_in_phone(User.objects.get(name="Anna"))
    page.goto(f"/nights/{night.pk}/")
    return page


def save_total(page, points: str):
    page.fill("#id_points", points)
    page.locator("#entry-form").get_by_role("button", name="Save").click()


def test_a_save_answered_503_is_kept_sent_again_after_its_retry_after_and_counted_once(
    make_night, log_in_phone
):
    page = anna_at(make_night(("Anna", "Bram")), log_in_phone)
    saves = Saves(page, "**/entry/", lambda number, route: number == 1 and busy(route, "2"))

    save_total(page, "6")
    # Kept and said so, never as saved, and never "tap Save again": it goes by itself.
    expect(page.get_by_test_id("queued")).to_have_text(
        "Waiting for the server: +6, round 1. It is sent again by itself."
    )
    expect(page.locator(".send-error")).to_have_count(0)
    expect(page.locator(".saved")).to_have_count(0)

    expect(page.locator("#queued")).to_contain_text("Sent: +6, round 1.")
    expect(page.get_by_test_id("queued")).to_have_count(0)
    expect(page.locator(".entry-line[data-seat='Anna']")).to_contain_text("+6")
    expect(page.locator(".saved")).to_contain_text("Saved: +6")
    assert len(saves.sent) == 2 and len(saves.keys_sent()) == 1  # the same save, sent again
    (first, _key), (second, _same) = saves.sent
    assert second - first >= 1.5  # not before the server's Retry-After (2 s)
    assert Entry.objects.get(seat__name="Anna").points == 6
    assert Entry.objects.get().client_key in saves.keys_sent()


def test_a_save_recorded_but_answered_504_is_sent_again_and_counted_once(make_night, log_in_phone):
    page = anna_at(make_night(("Anna", "Bram")), log_in_phone)

    def recorded_then_gateway_timeout(number, route):
        if number > 1:
            return False
        route.fetch()  # the server gets it and records it; the proxy gives up on the answer
        route.fulfill(status=504, body="Gateway Timeout")
        return True

    saves = Saves(page, "**/entry/", recorded_then_gateway_timeout)
    save_total(page, "-4")

    expect(page.locator("#queued")).to_contain_text("Sent: −4, round 1.")
    expect(page.locator(".saved")).to_contain_text("Saved: −4")
    expect(page.locator(".send-error")).to_have_count(0)
    assert len(saves.sent) == 2 and len(saves.keys_sent()) == 1
    assert Entry.objects.filter(seat__name="Anna").count() == 1


def test_a_save_not_answered_in_time_is_sent_again_and_counted_once(make_night, log_in_phone):
    page = anna_at(make_night(("Anna", "Bram")), log_in_phone)

    def recorded_but_never_answered(number, route):
        if number > 1:
            return False
        route.fetch()  # recorded; the answer is lost on the way back (left unanswered)
        return True

    saves = Saves(page, "**/entry/", recorded_but_never_answered)
    save_total(page, "9")

    # After the phone's 10 s without an answer, and a second's wait.
    expect(page.locator("#queued")).to_contain_text("Sent: +9, round 1.", timeout=16_000)
    expect(page.locator(".saved")).to_contain_text("Saved: +9")
    assert len(saves.sent) == 2 and len(saves.keys_sent()) == 1
    assert Entry.objects.filter(seat__name="Anna").count() == 1


def test_a_kept_save_then_refused_in_words_is_shown_and_dropped(make_night, log_in_phone):
    night = make_night(("Anna", "Bram"))
    page = anna_at(night, log_in_phone)
    server_busy = True
    saves = Saves(page, "**/entry/", lambda number, route: server_busy and busy(route, "1"))

    save_total(page, "5")
    expect(page.get_by_test_id("queued")).to_have_text(
        "Waiting for the server: +5, round 1. It is sent again by itself."
    )
    # Meanwhile Bram typed Anna's total for her and the round went through.
    enter(night, "Anna", -3, by="Bram")
    enter(night, "Bram", 3)
    server_busy = False

    refusal = page.locator("#queued [role=alert]")
    expect(refusal).to_contain_text(
        "Not saved: +5, round 1. Round 1 already went through: your +5 was not used."
    )
    expect(page.get_by_test_id("queued")).to_have_count(0)
    sent = len(saves.sent)
    page.wait_for_timeout(2500)  # dropped: it is not sent again
    assert len(saves.sent) == sent
    assert Entry.objects.get(seat__name="Anna").points == -3
    assert not Entry.objects.filter(round__number=2).exists()


def test_a_save_refused_403_says_so_and_is_not_sent_again(make_night, log_in_phone):
    page = anna_at(make_night(("Anna", "Bram")), log_in_phone)

    def forbidden(number, route):
        route.fulfill(status=403, body="")
        return True

    saves = Saves(page, "**/entry/", forbidden)

    save_total(page, "6")
    expect(page.locator(".send-error")).to_contain_text("Not saved: this page is out of date")
    expect(page.get_by_test_id("queued")).to_have_count(0)
    page.wait_for_timeout(2500)
    assert len(saves.sent) == 1
    assert not Entry.objects.exists()


def test_a_board_answered_503_on_the_card_page_is_sent_again(make_night, log_in_phone):
    page = anna_at(make_night(("Anna", "Bram"), game="pineapple"), log_in_phone)
    page.get_by_role("link", name="Enter cards instead").click()
    page.get_by_text("Type the cards instead").click()
    for row, cards in zip(("top", "middle", "bottom"), ANNA_CARDS, strict=True):
        page.fill(f"[data-row-text='{row}']", cards)
    saves = Saves(page, "**/cards/*/", lambda number, route: number == 1 and busy(route))

    page.get_by_role("button", name="Save cards").click()
    expect(page.get_by_test_id("queued")).to_have_text(
        "Waiting for the server: cards, round 1. It is sent again by itself."
    )
    expect(page.get_by_test_id("board-result")).to_contain_text("Royalties 4")
    expect(page.get_by_test_id("queued")).to_have_count(0)
    assert len(saves.sent) == 2 and len(saves.keys_sent()) == 1
    assert Entry.objects.get().board["bottom"] == ["Ah", "Jh", "8h", "6h", "3h"]
