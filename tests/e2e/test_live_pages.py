"""The group page and the card page follow the table without a reload, like the night page."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Night, User
from tests.e2e.steps import screenshots

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "card-page-gone-through"

# The rules' worked example: Anna a flush bottom, Bram kings on top, Chris fouls.
ANNA = ("2c 3d 4h", "Qs Qd 5c 5d 9s", "Ah Jh 8h 6h 3h")
BRAM = ("Kc Kd 7s", "As Ad 9c 6d 2s", "Ts Td 4s 4c Js")
CHRIS = ("Qc Qh 2d", "7c 8d 9h Jd 2h", "6s 6c Kh Ks 3s")


def is_live(url: str) -> bool:
    return url.split("?")[0].endswith("/live/")


def mark_as_not_reloaded(page) -> None:
    """A flag in the page's window: gone if the page is loaded again."""
    page.evaluate("window.notReloaded = true")


def was_not_reloaded(page) -> bool:
    return page.evaluate("window.notReloaded === true")


def answered_polls(page, polls, *, until) -> list[tuple[float, int]]:
    """(when it was sent, status) of each of ``polls`` the page made, once
    ``until(statuses)`` holds; their events may come a moment after the page changed."""
    for _ in range(100):
        answers = [(poll.timing["startTime"], poll.response().status) for poll in polls]
        if until([status for _, status in answers]):
            return answers
        page.wait_for_timeout(100)
    raise AssertionError(f"the polls so far: {answers}")


def type_cards(page, rows) -> None:
    details = page.locator("details.typed")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    for row, cards in zip(("top", "middle", "bottom"), rows, strict=True):
        page.fill(f"#id_{row}", cards)


def save_cards(page, rows) -> None:
    type_cards(page, rows)
    page.get_by_role("button", name="Save cards").click()


def test_a_night_started_on_one_phone_appears_on_the_group_page_of_another(
    make_group, log_in_phone
):
    group = make_group(members=("Anna", "Bram"))
    anna = log_in_phone(User.objects.get(name="Anna"))
    bram = log_in_phone(User.objects.get(name="Bram"))
    bram.goto(f"/groups/{group.pk}/")
    expect(bram.get_by_text("No finished nights yet.")).to_be_visible()
    expect(bram.get_by_test_id("running-night")).to_have_count(0)
    mark_as_not_reloaded(bram)

    polls = []  # every poll Bram's phone makes, once answered
    bram.on(
        "requestfinished", lambda request: polls.append(request) if is_live(request.url) else None
    )

    # Anna starts a night from her phone, with Bram at the table.
    anna.goto(f"/groups/{group.pk}/nights/new/")
    anna.select_option("#id_seat_2", label="Bram")
    with anna.expect_response(lambda response: response.request.method == "POST") as started:
        anna.get_by_role("button", name="Start the night").click()
    anna.wait_for_url("**/nights/*/")
    night = Night.objects.get()

    # Bram's phone shows it, with a way in.
    banner = bram.get_by_test_id("running-night")
    expect(banner).to_contain_text("▶ Tonight: OFC Standard, round 1")
    assert was_not_reloaded(bram)
    # Within one poll: of the polls sent once the night was saved (the server answered
    # Anna's form), none answered "nothing changed" before the one that brought it.
    timing = started.value.request.timing
    assert timing["responseStart"] >= 0
    saved_at = timing["startTime"] + timing["responseStart"]  # the browser's clock, as below
    answers = answered_polls(bram, polls, until=lambda statuses: 200 in statuses)
    brought = next(sent for sent, status in answers if status == 200)
    assert [status for sent, status in answers if saved_at < sent < brought] == []
    assert [status for _, status in answers].count(200) == 1  # rendered once, then 204s
    assert {status for _, status in answers} <= {200, 204}

    # The night ends on Anna's phone: it moves to the finished nights on Bram's.
    anna.on("dialog", lambda dialog: dialog.accept())  # "End the night?"
    anna.get_by_role("button", name="End the night").click()
    # She lands on the settlement (issue 32), told the night is over.
    expect(anna.get_by_text("The night is over. Here is who pays whom.")).to_be_visible()
    expect(banner).to_have_count(0)
    finished = bram.get_by_test_id("nights")
    expect(finished).to_contain_text("OFC Standard")
    expect(finished).to_contain_text("Anna and Bram · 0 rounds")
    assert was_not_reloaded(bram)

    finished.get_by_role("link").click()
    bram.wait_for_url(f"**/nights/{night.pk}/")
    expect(bram.get_by_role("heading", name="Final standings")).to_be_visible()


