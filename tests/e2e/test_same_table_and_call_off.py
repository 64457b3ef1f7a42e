"""The table's moments on a phone: "Same table as last time" asks who is here, Bram
(who left early last time) is unticked and the night starts without him, saying so;
a night started by mistake is called off and the group page shows nothing of it.
Screenshots of "Who's here tonight?" at 390 and 360 px, light and dark, go to
test-results/same-table/ for a person to look at."""

from pathlib import Path

from django.urls import reverse
from playwright.sync_api import expect

from scorekeeper.models import Night, User
from scorekeeper.services.seats import leave_seat
from tests.helpers import finish, make_group, play_round

SHOTS = Path("test-results/same-table")


def test_who_is_here_without_bram_then_a_night_called_off(make_night, log_in_phone):
    group = make_group(members=("Anna", "Bram", "Chris", "Dora"))
    last = make_night(("Anna", "Bram", "Chris"), group=group, guests=("Gus",))
    play_round(last, {"Anna": 2, "Bram": -1, "Chris": -1, "Gus": 0})
    bram = last.seats.get(name="Bram")
    leave_seat(night=last, seat=bram, by=bram.user)
    play_round(last, {"Anna": 2, "Chris": -1, "Gus": -1})
    finish(last)
    anna = log_in_phone(User.objects.get(name="Anna"))

    # The group page's "Same table as last time" opens "Who's here tonight?".
    anna.goto(reverse("group_detail", args=[group.pk]))
    anna.get_by_role("link", name="Same table as last time").click()
    expect(anna.get_by_role("heading", name="Who's here tonight?")).to_be_visible()
    last_time = anna.get_by_test_id("last-time")
    for name in ("Anna", "Bram", "Chris", "Gus"):
        expect(last_time.get_by_role("checkbox", name=name)).to_be_checked()
    expect(last_time.get_by_test_id("left-early")).to_have_count(1)
    expect(
        anna.get_by_test_id("also-here").get_by_role("checkbox", name="Dora")
    ).not_to_be_checked()
    assert anna.evaluate("document.documentElement.scrollWidth") <= 390

    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (390, 360):
        anna.set_viewport_size({"width": width, "height": 844})
        for scheme in ("light", "dark"):
            anna.emulate_media(color_scheme=scheme)
            anna.screenshot(path=str(SHOTS / f"who-is-here-{width}-{scheme}.png"), full_page=True)
        assert anna.evaluate("document.documentElement.scrollWidth") <= width
    anna.emulate_media(color_scheme="light")
    anna.set_viewport_size({"width": 390, "height": 844})

    # Bram is not here tonight: untick him and start.
    last_time.get_by_role("checkbox", name="Bram").uncheck()
    anna.get_by_role("button", name="Start the night").click()
    expect(anna.get_by_text("Started without Bram.")).to_be_visible()
    tonight = Night.objects.exclude(pk=last.pk).get()
    assert anna.url.endswith(reverse("night_detail", args=[tonight.pk]))
    assert [seat.name for seat in tonight.seats.order_by("position")] == ["Anna", "Chris", "Gus"]
    # Bram is named once on the night page: in the message, not at the table.
    assert anna.locator("body").inner_text().count("Bram") == 1

    # Started by mistake (no round yet): called off from the night page's "More", it
    # is gone.
    anna.locator("summary", has_text="More").first.click()
    anna.once("dialog", lambda dialog: dialog.accept())  # "Call off this night? ..."
    anna.get_by_role("button", name="Call off this night").click()
    expect(anna.get_by_text("The night was called off.")).to_be_visible()
    assert anna.url.endswith(reverse("group_detail", args=[group.pk]))
    expect(anna.get_by_test_id("running-night")).to_have_count(0)
    expect(anna.locator(f'a[href="{reverse("night_detail", args=[tonight.pk])}"]')).to_have_count(0)
    expect(anna.get_by_test_id("nights").locator("li")).to_have_count(1)
    assert not Night.objects.filter(pk=tonight.pk).exists()
