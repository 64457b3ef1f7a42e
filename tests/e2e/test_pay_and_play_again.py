"""From "who pays whom" to paid in one scan, and the next night in two taps: Bram
scans the bank code on Anna's phone, marks his line paid, Anna's phone sees it, and
the next week the same table starts with the button one seat on."""

from playwright.sync_api import expect

from scorekeeper.models import Night, User
from scorekeeper.services.pay_details import save_pay_details
from tests.helpers import play, rounds_of
from tests.qr import decode_png


def test_scan_pay_mark_paid_and_the_same_table_next_week(make_night, log_in_phone):
    night = play(make_night(), *rounds_of(4))  # Anna +15, Bram -3, Chris -12 at 10 ct
    save_pay_details(
        user=User.objects.get(name="Anna"), holder="Anna de Vries", iban="NL91 ABNA 0417 1643 00"
    )
    bram = log_in_phone(User.objects.get(name="Bram"))
    anna = log_in_phone(User.objects.get(name="Anna"))
    bram.on("dialog", lambda dialog: dialog.accept())  # "End the night?"

    # Bram ends the night: it lands on the settlement. Anna opens it on her phone.
    bram.goto(f"/nights/{night.pk}/")
    bram.get_by_role("button", name="End the night").click()
    expect(bram.get_by_role("heading", name="Who pays whom")).to_be_visible()
    anna.goto(f"/nights/{night.pk}/settle/")

    # His line to Anna carries the bank code on her phone (his cannot scan itself):
    # scanned, it is the transfer, field by field.
    theirs = anna.locator("[data-testid=payments] li", has_text="Bram pays you €0.30")
    code = theirs.locator("[data-testid=epc-qr]")
    expect(code).to_be_visible()
    (text,) = decode_png(code.screenshot())
    fields = text.split("\n")
    assert fields[:8] == [
        "BCD",
        "002",
        "1",
        "SCT",
        "",
        "Anna de Vries",
        "NL91ABNA0417164300",
        "EUR0.30",
    ]
    assert fields[8:10] == ["", ""] and fields[10].startswith("OFC ")
    his = bram.locator("[data-testid=payments] li", has_text="You pay Anna €0.30")
    expect(his).to_contain_text("NL•• •••• •••• •••• 4300")
    expect(his.get_by_role("button", name="Copy IBAN")).to_be_visible()
    assert bram.evaluate("document.documentElement.scrollWidth") <= 390

    # Paid in his bank app, he marks it on the same line.
    his.get_by_role("button", name="Mark paid").click()
    expect(bram.locator("[data-testid=payments] li.paid")).to_contain_text("You pay Anna")

    # Anna's phone, left open on the settlement, shows it paid at its next poll.
    expect(anna.locator("[data-testid=payments] li.paid")).to_contain_text("Paid ✓")

    # Next week: the same table, everyone ticked on "Who's here tonight?", the button
    # one seat on from where it stopped.
    stopped = night.rounds.filter(recorded_at__isnull=False).order_by("-number")[0].dealer
    seats = list(night.seats.order_by("position"))
    next_dealer = seats[seats.index(stopped) + 1 if stopped != seats[-1] else 0]
    anna.goto(f"/groups/{night.group_id}/")
    anna.get_by_role("link", name="Same table as last time").click()
    expect(anna.get_by_role("heading", name="Who's here tonight?")).to_be_visible()
    anna.get_by_role("button", name="Start the night").click()
    expect(anna.get_by_test_id("dealer")).to_have_text(next_dealer.name)
    expect(anna.get_by_text("Round 1").first).to_be_visible()
    tonight = Night.objects.exclude(pk=night.pk).get()
    assert [seat.name for seat in tonight.seats.order_by("position")] == ["Anna", "Bram", "Chris"]
    assert tonight.rounds.get().number == 1