def test_the_card_page_follows_the_other_seats_and_the_round_going_through(
    make_night, log_in_phone
):
    night = make_night(("Anna", "Bram", "Chris"), game="pineapple")
    seats = {seat.name: seat.pk for seat in night.seats.all()}
    phones = {name: log_in_phone(User.objects.get(name=name)) for name in seats}
    for name, page in phones.items():
        page.goto(f"/nights/{night.pk}/rounds/1/cards/{seats[name]}/")

    # Anna saves her board; then she starts changing it, not yet saved.
    anna = phones["Anna"]
    save_cards(anna, ANNA)
    status = anna.get_by_test_id("board-status")
    expect(status).to_have_text(
        "Waiting for Bram and Chris. The app counts the totals when every board is in."
    )
    type_cards(anna, ("2c 3d", *ANNA[1:]))
    mark_as_not_reloaded(anna)
    polls: list[str] = []
    anna.on("request", lambda request: polls.append(request.url) if is_live(request.url) else None)

    # Chris's page, open before Anna saved, already knows; then Bram's phone saves his
    # cards, and Anna's page stops waiting for him.
    expect(phones["Chris"].get_by_test_id("board-status")).to_have_text(
        "You still have to set your cards, and so does Bram."
    )
    save_cards(phones["Bram"], BRAM)
    expect(status).to_have_text(
        "Waiting for Chris. The app counts the totals when every board is in."
    )
    expect(phones["Chris"].get_by_test_id("board-status")).to_have_text(
        "You still have to set your cards."
    )

    # Chris's board is the last one in: the round goes through on every phone.
    save_cards(phones["Chris"], CHRIS)
    expect(status).to_have_text("Round 1 went through: +7.")
    expect(phones["Bram"].get_by_test_id("board-status")).to_have_text("Round 1 went through: +17.")
    assert was_not_reloaded(anna)
    # The cards Anna was typing are still in their box, but the picker and its Save
    # went with the round: her board is shown as it counted, and the way back to the
    # night took the focus the hidden box had.
    expect(anna.locator("#id_top")).to_have_value("2c 3d")
    expect(anna.get_by_role("button", name="Save cards")).to_be_hidden()
    expect(anna.locator("form[data-picker]")).to_be_hidden()
    back = anna.get_by_test_id("board-result").get_by_role("link", name="Back to the night")
    expect(back).to_be_focused()
    screenshots(anna, SHOTS)

    # Nothing more to wait for: her phone stops asking.
    asked = len(polls)
    anna.wait_for_timeout(2_500)  # longer than one poll interval
    assert len(polls) == asked

    # Her half-typed board posted anyway (as the phone's queue does once the server
    # says no): refused in words, her board as it counted still shown.
    anna.evaluate("document.querySelector('form[data-picker]').submit()")
    expect(anna.locator("#messages")).to_have_text(
        "Round 1 already went through: your cards were not used. Round 2 is open."
    )
    expect(anna.get_by_test_id("board-status")).to_have_text("Round 1 went through: +7.")
    expect(anna.get_by_role("button", name="Save cards")).to_have_count(0)
    screenshots(anna, SHOTS, "refused-")
    back = anna.get_by_test_id("board-result").get_by_role("link", name="Back to the night")
    back.click()
    anna.wait_for_url(f"**/nights/{night.pk}/")
    expect(anna.locator(".round-no")).to_have_text("Round 2")
