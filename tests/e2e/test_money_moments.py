"""The end of the night is about you, on two phones at 390x844: the payee's phone shows
the bank code for the payer to scan (decoded from a screenshot: the EPC transfer with
her IBAN), the payer's has "Copy IBAN"; one taps "Mark paid" and the other sees
"Paid ✓" within a poll. Screenshots of the settlement for the payer and the payee at
390 and 360 px, light and dark, go to test-results/money-moments/ for a person to look at."""

from pathlib import Path

from playwright.sync_api import expect

from scorekeeper.models import User
from scorekeeper.services.pay_details import save_pay_details
from scorekeeper.services.seats import leave_seat
from tests.e2e.axe import load_axe, problems
from tests.helpers import finish, play, rounds_of
from tests.qr import decode_png

SHOTS = Path("test-results/money-moments")


def test_the_payee_shows_the_code_the_payer_pays_and_marks_it(make_night, log_in_phone):
    night = finish(play(make_night(), *rounds_of(4)))  # Chris pays Anna €1.20, Bram €0.30
    save_pay_details(
        user=User.objects.get(name="Anna"), holder="Anna de Vries", iban="NL91 ABNA 0417 1643 00"
    )
    anna = log_in_phone(User.objects.get(name="Anna"))
    bram = log_in_phone(User.objects.get(name="Bram"))
    load_axe(anna.context)
    url = f"/nights/{night.pk}/settle/"
    anna.goto(url)
    bram.goto(url)

    # Anna's own lines come first, in words, and within the first screen.
    mine = anna.get_by_test_id("my-payments").locator("li")
    expect(mine).to_have_count(2)
    expect(mine.first).to_contain_text("Chris pays you €1.20")
    his = anna.locator("li.read-line", has_text="Bram pays you €0.30")
    expect(his).to_contain_text("Let Bram scan this with their bank app.")
    assert his.bounding_box()["y"] < 844 * 2  # no scrolling past everyone else's lines

    # The code on Anna's screen is the transfer, field by field, as Bram's bank app reads it.
    code = his.locator("[data-testid=epc-qr]")
    code.scroll_into_view_if_needed()
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

    # Bram's phone: his line first, no code (a phone cannot scan itself), Copy IBAN.
    line = bram.get_by_test_id("my-payments").locator("li")
    expect(line).to_have_count(1)
    expect(line).to_contain_text("You pay Anna €0.30")
    expect(line.locator("[data-testid=epc-qr]")).to_have_count(0)
    expect(line.get_by_role("button", name="Copy IBAN")).to_be_visible()
    expect(line).to_contain_text("NL•• •••• •••• •••• 4300")
    expect(bram.get_by_text("Chris pays Anna €1.20")).to_be_visible()  # under "The others"
    assert bram.evaluate("document.documentElement.scrollWidth") <= 390

    SHOTS.mkdir(parents=True, exist_ok=True)
    for who, page in (("payee", anna), ("payer", bram)):
        for width in (390, 360):
            page.set_viewport_size({"width": width, "height": 844})
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                page.screenshot(path=str(SHOTS / f"settlement-{who}-{width}-{scheme}.png"))
                page.screenshot(
                    path=str(SHOTS / f"settlement-{who}-{width}-{scheme}-full.png"), full_page=True
                )
            assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.emulate_media(color_scheme="light")
        page.set_viewport_size({"width": 390, "height": 844})

    # Paid in his bank app, Bram marks it on his line; Anna's phone sees it at its next poll.
    line.get_by_role("button", name="Mark paid").click()
    paid = bram.get_by_test_id("my-payments").locator("li.paid")
    expect(paid).to_contain_text("You pay Anna €0.30")
    expect(paid).to_contain_text("Paid ✓")
    expect(anna.locator("li.paid", has_text="Bram pays you €0.30")).to_contain_text(
        "Paid ✓", timeout=8_000
    )
    # Not struck through: it looked cancelled.
    decoration = anna.locator("li.paid .pay-words").evaluate(
        "el => getComputedStyle(el).textDecorationLine"
    )
    assert decoration == "none"
    anna.screenshot(path=str(SHOTS / "settlement-payee-390-light-paid.png"))
    found = problems(anna)
    assert found == []


def test_who_leaves_early_pays_before_going(make_night, log_in_phone):
    night = make_night(("Anna", "Bram", "Cora", "Dan"))
    rounds = [
        {"Anna": 40, "Bram": -30, "Cora": 10, "Dan": -20},
        {"Anna": 10, "Bram": -20, "Cora": 0, "Dan": 10},
    ]
    play(night, *rounds)
    leave_seat(night=night, seat=night.seats.get(name="Bram"), by=User.objects.get(name="Anna"))
    bram = log_in_phone(User.objects.get(name="Bram"))
    bram.goto(f"/nights/{night.pk}/settle/")

    # Bram's phone: he left, his result is final, and his payment comes first.
    leaver = bram.get_by_test_id("leaver")
    expect(leaver).to_contain_text("Bram left after round 2: their result is final.")
    expect(leaver.locator("li")).to_contain_text("You pay Anna €5.00")
    leaver.get_by_role("button", name="Mark paid").click()
    expect(bram.get_by_test_id("leaver").locator("li.paid")).to_contain_text("Paid ✓")
    assert bram.evaluate("document.documentElement.scrollWidth") <= 390
    SHOTS.mkdir(parents=True, exist_ok=True)
    bram.screenshot(path=str(SHOTS / "settlement-leaver-390-light.png"), full_page=True)

    # The night goes on and ends: his line stays paid, the rest settle among themselves.
    finish(play(night, {"Anna": -30, "Cora": 10, "Dan": 20}))
    bram.goto(f"/nights/{night.pk}/settle/")
    mine = bram.get_by_test_id("my-payments").locator("li")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("You pay Anna €5.00")
    expect(mine).to_contain_text("Paid ✓")
    expect(bram.get_by_test_id("other-payments").locator("li")).to_have_count(2)
    expect(bram.get_by_test_id("other-payments")).not_to_contain_text("Bram")
